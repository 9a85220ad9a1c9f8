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

/** Where an open play's cost goes when it ends unscored. */
export const UNSCORED_COST_GOES =
  'its cost is paid out to the leaders the board had when it began, the game’s developer and ' +
  'the arcade, and nothing comes back to you.';

/** What happens to an open play's cost when it ends unscored. */
export const UNSCORED_PLAY_SETTLES = `If it has no score by then, it ends without one: ${UNSCORED_COST_GOES}`;
