import { keyParams, type VaultKey } from './chain-checkpoints.js';
import { insertOperatorBatch, type NewBatch } from './chain-batches.js';
import type { Queryable } from './db.js';

/**
 * Withdrawals from a chain vault (migration 013); the transactions that pay them are in
 * chain-batches.ts. Addresses and hashes are stored lower-case.
 */

export const WithdrawalStatuses = ['queued', 'sent', 'paid', 'failed'] as const;
export type WithdrawalStatus = (typeof WithdrawalStatuses)[number];

export interface WithdrawalRecord extends VaultKey {
  /** The contract's bytes16 id as a UUID, and the id of the pending transfer that reserves it. */
  readonly id: string;
  readonly accountId: string;
  readonly toAddress: string;
  readonly amountUnits: bigint;
  readonly status: WithdrawalStatus;
  readonly batchId: string | null;
  readonly txHash: string | null;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly idempotencyKey: string | null;
  readonly requestedAt: Date;
  readonly sentAt: Date | null;
  readonly settledAt: Date | null;
}

interface WithdrawalRow {
  id: string;
  chain_id: bigint | number;
  vault_address: string;
  account_id: string;
  to_address: string;
  amount_units: bigint | number | string;
  status: WithdrawalStatus;
  batch_id: string | null;
  tx_hash: string | null;
  attempts: number;
  last_error: string | null;
  idempotency_key: string | null;
  requested_at: Date;
  sent_at: Date | null;
  settled_at: Date | null;
}

const COLUMNS =
  'id, chain_id, vault_address, account_id, to_address, amount_units, status, batch_id, ' +
  'tx_hash, attempts, last_error, idempotency_key, requested_at, sent_at, settled_at';

function toRecord(row: WithdrawalRow): WithdrawalRecord {
  return {
    id: row.id,
    chainId: Number(row.chain_id),
    vaultAddress: row.vault_address,
    accountId: row.account_id,
    toAddress: row.to_address,
    amountUnits: BigInt(row.amount_units),
    status: row.status,
    batchId: row.batch_id,
    txHash: row.tx_hash,
    attempts: row.attempts,
    lastError: row.last_error,
    idempotencyKey: row.idempotency_key,
    requestedAt: row.requested_at,
    sentAt: row.sent_at,
    settledAt: row.settled_at,
  };
}

/** The most withdrawals one listing returns. */
export const WITHDRAWALS_PAGE_MAX = 100;

export async function insertWithdrawal(
  tx: Queryable,
  input: VaultKey & {
    id: string;
    accountId: string;
    toAddress: string;
    amountUnits: bigint;
    idempotencyKey: string | null;
  },
  now: Date,
): Promise<WithdrawalRecord> {
  const [row] = await tx.query<WithdrawalRow>(
    `INSERT INTO chain_withdrawals
       (id, chain_id, vault_address, account_id, to_address, amount_units, status,
        idempotency_key, requested_at, updated_at)
     VALUES ($3, $1, $2, $4, $5, $6, 'queued', $7, $8, $8)
     RETURNING ${COLUMNS}`,
    [
      ...keyParams(input),
      input.id,
      input.accountId,
      input.toAddress.toLowerCase(),
      input.amountUnits,
      input.idempotencyKey,
      now,
    ],
  );
  if (!row) throw new Error('the withdrawal insert returned no row');
  return toRecord(row);
}

