import { formatHstUnits } from '../account/hst-amounts.js';
import type { OpenedPlay } from '../bridge/arcade-host.js';
import type { WalletPlayProgress } from '../bridge/wallet-play-progress.js';
import {
  UNSCORED_COST_GOES,
  UNSCORED_PLAY_SETTLES,
  playEndsText,
} from '../components/play-ends.js';

/** A lock sent from the wallet and not yet a play: the chain, then the arcade, still to answer. */
const LOCK_WAITING: ReadonlySet<WalletPlayProgress['step']> = new Set([
  'pending',
  'confirming',
  'opening',
]);

/**
 * What the page asks a player leaving it when leaving costs them a paid play: their game's play
 * is open with no score, or a play's lock from their wallet is on its way to the chain (the
 * arcade opens that play all the same, and the game cannot be told of it once the page is gone).
 * Null when leaving costs nothing.
 */
export function leaveQuestion(
  play: OpenedPlay | null,
  lock: WalletPlayProgress | null,
): string | null {
  if (play !== null) return openPlayQuestion(play);
  if (lock !== null && LOCK_WAITING.has(lock.step)) return lockQuestion(lock.amountUnits);
  return null;
}

function openPlayQuestion(play: OpenedPlay): string {
  const ends = play.expiresAt === null ? '' : ` It ends at ${playEndsText(play.expiresAt)}.`;
  return (
    `Leave the game? Your play on ${play.tierName} (${formatHstUnits(play.costUnits)}) has no ` +
    `score yet, and the game cannot finish it once you leave.${ends} ${UNSCORED_PLAY_SETTLES}`
  );
}

function lockQuestion(amountUnits: bigint): string {
  return (
    `Leave the game? Your lock of ${formatHstUnits(amountUnits)} from your wallet is still ` +
    'waiting for the chain, and the game cannot start its play once you leave. The arcade opens ' +
    'the play all the same once the lock is confirmed; when its time runs out without a score, ' +
    UNSCORED_COST_GOES
  );
}
