import { formatHstUnits } from '../account/hst-amounts.js';
import type { OpenedPlay } from '../bridge/arcade-host.js';
import { UNSCORED_PLAY_SETTLES, playEndsText } from '../components/play-ends.js';

/** What the page asks a player leaving it while their game's paid play is open. */
export function leaveQuestion(play: OpenedPlay): string {
  const ends = play.expiresAt === null ? '' : ` It ends at ${playEndsText(play.expiresAt)}.`;
  return (
    `Leave the game? Your play on ${play.tierName} (${formatHstUnits(play.costUnits)}) has no ` +
    `score yet, and the game cannot finish it once you leave.${ends} ${UNSCORED_PLAY_SETTLES}`
  );
}
