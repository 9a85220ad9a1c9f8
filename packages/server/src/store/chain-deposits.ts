import type { AccountKind, Clock, Ids } from '@coinop/core';
import { AdvisoryLocks } from './advisory-locks.js';
import type { Db, Queryable } from './db.js';
import { insertAccount } from './ledger.js';

/**
 * The chain watcher's tables (migration 012): one checkpoint row per vault watched, and every
 * deposit read from it. Addresses and hashes are stored lower-case.
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
}

export const DepositStatuses = ['credited', 'held'] as const;
export type DepositStatus = (typeof DepositStatuses)[number];

export interface DepositRecord {
  readonly chainId: number;
  readonly txHash: string;
  readonly logIndex: number;
  readonly vaultAddress: string;
  readonly blockNumber: bigint;
  readonly blockHash: string;
  /** The account the event named (its bytes16), whether or not it exists. */
  readonly accountId: string;
  readonly fromAddress: string;
  /** The event's amount exactly; may exceed what a ledger balance holds (then it is held). */
  readonly amountUnits: bigint;
  readonly status: DepositStatus;
  readonly heldReason: string | null;
  readonly transferId: string;
  readonly creditedAccountId: string | null;
  readonly seenAt: Date;
  readonly creditedAt: Date | null;
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
}

interface DepositRow {
  chain_id: bigint | number;
  tx_hash: string;
  log_index: number;
  vault_address: string;
  block_number: bigint | number;
  block_hash: string;
  account_id: string;
  from_address: string;
  amount_units: string;
  status: DepositStatus;
  held_reason: string | null;
  transfer_id: string;
  credited_account_id: string | null;
  seen_at: Date;
  credited_at: Date | null;
}

const CHECKPOINT_COLUMNS =
  'chain_id, vault_address, token_address, account_id, start_block, block_number, block_hash, ' +
  'head_block, head_seen_at, reorg_detected_at, reorg_found_hash, last_error, last_error_at, ' +
  'updated_at';
// The amount as text: numeric(78,0) comes back as a string from both drivers only this way.
export const DEPOSIT_COLUMNS =
  'chain_id, tx_hash, log_index, vault_address, block_number, block_hash, account_id, ' +
  'from_address, amount_units::text AS amount_units, status, held_reason, transfer_id, ' +
  'credited_account_id, seen_at, credited_at';

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
  };
}

export function toDeposit(row: DepositRow): DepositRecord {
  return {
    chainId: Number(row.chain_id),
    txHash: row.tx_hash,
    logIndex: Number(row.log_index),
    vaultAddress: row.vault_address,
    blockNumber: BigInt(row.block_number),
    blockHash: row.block_hash,
    accountId: row.account_id,
    fromAddress: row.from_address,
    amountUnits: BigInt(row.amount_units),
    status: row.status,
    heldReason: row.held_reason,
    transferId: row.transfer_id,
    creditedAccountId: row.credited_account_id,
    seenAt: row.seen_at,
    creditedAt: row.credited_at,
  };
}

const keyParams = (key: VaultKey) => [key.chainId, key.vaultAddress.toLowerCase()];

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
 * Takes or renews the lease on reading the vault for `leaderId`, if it is free, expired or
 * already its own. True when `leaderId` holds it now. Time is the database's, which every
 * process shares.
 */
export async function takeLease(
  q: Queryable,
  key: VaultKey,
  leaderId: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await q.query(
    `UPDATE chain_checkpoints
     SET leader_id = $3, lease_expires_at = now() + make_interval(secs => $4::float8 / 1000)
     WHERE chain_id = $1 AND vault_address = $2
       AND (leader_id IS NULL OR leader_id = $3 OR lease_expires_at < now())
     RETURNING 1`,
    [...keyParams(key), leaderId, leaseMs],
  );
  return rows.length === 1;
}

