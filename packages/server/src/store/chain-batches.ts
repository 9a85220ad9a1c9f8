import { keyParams, type VaultKey } from './chain-checkpoints.js';
import { reconciliationStale } from '@coinop/core';
import { sendingGate, SendingHalted, SendingUnreconciled } from './chain-halts.js';
import type { Queryable } from './db.js';

/**
 * The operator's transactions on a chain vault (table chain_withdrawal_batches, migration 013;
 * `kind` since 014): payments of withdrawals, settlements and refunds of plays locked on chain,
 * each recorded before it is broadcast and settled once its outcome is known. Addresses and
 * hashes are stored lower-case.
 */

export type BatchStatus = 'sent' | 'confirmed' | 'reverted' | 'dropped';
/** What an operator's transaction does: pays withdrawals, settles or refunds plays locked on chain. */
export type BatchKind = 'withdraw' | 'settle' | 'refund';

export interface BatchRecord extends VaultKey {
  readonly id: string;
  readonly fromAddress: string;
  readonly nonce: bigint;
  readonly txHash: `0x${string}`;
  readonly rawTx: `0x${string}`;
  readonly status: BatchStatus;
  readonly kind: BatchKind;
  readonly createdAt: Date;
}

/** A batch as its sender records it, before the table adds its status and time. */
export type NewBatch = Omit<BatchRecord, 'status' | 'kind' | 'createdAt'>;

interface BatchRow {
  id: string;
  chain_id: bigint | number;
  vault_address: string;
  from_address: string;
  nonce: bigint | number;
  tx_hash: `0x${string}`;
  raw_tx: `0x${string}`;
  status: BatchStatus;
  kind: BatchKind;
  created_at: Date;
}

const BATCH_COLUMNS =
  'id, chain_id, vault_address, from_address, nonce, tx_hash, raw_tx, status, kind, created_at';

const toBatch = (row: BatchRow): BatchRecord => ({
  id: row.id,
  chainId: Number(row.chain_id),
  vaultAddress: row.vault_address,
  fromAddress: row.from_address,
  nonce: BigInt(row.nonce),
  txHash: row.tx_hash,
  rawTx: row.raw_tx,
  status: row.status,
  kind: row.kind,
  createdAt: row.created_at,
});

/**
 * Records an operator's transaction about to be broadcast, as `sent`. Every sender records here
 * before it broadcasts, so this is where a halt stops them all: throws SendingHalted, for the
 * caller to roll back, when the vault is halted (docs/concepts/chain.md#halts), and
 * SendingUnreconciled when its last reconciliation is older than `reconcileMaxAgeMs`.
 */
export async function insertOperatorBatch(
  tx: Queryable,
  batch: NewBatch,
  kind: BatchKind,
  now: Date,
  reconcileMaxAgeMs: number,
): Promise<void> {
  const gate = await sendingGate(tx, batch);
  if (gate.halt) throw new SendingHalted(gate.halt);
  if (reconciliationStale(gate.reconciledAt, now, reconcileMaxAgeMs)) {
    throw new SendingUnreconciled(gate.reconciledAt);
  }
  await tx.query(
    `INSERT INTO chain_withdrawal_batches
       (id, chain_id, vault_address, from_address, nonce, tx_hash, raw_tx, status, created_at,
        kind)
     VALUES ($3, $1, $2, $4, $5, $6, $7, 'sent', $8, $9)`,
    [
      ...keyParams(batch),
      batch.id,
      batch.fromAddress.toLowerCase(),
      batch.nonce,
      batch.txHash.toLowerCase(),
      batch.rawTx.toLowerCase(),
      now,
      kind,
    ],
  );
}

/** The vault's batches of `kind` still waiting for their outcome, lowest nonce first. */
export async function sentBatches(
  q: Queryable,
  key: VaultKey,
  kinds: readonly BatchKind[] = ['withdraw'],
): Promise<BatchRecord[]> {
  const rows = await q.query<BatchRow>(
    `SELECT ${BATCH_COLUMNS} FROM chain_withdrawal_batches
     WHERE status = 'sent' AND chain_id = $1 AND vault_address = $2 AND kind = ANY($3::text[])
     ORDER BY nonce, created_at`,
    [...keyParams(key), kinds],
  );
  return rows.map(toBatch);
}

/** The batch, locked; null when it is no longer `sent` (another process settled it). */
export async function lockSentBatch(tx: Queryable, id: string): Promise<BatchRecord | null> {
  const rows = await tx.query<BatchRow>(
    `SELECT ${BATCH_COLUMNS} FROM chain_withdrawal_batches WHERE id = $1 AND status = 'sent'
     FOR UPDATE`,
    [id],
  );
  return rows[0] ? toBatch(rows[0]) : null;
}

export async function settleBatchRecord(
  tx: Queryable,
  id: string,
  status: Exclude<BatchStatus, 'sent'>,
  blockNumber: bigint | null,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE chain_withdrawal_batches SET status = $2, block_number = $3, settled_at = $4
     WHERE id = $1`,
    [id, status, blockNumber, now],
  );
}

/** The highest nonce recorded for `fromAddress` on the chain, or null. */
export async function highestNonce(
  q: Queryable,
  chainId: number,
  fromAddress: string,
): Promise<bigint | null> {
  const [row] = await q.query<{ nonce: bigint | number | null }>(
    `SELECT max(nonce) AS nonce FROM chain_withdrawal_batches
     WHERE chain_id = $1 AND from_address = $2`,
    [chainId, fromAddress.toLowerCase()],
  );
  return row?.nonce === null || row?.nonce === undefined ? null : BigInt(row.nonce);
}

/** The batch mined in the highest block, as recorded when it was settled; null if none. */
export async function lastMinedBatch(
  q: Queryable,
  key: VaultKey,
): Promise<{ txHash: string; blockNumber: bigint } | null> {
  const [row] = await q.query<{ tx_hash: string; block_number: bigint | number }>(
    `SELECT tx_hash, block_number FROM chain_withdrawal_batches
     WHERE chain_id = $1 AND vault_address = $2 AND block_number IS NOT NULL
     ORDER BY block_number DESC LIMIT 1`,
    keyParams(key),
  );
  return row ? { txHash: row.tx_hash, blockNumber: BigInt(row.block_number) } : null;
}
