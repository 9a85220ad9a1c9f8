import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { formatHst, readHst, type Tournament } from '@coinop/protocol';
import { hstUnits } from '../account/hst-amounts.js';
import { Hst } from '../components/hst.js';
import { Link } from '../router.js';
import { Countdown } from '../tournaments/countdown.js';
import { PastRounds, type RoundReads } from '../tournaments/past-rounds.js';
import { Schedule } from '../tournaments/schedule.js';
import { TournamentForm, type GameChoice } from '../tournaments/tournament-form.js';
import type { TournamentRequest } from '../portal/portal-api.js';
import type { AdminGame } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { Outcome, errorText } from './parts.js';
import '../tournaments/tournaments.css';
import './tournaments-screen.css';

/** The arcade funds the guarantees of the tournaments the operator creates. */
const FUNDER = {
  balance: "the arcade's balance",
  topUp: "mint HST into the arcade's account on the Ledger screen first",
};

/**
 * A guarantee moves the arcade's HST into each round's pool as it opens: asked first, as every
 * console action that moves money is. A tournament without one is created at once.
 */
function confirmGuarantee(
  choices: readonly GameChoice[],
  gameId: string,
  body: TournamentRequest,
): boolean {
  const pool = readHst(body.guaranteedPool);
  // Not an amount: the API refuses it by its field, and nothing moves.
  if (pool.problem !== null || pool.units === 0n) return true;
  const game = choices.find((g) => g.id === gameId)?.name ?? gameId;
  return window.confirm(
    `Create ${body.name} for ${game}? ${body.guaranteedPool} HST moves from the arcade's ` +
      `account into ${body.recurrence === undefined ? 'its round' : 'each round'}'s pool as it opens.`,
  );
}

/** At most this many games are offered by the create form's picker (pages of 100). */
const PICKER_PAGES = 10;

/**
 * "running", "stopped" (its current round is its last), or "ended" (no round to come: the close
 * of a tournament's last round stops it too).
 */
function statusOf(t: Tournament): 'running' | 'stopped' | 'ended' {
  if (t.currentRound === null) return 'ended';
  return t.stoppedAt === null ? 'running' : 'stopped';
}

/**
 * Every tournament of every game (docs/concepts/tournaments.md): its current round, fee, pool and
 * entrants; stop one; read a tournament's closed rounds and their winners; and create one for any
 * game, its guaranteed pool funded by the arcade's account.
 */
