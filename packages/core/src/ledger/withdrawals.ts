import { CoinopError } from '../errors.js';
import { formatHst, type Units } from '../money.js';
import type { AccountKind, TransferRequest } from './types.js';

/**
 * Withdrawals of HST to a wallet through a chain vault (docs/concepts/chain.md). A withdrawal is
 * a two-phase transfer from the requester's account to the vault's: pending when requested (the
 * amount is reserved, so the balance check refuses more than is available), posted once the
 * vault paid it on chain, voided when the vault refused it for good (the HST is spendable again).
 */

/** The accounts a withdrawal may come from: a player's, or a developer's earnings. */
export const WITHDRAWAL_ACCOUNT_KINDS: readonly AccountKind[] = ['player', 'developer'];

/**
 * Checks a withdrawal's amount before anything is reserved: more than 0, and at most the vault's
 * `maxWithdrawal` (null when it is not known). Throws `invalid_amount` or
 * `withdrawal_above_limit`, naming the field `amount`.
 */
export function checkWithdrawalAmount(amountUnits: Units, maxWithdrawalUnits: Units | null): void {
  if (amountUnits <= 0n) {
    throw new CoinopError('invalid_amount', 'amount must be more than 0 HST', {
      details: { field: 'amount' },
    });
  }
  if (maxWithdrawalUnits !== null && amountUnits > maxWithdrawalUnits) {
    throw new CoinopError(
      'withdrawal_above_limit',
      `amount ${formatHst(amountUnits)} HST is more than the vault pays in one withdrawal ` +
        `(${formatHst(maxWithdrawalUnits)} HST)`,
      {
        details: {
          field: 'amount',
          amount: formatHst(amountUnits),
          maxWithdrawal: formatHst(maxWithdrawalUnits),
        },
      },
    );
  }
}

/** Whether an account of `kind` may withdraw. */
export function mayWithdraw(kind: AccountKind): boolean {
  return WITHDRAWAL_ACCOUNT_KINDS.includes(kind);
}

/** The pending transfer that reserves a withdrawal: its id is the withdrawal's. */
export function withdrawalReserveTransfer(input: {
  id: string;
  accountId: string;
  vaultAccountId: string;
  amountUnits: Units;
}): TransferRequest {
  return {
    id: input.id,
    kind: 'pending',
    debitAccountId: input.accountId,
    creditAccountId: input.vaultAccountId,
    amount: input.amountUnits,
    pendingId: null,
    reason: 'withdrawal',
    playId: null,
  };
}

/**
 * The transfer that settles a withdrawal's reservation `reserve`: `post` when the vault paid it,
 * `void` when it was refused for good. `id` is derived from the withdrawal's, so settling twice
 * is a no-op (`exists`) and settling both ways is refused by the ledger.
 */
export function withdrawalSettleTransfer(
  reserve: TransferRequest,
  outcome: 'post' | 'void',
  id: string,
): TransferRequest {
  return settlePendingTransfer(reserve, outcome, id);
}

/**
 * The transfer that posts or voids the pending transfer `pending` (a withdrawal's reservation, a
 * play's chain payout), with its accounts, amount, reason and play.
 */
export function settlePendingTransfer(
  pending: TransferRequest,
  outcome: 'post' | 'void',
  id: string,
): TransferRequest {
  return {
    id,
    kind: outcome === 'post' ? 'post_pending' : 'void_pending',
    debitAccountId: pending.debitAccountId,
    creditAccountId: pending.creditAccountId,
    amount: pending.amount,
    pendingId: pending.id,
    reason: pending.reason,
    playId: pending.playId,
  };
}
