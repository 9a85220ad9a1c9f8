import {
  CoinopError,
  InsufficientFundsError,
  availableUnits,
  createTransfers,
  type Account,
  type AccountDelta,
  type AccountKind,
  type Transfer,
  type TransferRequest,
  type TransferResult,
} from '@coinop/core';
import type { Queryable } from './db.js';
import { translated } from './errors.js';
import { columns, type Column } from './params.js';

export interface AccountRow {
  id: string;
  kind: AccountKind;
  debits_pending: bigint;
  debits_posted: bigint;
  credits_pending: bigint;
  credits_posted: bigint;
}

interface TransferRow {
  id: string;
  kind: Transfer['kind'];
  debit_account_id: string;
  credit_account_id: string;
  amount: bigint;
  pending_id: string | null;
  reason: Transfer['reason'];
  play_id: string | null;
  created_at: Date;
}

export function toAccount(row: AccountRow): Account {
  return {
    id: row.id,
    kind: row.kind,
    debitsPending: BigInt(row.debits_pending),
    debitsPosted: BigInt(row.debits_posted),
    creditsPending: BigInt(row.credits_pending),
    creditsPosted: BigInt(row.credits_posted),
  };
}

export function toTransfer(row: TransferRow): Transfer {
  return {
    id: row.id,
    kind: row.kind,
    debitAccountId: row.debit_account_id,
    creditAccountId: row.credit_account_id,
    amount: BigInt(row.amount),
    pendingId: row.pending_id,
    reason: row.reason,
    playId: row.play_id,
    createdAt: row.created_at,
  };
}

const ACCOUNT_COLUMNS = 'id, kind, debits_pending, debits_posted, credits_pending, credits_posted';
const TRANSFER_COLUMNS =
  'id, kind, debit_account_id, credit_account_id, amount, pending_id, reason, play_id, created_at';

export async function insertAccount(
  tx: Queryable,
  id: string,
  kind: AccountKind,
  now: Date,
): Promise<void> {
  await tx.query(
    'INSERT INTO accounts (id, kind, created_at) VALUES ($1, $2, $3)',
    [id, kind, now],
    'ledger_insert_account',
  );
}

/** The account, locked until the transaction ends (`tx` must be one). */
export async function lockAccount(tx: Queryable, id: string): Promise<Account | null> {
  const rows = await tx.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1 FOR UPDATE`,
    [id],
    'ledger_lock_account',
  );
  return rows[0] ? toAccount(rows[0]) : null;
}

export async function findAccount(q: Queryable, id: string): Promise<Account | null> {
  const rows = await q.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = $1`,
    [id],
    'ledger_find_account',
  );
  return rows[0] ? toAccount(rows[0]) : null;
}

/**
 * Applies a linked batch of transfers atomically inside `tx`: locks the accounts it touches in id
 * order (so concurrent batches cannot deadlock on them), lets the core decide every transfer,
 * then inserts the created transfers and applies the net balance changes. Throws CoinopError on
 * any failed transfer, leaving the transaction to roll back, and LedgerSumOutOfRange when an
 * account's sum would pass what its column holds. Returns each transfer's result.
 */
export function applyTransfers(
  tx: Queryable,
  requests: readonly TransferRequest[],
  now: Date,
): Promise<TransferResult[]> {
  return translated(() => applyTransferRequests(tx, requests, now));
}

async function applyTransferRequests(
  tx: Queryable,
  requests: readonly TransferRequest[],
  now: Date,
): Promise<TransferResult[]> {
  if (requests.length === 0) return [];
  const accountIds = [
    ...new Set(requests.flatMap((r) => [r.debitAccountId, r.creditAccountId])),
  ].sort();
  const pendingIds = [
    ...new Set(requests.map((r) => r.pendingId).filter((id): id is string => id !== null)),
  ];

  const accountRows = await tx.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    [accountIds],
    'ledger_lock_accounts',
  );
  const related = await tx.query<TransferRow & { settled_by: string | null }>(
    `SELECT ${TRANSFER_COLUMNS}, NULL::text AS settled_by FROM transfers WHERE id = ANY($1::uuid[])
     UNION ALL
     SELECT ${TRANSFER_COLUMNS}, kind AS settled_by FROM transfers WHERE pending_id = ANY($2::uuid[])`,
    [requests.map((r) => r.id).concat(pendingIds), pendingIds],
    'ledger_related_transfers',
  );

  const requestIds = new Set(requests.map((r) => r.id));
  const existing = new Map<string, Transfer>();
  const pendings = new Map<string, Transfer>();
  const resolvedPendings = new Map<string, 'posted' | 'voided'>();
  for (const row of related) {
    if (row.settled_by !== null) {
      if (row.pending_id) {
        resolvedPendings.set(
          row.pending_id,
          row.settled_by === 'post_pending' ? 'posted' : 'voided',
        );
      }
      continue;
    }
    const transfer = toTransfer(row);
    if (requestIds.has(transfer.id)) existing.set(transfer.id, transfer);
    if (pendingIds.includes(transfer.id)) pendings.set(transfer.id, transfer);
  }

  const accounts = new Map(accountRows.map((row) => [row.id, toAccount(row)]));
  const outcome = createTransfers(requests, { accounts, existing, pendings, resolvedPendings });
  if (!outcome.ok) throw failure(requests, outcome.results, accounts);

  if (outcome.toInsert.length > 0) {
    // One round trip: the transfers and the balance changes they make, together.
    await writeTransferBatch(tx, outcome.toInsert, outcome.deltas, now);
  }
  return [...outcome.results];
}

