import type { Units } from '../money.js';

/**
 * Who an account belongs to. `mint` and `vault` are the accounts allowed to go negative: the mint
 * issues HST, and a vault account stands for the HST a chain vault holds, so its negative balance
 * is what the ledger owes for deposits (one per chain vault).
 */
export const AccountKinds = [
  'player',
  'developer',
  'arcade',
  'escrow',
  'mint',
  'vault',
  /** A tournament round's prize pool (its id is the round's). */
  'pool',
] as const;
export type AccountKind = (typeof AccountKinds)[number];

/** An account's balances in base units, TigerBeetle style: debits and credits, pending and posted. */
export interface Account {
  readonly id: string;
  readonly kind: AccountKind;
  readonly debitsPending: Units;
  readonly debitsPosted: Units;
  readonly creditsPending: Units;
  readonly creditsPosted: Units;
}

/**
 * - `posted`: moves `amount` at once.
 * - `pending`: reserves `amount` (first phase of a two-phase transfer).
 * - `post_pending` / `void_pending`: settles or releases the pending transfer `pendingId`, in full.
 */
export const TransferKinds = ['posted', 'pending', 'post_pending', 'void_pending'] as const;
export type TransferKind = (typeof TransferKinds)[number];

/** Why money moved; recorded on every transfer for audits and payout listings. */
export const TransferReasons = [
  'mint',
  'play_lock',
  'play_settle',
  'payout_leader',
  'payout_developer',
  'payout_arcade',
  'payment',
  'play_void',
  'deposit',
  'withdrawal',
  /** A play's cost locked in a chain vault, drawn on the vault's account into the escrow. */
  'chain_play_lock',
  /** A payee's share of a play locked on chain, reserved until the vault pays it to them. */
  'chain_payout',
  /**
   * A settled play's share given back to the vault's account: the play's lock ended on chain
   * without the vault paying it out (its player reclaimed it).
   */
  'chain_reversal',
  /** A round's guarantee, from its creator into the round's pool. */
  'tournament_guarantee',
  /** The leaders' part of a settled round play, into the round's pool. */
  'tournament_pool',
  /** A place's prize, from the pool to the player. */
  'tournament_prize',
  /** A held payout posted when its hold ended: now spendable by its payee. */
  'payout_release',
  /** A held payout voided because a score it rested on was voided; re-settled at once. */
  'payout_void',
  /** What dividing the pool left over, to the arcade. */
  'tournament_remainder',
  /** A round nobody ranked on: its guarantee back to whoever put it in. */
  'tournament_refund',
  /** A round nobody ranked on: the fees' part of its pool to the developer. */
  'tournament_unclaimed',
] as const;
export type TransferReason = (typeof TransferReasons)[number];

/** A transfer as requested. The id is the idempotency key: replaying it is a successful no-op. */
export interface TransferRequest {
  readonly id: string;
  readonly kind: TransferKind;
  readonly debitAccountId: string;
  readonly creditAccountId: string;
  readonly amount: Units;
  readonly pendingId: string | null;
  readonly reason: TransferReason;
  readonly playId: string | null;
}

/** A stored transfer. Immutable once written. */
export interface Transfer extends TransferRequest {
  readonly createdAt: Date;
}

/** Net change to an account's four balances from a batch. */
export interface AccountDelta {
  debitsPending: Units;
  debitsPosted: Units;
  creditsPending: Units;
  creditsPosted: Units;
}

/**
 * Outcome of one transfer, checked in this precedence order (the first that applies wins, so the
 * same input always yields the same result). `created` and `exists` are successes.
 */
export const TransferResults = [
  'created',
  'amount_must_be_positive',
  'accounts_must_be_different',
  'pending_id_must_be_set',
  'pending_id_must_not_be_set',
  'exists_with_different_fields',
  'exists',
  'debit_account_not_found',
  'credit_account_not_found',
  'pending_transfer_not_found',
  'pending_transfer_not_pending',
  'pending_transfer_has_different_accounts',
  'pending_transfer_already_posted',
  'pending_transfer_already_voided',
  'exceeds_credits',
] as const;
export type TransferResult = (typeof TransferResults)[number];

export function isSuccess(result: TransferResult): boolean {
  return result === 'created' || result === 'exists';
}
