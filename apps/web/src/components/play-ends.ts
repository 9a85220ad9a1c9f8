/**
 * How the app speaks of an open play's end (docs/concepts/plays-and-settlement.md, "Expiry"):
 * a play not scored within the play TTL settles as a score would, without one.
 */

/** When an open play ends, in the player's local time: the time today, else the date too. */
export function playEndsText(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
  if (at.toDateString() === now.toDateString()) return time;
  return `${at.toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short' })}, ${time}`;
}

/**
 * Where an open play's cost goes when it ends unscored: split as a scored play's, so the leaders'
 * part of a play on a board nobody led comes back to its player, except on a tournament round,
 * whose leaders' part always goes to the round's pool (`settlementTransfers` in the core).
 */
export const UNSCORED_COST_GOES =
  'its cost is paid out as a scored play’s is: to the leaders the board had when it began, the ' +
  'game’s developer and the arcade. If the board had no leaders, their part comes back to you ' +
  '(on a tournament round, it goes to the prize pool).';

/** What happens to an open play's cost when it ends unscored. */
export const UNSCORED_PLAY_SETTLES = `If it has no score by then, it ends without one: ${UNSCORED_COST_GOES}`;