/**
 * Writes a decided batch in one round trip: the transfers and the balance changes they make.
 * `now` is every transfer's creation time, or one per transfer.
 */
export async function writeTransferBatch(
  tx: Queryable,
  transfers: readonly TransferRequest[],
  deltas: ReadonlyMap<string, AccountDelta>,
  now: Date | readonly Date[],
): Promise<void> {
  const batch = transferBatchSql(1);
  await tx.query(
    `WITH ${batch.ctes} SELECT coinop_missing_account() WHERE ${batch.accountMissing}`,
    [...batch.params(transfers, deltas, now)],
    'ledger_write_batch',
  );
}

/**
 * The SQL that writes a decided batch: `ctes`, two WITH entries, `moved` inserting the
 * transfers and `balances` applying their net balance changes, and `accountMissing`, a condition
 * true when a transfer named an account that does not exist (every account a transfer names has
 * a balance change, so `balances` must have updated them all; see migration 008). Their 15
 * parameters are numbered from `first`. Accounts are passed in id order, so concurrent batches
 * update shared accounts in one order.
 */
export function transferBatchSql(first: number): {
  ctes: string;
  accountMissing: string;
  params(
    transfers: readonly TransferRequest[],
    deltas: ReadonlyMap<string, AccountDelta>,
    now: Date | readonly Date[],
  ): unknown[];
} {
  const p = (i: number) => `$${first + i}`;
  return {
    ctes: `moved AS (
       INSERT INTO transfers (id, kind, debit_account_id, credit_account_id, amount, pending_id,
                              reason, play_id, created_at)
       SELECT id, kind, debit, credit, amount, pending_id, reason, play_id, created_at
       FROM unnest(${p(0)}::uuid[], ${p(1)}::text[], ${p(2)}::uuid[], ${p(3)}::uuid[],
                   ${p(4)}::bigint[], ${p(5)}::uuid[], ${p(6)}::text[], ${p(7)}::uuid[],
                   ${p(8)}::timestamptz[])
         AS t(id, kind, debit, credit, amount, pending_id, reason, play_id, created_at)
       RETURNING 1
     ), balances AS (
       UPDATE accounts a SET
         debits_pending = a.debits_pending + d.dpe,
         debits_posted = a.debits_posted + d.dpo,
         credits_pending = a.credits_pending + d.cpe,
         credits_posted = a.credits_posted + d.cpo
       FROM unnest(${p(9)}::uuid[], ${p(10)}::bigint[], ${p(11)}::bigint[], ${p(12)}::bigint[],
                   ${p(13)}::bigint[]) AS d(id, dpe, dpo, cpe, cpo)
       WHERE a.id = d.id
       RETURNING 1
     )`,
    accountMissing: `(SELECT count(*) FROM balances) <> ${p(14)}`,
    params(transfers, deltas, now) {
      const ids = [...deltas.keys()].sort();
      return [
        ...columns(transfers, [
          ...TRANSFER_COLUMNS_IN_BATCH,
          Array.isArray(now) ? (_x, i) => (now as readonly Date[])[i] : () => now,
        ]),
        ids,
        ...columns(
          ids.map((id) => deltas.get(id) as AccountDelta),
          DELTA_COLUMNS,
        ),
        ids.length,
      ];
    },
  };
}

/** A transfer's columns in a batch's parameter order, before its creation time. */
const TRANSFER_COLUMNS_IN_BATCH: readonly Column<TransferRequest>[] = [
  (x) => x.id,
  (x) => x.kind,
  (x) => x.debitAccountId,
  (x) => x.creditAccountId,
  (x) => x.amount.toString(),
  (x) => x.pendingId,
  (x) => x.reason,
  (x) => x.playId,
];

/** An account's four balance changes in a batch's parameter order, after its id. */
const DELTA_COLUMNS: readonly Column<AccountDelta>[] = [
  (d) => d.debitsPending.toString(),
  (d) => d.debitsPosted.toString(),
  (d) => d.creditsPending.toString(),
  (d) => d.creditsPosted.toString(),
];

