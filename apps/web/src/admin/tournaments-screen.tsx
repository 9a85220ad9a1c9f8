import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { formatHst, readHst, type AdminGame, type Tournament } from '@coinop/protocol';
import { hstUnits } from '../account/hst-amounts.js';
import { PastRounds, type RoundReads } from '../tournaments/past-rounds.js';
import { TournamentForm, type GameChoice } from '../tournaments/tournament-form.js';
import type { TournamentRequest } from '../portal/portal-api.js';
import type { AdminApi } from './admin-api.js';
import { Outcome } from './parts.js';
import { TournamentRow } from './tournament-row.js';
import { useAdminTournaments, usePickerGames } from './use-admin-tournaments.js';
import { useChainMode } from './use-chain-mode.js';
import '../tournaments/tournaments.css';
import './tournaments-screen.css';

/** The arcade funds the guarantees of the tournaments the operator creates. */
const FUNDER = {
  balance: "the arcade's balance",
  topUp: "mint HST into the arcade's account on the Ledger screen first",
};

/** In chain mode a mint is refused: the arcade's HST, like anyone's, comes from the vault. */
const CHAIN_FUNDER = {
  balance: "the arcade's balance",
  topUp:
    "put HST in the vault for the arcade's account first: a deposit for it, or HST sent to the " +
    'vault and credited to it as surplus on the Chain screen (--account arcade)',
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

/**
 * Every tournament of every game (docs/concepts/tournaments.md): its current round, fee, pool and
 * entrants; stop one; read a tournament's closed rounds and their winners; and create one for any
 * game, its guaranteed pool funded by the arcade's account.
 */
export function TournamentsScreen({ api }: { api: AdminApi }) {
  const { tournaments, error, outcome, busy, reload, stop } = useAdminTournaments(api);
  const { games, gamesError } = usePickerGames(api);
  const [shownId, setShownId] = useState<string | null>(null);
  const resultsRef = useRef<HTMLDivElement>(null);
  const resultsId = useId();

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
          <table className="admin-table stacked-rows">
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
      <CreateTournamentPanel api={api} games={games} gamesError={gamesError} onCreated={reload} />
    </section>
  );
}

/** The create form for any game, its guarantee funded by the arcade's account. */
function CreateTournamentPanel({
  api,
  games,
  gamesError,
  onCreated,
}: {
  api: AdminApi;
  games: readonly AdminGame[] | null;
  gamesError: string | null;
  onCreated: () => Promise<void>;
}) {
  const [created, setCreated] = useState<string | null>(null);
  const chainMode = useChainMode(api);
  const loadBalance = useCallback(
    async () => formatHst(hstUnits((await api.balance('arcade')).balance)),
    [api],
  );
  const choices: readonly GameChoice[] = (games ?? []).map((g) => ({
    id: g.gameId,
    name: g.state === 'published' ? g.name : `${g.name} (${g.state})`,
  }));
  return (
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
          funder={chainMode === true ? CHAIN_FUNDER : FUNDER}
          confirmCreate={(gameId, body) => confirmGuarantee(choices, gameId, body)}
          onCreated={async (made) => {
            setCreated(`Tournament ${made.name} created for ${made.gameName}.`);
            await onCreated();
          }}
        />
      )}
      {/* Said by the form, where the operator is; the list above shows it too. */}
      <Outcome text={created} tone="ok" />
    </section>
  );
}
