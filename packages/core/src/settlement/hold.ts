import type { GameRef, Leaderboard, Play } from '../model.js';
import type { TransferRequest } from '../ledger/types.js';
import type { Share } from './split.js';

/**
 * The payout hold (docs/concepts/plays-and-settlement.md#hold-and-void): a settled play's
 * payouts stay `pending` from its escrow for a while, so a score found false can be voided and
 * the payouts it caused re-settled before anyone can spend them.
 */

/** The longest hold a game or tier may ask for: 30 days. */
export const PAYOUT_HOLD_MAX_SECONDS = 30 * 86_400;

/** A tier's own hold, else its game's, else the operator's default, in seconds. */
export function effectivePayoutHoldSeconds(
  game: Pick<GameRef, 'payoutHoldSeconds'>,
  board: Pick<Leaderboard, 'payoutHoldSeconds'>,
  operatorDefaultSeconds: number,
): number {
  return board.payoutHoldSeconds ?? game.payoutHoldSeconds ?? operatorDefaultSeconds;
}

/**
 * When a play settled at `now` releases its payouts, or null when they are paid at once: with no
 * hold, for a free play, for a play locked on chain (the vault pays it on chain, where nothing
 * can be held back) and for a play on a tournament round (its leaders' part goes to the round's
 * pool, which a void cannot change; the round's close pays the corrected standings).
 */
export function payoutsReleaseAt(
  play: Pick<Play, 'costUnits' | 'vaultAccountId'>,
  poolAccountId: string | null,
  holdSeconds: number,
  now: Date,
): Date | null {
  if (holdSeconds <= 0 || play.costUnits === 0n) return null;
  if (play.vaultAccountId !== null || poolAccountId !== null) return null;
  return new Date(now.getTime() + holdSeconds * 1000);
}

const PAYOUT_REASONS = {
  leader: 'payout_leader',
  player: 'payout_returned',
  developer: 'payout_developer',
  arcade: 'payout_arcade',
} as const satisfies Record<Share['role'], TransferRequest['reason']>;

/** One share of a settled play as a transfer from its escrow: posted, or pending when held. */
export function payoutTransfer(
  playId: string,
  share: Share,
  id: string,
  held: boolean,
): TransferRequest {
  return {
    id,
    kind: held ? 'pending' : 'posted',
    debitAccountId: playId,
    creditAccountId: share.accountId,
    amount: share.amount,
    pendingId: null,
    reason: PAYOUT_REASONS[share.role],
    playId,
  };
}

/** The transfers that release a play's held payouts: each one posted, in full. */
export function releaseTransfers(
  held: readonly Pick<TransferRequest, 'id' | 'debitAccountId' | 'creditAccountId' | 'playId'>[],
  nextId: () => string,
): TransferRequest[] {
  return held.map((t) => ({
    id: nextId(),
    kind: 'post_pending',
    debitAccountId: t.debitAccountId,
    creditAccountId: t.creditAccountId,
    amount: 0n,
    pendingId: t.id,
    reason: 'payout_release',
    playId: t.playId,
  }));
}
