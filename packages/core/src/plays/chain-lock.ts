import type { TransferRequest } from '../ledger/types.js';
import type { Units } from '../money.js';

/**
 * Plays locked on chain (docs/concepts/chain.md): a player's wallet locks a tier's cost in the
 * vault under a play id the arcade gave it. Whether the lock opens that play is decided here;
 * a lock that opens none is refunded to the wallet that made it. The vault lets the player take
 * an open lock back (`reclaim`) once its lock timeout has passed, so a play closes to scores
 * early enough for the operator to settle it first, and a lock that ends on chain without the
 * vault paying its play out undoes the play in the ledger (`chainSettlementReversal`).
 */

/**
 * How long before its lock may be reclaimed a play stops taking scores: time for the sender's
 * next round and a settlement mined on a congested Ethereum, so a settlement does not race the
 * player's reclaim. Small beside a sound lock timeout (a day, docs/operating/chain.md).
 */
export const SETTLE_BEFORE_RECLAIM_SECONDS = 600;

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

/** The chain's clock as a lock was read: how long its play could run before it is reclaimable. */
export interface LockTiming {
  /** The time of the lock's block. */
  readonly lockedAt: Date;
  /** The vault's lockTimeout as the lock was read (a change applies to open locks too). */
  readonly lockTimeoutSeconds: number;
  /** The time of the chain's head as the lock was read. */
  readonly chainNow: Date;
  /** How long an open play takes scores (the arcade's play TTL). */
  readonly playTtlSeconds: number;
}

export type LockRefusal =
  | 'not_requested'
  | 'wrong_amount'
  | 'wrong_wallet'
  | 'late'
  | 'game_not_playable'
  | 'tier_changed'
  | 'reclaimable_too_soon';

export type LockVerdict = { readonly open: true } | { readonly open: false; reason: LockRefusal };

/**
 * A lock opens its play only when it is exactly what was asked: the amount requested, from the
 * requesting player's wallet, seen by `lockBy`, on a tier that still costs that in a game that
 * can still be played, and with time for the whole play before the player may reclaim the lock
 * (less SETTLE_BEFORE_RECLAIM_SECONDS). Anything else goes back to the wallet, so no HST is taken
 * on terms the player did not see.
 */
export function decidePlayLock(
  request: LockRequest | null,
  lock: LockEvent,
  seenAt: Date,
  timing: LockTiming,
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
  // Measured on the chain's clock alone, so a server clock apart from the chain's changes nothing.
  const playEndsAt = timing.chainNow.getTime() + timing.playTtlSeconds * 1000;
  if (playEndsAt > chainScoreDeadline(timing.lockedAt, timing.lockTimeoutSeconds).getTime()) {
    return { open: false, reason: 'reclaimable_too_soon' };
  }
  return { open: true };
}

/**
 * When, on the chain's clock, a lock's play must have stopped taking scores:
 * SETTLE_BEFORE_RECLAIM_SECONDS before its player may reclaim it.
 */
export function chainScoreDeadline(lockedAt: Date, lockTimeoutSeconds: number): Date {
  return new Date(lockedAt.getTime() + (lockTimeoutSeconds - SETTLE_BEFORE_RECLAIM_SECONDS) * 1000);
}

/**
 * The latest lock time, on the chain's clock, whose play is past its score deadline at
 * `chainNow`: the plays of locks made at or before it close (`chainScoreDeadline`).
 */
export function chainScoreCutoff(chainNow: Date, lockTimeoutSeconds: number): Date {
  return new Date(chainNow.getTime() - (lockTimeoutSeconds - SETTLE_BEFORE_RECLAIM_SECONDS) * 1000);
}

/** A payee of a settled play locked on chain: what its settlement paid them, and what is reserved. */
export interface ChainPayee {
  readonly accountId: string;
  /** What the play's settlement paid the account (its `payout_*` transfers). */
  readonly paidUnits: Units;
  /** The account's `chain_payout` reservations for the play, neither posted nor voided. */
  readonly reservations: readonly { readonly transferId: string; readonly amountUnits: Units }[];
}

/** One payee's part of a reversal; `covered` when its reservations hold all it gives back. */
export interface PayeeReversal {
  readonly accountId: string;
  readonly units: Units;
  readonly covered: boolean;
  readonly transfers: readonly TransferRequest[];
}

/**
 * Undoes the settlement of a play locked on chain whose lock ended on chain without the vault
 * paying it out (its player reclaimed it, or it was refunded): each payee gives back what the
 * settlement paid them to the vault's account, which no longer holds that HST. A payee's
 * reservations are voided first, so a leader's or the developer's share, reserved since the
 * score, always pays it back; the arcade's share is not reserved and may have been spent
 * (`covered` false). Ids come from `ids`, derived by the caller so that a replay is a no-op.
 */
export function chainSettlementReversal(
  playId: string,
  vaultAccountId: string,
  payees: readonly ChainPayee[],
  ids: { voidOf(reservationId: string): string; reversalOf(accountId: string): string },
): PayeeReversal[] {
  return payees
    .filter((p) => p.paidUnits > 0n)
    .map((payee) => {
      const reserved = payee.reservations.reduce((sum, r) => sum + r.amountUnits, 0n);
      const transfers: TransferRequest[] = payee.reservations.map((r) => ({
        id: ids.voidOf(r.transferId),
        kind: 'void_pending',
        debitAccountId: payee.accountId,
        creditAccountId: vaultAccountId,
        amount: r.amountUnits,
        pendingId: r.transferId,
        reason: 'chain_payout',
        playId,
      }));
      transfers.push({
        id: ids.reversalOf(payee.accountId),
        kind: 'posted',
        debitAccountId: payee.accountId,
        creditAccountId: vaultAccountId,
        amount: payee.paidUnits,
        pendingId: null,
        reason: 'chain_reversal',
        playId,
      });
      return {
        accountId: payee.accountId,
        units: payee.paidUnits,
        covered: reserved >= payee.paidUnits,
        transfers,
      };
    });
}
