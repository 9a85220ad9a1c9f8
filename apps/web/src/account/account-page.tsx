import { useCallback, useMemo, type ReactNode } from 'react';
import type { ActivityPage } from '@coinop/protocol';
import { getAddress } from 'viem';
import { useArcadeSettings, type ArcadeSettingsState } from '../arcade-settings.js';
import { HistorySection } from '../history/history-section.js';
import { useTitle } from '../components/page-title.js';
import { Link } from '../router.js';
import { useSession } from '../session/session.js';
import { chainReader, readyChain, type ReadyChain } from './chain-wallet.js';
import { DepositSection } from './deposit-section.js';
import { FaucetOffer } from '../components/faucet.js';
import { HstFigure } from '../components/hst.js';
import { hstUnits } from './hst-amounts.js';
import { WithdrawSection } from './withdraw-section.js';
import { withdrawalsApi } from './withdrawals-api.js';
import { ProfileSection } from '../profiles/profile-section.js';

/**
 * `/account`: the player's balance and, in chain mode, deposits from their wallet and
 * withdrawals to it (docs/concepts/chain.md).
 */
export function AccountPage() {
  useTitle('Your account');
  const session = useSession();
  const { state } = session;
  const settings = useArcadeSettings();
  const settingsChain = settings.status === 'loaded' ? settings.settings.chain : null;
  const chain = useMemo(() => (settingsChain ? readyChain(settingsChain) : null), [settingsChain]);
  const reader = useMemo(() => (chain ? chainReader(chain) : null), [chain]);
  const withdrawals = useMemo(() => withdrawalsApi(session.call, '/player'), [session.call]);
  const readOwnActivity = useCallback(
    (query: string) => session.call<ActivityPage>(`/player/activity?${query}`),
    [session.call],
  );

  if (state.status !== 'signed-in') {
    return (
      <section className="page account-page">
        <h1>Your account</h1>
        {state.status === 'loading' ? (
          <p role="status">Loading…</p>
        ) : (
          <p>Connect a wallet to see your balance, deposit HST and withdraw it.</p>
        )}
      </section>
    );
  }

  const { player } = state;
  const available = hstUnits(player.balance);
  const reserved = hstUnits(player.pending);
  const wallet = player.wallet === null ? null : getAddress(player.wallet);
  // HST moved in or out (a deposit credited, a withdrawal asked for or settled): the balance,
  // the wallet's holdings and the history are read again (session.moneyMoves).
  const moved = () => void session.moved();
  // The faucet sits with the deposit when it pays into the wallet, here when into the balance.
  const faucetHere = player.faucet.destination === 'ledger' || chain === null;

  return (
    <section className="page account-page">
      <h1>Your account</h1>
      <BalanceCard available={available} reserved={reserved} faucetHere={faucetHere}>
        <PendingPayouts
          units={hstUnits(player.pendingPayouts)}
          releaseAt={player.pendingPayoutsReleaseAt}
        />
      </BalanceCard>
      <ProfileSection player={player} />
      <ChainNotices settings={settings} chain={chain} />
      {chain !== null && reader !== null && wallet !== null && (
        <>
          <DepositSection
            chain={chain}
            reader={reader}
            kind={state.kind}
            address={wallet}
            playerId={player.playerId}
            canSign={state.wallet !== null}
            onCredited={moved}
          />
          <WithdrawSection
            api={withdrawals}
            availableUnits={available}
            defaultTo={wallet}
            heading="Withdraw"
            intro="Send HST from your arcade balance to a wallet. The amount is reserved at once and paid from the arcade’s vault in its next batch, usually within a minute; the transaction then needs its confirmations."
            onChange={moved}
          />
        </>
      )}
      <HistorySection read={readOwnActivity} reload={session.moneyMoves} />
      <p>
        <Link href="/account/allowances">What games may charge you: your allowances</Link>
      </p>
    </section>
  );
}

/** What the player may spend now, and what is reserved for open plays and withdrawals. */
function BalanceCard({
  available,
  reserved,
  faucetHere,
  children,
}: {
  available: bigint;
  reserved: bigint;
  faucetHere: boolean;
  children?: ReactNode;
}) {
  return (
    <section className="balance-card" aria-labelledby="balance-heading">
      <h2 id="balance-heading">Balance</h2>
      <dl className="balance-facts">
        <div>
          <dt>Available</dt>
          <dd data-testid="available">
            <HstFigure units={available} name="available balance" />
          </dd>
        </div>
        <div>
          <dt>Reserved</dt>
          <dd data-testid="reserved">
            <HstFigure units={reserved} name="reserved balance" />
          </dd>
        </div>
      </dl>
      <p className="muted">
        Reserved HST is held for plays still open and withdrawals not yet paid. An open play’s cost
        is paid out when it ends, scored or not; a withdrawal comes back to your available balance
        if its payment fails.
      </p>
      {children}
      {faucetHere && <FaucetOffer />}
    </section>
  );
}

/**
 * HST won but held until the payout hold ends (docs/concepts/plays-and-settlement.md#hold-and-void):
 * not in the available balance, shown with when the next of it becomes spendable.
 */
function PendingPayouts({ units, releaseAt }: { units: bigint; releaseAt: string | null }) {
  if (units === 0n) return null;
  const when = releaseAt === null ? null : new Date(releaseAt).toLocaleString();
  return (
    <p className="pending-payouts" data-testid="pending-payouts">
      Pending payouts: <HstFigure units={units} name="pending payouts" />
      {when !== null && (
        <>
          <br />
          Available from {when}.
        </>
      )}
      <br />
      <span className="muted">
        Winnings are held for a while before you can spend them, so a score found to be false can be
        voided first.
      </span>
    </p>
  );
}

/** Why deposits and withdrawals are not offered (yet): settings loading, no chain, no RPC. */
function ChainNotices({
  settings,
  chain,
}: {
  settings: ArcadeSettingsState;
  chain: ReadyChain | null;
}) {
  const settingsChain = settings.status === 'loaded' ? settings.settings.chain : null;
  return (
    <>
      {settings.status === 'loading' && <p role="status">Loading the arcade’s settings…</p>}
      {settings.status === 'failed' && (
        <p role="alert" className="error">
          Could not load the arcade’s settings: {settings.error}. Reload the page to try again.
        </p>
      )}
      {settings.status === 'loaded' && settingsChain === null && (
        <p className="notice-card" data-testid="no-chain">
          Deposits and withdrawals are not available in this arcade: its HST lives only in the
          arcade and cannot be moved to or from a wallet.
        </p>
      )}
      {settingsChain !== null && settingsChain.rpcUrl === null && (
        <p className="notice-card" data-testid="no-public-rpc">
          This arcade publishes no chain endpoint for browsers, so deposits and withdrawals are not
          available on this page. Ask the arcade’s operator.
        </p>
      )}
      {settingsChain !== null && settingsChain.rpcUrl !== null && chain === null && (
        <p className="notice-card" role="status">
          The arcade has not reached its chain yet: deposits and withdrawals open once it has.
          Reload the page in a minute.
        </p>
      )}
    </>
  );
}
