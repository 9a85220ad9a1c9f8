import type { Clock, Ids } from '@coinop/core';
import { AdvisoryLocks } from './advisory-locks.js';
import type { Db, Queryable } from './db.js';
import { insertAccount } from './ledger.js';

/**
 * The chain watcher's checkpoints (migration 012): one row per vault watched, with its ledger
 * account, how far its events are recorded, what the watcher last saw, and who reads the chain.
 * Addresses and hashes are stored lower-case.
 */

/** A vault on a chain: the key of its checkpoint. */
export interface VaultKey {
  readonly chainId: number;
  /** Any case; stored lower-case. */
  readonly vaultAddress: string;
}

export interface Checkpoint extends VaultKey {
  readonly tokenAddress: string;
  /** The vault's ledger account (kind `vault`). */
  readonly accountId: string;
  readonly startBlock: bigint;
  /** The last block whose events are recorded; null before the first range. */
  readonly blockNumber: bigint | null;
  readonly blockHash: string | null;
  readonly headBlock: bigint | null;
  readonly headSeenAt: Date | null;
  readonly reorgDetectedAt: Date | null;
  readonly reorgFoundHash: string | null;
  readonly lastError: string | null;
  readonly lastErrorAt: Date | null;
  readonly updatedAt: Date;
  /** The last block whose HST transfers to the vault are recorded (surplus); null: none yet. */
  readonly surplusBlockNumber: bigint | null;
  /** The watcher's last reconciliation: when, at which block, the unexplained difference. */
  readonly reconciledAt: Date | null;
  readonly reconciledBlock: bigint | null;
  readonly unexplainedUnits: bigint | null;
  /** A shortfall the operator accepted when resuming: the watcher halts only beyond it. */
  readonly acceptedShortfallUnits: bigint;
}

interface CheckpointRow {
  chain_id: bigint | number;
  vault_address: string;
  token_address: string;
  account_id: string;
  start_block: bigint | number;
  block_number: bigint | number | null;
  block_hash: string | null;
  head_block: bigint | number | null;
  head_seen_at: Date | null;
  reorg_detected_at: Date | null;
  reorg_found_hash: string | null;
  last_error: string | null;
  last_error_at: Date | null;
  updated_at: Date;
  surplus_block_number: bigint | number | null;
  reconciled_at: Date | null;
  reconciled_block: bigint | number | null;
  unexplained_units: string | null;
  accepted_shortfall_units: string;
}

const CHECKPOINT_COLUMNS =
  'chain_id, vault_address, token_address, account_id, start_block, block_number, block_hash, ' +
  'head_block, head_seen_at, reorg_detected_at, reorg_found_hash, last_error, last_error_at, ' +
  'updated_at, surplus_block_number, reconciled_at, reconciled_block, ' +
  'unexplained_units::text AS unexplained_units, ' +
  'accepted_shortfall_units::text AS accepted_shortfall_units';
// The amount as text: numeric(78,0) comes back as a string from both drivers only this way.
const bigOrNull = (v: bigint | number | null): bigint | null => (v === null ? null : BigInt(v));

function toCheckpoint(row: CheckpointRow): Checkpoint {
  return {
    chainId: Number(row.chain_id),
    vaultAddress: row.vault_address,
    tokenAddress: row.token_address,
    accountId: row.account_id,
    startBlock: BigInt(row.start_block),
    blockNumber: bigOrNull(row.block_number),
    blockHash: row.block_hash,
    headBlock: bigOrNull(row.head_block),
    headSeenAt: row.head_seen_at,
    reorgDetectedAt: row.reorg_detected_at,
    reorgFoundHash: row.reorg_found_hash,
    lastError: row.last_error,
    lastErrorAt: row.last_error_at,
    updatedAt: row.updated_at,
    surplusBlockNumber: bigOrNull(row.surplus_block_number),
    reconciledAt: row.reconciled_at,
    reconciledBlock: bigOrNull(row.reconciled_block),
    unexplainedUnits: row.unexplained_units === null ? null : BigInt(row.unexplained_units),
    acceptedShortfallUnits: BigInt(row.accepted_shortfall_units),
  };
}

/** A vault's key as the parameters $1 and $2 of a statement. */
export const keyParams = (key: VaultKey) => [key.chainId, key.vaultAddress.toLowerCase()];

/**
 * The vault's checkpoint, made on first use with a new vault account (one per vault, so each
 * vault's liabilities are one account's balance). Serialised across processes, so two starting
 * together make one account.
 */