/** Gives the lease up, so another process takes over at once rather than when it expires. */
export async function releaseLease(q: Queryable, key: VaultKey, leaderId: string): Promise<void> {
  await q.query(
    `UPDATE chain_checkpoints SET leader_id = NULL, lease_expires_at = NULL
     WHERE chain_id = $1 AND vault_address = $2 AND leader_id = $3`,
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
 * moved on); the first detection's time and hash are kept.
 */
export async function recordReorg(
  q: Queryable,
  key: VaultKey,
  at: { blockNumber: bigint; blockHash: string; foundHash: string },
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE chain_checkpoints
     SET reorg_detected_at = $6, reorg_found_hash = $5, updated_at = $6
     WHERE chain_id = $1 AND vault_address = $2 AND block_number = $3 AND block_hash = $4
       AND reorg_detected_at IS NULL`,
    [...keyParams(key), at.blockNumber, at.blockHash, at.foundHash.toLowerCase(), now],
  );
}

/** A deposit as read from the chain, decided: credit it, or hold it and why. */
export interface DecidedDeposit {
  readonly txHash: string;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  readonly blockHash: string;
  /** The id the event named. */
  readonly accountId: string;
  readonly fromAddress: string;
  readonly amountUnits: bigint;
  readonly transferId: string;
  /** The account credited (what `accountId` means); null when held. */
  readonly creditAccountId: string | null;
  /** Why it is held; null when credited. */
  readonly heldReason: string | null;
}

/**
 * Inserts the deposits not yet recorded (by their key), each as credited or held, and returns
 * the keys of those inserted. The caller credits the ones inserted as credited in the same
 * transaction.
 */
export async function insertDeposits(
  tx: Queryable,
  key: VaultKey,
  deposits: readonly DecidedDeposit[],
  now: Date,
): Promise<Set<string>> {
  if (deposits.length === 0) return new Set();
  const column = <T>(pick: (d: DecidedDeposit) => T) => deposits.map(pick);
  const rows = await tx.query<{ tx_hash: string; log_index: number }>(
    `INSERT INTO chain_deposits
       (chain_id, vault_address, tx_hash, log_index, block_number, block_hash, account_id,
        from_address, amount_units, status, held_reason, transfer_id, credited_account_id,
        seen_at, credited_at)
     SELECT $1, $2, d.tx_hash, d.log_index, d.block_number, d.block_hash, d.account_id,
            d.from_address, d.amount_units,
            CASE WHEN d.held_reason IS NULL THEN 'credited' ELSE 'held' END, d.held_reason,
            d.transfer_id, d.credit_account_id, $13,
            CASE WHEN d.held_reason IS NULL THEN $13::timestamptz END
     FROM unnest($3::text[], $4::int[], $5::bigint[], $6::text[], $7::uuid[], $8::text[],
                 $9::numeric[], $10::text[], $11::uuid[], $12::uuid[])
       AS d(tx_hash, log_index, block_number, block_hash, account_id, from_address, amount_units,
            held_reason, transfer_id, credit_account_id)
     ORDER BY d.block_number, d.log_index
     ON CONFLICT (chain_id, tx_hash, log_index) DO NOTHING
     RETURNING tx_hash, log_index`,
    [
      ...keyParams(key),
      column((d) => d.txHash.toLowerCase()),
      column((d) => d.logIndex),
      column((d) => d.blockNumber.toString()),
      column((d) => d.blockHash.toLowerCase()),
      column((d) => d.accountId),
      column((d) => d.fromAddress.toLowerCase()),
      column((d) => d.amountUnits.toString()),
      column((d) => d.heldReason),
      column((d) => d.transferId),
      column((d) => (d.heldReason === null ? d.creditAccountId : null)),
      now,
    ],
  );
  return new Set(rows.map((r) => depositKey(r.tx_hash, Number(r.log_index))));
}

export const depositKey = (txHash: string, logIndex: number) =>
  `${txHash.toLowerCase()}:${logIndex}`;

/** Turns a deposit recorded as credited into a held one: its credit could not be applied. */
export async function holdDeposit(
  tx: Queryable,
  key: VaultKey,
  deposit: { txHash: string; logIndex: number },
  reason: string,
): Promise<void> {
  await tx.query(
    `UPDATE chain_deposits
     SET status = 'held', held_reason = $5, credited_account_id = NULL, credited_at = NULL
     WHERE chain_id = $1 AND vault_address = $2 AND tx_hash = $3 AND log_index = $4`,
    [...keyParams(key), deposit.txHash.toLowerCase(), deposit.logIndex, reason],
  );
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

/**
 * The account each of `ids` means, as an operator's account references do: an account id, or a
 * player's or developer's id (their account). Ids that mean nothing are absent.
 */
export async function resolveAccounts(
  q: Queryable,
  ids: readonly string[],
): Promise<Map<string, { accountId: string; kind: AccountKind }>> {
  if (ids.length === 0) return new Map();
  const rows = await q.query<{ ref: string; account_id: string; kind: AccountKind }>(
    `SELECT id AS ref, id AS account_id, kind FROM accounts WHERE id = ANY($1::uuid[])
     UNION ALL
     SELECT p.id, a.id, a.kind FROM players p JOIN accounts a ON a.id = p.account_id
     WHERE p.id = ANY($1::uuid[])
     UNION ALL
     SELECT d.id, a.id, a.kind FROM developers d JOIN accounts a ON a.id = d.account_id
     WHERE d.id = ANY($1::uuid[])`,
    [[...new Set(ids)]],
  );
  return new Map(rows.map((r) => [r.ref, { accountId: r.account_id, kind: r.kind }]));
}

/** The most deposits one listing returns. */
export const DEPOSITS_PAGE_MAX = 500;

/**
 * Deposits read from every vault watched, newest first (by block and log), of `status` only if
 * given, at most `limit`.
 */
export async function listDeposits(
  q: Queryable,
  options: { status?: DepositStatus | undefined; limit: number },
): Promise<DepositRecord[]> {
  const rows = await q.query<DepositRow>(
    `SELECT ${DEPOSIT_COLUMNS} FROM chain_deposits
     WHERE $1::text IS NULL OR status = $1
     ORDER BY block_number DESC, log_index DESC, chain_id
     LIMIT $2`,
    [options.status ?? null, options.limit],
  );
  return rows.map(toDeposit);
}

/** How many of the vault's deposits are held, and what they amount to. */
export async function heldTotals(
  q: Queryable,
  key: VaultKey,
): Promise<{ count: number; units: bigint }> {
  const [row] = await q.query<{ count: number; units: string | null }>(
    `SELECT count(*)::int AS count, sum(amount_units)::text AS units FROM chain_deposits
     WHERE chain_id = $1 AND vault_address = $2 AND status = 'held'`,
    keyParams(key),
  );
  return { count: row?.count ?? 0, units: BigInt(row?.units ?? 0) };
}

/** The deposits with this transaction hash and log index (one per chain it happened on), locked. */
export async function lockDepositsAt(
  tx: Queryable,
  txHash: string,
  logIndex: number,
): Promise<DepositRecord[]> {
  const rows = await tx.query<DepositRow>(
    `SELECT ${DEPOSIT_COLUMNS} FROM chain_deposits
     WHERE tx_hash = $1 AND log_index = $2
     ORDER BY chain_id FOR UPDATE`,
    [txHash.toLowerCase(), logIndex],
  );
  return rows.map(toDeposit);
}

/** Marks a held deposit credited to `accountId` (an operator's choice). */
export async function markCredited(
  tx: Queryable,
  deposit: { chainId: number; txHash: string; logIndex: number },
  accountId: string,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE chain_deposits SET status = 'credited', credited_account_id = $4, credited_at = $5
     WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3`,
    [deposit.chainId, deposit.txHash, deposit.logIndex, accountId, now],
  );
}