export function TournamentsScreen({ api }: { api: AdminApi }) {
  const [tournaments, setTournaments] = useState<readonly Tournament[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);
  const [busy, setBusy] = useState(false);
  const [games, setGames] = useState<readonly AdminGame[] | null>(null);
  const [gamesError, setGamesError] = useState<string | null>(null);
  const [created, setCreated] = useState<string | null>(null);
  const [shownId, setShownId] = useState<string | null>(null);
  const resultsRef = useRef<HTMLDivElement>(null);
  const resultsId = useId();

  const reload = useCallback(async () => {
    try {
      setTournaments(await api.tournaments());
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, [api]);
  useEffect(() => {
    void reload();
  }, [reload]);

  useEffect(() => {
    let live = true;
    void (async () => {
      const all: AdminGame[] = [];
      let before: string | null = null;
      try {
        for (let page = 0; page < PICKER_PAGES; page += 1) {
          const read: { items: readonly AdminGame[]; next: string | null } = await api.games(
            before,
            100,
          );
          all.push(...read.items);
          before = read.next;
          if (before === null) break;
        }
      } catch (e) {
        // The picker offers the games read before the failure, if any.
        if (live) setGamesError(errorText(e));
      }
      if (live) setGames(all);
    })();
    return () => {
      live = false;
    };
  }, [api]);

  const loadBalance = useCallback(
    async () => formatHst(hstUnits((await api.balance('arcade')).balance)),
    [api],
  );

  const stop = async (t: Tournament) => {
    const confirmed = window.confirm(
      `Stop ${t.name} (${t.gameName})? No round after the current one will open. The current ` +
        'round still runs to its end, closes and pays its pool as usual. This cannot be undone.',
    );
    if (!confirmed) return;
    setBusy(true);
    setOutcome(null);
    try {
      await api.stopTournament(t.id);
      setOutcome({
        text: `${t.name}: stopped. Its current round still closes and pays; none follows.`,
        tone: 'ok',
      });
    } catch (e) {
      setOutcome({ text: `Could not stop ${t.name}: ${errorText(e)}`, tone: 'error' });
    } finally {
      setBusy(false);
    }
    await reload();
  };

  const showResults = (t: Tournament) => {
    setShownId((current) => (current === t.id ? null : t.id));
  };
  const shown = tournaments?.find((t) => t.id === shownId) ?? null;
  // The admin API's round reads answer for every game, published or not.
  const roundReads = useMemo<RoundReads>(
    () => ({ list: api.tournamentRounds, one: api.tournamentRound }),
    [api],
  );
  useEffect(() => {
    if (shownId !== null) resultsRef.current?.focus();
  }, [shownId]);
  /** Unknown (games still loading, or beyond the picker's pages) counts as public. */
  const isPublic = (gameId: string) =>
    games?.find((g) => g.gameId === gameId)?.publishedAt !== null;

  const choices: readonly GameChoice[] = (games ?? []).map((g) => ({
    id: g.gameId,
    name: g.state === 'published' ? g.name : `${g.name} (${g.state})`,
  }));

  return (
    <section aria-labelledby="tournaments-heading" className="admin-tournaments">
      <h1 id="tournaments-heading">Tournaments</h1>
      <p className="admin-muted">
        Boards with a start, an end and a prize pool, of every game: each entry adds the
        leaders&apos; part of its fee to the pool, which the close pays out by the tournament&apos;s
        split. The rules: docs/concepts/tournaments.md.
      </p>
      <Outcome text={outcome?.text ?? null} tone={outcome?.tone ?? 'ok'} />
      {error !== null && <Outcome text={`Could not load the tournaments: ${error}`} tone="error" />}
      {tournaments === null ? (
        error === null && <p role="status">Loading…</p>
      ) : tournaments.length === 0 ? (
        <p className="admin-empty">No tournaments yet. Create one below.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <caption className="visually-hidden">
              Tournaments, those with a round to come first
            </caption>
            <thead>
              <tr>
                <th scope="col">Tournament</th>
                <th scope="col">Round</th>
                <th scope="col">Entry fee</th>
                <th scope="col">Pool</th>
                <th scope="col">Entrants</th>
                <th scope="col">Schedule</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {tournaments.map((t) => (
                <TournamentRow
                  key={t.id}
                  tournament={t}
                  busy={busy}
                  resultsShown={t.id === shownId}
                  isPublic={isPublic(t.gameId)}
                  resultsId={resultsId}
                  onStop={() => void stop(t)}
                  onResults={() => showResults(t)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown !== null && (
        <div
          id={resultsId}
          ref={resultsRef}
          tabIndex={-1}
          className="admin-panel admin-results"
          data-testid="tournament-results"
        >
          <PastRounds
            key={shown.id}
            tournament={shown}
            me={null}
            title={`Past rounds of ${shown.name}`}
            reads={roundReads}
          />
          <button type="button" onClick={() => setShownId(null)}>
            Hide results
          </button>
        </div>
      )}
      <section aria-labelledby="create-tournament-heading" className="admin-panel">
        <h2 id="create-tournament-heading">Create a tournament</h2>
        <p className="admin-muted">
          For any game. Its guaranteed pool is paid into each round as it opens, from the
          arcade&apos;s account.
        </p>
        {gamesError !== null && (
          <Outcome text={`Could not load the games: ${gamesError}`} tone="error" />
        )}
        {games === null ? (
          <p role="status">Loading the games…</p>
        ) : choices.length === 0 ? (
          gamesError === null && <p className="admin-empty">No games registered yet.</p>
        ) : (
          <TournamentForm
            game={{ choices }}
            create={api.createTournament}
            loadBalance={loadBalance}
            funder={FUNDER}
            confirmCreate={(gameId, body) => confirmGuarantee(choices, gameId, body)}
            onCreated={async (made) => {
              setCreated(`Tournament ${made.name} created for ${made.gameName}.`);
              await reload();
            }}
          />
        )}
        {/* Said by the form, where the operator is; the list above shows it too. */}
        <Outcome text={created} tone="ok" />
      </section>
    </section>
  );
}

function TournamentRow({
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
    </tr>
  );
}
