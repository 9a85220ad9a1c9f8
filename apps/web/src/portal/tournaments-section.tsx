import { useCallback, useEffect, useState } from 'react';
import type { DeveloperGame, Tournament, TournamentPayoutTable } from '@coinop/protocol';
import { Hst } from '../components/hst.js';
import { useToast } from '../components/toasts.js';
import { Link } from '../router.js';
import { Countdown } from '../tournaments/countdown.js';
import { TournamentForm } from '../tournaments/tournament-form.js';
import { Schedule } from '../tournaments/schedule.js';
import { hstUnits } from '../account/hst-amounts.js';
import { ConfirmDialog, ErrorAlert, errorText, usePortalApi } from './parts.js';
import './tournaments-section.css';

/**
 * The game's tournaments (docs/concepts/tournaments.md): each with its current round, pool and
 * entrants, a link to its public page and Stop; and a form to create one.
 */
export function TournamentsSection({ game }: { game: DeveloperGame }) {
  const api = usePortalApi();
  const toast = useToast();
  const [tournaments, setTournaments] = useState<readonly Tournament[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [stopping, setStopping] = useState<Tournament | null>(null);
  const loadBalance = useCallback(async () => (await api.balance()).available, [api]);

  const reload = useCallback(async () => {
    try {
      setTournaments(await api.listTournaments(game.id));
      setError(null);
    } catch (e) {
      setError(`Could not load the tournaments: ${errorText(e)}`);
    }
  }, [api, game.id]);
  useEffect(() => {
    void reload();
  }, [reload]);

  return (
    <section className="portal-section" aria-labelledby="tournaments-heading">
      <h2 id="tournaments-heading">Tournaments</h2>
      <p className="muted">
        A tournament is a board with a start and an end and a prize pool: every entry adds the
        leaders&apos; part of its fee to the pool, which the close pays out by the split you choose.
        A repeating one opens its next round as the last one closes.
      </p>
      <ErrorAlert error={error} />
      {tournaments === null && error === null && <p role="status">Loading…</p>}
      {tournaments !== null && tournaments.length === 0 && (
        <p className="muted">No tournaments yet.</p>
      )}
      {tournaments !== null && tournaments.length > 0 && (
        <ul className="portal-list portal-tournaments">
          {tournaments.map((t) => (
            <TournamentItem key={t.id} tournament={t} onStop={() => setStopping(t)} />
          ))}
        </ul>
      )}
      <details className="add-tier">
        <summary>Create a tournament</summary>
        <TournamentForm
          game={game}
          create={api.createTournament}
          loadBalance={loadBalance}
          funder={FUNDER}
          onCreated={async (created) => {
            toast(`Tournament ${created.name} created.`, 'ok');
            await reload();
          }}
        />
      </details>
      {stopping !== null && (
        <ConfirmDialog
          title={`Stop ${stopping.name}?`}
          confirmLabel="Stop tournament"
          onDone={() => setStopping(null)}
          onConfirm={async () => {
            await api.stopTournament(game.id, stopping.id);
            toast(`Tournament ${stopping.name} stopped.`, 'ok');
            await reload();
          }}
        >
          <p>
            No round after the current one will open. The current round still runs to its end,
            closes and pays its pool as usual. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** The developer funds their tournaments' guarantees. */
const FUNDER = { balance: 'your balance', topUp: 'earn more first' };

function TournamentItem({ tournament: t, onStop }: { tournament: Tournament; onStop: () => void }) {
  const round = t.currentRound;
  return (
    <li className="portal-card">
      <h3 className="card-title">
        {t.name} {t.stoppedAt !== null && <span className="badge">Stopped</span>}
      </h3>
      <dl className="facts">
        <dt>Entry fee</dt>
        <dd>
          <Hst units={hstUnits(t.entryFee)} />
        </dd>
        <dt>Prize split</dt>
        <dd>{splitText(t.payoutTable)}</dd>
        <dt>Repeats</dt>
        <dd>{t.recurrence === null ? 'No' : <Schedule cron={t.recurrence} />}</dd>
        {round === null ? (
          <>
            <dt>Round</dt>
            <dd>No round to come</dd>
          </>
        ) : (
          <>
            <dt>Round</dt>
            <dd>
              {round.number}, {round.status}
              {round.status === 'scheduled' && (
                <>
                  {' · '}
                  <Countdown to={round.startsAt} label="Starts in" />
                </>
              )}
              {round.status === 'open' && (
                <>
                  {' · '}
                  <Countdown to={round.endsAt} label="Ends in" />
                </>
              )}
            </dd>
            <dt>Pool</dt>
            <dd>
              <Hst units={hstUnits(round.pool)} />
            </dd>
            <dt>Entrants</dt>
            <dd>
              {round.entrants}
              {t.maxEntrants !== null && ` of ${t.maxEntrants}`}
            </dd>
          </>
        )}
      </dl>
      <div className="row-actions">
        <Link href={`/tournaments/${encodeURIComponent(t.id)}`}>
          Public page<span className="visually-hidden"> of {t.name}</span>
        </Link>
        {t.stoppedAt === null && (
          <button type="button" aria-label={`Stop ${t.name}`} onClick={onStop}>
            Stop
          </button>
        )}
      </div>
    </li>
  );
}

/** "60% / 40%", or "Top 10% share equally". */
function splitText(table: TournamentPayoutTable): string {
  if ('topPercent' in table) return `Top ${table.topPercent}% share equally`;
  return table.places.map((bp) => `${bp / 100}%`).join(' / ');
}
