import type { Units } from '../money.js';
import {
  LedgerAccountKinds,
  LedgerTransferKinds,
  LedgerTransferReasons,
  type LedgerAccountKind,
  type LedgerTransferKind,
  type LedgerTransferReason,
} from '@coinop/protocol';

/**
 * Who an account belongs to. `mint` and `vault` are the accounts allowed to go negative: the mint
 * issues HST, and a vault account stands for the HST a chain vault holds, so its negative balance
 * is what the ledger owes for deposits (one per chain vault).
 */
export const AccountKinds = LedgerAccountKinds;
export type AccountKind = LedgerAccountKind;

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
 * The ledger's operations (`posted`, `pending`, `post_pending`, `void_pending`) and the reasons
 * HST moves, defined once in the protocol, which the admin API's transfer list also states.
 * - `posted`: moves `amount` at once.
 * - `pending`: reserves `amount` (first phase of a two-phase transfer).
 * - `post_pending` / `void_pending`: settles or releases the pending transfer `pendingId`, in full.
 */
export const TransferKinds = LedgerTransferKinds;
export type TransferKind = LedgerTransferKind;

/** Why money moved; recorded on every transfer for audits and payout listings. */
export const TransferReasons = LedgerTransferReasons;
export type TransferReason = LedgerTransferReason;

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

/**
 * Credits that reach a payee through someone else's play or round (a leader's share, the
 * developer's, a share returned, a prize, a returned entry): the payee did nothing, so whoever
 * watches their balance live must be told.
 */
const UNPROMPTED_CREDITS: ReadonlySet<TransferReason> = new Set<TransferReason>([
  'payout_leader',
  'payout_developer',
  'payout_returned',
  'tournament_prize',
  'tournament_returned',
]);

/** The accounts `transfers` credit unprompted (`UNPROMPTED_CREDITS`), for their live streams. */
export function unpromptedPayees(
  transfers: readonly Pick<TransferRequest, 'reason' | 'creditAccountId'>[],
): string[] {
  return transfers.filter((t) => UNPROMPTED_CREDITS.has(t.reason)).map((t) => t.creditAccountId);
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