export async function findWithdrawal(q: Queryable, id: string): Promise<WithdrawalRecord | null> {
  const rows = await q.query<WithdrawalRow>(
    `SELECT ${COLUMNS} FROM chain_withdrawals WHERE id = $1`,
    [id],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function findWithdrawalByKey(
  q: Queryable,
  accountId: string,
  idempotencyKey: string,
): Promise<WithdrawalRecord | null> {
  const rows = await q.query<WithdrawalRow>(
    `SELECT ${COLUMNS} FROM chain_withdrawals WHERE account_id = $1 AND idempotency_key = $2`,
    [accountId, idempotencyKey],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/**
 * Withdrawals newest first, of one account or all, of one status or any; after `before` (the id
 * of the last one of the page before) when given.
 */
export async function listWithdrawals(
  q: Queryable,
  filter: {
    accountId?: string | undefined;
    status?: WithdrawalStatus | undefined;
    limit: number;
    before?: string | undefined;
  },
): Promise<WithdrawalRecord[]> {
  const rows = await q.query<WithdrawalRow>(
    `SELECT ${COLUMNS} FROM chain_withdrawals w
     WHERE ($1::uuid IS NULL OR account_id = $1)
       AND ($2::text IS NULL OR status = $2)
       AND ($3::uuid IS NULL OR (requested_at, id) <
             (SELECT requested_at, id FROM chain_withdrawals WHERE id = $3))
     ORDER BY requested_at DESC, id DESC
     LIMIT $4`,
    [filter.accountId ?? null, filter.status ?? null, filter.before ?? null, filter.limit],
  );
  return rows.map(toRecord);
}

/** The vault's queued withdrawals, oldest first. */
export async function queuedWithdrawals(
  q: Queryable,
  key: VaultKey,
  limit: number,
): Promise<WithdrawalRecord[]> {
  const rows = await q.query<WithdrawalRow>(
    `SELECT ${COLUMNS} FROM chain_withdrawals
     WHERE status = 'queued' AND chain_id = $1 AND vault_address = $2
     ORDER BY requested_at, id LIMIT $3`,
    [...keyParams(key), limit],
  );
  return rows.map(toRecord);
}

/** The withdrawals of a batch, locked until the transaction ends. */
export async function lockBatchWithdrawals(
  tx: Queryable,
  batchId: string,
): Promise<WithdrawalRecord[]> {
  const rows = await tx.query<WithdrawalRow>(
    `SELECT ${COLUMNS} FROM chain_withdrawals WHERE batch_id = $1 ORDER BY id FOR UPDATE`,
    [batchId],
  );
  return rows.map(toRecord);
}

/** The withdrawal, locked until the transaction ends. */
export async function lockWithdrawal(tx: Queryable, id: string): Promise<WithdrawalRecord | null> {
  const rows = await tx.query<WithdrawalRow>(
    `SELECT ${COLUMNS} FROM chain_withdrawals WHERE id = $1 FOR UPDATE`,
    [id],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/**
 * Paid or failed: the reservation was posted or voided in the same transaction. A paid withdrawal
 * keeps only the error given with it: what made it wait (a halt, a pause) is over, and a support
 * person reading a paid withdrawal with an error would chase a non-problem. A failed one keeps
 * its last error when none is given.
 */
export async function markSettled(
  tx: Queryable,
  id: string,
  status: 'paid' | 'failed',
  lastError: string | null,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE chain_withdrawals
     SET status = $2,
         last_error = CASE WHEN $2 = 'paid' THEN $3 ELSE COALESCE($3, last_error) END,
         settled_at = $4, updated_at = $4
     WHERE id = $1`,
    [id, status, lastError, now],
  );
}

/** Back in the queue (its transaction was not mined, or reverted), with why. */
export async function requeueWithdrawal(
  tx: Queryable,
  id: string,
  lastError: string,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE chain_withdrawals SET status = 'queued', last_error = $2, updated_at = $3
     WHERE id = $1 AND status = 'sent'`,
    [id, lastError, now],
  );
}

/** Notes why a queued withdrawal waits (the vault paused, today's limit reached). */
export async function noteQueuedError(
  q: Queryable,
  ids: readonly string[],
  lastError: string,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE chain_withdrawals SET last_error = $2, updated_at = $3
     WHERE id = ANY($1::uuid[]) AND status = 'queued'`,
    [ids, lastError, now],
  );
}

/**
 * Records a batch about to be broadcast and moves its withdrawals from queued to sent, in one
 * transaction. Throws BatchRaced, for the caller to roll back, if one is no longer queued, and
 * what `insertOperatorBatch` throws.
 */
export async function recordBatch(
  tx: Queryable,
  batch: NewBatch,
  withdrawalIds: readonly string[],
  now: Date,
  reconcileMaxAgeMs: number,
): Promise<void> {
  await insertOperatorBatch(tx, batch, 'withdraw', now, reconcileMaxAgeMs);
  const moved = await tx.query(
    `UPDATE chain_withdrawals
     SET status = 'sent', batch_id = $2, tx_hash = $3, attempts = attempts + 1, sent_at = $4,
         updated_at = $4
     WHERE id = ANY($1::uuid[]) AND status = 'queued'
     RETURNING 1`,
    [withdrawalIds, batch.id, batch.txHash.toLowerCase(), now],
  );
  if (moved.length !== withdrawalIds.length) throw new BatchRaced();
}

/** A withdrawal of a batch being recorded was not queued any more: the batch is rolled back. */
export class BatchRaced extends Error {
  override readonly name = 'BatchRaced';
}

/** Counts and amounts by status, for the admin status. */
export async function withdrawalTotals(
  q: Queryable,
  key: VaultKey,
): Promise<Record<WithdrawalStatus, { count: number; units: bigint }>> {
  const rows = await q.query<{ status: WithdrawalStatus; count: number | bigint; units: string }>(
    `SELECT status, count(*) AS count, COALESCE(sum(amount_units), 0)::text AS units
     FROM chain_withdrawals WHERE chain_id = $1 AND vault_address = $2 GROUP BY status`,
    keyParams(key),
  );
  const totals = Object.fromEntries(
    WithdrawalStatuses.map((s) => [s, { count: 0, units: 0n }]),
  ) as Record<WithdrawalStatus, { count: number; units: bigint }>;
  for (const row of rows)
    totals[row.status] = { count: Number(row.count), units: BigInt(row.units) };
  return totals;
}
