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
