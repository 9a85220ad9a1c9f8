import './allowances.css';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { ErrorAlert, Status, When, errorText } from '../portal/parts.js';
import { useTitle } from '../components/page-title.js';
import { Link } from '../router.js';
import { useSession } from '../session/session.js';
import { Hst } from '../components/hst.js';
import type { Allowance, AllowanceList } from '@coinop/protocol';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import { allowancesApi, allowsNothing } from './allowances-api.js';

/**
 * `/account/allowances`: every game the player allowed to charge them (or that charged them
 * under the operator's default), with today's spending and a Revoke per game.
 */
export function AllowancesPage() {
  useTitle('Your allowances');
  const { state, call, moneyMoves } = useSession();
  const api = useMemo(() => allowancesApi(call), [call]);
  const playerId = state.status === 'signed-in' ? state.player.playerId : null;
  const [list, setList] = useState<AllowanceList | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setList(await api.list());
    } catch (e) {
      setError(`Could not load your allowances: ${errorText(e)}`);
    }
  }, [api]);

  useEffect(() => {
    setList(null);
    setError(null);
    setStatus(null);
    if (playerId !== null) void reload();
  }, [playerId, reload]);
  // What was spent today changes when a game charges the player: read again, the list kept.
  useEffect(() => {
    if (playerId !== null && moneyMoves > 0) void reload();
  }, [playerId, moneyMoves, reload]);

  const revoke = async (allowance: Allowance) => {
    setRevoking(allowance.gameId);
    setError(null);
    setStatus(null);
    try {
      const revoked = await api.revoke(allowance.gameId);
      setList((l) =>
        l === null
          ? l
          : {
              ...l,
              allowances: l.allowances.map((a) => (a.gameId === revoked.gameId ? revoked : a)),
            },
      );
      setStatus(`Revoked: ${allowance.gameName} can no longer charge you, from its next play.`);
    } catch (e) {
      setError(`Could not revoke the allowance of ${allowance.gameName}: ${errorText(e)}`);
    } finally {
      setRevoking(null);
    }
  };

  return (
    <section className="page account-page">
      <h1>Your allowances</h1>
      <p>
        An allowance is what a game’s server may lock from you per day (UTC) for the plays it opens
        for you. Plays you approve in the arcade with your wallet are asked each time and do not
        count. Set or change an allowance on the game’s page.
      </p>
      {state.status === 'loading' && <p role="status">Loading…</p>}
      {state.status === 'signed-out' && <p>Connect a wallet to see your allowances.</p>}
      {playerId !== null && list === null && error === null && (
        <p role="status">Loading your allowances…</p>
      )}
      <ErrorAlert error={error} />
      <Status text={status} />
      {list !== null && (
        <>
          <p className="default-allowance" data-testid="default-allowance">
            {describeDefault(list.defaultDailyLimit)}
          </p>
          {list.allowances.length === 0 ? (
            <p className="empty">
              No allowances yet. When you allow a game to charge you, from its page, it is listed
              here.
            </p>
          ) : (
            <AllowanceTable list={list.allowances} revoking={revoking} onRevoke={revoke} />
          )}
        </>
      )}
    </section>
  );
}

function AllowanceTable({
  list,
  revoking,
  onRevoke,
}: {
  list: readonly Allowance[];
  revoking: string | null;
  onRevoke: (allowance: Allowance) => Promise<void>;
}) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="allowances-caption">
      <table className="allowances">
        <caption id="allowances-caption">What each game may charge you a day</caption>
        <thead>
          <tr>
            <th scope="col">Game</th>
            <th scope="col">Daily limit</th>
            <th scope="col">Used today</th>
            <th scope="col">Remaining today</th>
            <th scope="col">Set by</th>
            <th scope="col">Decided</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.map((a) => (
            <tr key={a.gameId}>
              <th scope="row">
                <Link href={`/games/${encodeURIComponent(a.gameId)}#allowance`}>{a.gameName}</Link>
              </th>
              <td data-label="Daily limit">{limitText(a)}</td>
              <td data-label="Used today">
                <Hst hst={a.spentToday} />
              </td>
              <td data-label="Remaining today">
                {a.remainingToday === null ? 'Unlimited' : <Hst hst={a.remainingToday} />}
              </td>
              <td data-label="Set by">{a.source === 'player' ? 'You' : 'Arcade default'}</td>
              <td data-label="Decided">
                {a.decidedAt === null ? '—' : <When iso={a.decidedAt} />}
              </td>
              <td className="allowance-actions">
                {allowsNothing(a.dailyLimit) ? (
                  <span className="muted">Cannot charge you</span>
                ) : (
                  <button
                    type="button"
                    aria-label={`Revoke the allowance of ${a.gameName}`}
                    disabled={revoking !== null}
                    onClick={() => void onRevoke(a)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function limitText({ dailyLimit, source }: Allowance): string {
  if (dailyLimit === null) return 'Unlimited';
  if (!allowsNothing(dailyLimit)) return `${formatHstUnits(hstUnits(dailyLimit))} a day`;
  return source === 'player' ? 'Revoked' : 'None';
}

function describeDefault(defaultDailyLimit: string | null): string {
  if (defaultDailyLimit === null) {
    return 'The arcade’s default is unlimited: a game you have set no limit for may charge you without one.';
  }
  if (allowsNothing(defaultDailyLimit)) {
    return 'The arcade’s default is 0 HST: a game you have not allowed cannot charge you.';
  }
  return `The arcade’s default is ${formatHstUnits(hstUnits(defaultDailyLimit))} a day: a game you have set no limit for may charge you up to that.`;
}