export async function ensureCheckpoint(
  db: Db,
  clock: Clock,
  ids: Ids,
  input: VaultKey & { tokenAddress: string; startBlock: bigint },
): Promise<Checkpoint> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [AdvisoryLocks.chainCheckpoints]);
    const found = await readCheckpoint(tx, input);
    if (found) return found;
    const now = clock.now();
    const accountId = ids.next();
    await insertAccount(tx, accountId, 'vault', now);
    const [row] = await tx.query<CheckpointRow>(
      `INSERT INTO chain_checkpoints
         (chain_id, vault_address, token_address, account_id, start_block, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)
       RETURNING ${CHECKPOINT_COLUMNS}`,
      [...keyParams(input), input.tokenAddress.toLowerCase(), accountId, input.startBlock, now],
    );
    if (!row) throw new Error('the checkpoint insert returned no row');
    return toCheckpoint(row);
  });
}

export async function readCheckpoint(q: Queryable, key: VaultKey): Promise<Checkpoint | null> {
  const rows = await q.query<CheckpointRow>(
    `SELECT ${CHECKPOINT_COLUMNS} FROM chain_checkpoints
     WHERE chain_id = $1 AND vault_address = $2`,
    keyParams(key),
  );
  return rows[0] ? toCheckpoint(rows[0]) : null;
}

/** Every checkpoint of the vault address, on whichever chains it was watched, newest first. */
export async function checkpointsOfVault(
  q: Queryable,
  vaultAddress: string,
): Promise<Checkpoint[]> {
  const rows = await q.query<CheckpointRow>(
    `SELECT ${CHECKPOINT_COLUMNS} FROM chain_checkpoints WHERE vault_address = $1
     ORDER BY updated_at DESC`,
    [vaultAddress.toLowerCase()],
  );
  return rows.map(toCheckpoint);
}

/**
 * Who holds a lease on a vault: `watcher` reads its deposits, `sender` pays its withdrawals
 * (migration 013). Each is one process at a time; they may be different processes.
 */
export type LeaseRole = 'watcher' | 'sender';
const LEASE_COLUMNS: Record<LeaseRole, { leader: string; expires: string }> = {
  watcher: { leader: 'leader_id', expires: 'lease_expires_at' },
  sender: { leader: 'sender_leader_id', expires: 'sender_lease_expires_at' },
};

/**
 * Takes or renews the lease `role` on the vault for `leaderId`, if it is free, expired or
 * already its own. True when `leaderId` holds it now. Time is the database's, which every
 * process shares.
 */
export async function takeLease(
  q: Queryable,
  key: VaultKey,
  leaderId: string,
  leaseMs: number,
  role: LeaseRole = 'watcher',
): Promise<boolean> {
  const { leader, expires } = LEASE_COLUMNS[role];
  const rows = await q.query(
    `UPDATE chain_checkpoints
     SET ${leader} = $3, ${expires} = now() + make_interval(secs => $4::float8 / 1000)
     WHERE chain_id = $1 AND vault_address = $2
       AND (${leader} IS NULL OR ${leader} = $3 OR ${expires} < now())
     RETURNING 1`,
    [...keyParams(key), leaderId, leaseMs],
  );
  return rows.length === 1;
}

/** Gives the lease up, so another process takes over at once rather than when it expires. */
export async function releaseLease(
  q: Queryable,
  key: VaultKey,
  leaderId: string,
  role: LeaseRole = 'watcher',
): Promise<void> {
  const { leader, expires } = LEASE_COLUMNS[role];
  await q.query(
    `UPDATE chain_checkpoints SET ${leader} = NULL, ${expires} = NULL
     WHERE chain_id = $1 AND vault_address = $2 AND ${leader} = $3`,
    [...keyParams(key), leaderId],
  );
}

/** The chain's head as last seen; clears the last error (the chain answered). */
export async function recordHead(
  q: Queryable,
  key: VaultKey,
  headBlock: bigint,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE chain_checkpoints
     SET head_block = $3, head_seen_at = $4, last_error = NULL, last_error_at = NULL,
         updated_at = $4
     WHERE chain_id = $1 AND vault_address = $2`,
    [...keyParams(key), headBlock, now],
  );
}

export async function recordError(
  q: Queryable,
  key: VaultKey,
  message: string,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE chain_checkpoints SET last_error = $3, last_error_at = $4, updated_at = $4
     WHERE chain_id = $1 AND vault_address = $2`,
    [...keyParams(key), message, now],
  );
}

/**
 * Marks the vault halted: the chain's block at the checkpoint has `foundHash`, not the hash
 * recorded. Only if the checkpoint is still `blockNumber`/`blockHash` (another process may have
 * moved on); the first detection's time and hash are kept. In the same statement, the senders are
 * halted (`chain_halts`, unless a halt is open already), so nothing leaves the vault after it.
 */
