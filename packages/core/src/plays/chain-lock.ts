/**
 * Plays locked on chain (docs/concepts/chain.md): a player's wallet locks a tier's cost in the
 * vault under a play id the arcade gave it. Whether the lock opens that play is decided here;
 * a lock that opens none is refunded to the wallet that made it.
 */

/** What the arcade asked the player to lock, and the tier as it is now. */
export interface LockRequest {
  readonly amountUnits: bigint;
  /** The wallet of the player the play was requested for (lower-case hex). */
  readonly playerWallet: string | null;
  readonly lockBy: Date;
  /** The tier's cost now; null when the tier is retired or the game cannot be played. */
  readonly tierCostUnits: bigint | null;
  readonly gamePlayable: boolean;
}

/** A confirmed PlayLocked event: who locked how much. */
export interface LockEvent {
  readonly lockerAddress: string;
  readonly lockedUnits: bigint;
}

export type LockRefusal =
  'not_requested' | 'wrong_amount' | 'wrong_wallet' | 'late' | 'game_not_playable' | 'tier_changed';

export type LockVerdict = { readonly open: true } | { readonly open: false; reason: LockRefusal };

/**
 * A lock opens its play only when it is exactly what was asked: the amount requested, from the
 * requesting player's wallet, seen by `lockBy`, on a tier that still costs that in a game that
 * can still be played. Anything else goes back to the wallet, so no HST is taken on terms the
 * player did not see.
 */
export function decidePlayLock(
  request: LockRequest | null,
  lock: LockEvent,
  seenAt: Date,
): LockVerdict {
  if (request === null) return { open: false, reason: 'not_requested' };
  if (lock.lockedUnits !== request.amountUnits) return { open: false, reason: 'wrong_amount' };
  if (
    request.playerWallet === null ||
    lock.lockerAddress.toLowerCase() !== request.playerWallet.toLowerCase()
  ) {
    return { open: false, reason: 'wrong_wallet' };
  }
  if (seenAt.getTime() > request.lockBy.getTime()) return { open: false, reason: 'late' };
  if (!request.gamePlayable) return { open: false, reason: 'game_not_playable' };
  if (request.tierCostUnits !== request.amountUnits) return { open: false, reason: 'tier_changed' };
  return { open: true };
}
