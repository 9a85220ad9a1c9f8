import type { LockRefusal, PlayStatus } from '@coinop/core';
import { keyParams, type VaultKey } from './chain-checkpoints.js';
import type { Queryable } from './db.js';

/** Where a play id stands on chain (migration 014 says what each state means). */
export const PlayLockStates = [
  'requested',
  'open',
  'refund_due',
  'sent',
  'settled',
  'refunded',
  'reclaimed',
] as const;
export type PlayLockState = (typeof PlayLockStates)[number];

/** Why a lock opened no play and goes back to the wallet. */
export type RefundReason = LockRefusal | 'play_voided';

export interface PlayLockRecord extends VaultKey {
  readonly playId: string;
  readonly playerId: string | null;
  readonly gameId: string | null;
  readonly leaderboardId: string | null;
  readonly amountUnits: bigint | null;
  readonly requestedAt: Date | null;
  readonly lockBy: Date | null;
  readonly lockTxHash: string | null;
  readonly lockLogIndex: number | null;
  readonly lockerAddress: string | null;
  readonly lockedUnits: bigint | null;
  readonly lockedAt: Date | null;
  /** The lock's block time, on the chain's clock (null for locks read before migration 023). */
  readonly lockBlockTime: Date | null;
  readonly state: PlayLockState;
  readonly refundReason: RefundReason | null;
  readonly batchId: string | null;
  readonly settleTxHash: string | null;
  /** The event that ended the lock, when the watcher read it (not coinop's own batch). */
  readonly endTxHash: string | null;
  readonly endBlockNumber: bigint | null;
  readonly attempts: number;
  readonly updatedAt: Date;
}

interface PlayLockRow {
  play_id: string;
  chain_id: bigint | number;
  vault_address: string;
  player_id: string | null;
  game_id: string | null;
  leaderboard_id: string | null;
  amount_units: bigint | number | null;
  requested_at: Date | null;
  lock_by: Date | null;
  lock_tx_hash: string | null;
  lock_log_index: number | null;
  locker_address: string | null;
  locked_units: string | null;
  locked_at: Date | null;
  lock_block_time: Date | null;
  state: PlayLockState;
  refund_reason: RefundReason | null;
  batch_id: string | null;
  settle_tx_hash: string | null;
  end_tx_hash: string | null;
  end_block_number: bigint | number | null;
  attempts: number;
  updated_at: Date;
}

const COLUMNS =
  'play_id, chain_id, vault_address, player_id, game_id, leaderboard_id, amount_units, ' +
  'requested_at, lock_by, lock_tx_hash, lock_log_index, locker_address, ' +
  'locked_units::text AS locked_units, locked_at, lock_block_time, state, refund_reason, batch_id, ' +
  'settle_tx_hash, end_tx_hash, end_block_number, attempts, updated_at';

const toRecord = (r: PlayLockRow): PlayLockRecord => ({
  playId: r.play_id,
  chainId: Number(r.chain_id),
  vaultAddress: r.vault_address,
  playerId: r.player_id,
  gameId: r.game_id,
  leaderboardId: r.leaderboard_id,
  amountUnits: r.amount_units === null ? null : BigInt(r.amount_units),
  requestedAt: r.requested_at,
  lockBy: r.lock_by,
  lockTxHash: r.lock_tx_hash,
  lockLogIndex: r.lock_log_index,
  lockerAddress: r.locker_address,
  lockedUnits: r.locked_units === null ? null : BigInt(r.locked_units),
  lockedAt: r.locked_at,
  lockBlockTime: r.lock_block_time,
  state: r.state,
  refundReason: r.refund_reason,
  batchId: r.batch_id,
  settleTxHash: r.settle_tx_hash,
  endTxHash: r.end_tx_hash,
  endBlockNumber: r.end_block_number === null ? null : BigInt(r.end_block_number),
  attempts: r.attempts,
  updatedAt: r.updated_at,
});

