import { useState } from 'react';
import type { Game, TournamentEntry } from '@coinop/protocol';
import { BoardStandings } from '../boards/board-page.js';
import { Cover } from '../components/cover.js';
import { Hst } from '../components/hst.js';
import { useTitle } from '../components/page-title.js';
import { Link } from '../router.js';
import { useSession } from '../session/session.js';
import { useMyEntry } from './my-entry.js';
import { PastRounds } from './past-rounds.js';
import { PayoutTable } from './payout-table.js';
import { hstUnits } from '../account/hst-amounts.js';
import { roundBoardPath, type Tournament } from './tournament-api.js';
import { useTournament } from './use-tournament.js';
import {
  EntryFee,
  PhaseChip,
  RoundCountdown,
  entrantsText,
  tournamentPhase,
} from './tournament-card.js';
import './tournaments.css';

/**
 * `/tournaments/:id`: a tournament's current round (countdown, pool, fee, limits), what each
 * place would win from the pool as it stands, the round's standings with paging and "Around me",
 * a "Play" that opens the game with the round chosen, and the past rounds with their winners.
 */
export function TournamentPage({ tournamentId }: { tournamentId: string }) {
  const { state } = useSession();
  const me = state.status === 'signed-in' ? state.player.playerId : null;
  const { tournament, game, error, reads, reload, phase } = useTournament(tournamentId);
  useTitle(tournament ? `${tournament.name} · ${tournament.gameName}` : 'Tournament');

  const round = tournament?.currentRound ?? null;
  const entry = useMyEntry(tournamentId, round?.id ?? null, reads);

  if (error) {
    return (
      <section className="page">
        <h1>{error.missing ? 'Tournament not found' : 'Could not load the tournament'}</h1>
        <p role="alert">
          {error.missing ? 'This tournament is not in the arcade.' : error.message}
        </p>
        <p>
          <Link href="/">Back to the games</Link>
        </p>
      </section>
    );
  }
  if (!tournament) {
    return (
      <section className="page">
        <p aria-live="polite">Loading the tournament…</p>
      </section>
    );
  }

  const gameHref = `/games/${encodeURIComponent(tournament.gameId)}`;
  return (
    <section className="page tournament-page">
      <p className="board-back">
        <Link href={gameHref}>← {tournament.gameName}</Link>
      </p>
      <TournamentHero
        tournament={tournament}
        game={game}
        entry={entry}
        phase={phase}
        onElapsed={reload}
      />
      {round && <RoundPanels tournament={tournament} round={round} phase={phase} reads={reads} />}
      <PastRounds key={`${tournament.id}-${round?.id ?? ''}`} tournament={tournament} me={me} />
    </section>
  );
}

type Round = NonNullable<Tournament['currentRound']>;
type Phase = ReturnType<typeof tournamentPhase> | null;

/** The cover, the round's clock and its Play, and the round's pool, fee and limits. */
function TournamentHero({
  tournament,
  game,
  entry,
  phase,
  onElapsed,
}: {
  tournament: Tournament;
  game: Game | null;
  entry: TournamentEntry | null;
  phase: Phase;
  onElapsed: () => void;
}) {
  const round = tournament.currentRound;
  const gameHref = `/games/${encodeURIComponent(tournament.gameId)}`;
  return (
    <header className="tournament-hero">
      <div className="cover-frame">
        <Cover url={game?.coverUrl ?? ''} name={tournament.gameName} />
      </div>
      <div className="hero-main">
        <p className="hero-kicker">
          <PhaseChip tournament={tournament} />
          <span>
            {round ? `Round ${round.number}` : 'Tournament'} ·{' '}
            <Link href={gameHref}>{tournament.gameName}</Link>
          </span>
        </p>
        <h1>{tournament.name}</h1>
        <p className="hero-clock">
          {phase === 'closing' ? (
            <span role="status">This round has ended: the arcade is paying out its prizes.</span>
          ) : phase === 'ended' ? (
            'This tournament has ended.'
          ) : (
            <RoundCountdown tournament={tournament} onElapsed={onElapsed} />
          )}
        </p>
        <PlayCall tournament={tournament} entry={entry} />
      </div>
      {round && <HeroFacts tournament={tournament} round={round} entry={entry} />}
    </header>
  );
}

