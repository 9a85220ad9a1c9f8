import type { Leaderboard } from '../model.js';

/**
 * The tournament share rule, written once: a play on a tournament round pays the leaders' part of
 * its cost into the round's prize pool, whose account id is the round's (board's) id; a play on a
 * tier pays the leaders of the moment. The developer's and the arcade's parts are the same for
 * both (docs/concepts/tournaments.md).
 */

/** The prize pool account a play on `board` pays its leaders' part into; null for a tier. */
export function poolAccountOf(board: Pick<Leaderboard, 'id' | 'round'>): string | null {
  return board.round === undefined ? null : board.id;
}

/** Who receives the leaders' part: the round's pool alone, or else the leaders of the moment. */
export function leaderPartAccountIds(
  leaderAccountIds: readonly string[],
  poolAccountId: string | null,
): readonly string[] {
  return poolAccountId === null ? leaderAccountIds : [poolAccountId];
}
