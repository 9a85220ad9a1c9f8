import type { Tournament } from '@coinop/protocol';
import { hstUnits } from '../account/hst-amounts.js';
import { Hst } from '../components/hst.js';
import { Link } from '../router.js';
import { Countdown } from '../tournaments/countdown.js';
import { Schedule } from '../tournaments/schedule.js';

/**
 * "running", "stopped" (its current round is its last), or "ended" (no round to come: the close
 * of a tournament's last round stops it too).
 */
function statusOf(t: Tournament): 'running' | 'stopped' | 'ended' {
  if (t.currentRound === null) return 'ended';
  return t.stoppedAt === null ? 'running' : 'stopped';
}

/** A tournament in the console's table: its current round, fee, pool, entrants and actions. */
export function TournamentRow({
  tournament: t,
  busy,
  resultsShown,
  isPublic,
  resultsId,
  onStop,
  onResults,
}: {
  tournament: Tournament;
  busy: boolean;
  resultsShown: boolean;
  /** Its game is published: the tournament has a public page. */
  isPublic: boolean;
  resultsId: string;
  onStop: () => void;
  onResults: () => void;
}) {
  const round = t.currentRound;
  const status = statusOf(t);
  return (
    <tr data-tournament={t.id}>
      <th scope="row">
        {t.name}
        <span className="admin-sub">{t.gameName}</span>
      </th>
      <RoundCell round={round} />
      <td data-label="Entry fee">
        <Hst units={hstUnits(t.entryFee)} />
      </td>
      <td data-label="Pool">
        {round === null ? (
          <span className="admin-muted">—</span>
        ) : (
          <>
            <Hst units={hstUnits(round.pool)} />
            {!round.guaranteeFunded && (
              <span className="admin-sub">Guarantee not funded: the funder was short</span>
            )}
          </>
        )}
      </td>
      <td data-label="Entrants">
        {round === null ? (
          <span className="admin-muted">—</span>
        ) : (
          <>
            {round.entrants}
            {t.maxEntrants !== null && ` of ${t.maxEntrants}`}
          </>
        )}
      </td>
      <td data-label="Schedule">
        {t.recurrence === null ? 'One round' : <Schedule cron={t.recurrence} />}
      </td>
      <td data-label="Status">
        <span className={`admin-badge state-${status}`}>{status}</span>
      </td>
      <ActionsCell
        tournament={t}
        status={status}
        busy={busy}
        resultsShown={resultsShown}
        isPublic={isPublic}
        resultsId={resultsId}
        onStop={onStop}
        onResults={onResults}
      />
    </tr>
  );
}

/** The current round: its number and state, with a countdown to its start or end. */
function RoundCell({ round }: { round: Tournament['currentRound'] }) {
  return (
    <td data-label="Round">
      {round === null ? (
        <span className="admin-muted">None to come</span>
      ) : (
        <>
          {round.number}, {round.status}
          {round.status === 'scheduled' && (
            <span className="admin-sub">
              <Countdown to={round.startsAt} label="Starts in" />
            </span>
          )}
          {round.status === 'open' && (
            <span className="admin-sub">
              <Countdown to={round.endsAt} label="Ends in" />
            </span>
          )}
        </>
      )}
    </td>
  );
}

/** The public page's link (a published game's only), the results' toggle, and Stop. */
function ActionsCell({
  tournament: t,
  status,
  busy,
  resultsShown,
  isPublic,
  resultsId,
  onStop,
  onResults,
}: {
  tournament: Tournament;
  status: ReturnType<typeof statusOf>;
  busy: boolean;
  resultsShown: boolean;
  isPublic: boolean;
  resultsId: string;
  onStop: () => void;
  onResults: () => void;
}) {
  return (
    <td className="admin-tournament-actions">
      <div className="admin-actions">
        {isPublic ? (
          <Link href={`/tournaments/${encodeURIComponent(t.id)}`}>
            Public page<span className="visually-hidden"> of {t.name}</span>
          </Link>
        ) : (
          <span className="admin-muted">Game not published</span>
        )}
        <button
          type="button"
          aria-expanded={resultsShown}
          aria-controls={resultsShown ? resultsId : undefined}
          onClick={onResults}
        >
          Results <span className="visually-hidden">of {t.name}</span>
        </button>
        {status === 'running' && (
          <button type="button" disabled={busy} onClick={onStop}>
            Stop <span className="visually-hidden">{t.name}</span>
          </button>
        )}
      </div>
    </td>
  );
}