/** The round's pool (with its guarantee), entry fee, players and attempts. */
function HeroFacts({
  tournament,
  round,
  entry,
}: {
  tournament: Tournament;
  round: Round;
  entry: TournamentEntry | null;
}) {
  const guarantee = hstUnits(tournament.guaranteedPool);
  return (
    <dl className="hero-facts">
      <div className="pool-fact">
        <dt>Prize pool</dt>
        <dd>
          <Hst units={hstUnits(round.pool)} />
        </dd>
        {guarantee > 0n && round.guaranteeFunded && (
          <dd className="hint">
            includes <Hst units={guarantee} /> guaranteed
          </dd>
        )}
      </div>
      <div>
        <dt>Entry</dt>
        <dd>
          <EntryFee tournament={tournament} />
          {hstUnits(tournament.entryFee) > 0n && <span className="hint"> a play</span>}
        </dd>
      </div>
      <div>
        <dt>Players</dt>
        <dd>{entrantsText(tournament)}</dd>
      </div>
      {tournament.maxAttempts !== null && (
        <div>
          <dt>Attempts</dt>
          <dd data-testid="attempts">
            {entry === null || entry.attemptsLeft === null
              ? `${tournament.maxAttempts} per player`
              : `${entry.attemptsLeft} of ${tournament.maxAttempts} left`}
          </dd>
        </div>
      )}
    </dl>
  );
}

/** What each place would win from the pool as it stands, the rules, and the standings. */
function RoundPanels({
  tournament,
  round,
  phase,
  reads,
}: {
  tournament: Tournament;
  round: Round;
  phase: Phase;
  /** How many times the tournament was read: the standings are read again with it. */
  reads: number;
}) {
  const [rankedPlayers, setRankedPlayers] = useState(0);
  return (
    <div className="tournament-layout">
      <section className="panel payout-panel" aria-labelledby="prizes-heading">
        <h2 id="prizes-heading">Prizes</h2>
        <PayoutTable
          table={tournament.payoutTable}
          poolUnits={hstUnits(round.pool)}
          rankedPlayers={rankedPlayers}
        />
        <ul className="rules">
          <li>
            Your best score in the round counts; equal scores go to whoever reached them first.
          </li>
          <li>
            {tournament.scoreDisplay === 'REVERSE' ? 'Lowest' : 'Highest'} score wins. The pool is
            paid when the round ends.
          </li>
          <li>A play that has not scored by the end counts as played: its fee is not refunded.</li>
          <li>
            If nobody has a score at the end, each player gets back what they paid into the pool.
          </li>
        </ul>
      </section>
      <section className="standings" aria-labelledby="standings-heading">
        <h2 id="standings-heading">Standings · round {round.number}</h2>
        {phase === 'upcoming' ? (
          <p className="muted">The standings start with the first score, once the round opens.</p>
        ) : (
          <BoardStandings
            key={round.id}
            base={roundBoardPath(tournament, round.id)}
            unit={tournament.scoreUnit}
            noun="round"
            headingLevel={3}
            onPlayers={setRankedPlayers}
            version={reads}
          />
        )}
      </section>
    </div>
  );
}

/** "Play this round": the game's page with the round chosen, or why there is nothing to play. */
function PlayCall({
  tournament,
  entry,
}: {
  tournament: Tournament;
  entry: TournamentEntry | null;
}) {
  const round = tournament.currentRound;
  const phase = tournamentPhase(tournament);
  if (round === null || phase === 'ended' || phase === 'closing') return null;
  if (phase === 'upcoming') {
    return <p className="hint">Plays open when the round starts.</p>;
  }
  if (entry?.attemptsLeft === 0) {
    return (
      <p className="play-note">
        You have used all {tournament.maxAttempts} attempts in this round.
      </p>
    );
  }
  if (
    tournament.maxEntrants !== null &&
    entry?.entered === false &&
    round.entrants >= tournament.maxEntrants
  ) {
    return (
      <p className="play-note">This round is full: {tournament.maxEntrants} players entered.</p>
    );
  }
  return (
    <p className="play-call">
      <Link
        className="button primary"
        href={`/games/${encodeURIComponent(tournament.gameId)}?tournament=${encodeURIComponent(tournament.id)}`}
      >
        Play this round
      </Link>
      <span className="hint">
        {hstUnits(tournament.entryFee) === 0n ? (
          'Free entry'
        ) : (
          <>
            <EntryFee tournament={tournament} /> a play, approved in the game
          </>
        )}
      </span>
    </p>
  );
}
