import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import type { DeveloperBalance } from '@coinop/protocol';
import { getAddress } from 'viem';
import { WithdrawSection } from '../account/withdraw-section.js';
import { withdrawalsApi } from '../account/withdrawals-api.js';
import { hstUnits } from '../account/hst-amounts.js';
import { HstFigure } from '../components/hst.js';
import { useArcadeSettings } from '../arcade-settings.js';
import { useSession } from '../session/session.js';
import { ErrorAlert, errorText, usePortalApi } from './parts.js';

/**
 * The developer's earnings (their share of every play): the balance, and in chain mode the
 * Withdraw form and the withdrawals, over `/developer/withdrawals`.
 */
export function EarningsSection() {
  const api = usePortalApi();
  const { state, call, moneyMoves, moved } = useSession();
  const settings = useArcadeSettings();
  const headingId = useId();
  const [balance, setBalance] = useState<DeveloperBalance | null>(null);
  const [error, setError] = useState<string | null>(null);
  const withdrawals = useMemo(() => withdrawalsApi(call, '/developer'), [call]);
  const wallet =
    state.status === 'signed-in' && state.player.wallet !== null
      ? getAddress(state.player.wallet)
      : null;

  const load = useCallback(async () => {
    try {
      setBalance(await api.balance());
      setError(null);
    } catch (e) {
      setError(`Could not load your earnings: ${errorText(e)}`);
    }
  }, [api]);
  // Read again whenever HST moved in this page: a withdrawal asked for or settled, a play of
  // the developer's own game.
  useEffect(() => {
    void load();
  }, [load, moneyMoves]);

  const chainMode = settings.status === 'loaded' && settings.settings.chain !== null;
  return (
    <>
      <section className="portal-section" aria-labelledby={headingId}>
        <h2 id={headingId}>Earnings</h2>
        <p className="muted">Your share of every play of your games, in your developer account.</p>
        <ErrorAlert error={error} />
        {balance === null && error === null && <p role="status">Loading your earnings…</p>}
        {balance !== null && (
          <dl className="balance-facts">
            <div>
              <dt>Available</dt>
              <dd data-testid="earnings-available">
                <HstFigure units={hstUnits(balance.available)} name="available earnings" />
              </dd>
            </div>
            <div>
              <dt>Reserved</dt>
              <dd data-testid="earnings-reserved">
                <HstFigure units={hstUnits(balance.reserved)} name="reserved earnings" />
              </dd>
            </div>
          </dl>
        )}
        {settings.status === 'loaded' && !chainMode && (
          <p className="notice-card">
            Withdrawals are not available in this arcade: its HST lives only in the arcade.
          </p>
        )}
      </section>
      {chainMode && (
        <WithdrawSection
          api={withdrawals}
          availableUnits={balance === null ? null : hstUnits(balance.available)}
          defaultTo={wallet}
          heading="Withdraw earnings"
          intro="Send your earnings to a wallet. The amount is reserved at once and paid from the arcade’s vault in its next batch; reserved HST returns to your earnings if the payment fails."
          onChange={() => void moved()}
        />
      )}
    </>
  );
}
