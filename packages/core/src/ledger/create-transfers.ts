import { availableUnits, mayGoNegative } from './balances.js';
import type { Account, AccountDelta, Transfer, TransferRequest, TransferResult } from './types.js';

/**
 * What the store read, under lock, before a batch: the accounts the batch touches, any transfer
 * that already has one of the batch's ids, the pending transfers referenced by `pendingId`, and
 * which of those were already posted or voided.
 */
export interface LedgerSnapshot {
  readonly accounts: ReadonlyMap<string, Account>;
  readonly existing: ReadonlyMap<string, Transfer>;
  readonly pendings: ReadonlyMap<string, Transfer>;
  readonly resolvedPendings: ReadonlyMap<string, 'posted' | 'voided'>;
}

export interface BatchOutcome {
  /** One result per request, in order. */
  readonly results: readonly TransferResult[];
  /** True when every result is a success; the batch is applied all or nothing. */
  readonly ok: boolean;
  /** Transfers to insert (the `created` ones), with amounts resolved for post/void. */
  readonly toInsert: readonly TransferRequest[];
  /** Net balance changes per account id, for the `created` transfers. */
  readonly deltas: ReadonlyMap<string, AccountDelta>;
}

/**
 * Decides a linked batch of transfers against a snapshot, in order, each seeing the effect of the
 * ones before it. Pure: the store applies `toInsert` and `deltas` in one database transaction,
 * and its CHECK constraints repeat the no-negative-balance rule.
 */
export function createTransfers(
  requests: readonly TransferRequest[],
  snapshot: LedgerSnapshot,
): BatchOutcome {
  // The accounts as the transfers so far left them, and their net changes: each a copy of its
  // own, changed in place (a score settles a dozen transfers on the play path; issue 32).
  const working = new Map<string, Account>(snapshot.accounts);
  const changed = new Map<string, { account: MutableAccount; delta: AccountDelta }>();
  const resolved = new Map(snapshot.resolvedPendings);
  const toInsert: TransferRequest[] = [];
  const results: TransferResult[] = [];
  const seen = new Map<string, TransferRequest>();
  const changing = (accountId: string) => {
    let entry = changed.get(accountId);
    if (entry === undefined) {
      const account = working.get(accountId);
      if (!account) throw new TypeError(`account ${accountId} vanished from the snapshot`);
      entry = { account: { ...account }, delta: zeroDelta() };
      changed.set(accountId, entry);
      working.set(accountId, entry.account);
    }
    return entry;
  };

  for (const request of requests) {
    const earlier = seen.get(request.id);
    const existing = snapshot.existing.get(request.id) ?? earlier;
    const result = decide(request, existing, working, snapshot.pendings, resolved);
    results.push(result);
    if (result !== 'created') continue;

    const effective = resolveAmount(request, snapshot.pendings);
    seen.set(request.id, effective);
    toInsert.push(effective);
    const debit = changing(effective.debitAccountId);
    const credit = changing(effective.creditAccountId);
    applyEffect(effective, debit.account, credit.account);
    applyEffect(effective, debit.delta, credit.delta);
    if (request.kind === 'post_pending' && request.pendingId)
      resolved.set(request.pendingId, 'posted');
    if (request.kind === 'void_pending' && request.pendingId)
      resolved.set(request.pendingId, 'voided');
  }

  const deltas = new Map<string, AccountDelta>();
  for (const [accountId, { delta }] of changed) deltas.set(accountId, delta);
  return { results, ok: results.every((r) => r === 'created' || r === 'exists'), toInsert, deltas };
}

type MutableAccount = { -readonly [K in keyof Account]: Account[K] };

function decide(
  request: TransferRequest,
  existing: TransferRequest | undefined,
  accounts: ReadonlyMap<string, Account>,
  pendings: ReadonlyMap<string, Transfer>,
  resolved: ReadonlyMap<string, 'posted' | 'voided'>,
): TransferResult {
  const settles = request.kind === 'post_pending' || request.kind === 'void_pending';
  if (!settles && request.amount <= 0n) return 'amount_must_be_positive';
  if (settles && request.amount < 0n) return 'amount_must_be_positive';
  if (request.debitAccountId === request.creditAccountId) return 'accounts_must_be_different';
  if (settles && !request.pendingId) return 'pending_id_must_be_set';
  if (!settles && request.pendingId) return 'pending_id_must_not_be_set';
  if (existing) {
    return sameFields(existing, resolveAmount(request, pendings))
      ? 'exists'
      : 'exists_with_different_fields';
  }
  const debit = accounts.get(request.debitAccountId);
  if (!debit) return 'debit_account_not_found';
  if (!accounts.get(request.creditAccountId)) return 'credit_account_not_found';

  if (settles) {
    const pending = pendings.get(request.pendingId ?? '');
    if (!pending) return 'pending_transfer_not_found';
    if (pending.kind !== 'pending') return 'pending_transfer_not_pending';
    if (
      pending.debitAccountId !== request.debitAccountId ||
      pending.creditAccountId !== request.creditAccountId
    ) {
      return 'pending_transfer_has_different_accounts';
    }
    const state = resolved.get(pending.id);
    if (state === 'posted') return 'pending_transfer_already_posted';
    if (state === 'voided') return 'pending_transfer_already_voided';
    // Posting or voiding moves money out of pending into posted (or back): no new debit.
    return 'created';
  }

  if (!mayGoNegative(debit) && availableUnits(debit) < request.amount) return 'exceeds_credits';
  return 'created';
}

/** Post and void settle the whole pending amount: an amount of 0 means "the pending amount". */
function resolveAmount(
  request: TransferRequest,
  pendings: ReadonlyMap<string, Transfer>,
): TransferRequest {
  if (request.kind !== 'post_pending' && request.kind !== 'void_pending') return request;
  const pending = pendings.get(request.pendingId ?? '');
  if (!pending || request.amount !== 0n) return request;
  return { ...request, amount: pending.amount };
}

function sameFields(a: TransferRequest, b: TransferRequest): boolean {
  return (
    a.kind === b.kind &&
    a.debitAccountId === b.debitAccountId &&
    a.creditAccountId === b.creditAccountId &&
    a.amount === b.amount &&
    a.pendingId === b.pendingId &&
    a.reason === b.reason &&
    a.playId === b.playId
  );
}

const zeroDelta = (): AccountDelta => ({
  debitsPending: 0n,
  debitsPosted: 0n,
  creditsPending: 0n,
  creditsPosted: 0n,
});

/** Adds one transfer's balance changes to its debit and credit account's sums. */
function applyEffect(transfer: TransferRequest, debit: AccountDelta, credit: AccountDelta): void {
  const { amount } = transfer;
  switch (transfer.kind) {
    case 'posted':
      debit.debitsPosted += amount;
      credit.creditsPosted += amount;
      break;
    case 'pending':
      debit.debitsPending += amount;
      credit.creditsPending += amount;
      break;
    case 'post_pending':
      debit.debitsPending -= amount;
      debit.debitsPosted += amount;
      credit.creditsPending -= amount;
      credit.creditsPosted += amount;
      break;
    case 'void_pending':
      debit.debitsPending -= amount;
      credit.creditsPending -= amount;
      break;
  }
}
