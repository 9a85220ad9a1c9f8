/**
 * The order of a board, best first: the higher rank key, then the earlier achievement (a tie goes
 * to the player who got there first), then the player id so that no two rows tie. Written once
 * here for every statement that lists, pages or ranks leaders.
 *
 * It is the column order of the `leaders_ranked` index (migration 001), which is what lets a
 * `LIMIT` read walk the index instead of sorting the board: keep the two in step.
 *
 * @param alias the table alias the columns are read through, if any (`l` gives `l.rank_key DESC,
 *   l.achieved_at, l.player_id`).
 */
export function boardOrder(alias?: string): string {
  const c = alias === undefined ? '' : `${alias}.`;
  return `${c}rank_key DESC, ${c}achieved_at, ${c}player_id`;
}

/**
 * The board's order worst first (the reverse of {@link boardOrder}): how a read walks up the
 * board from a player, or finds the last row of a page, along the same index backwards.
 */
export function boardOrderReversed(alias?: string): string {
  const c = alias === undefined ? '' : `${alias}.`;
  return `${c}rank_key, ${c}achieved_at DESC, ${c}player_id DESC`;
}