export async function findPlayLock(q: Queryable, playId: string): Promise<PlayLockRecord | null> {
  const rows = await q.query<PlayLockRow>(
    `SELECT ${COLUMNS} FROM chain_play_locks WHERE play_id = $1`,
    [playId],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The rows of these play ids, locked until the transaction ends. */
export async function lockPlayLocks(
  tx: Queryable,
  playIds: readonly string[],
): Promise<Map<string, PlayLockRecord>> {
  const rows = await tx.query<PlayLockRow>(
    `SELECT ${COLUMNS} FROM chain_play_locks WHERE play_id = ANY($1::uuid[])
     ORDER BY play_id FOR UPDATE`,
    [playIds],
  );
  return new Map(rows.map((r) => [r.play_id, toRecord(r)]));
}

/** A confirmed PlayLocked event: where it is and what it locked. */
export interface LockSeen {
  readonly playId: string;
  readonly txHash: string;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  readonly lockerAddress: string;
  readonly lockedUnits: bigint;
  /** The lock's block time, on the chain's clock. */
  readonly blockTime: Date;
}

/**
 * Records a lock on the play id's row (made if the arcade never requested it), with the state
 * the caller decided: `open` once its play is opened, else `refund_due` and why.
 */
export async function recordLockSeen(
  tx: Queryable,
  key: VaultKey,
  lock: LockSeen,
  outcome: { state: 'open' } | { state: 'refund_due'; reason: RefundReason },
  now: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO chain_play_locks (play_id, chain_id, vault_address, lock_tx_hash, lock_log_index,
                                   lock_block_number, locker_address, locked_units, locked_at,
                                   state, refund_reason, updated_at, lock_block_time)
     VALUES ($3, $1, $2, $4, $5, $6, $7, $8, $9, $10, $11, $9, $12)
     ON CONFLICT (play_id) DO UPDATE
       SET lock_tx_hash = excluded.lock_tx_hash, lock_log_index = excluded.lock_log_index,
           lock_block_number = excluded.lock_block_number,
           locker_address = excluded.locker_address, locked_units = excluded.locked_units,
           locked_at = excluded.locked_at, lock_block_time = excluded.lock_block_time,
           state = excluded.state,
           refund_reason = excluded.refund_reason, updated_at = excluded.updated_at`,
    [
      ...keyParams(key),
      lock.playId,
      lock.txHash.toLowerCase(),
      lock.logIndex,
      lock.blockNumber,
      lock.lockerAddress.toLowerCase(),
      lock.lockedUnits.toString(),
      now,
      outcome.state,
      outcome.state === 'refund_due' ? outcome.reason : null,
      lock.blockTime,
    ],
  );
}

/** A lock the sender has work for: its play ended (settle), or it goes back (refund). */
export interface DueLock {
  readonly playId: string;
  readonly action: 'settle' | 'refund';
  readonly lockedUnits: bigint;
}

/**
 * Up to `limit` of the vault's locks to settle (their play was scored or expired) or refund (it
 * was voided, or the lock opened no play), oldest first.
 */
export async function dueLocks(q: Queryable, key: VaultKey, limit: number): Promise<DueLock[]> {
  const rows = await q.query<{ play_id: string; status: PlayStatus | null; locked_units: string }>(
    `SELECT l.play_id, p.status, l.locked_units::text AS locked_units
     FROM chain_play_locks l
     -- Only a play locked on chain is a lock's: anyone may lock under a ledger play's id.
     LEFT JOIN plays p ON p.id = l.play_id AND p.vault_account_id IS NOT NULL
     WHERE l.state IN ('open', 'refund_due') AND l.chain_id = $1 AND l.vault_address = $2
       AND (l.state = 'refund_due' OR p.status IN ('scored', 'expired', 'voided'))
     ORDER BY l.updated_at, l.play_id LIMIT $3`,
    [...keyParams(key), limit],
  );
  return rows.map((r) => ({
    playId: r.play_id,
    action: r.status === 'scored' || r.status === 'expired' ? 'settle' : 'refund',
    lockedUnits: BigInt(r.locked_units),
  }));
}

/** A share of a play locked on chain, reserved for the vault to pay to a wallet. */
export interface ChainPayout {
  readonly playId: string;
  /** The pending `chain_payout` transfer. */
  readonly transferId: string;
  readonly accountId: string;
  readonly amountUnits: bigint;
  /** The payee's wallet; null when they have none (the share then stays in the vault). */
  readonly wallet: string | null;
}

/** The payout reservations of these plays, with the payees' wallets. */
export async function chainPayouts(
  q: Queryable,
  playIds: readonly string[],
): Promise<ChainPayout[]> {
  const rows = await q.query<{
    play_id: string;
    id: string;
    debit_account_id: string;
    amount: bigint | number;
    wallet: string | null;
  }>(
    `SELECT t.play_id, t.id, t.debit_account_id, t.amount,
            COALESCE(pl.wallet, d.wallet) AS wallet
     FROM transfers t
     LEFT JOIN players pl ON pl.account_id = t.debit_account_id
     LEFT JOIN developers d ON d.account_id = t.debit_account_id
     WHERE t.play_id = ANY($1::uuid[]) AND t.reason = 'chain_payout'
     ORDER BY t.play_id, t.id`,
    [playIds],
  );
  return rows.map((r) => ({
    playId: r.play_id,
    transferId: r.id,
    accountId: r.debit_account_id,
    amountUnits: BigInt(r.amount),
    wallet: r.wallet,
  }));
}

/** Moves the locks into a recorded batch; false (for the caller to roll back) if one moved. */
export async function markLocksSent(
  tx: Queryable,
  playIds: readonly string[],
  batch: { id: string; txHash: string },
  now: Date,
): Promise<boolean> {
  const moved = await tx.query(
    `UPDATE chain_play_locks
     SET state = 'sent', batch_id = $2, settle_tx_hash = $3, attempts = attempts + 1,
         updated_at = $4
     WHERE play_id = ANY($1::uuid[]) AND state IN ('open', 'refund_due')
     RETURNING 1`,
    [playIds, batch.id, batch.txHash.toLowerCase(), now],
  );
  return moved.length === playIds.length;
}

/** The locks of a batch, locked until the transaction ends. */
export async function lockBatchPlayLocks(
  tx: Queryable,
  batchId: string,
): Promise<PlayLockRecord[]> {
  const rows = await tx.query<PlayLockRow>(
    `SELECT ${COLUMNS} FROM chain_play_locks WHERE batch_id = $1 ORDER BY play_id FOR UPDATE`,
    [batchId],
  );
  return rows.map(toRecord);
}

/** Ends a lock's life on chain: settled, refunded or reclaimed. */
export async function markLockDone(
  tx: Queryable,
  playId: string,
  state: 'settled' | 'refunded' | 'reclaimed',
  now: Date,
): Promise<void> {
  await tx.query(`UPDATE chain_play_locks SET state = $2, updated_at = $3 WHERE play_id = $1`, [
    playId,
    state,
    now,
  ]);
}

/** Puts a lock whose batch was not mined back in the sender's work. */
export async function requeueLock(tx: Queryable, playId: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE chain_play_locks
     SET state = CASE WHEN refund_reason IS NULL THEN 'open' ELSE 'refund_due' END,
         batch_id = NULL, updated_at = $2
     WHERE play_id = $1`,
    [playId, now],
  );
}

/** A voided play's lock goes back to the wallet: recorded so the listing says why. */
export async function markVoidedLocksDue(
  tx: Queryable,
  playIds: readonly string[],
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE chain_play_locks SET refund_reason = 'play_voided', updated_at = $2
     WHERE play_id = ANY($1::uuid[]) AND refund_reason IS NULL`,
    [playIds, now],
  );
}

/** The sum of HST locked in the vault by state, for the status and the reconciliation. */
export async function playLockTotals(
  q: Queryable,
  key: VaultKey,
): Promise<Record<string, { count: number; units: bigint }>> {
  const rows = await q.query<{ state: string; count: number | bigint; units: string }>(
    `SELECT state, count(*) AS count, COALESCE(sum(locked_units), 0)::text AS units
     FROM chain_play_locks WHERE chain_id = $1 AND vault_address = $2 GROUP BY state`,
    keyParams(key),
  );
  return Object.fromEntries(
    rows.map((r) => [r.state, { count: Number(r.count), units: BigInt(r.units) }]),
  );
}

/** At most this many play locks in one listing. */
export const PLAY_LOCKS_PAGE_MAX = 100;

/** Play locks of every player, most recently changed first, optionally in one state. */
export async function listPlayLocks(
  q: Queryable,
  filter: { state?: PlayLockState | undefined; limit: number },
): Promise<PlayLockRecord[]> {
  const rows = await q.query<PlayLockRow>(
    `SELECT ${COLUMNS} FROM chain_play_locks
     WHERE ($1::text IS NULL OR state = $1) ORDER BY updated_at DESC, play_id LIMIT $2`,
    [filter.state ?? null, Math.min(filter.limit, PLAY_LOCKS_PAGE_MAX)],
  );
  return rows.map(toRecord);
}
