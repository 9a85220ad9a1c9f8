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
 * Checks a withdrawal's amount before anything is reserved: more than 0, and at most what the
 * vault pays in one withdrawal (`oneWithdrawalLimitUnits`; null when it is not known). Throws `invalid_amount` or
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

/**
 * The most the vault pays in one withdrawal: its `maxWithdrawal`, capped by its
 * `dailyWithdrawalLimit`. The contract accepts a `maxWithdrawal` above the daily limit, but a
 * withdrawal above the daily limit fits no day, and would wait for ever (security review, finding
 * 6); so it is refused like one above `maxWithdrawal`.
 */
export function oneWithdrawalLimitUnits(maxWithdrawalUnits: Units, dailyLimitUnits: Units): Units {
  return maxWithdrawalUnits < dailyLimitUnits ? maxWithdrawalUnits : dailyLimitUnits;
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

/** The next batch of queued withdrawals the vault will pay, decided from its limits. */
export interface WithdrawalBatchPlan<W> {
  /** To send now, oldest first. */
  readonly batch: W[];
  /** Above the vault's `maxWithdrawal` (lowered after they were taken): refused for good. */
  readonly overMax: W[];
  /**
   * Waiting for the next day: each one above what today's limit leaves, and once one requested
   * before today waits, everything behind it too.
   */
  readonly held: W[];
  /** Not looked at yet (the batch is full): the rest of the queue, in order. */
  readonly rest: W[];
  /** What today's limit leaves once the batch is paid. */
  readonly budgetUnits: Units;
}

/** A day as the vault counts its withdrawals (`block.timestamp / 1 days`): UTC, from midnight. */
const DAY_MS = 86_400_000;

/**
 * Takes the next batch from `queue` (oldest first): at most `batchMax`, within `budgetUnits`
 * (what the vault's daily limit leaves on the day of `now`). A withdrawal above
 * `maxWithdrawalUnits` (the most one withdrawal may be: `oneWithdrawalLimitUnits`) is set aside
 * as refused. One requested today that does not fit what today leaves is held, and the ones
 * after it that fit are paid (security review, finding 6: one large request must not hold
 * everybody's for a day). One requested before today that does not fit holds everything behind
 * it, so that nothing sent meanwhile keeps it from the next day's limit: it waits two days at
 * most, since it fits a whole day's limit. Pure: the sender writes what it decides.
 */
export function nextWithdrawalBatch<
  W extends { readonly amountUnits: Units; readonly requestedAt: Date },
>(
  queue: readonly W[],
  limits: {
    readonly maxWithdrawalUnits: Units;
    readonly budgetUnits: Units;
    readonly batchMax: number;
    readonly now: Date;
  },
): WithdrawalBatchPlan<W> {
  const todayStartsAt = Math.floor(limits.now.getTime() / DAY_MS) * DAY_MS;
  const batch: W[] = [];
  const overMax: W[] = [];
  const held: W[] = [];
  let budgetUnits = limits.budgetUnits;
  let taken = 0;
  for (; taken < queue.length && batch.length < limits.batchMax; taken++) {
    const next = queue[taken] as W;
    if (next.amountUnits > limits.maxWithdrawalUnits) {
      overMax.push(next);
    } else if (next.amountUnits > budgetUnits) {
      if (next.requestedAt.getTime() < todayStartsAt) {
        held.push(...queue.slice(taken));
        taken = queue.length;
        break;
      }
      held.push(next);
    } else {
      budgetUnits -= next.amountUnits;
      batch.push(next);
    }
  }
  return { batch, overMax, held, rest: queue.slice(taken), budgetUnits };
}