function failure(
  requests: readonly TransferRequest[],
  results: readonly TransferResult[],
  accounts: ReadonlyMap<string, Account>,
): CoinopError {
  const index = results.findIndex((r) => r !== 'created' && r !== 'exists');
  const request = requests[index];
  const result = results[index];
  if (!request || !result) return new CoinopError('internal_error', 'ledger batch failed');
  switch (result) {
    case 'exceeds_credits': {
      const debit = accounts.get(request.debitAccountId);
      return new InsufficientFundsError(
        request.debitAccountId,
        debit ? availableUnits(debit) : 0n,
        request.amount,
      );
    }
    case 'debit_account_not_found':
    case 'credit_account_not_found': {
      const id =
        result === 'debit_account_not_found' ? request.debitAccountId : request.creditAccountId;
      return new CoinopError('account_not_found', `account ${id} does not exist`, {
        details: { accountId: id, transferId: request.id },
      });
    }
    case 'exists_with_different_fields':
      return new CoinopError(
        'transfer_exists_with_different_fields',
        `transfer ${request.id} already exists with different fields`,
        { details: { transferId: request.id } },
      );
    default:
      // The remaining results mean our own code built a wrong batch: a bug, not bad input.
      throw new TypeError(`ledger rejected transfer ${request.id}: ${result}`);
  }
}

/** Totals over every account, for `coinop admin hst audit`. */
export interface LedgerAudit {
  debitsPosted: bigint;
  creditsPosted: bigint;
  debitsPending: bigint;
  creditsPending: bigint;
  minted: bigint;
  /**
   * HST the chain vaults hold for ledger accounts, as the ledger counts it: deposits credited
   * less withdrawals paid, i.e. the vault accounts' posted debits less posted credits.
   */
  vaultHeld: bigint;
  negativeAccounts: number;
  balanced: boolean;
}

export async function auditLedger(q: Queryable): Promise<LedgerAudit> {
  // One statement, so the balances and the journal are read from one snapshot even while
  // transfers are being committed.
  const [row] = await q.query<{
    dpo: bigint | null;
    cpo: bigint | null;
    dpe: bigint | null;
    cpe: bigint | null;
    minted: bigint | null;
    vault_held: bigint | null;
    negative: bigint;
    posted: bigint | null;
    pending: bigint | null;
  }>(
    `SELECT a.*, j.* FROM (
       SELECT sum(debits_posted)::bigint AS dpo, sum(credits_posted)::bigint AS cpo,
              sum(debits_pending)::bigint AS dpe, sum(credits_pending)::bigint AS cpe,
              (sum(debits_posted - credits_posted) FILTER (WHERE kind = 'mint'))::bigint AS minted,
              (sum(debits_posted - credits_posted) FILTER (WHERE kind = 'vault'))::bigint
                AS vault_held,
              count(*) FILTER (WHERE kind NOT IN ('mint', 'vault')
                AND debits_posted + debits_pending > credits_posted) AS negative
       FROM accounts) a
     CROSS JOIN (
       SELECT (sum(amount) FILTER (WHERE kind IN ('posted', 'post_pending')))::bigint AS posted,
              (sum(CASE WHEN kind = 'pending' THEN amount
                        WHEN kind IN ('post_pending', 'void_pending') THEN -amount END))::bigint
                AS pending
       FROM transfers) j`,
  );
  const journal = row;
  const big = (v: bigint | null | undefined) => BigInt(v ?? 0n);
  const audit = {
    debitsPosted: big(row?.dpo),
    creditsPosted: big(row?.cpo),
    debitsPending: big(row?.dpe),
    creditsPending: big(row?.cpe),
    minted: big(row?.minted),
    vaultHeld: big(row?.vault_held),
    negativeAccounts: Number(row?.negative ?? 0),
  };
  const balanced =
    audit.debitsPosted === audit.creditsPosted &&
    audit.debitsPending === audit.creditsPending &&
    audit.negativeAccounts === 0 &&
    audit.debitsPosted === big(journal?.posted) &&
    audit.debitsPending === big(journal?.pending);
  return { ...audit, balanced };
}

/**
 * HST minted (the mint account's posted debits less credits) and held pending, summed over the
 * accounts' running totals: one pass over the accounts, never the transfers. For the metrics,
 * read every few seconds at most.
 */
export async function ledgerTotals(
  q: Queryable,
): Promise<{ mintedUnits: bigint; pendingUnits: bigint }> {
  const [row] = await q.query<{ minted: bigint | null; pending: bigint | null }>(
    `SELECT (sum(debits_posted - credits_posted) FILTER (WHERE kind = 'mint'))::bigint AS minted,
            sum(debits_pending)::bigint AS pending
     FROM accounts`,
  );
  return { mintedUnits: BigInt(row?.minted ?? 0n), pendingUnits: BigInt(row?.pending ?? 0n) };
}
