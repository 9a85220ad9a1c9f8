import { CoinopError } from '../errors.js';
import type { GameRef, Leaderboard, Play, RoundRules } from '../model.js';

/**
 * Entering a round: the refusals of the concept's table (docs/concepts/tournaments.md, "Entering:
 * plays on a round"), each a 409 naming `leaderboardId` and the limit in `details`.
 */

/** Where a round stands at `now`: `scheduled` before its start, `open`, or `closed`. */
export type RoundStatus = 'scheduled' | 'open' | 'closed';

/** A round's status by its window and whether its close has run. */
export function roundStatus(
  window: { readonly startsAt: Date; readonly endsAt: Date },
  isClosed: boolean,
  now: Date,
): RoundStatus {
  if (isClosed || now.getTime() >= window.endsAt.getTime()) return 'closed';
  return now.getTime() < window.startsAt.getTime() ? 'scheduled' : 'open';
}

/** Throws the refusal of a play on a round that is not open at `now` (or was closed). */
export function assertRoundOpen(
  roundId: string,
  window: { readonly startsAt: Date; readonly endsAt: Date },
  isClosed: boolean,
  now: Date,
): void {
  const status = roundStatus(window, isClosed, now);
  if (status === 'scheduled') {
    throw new CoinopError(
      'tournament_not_started',
      `round ${roundId} opens at ${window.startsAt.toISOString()}; nothing was charged`,
      {
        details: { field: 'leaderboardId', roundId, startsAt: window.startsAt.toISOString() },
      },
    );
  }
  if (status === 'closed') throw roundClosed(roundId, window.endsAt);
}

export function roundClosed(roundId: string, endsAt: Date | null): CoinopError {
  return new CoinopError(
    'tournament_closed',
    endsAt === null
      ? `tournament ${roundId} has no round open or to come; nothing was charged`
      : `round ${roundId} ended at ${endsAt.toISOString()}; it takes no more plays or scores`,
    {
      details: {
        field: 'leaderboardId',
        roundId,
        ...(endsAt === null ? {} : { endsAt: endsAt.toISOString() }),
      },
    },
  );
}

export function roundFull(roundId: string, maxEntrants: number): CoinopError {
  return new CoinopError(
    'tournament_full',
    `round ${roundId} has its ${maxEntrants} entrants; nothing was charged`,
    { details: { field: 'leaderboardId', roundId, maxEntrants } },
  );
}

export function attemptsExhausted(roundId: string, maxAttempts: number): CoinopError {
  return new CoinopError(
    'tournament_attempts_exhausted',
    `the player has made the ${maxAttempts} plays a player may make in round ${roundId}; nothing was charged`,
    { details: { field: 'leaderboardId', roundId, maxAttempts } },
  );
}

/**
 * When a play opened at `now` on `board` expires: `ttlSeconds` later, but on a tournament round
 * never after the round's end (docs/concepts/tournaments.md, "Fees and the pool"). The close
 * settles a play still open as an expired play, so its expiry tells the game the last moment it
 * can score.
 */
export function playExpiresAt(
  board: Pick<Leaderboard, 'round'>,
  now: Date,
  ttlSeconds: number,
): Date {
  const ttlEnd = now.getTime() + ttlSeconds * 1000;
  const end = board.round?.endsAt.getTime() ?? ttlEnd;
  return new Date(Math.min(ttlEnd, end));
}

/**
 * Refuses a score on a round that ended while its play was open (`tournament_closed`): the play
 * is left to the close, which settles it as an expired play. Its expiry is the round's end (or
 * later, for a play opened before expiries were clipped). A play that expired before the end is
 * left to the play's own rules.
 */
export function assertRoundTakesScore(play: Play, round: RoundRules, now: Date): void {
  if (play.status !== 'open') return;
  const end = round.endsAt.getTime();
  if (now.getTime() >= end && play.expiresAt.getTime() >= end) {
    throw roundClosed(play.leaderboardId, round.endsAt);
  }
}

/**
 * The round a new play on `leaderboardId` means: the round itself, or, for a tournament's id, its
 * round open at `now` (else its next one, which the play's transaction then refuses as not
 * started). Undefined when the game knows no such round.
 */
export function roundNamed(
  game: GameRef,
  leaderboardId: string,
  now: Date,
): Leaderboard | undefined {
  const rounds = game.rounds ?? [];
  const direct = rounds.find((b) => b.id === leaderboardId);
  if (direct) return direct;
  const ofTournament = rounds
    .filter((b) => b.round?.tournamentId === leaderboardId)
    .sort((a, b) => (a.round?.startsAt.getTime() ?? 0) - (b.round?.startsAt.getTime() ?? 0));
  return (
    ofTournament.find((b) => b.round !== undefined && b.round.endsAt.getTime() > now.getTime()) ??
    ofTournament.at(-1)
  );
}

/** The name of a round's board, as board reads and play approvals show it: "Weekly Cup #3". */
export function roundBoardName(tournamentName: string, number: number): string {
  return `${tournamentName} #${number}`;
}
