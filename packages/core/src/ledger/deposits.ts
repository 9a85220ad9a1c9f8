import { MAX_UNITS, type Units } from '../money.js';
import type { AccountKind, TransferRequest } from './types.js';

/**
 * Deposits of HST from a chain vault (docs/concepts/chain.md). The watcher reads each deposit's
 * event and asks here whether it may be credited; a deposit that may not is held, never lost,
 * for the operator to credit to an account later.
 */

/** The accounts a deposit credits: what a player or a developer spends and withdraws from. */
export const DEPOSIT_ACCOUNT_KINDS: readonly AccountKind[] = ['player', 'developer'];

/**
 * Why a deposit is held, in the order checked: an amount no ledger balance can hold (0 or above
 * `MAX_UNITS`; no account fixes that), an account id that names no account, or an account that
 * is not a player's or a developer's.
 */
export const DepositHoldReasons = [
  'amount_out_of_range',
  'unknown_account',
  'not_a_deposit_account',
] as const;
export type DepositHoldReason = (typeof DepositHoldReasons)[number];

export type DepositDecision =
  { readonly credit: true } | { readonly credit: false; readonly reason: DepositHoldReason };

/** Whether a deposit of `amountUnits` to `account` (null: no such account) may be credited. */
export function decideDeposit(
  amountUnits: bigint,
  account: { readonly kind: AccountKind } | null,
): DepositDecision {
  if (amountUnits <= 0n || amountUnits > MAX_UNITS) {
    return { credit: false, reason: 'amount_out_of_range' };
  }
  if (account === null) return { credit: false, reason: 'unknown_account' };
  if (!DEPOSIT_ACCOUNT_KINDS.includes(account.kind)) {
    return { credit: false, reason: 'not_a_deposit_account' };
  }
  return { credit: true };
}

/** The transfer that credits a deposit: posted, from the vault's account, once per `id`. */
export function depositTransfer(input: {
  id: string;
  vaultAccountId: string;
  accountId: string;
  amountUnits: Units;
}): TransferRequest {
  return {
    id: input.id,
    kind: 'posted',
    debitAccountId: input.vaultAccountId,
    creditAccountId: input.accountId,
    amount: input.amountUnits,
    pendingId: null,
    reason: 'deposit',
    playId: null,
  };
}
