/** A player's standing entry on a board: their best score so far. */
export interface BestEntry {
  readonly rankKey: bigint;
  readonly achievedAt: Date;
}

/**
 * Whether a new score replaces the player's best: only a strictly better key does, so on a tie
 * the earlier score keeps its place (ties go to the earlier score).
 */
export function improvesBest(current: BestEntry | null, newKey: bigint): boolean {
  return current === null || newKey > current.rankKey;
}

/**
 * Rank of a submitted score: 1 + the other players whose best beats it. A best beats it when its
 * key is higher, or equal and earlier; the submitted score is the newest, so every other equal
 * best is earlier. `playersAtOrAbove` counts every player's best key ≥ the submitted key, the
 * submitting player included (their best is at least the submitted score after the update).
 */
export function leaderRank(playersAtOrAbove: number): number {
  if (!Number.isInteger(playersAtOrAbove) || playersAtOrAbove < 1) {
    throw new TypeError(`the submitting player is always counted, got ${playersAtOrAbove}`);
  }
  return playersAtOrAbove;
}

/** A score wins when its rank places the player among the board's leaders. */
export function isWinner(rank: number, leadersMax: number): boolean {
  return rank <= leadersMax;
}

/** A board entry as ranked: a player's best, its key, when it was achieved. */
export interface RankedEntry {
  readonly playerId: string;
  readonly score: number;
  readonly rankKey: bigint;
  readonly achievedAt: Date;
}

/** Best first: higher key, then the earlier score, then player id for a total order. */
export function compareRanked(a: RankedEntry, b: RankedEntry): number {
  if (a.rankKey !== b.rankKey) return a.rankKey > b.rankKey ? -1 : 1;
  const time = a.achievedAt.getTime() - b.achievedAt.getTime();
  if (time !== 0) return time;
  return a.playerId < b.playerId ? -1 : a.playerId > b.playerId ? 1 : 0;
}

/**
 * The board's top `max` after a player's best changed: `before` is the top `max + 1` read before
 * the change (one spare, in case the player drops out of it), `best` the player's entry now.
 */
export function leadersAfter<T extends RankedEntry>(
  before: readonly T[],
  best: T,
  max: number,
): T[] {
  return [...before.filter((e) => e.playerId !== best.playerId), best]
    .sort(compareRanked)
    .slice(0, max);
}