export async function recordReorg(
  q: Queryable,
  key: VaultKey,
  at: { blockNumber: bigint; blockHash: string; foundHash: string; haltId: string },
  now: Date,
): Promise<void> {
  const detail =
    `block ${at.blockNumber} was recorded with hash ${at.blockHash} and the chain now has ` +
    `${at.foundHash.toLowerCase()} there: a reorganisation deeper than the confirmations`;
  await q.query(
    `WITH marked AS (
       UPDATE chain_checkpoints
       SET reorg_detected_at = $6, reorg_found_hash = $5, updated_at = $6
       WHERE chain_id = $1 AND vault_address = $2 AND block_number = $3 AND block_hash = $4
         AND reorg_detected_at IS NULL
       RETURNING chain_id, vault_address, block_number)
     INSERT INTO chain_halts (id, chain_id, vault_address, cause, detail, block_number, halted_at)
     SELECT $7, chain_id, vault_address, 'reorg', $8, block_number, $6 FROM marked
     ON CONFLICT (chain_id, vault_address) WHERE resumed_at IS NULL DO NOTHING`,
    [
      ...keyParams(key),
      at.blockNumber,
      at.blockHash,
      at.foundHash.toLowerCase(),
      now,
      at.haltId,
      detail,
    ],
  );
}

/**
 * Moves the checkpoint back to `to` (null: before the start block) after a reorganisation, as the
 * operator's resume validated it: the reorganisation is cleared, HST transfers are read again from
 * there too, and the next round reconciles afresh.
 */
export async function rewindCheckpoint(
  tx: Queryable,
  key: VaultKey,
  to: { blockNumber: bigint; blockHash: string } | null,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE chain_checkpoints
     SET block_number = $3, block_hash = $4, reorg_detected_at = NULL, reorg_found_hash = NULL,
         surplus_block_number = CASE WHEN $3::bigint IS NULL THEN NULL
                                     ELSE LEAST(surplus_block_number, $3::bigint) END,
         reconciled_at = NULL, reconciled_block = NULL, unexplained_units = NULL,
         updated_at = $5
     WHERE chain_id = $1 AND vault_address = $2`,
    [...keyParams(key), to?.blockNumber ?? null, to?.blockHash.toLowerCase() ?? null, now],
  );
}

/** The watcher's reconciliation: its block, the unexplained difference, the shortfall accepted. */
export async function recordReconciliation(
  q: Queryable,
  key: VaultKey,
  result: { blockNumber: bigint; unexplainedUnits: bigint; acceptedShortfallUnits: bigint },
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE chain_checkpoints
     SET reconciled_at = $3, reconciled_block = $4, unexplained_units = $5,
         accepted_shortfall_units = $6
     WHERE chain_id = $1 AND vault_address = $2`,
    [
      ...keyParams(key),
      now,
      result.blockNumber,
      result.unexplainedUnits.toString(),
      result.acceptedShortfallUnits.toString(),
    ],
  );
}

/**
 * Moves the surplus reading from `from` (the block it was at; null: none read) to `to`, if it is
 * still at `from` and the checkpoint still covers `to`. False when another process moved either
 * (a rewind after a reorganisation): nothing is to be recorded then.
 */
export async function advanceSurplusBlock(
  tx: Queryable,
  key: VaultKey,
  from: bigint | null,
  to: bigint,
): Promise<boolean> {
  const rows = await tx.query(
    `UPDATE chain_checkpoints SET surplus_block_number = $4
     WHERE chain_id = $1 AND vault_address = $2
       AND surplus_block_number IS NOT DISTINCT FROM $3::bigint
       AND block_number >= $4 AND reorg_detected_at IS NULL
     RETURNING 1`,
    [...keyParams(key), from, to],
  );
  return rows.length === 1;
}

/** The checkpoint row, locked until the transaction ends. */
export async function lockCheckpoint(tx: Queryable, key: VaultKey): Promise<Checkpoint | null> {
  const rows = await tx.query<CheckpointRow>(
    `SELECT ${CHECKPOINT_COLUMNS} FROM chain_checkpoints
     WHERE chain_id = $1 AND vault_address = $2 FOR UPDATE`,
    keyParams(key),
  );
  return rows[0] ? toCheckpoint(rows[0]) : null;
}

/** Moves the checkpoint to the last block of a range just recorded, and notes the head. */
export async function advanceCheckpoint(
  tx: Queryable,
  key: VaultKey,
  to: { blockNumber: bigint; blockHash: string; headBlock: bigint },
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE chain_checkpoints
     SET block_number = $3, block_hash = $4, head_block = $5, head_seen_at = $6,
         last_error = NULL, last_error_at = NULL, updated_at = $6
     WHERE chain_id = $1 AND vault_address = $2`,
    [...keyParams(key), to.blockNumber, to.blockHash.toLowerCase(), to.headBlock, now],
  );
}
