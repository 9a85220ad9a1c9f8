import type { ChainPayee } from '@coinop/core';
import { keyParams, type VaultKey } from './chain-checkpoints.js';
import type { Queryable } from './db.js';
import { PLAY_COLUMNS_OF_P, toPlay, type PlayRow, type StoredPlay } from './plays.js';

/**
 * Locks that end on chain other than by coinop's own settlement of their play (migration 023,
 * docs/concepts/chain.md, "When a lock ends on chain"): what bringing the ledger to that end reads
 * and writes, and the plays whose locks near the vault's lock timeout.
 */

/** Where the event that ended a lock is. */
export interface LockEndEventAt {
  readonly txHash: string;
  readonly blockNumber: bigint;
}

/**
 * Ends a lock's life on chain: settled, refunded or reclaimed, with the event the watcher read,
 * or none when a batch of coinop's found it ended (`SettlementSkipped`, `RefundSkipped`).
 */
export async function markLockEnded(
  tx: Queryable,
  playId: string,
  end: 'settled' | 'refunded' | 'reclaimed',
  at: LockEndEventAt | null,
  now: Date,
): Promise<void> {
  await tx.query(
    `UPDATE chain_play_locks
     SET state = $2, end_tx_hash = $3, end_block_number = $4, updated_at = $5
     WHERE play_id = $1`,
    [playId, end, at?.txHash.toLowerCase() ?? null, at?.blockNumber ?? null, now],
  );
}

/**
 * The play a lock opened, locked until the transaction ends; null when it opened none. Only a play
 * drawn on the vault's account is one: anyone may lock under any id, a ledger play's too.
 */
export async function lockPlayOfLock(
  tx: Queryable,
  playId: string,
  vaultAccountId: string,
): Promise<StoredPlay | null> {
  const rows = await tx.query<PlayRow>(
    `SELECT ${PLAY_COLUMNS_OF_P} FROM plays p WHERE p.id = $1 AND p.vault_account_id = $2
     FOR UPDATE`,
    [playId, vaultAccountId],
  );
  return rows[0] ? toPlay(rows[0]) : null;
}

/**
 * The payees of a settled play locked on chain, from its `chain_payout` reservations (one per
 * leader's and the developer's share, read by the index on them): each account, its share, and
 * its reservations neither posted nor voided; and the arcade's account with the rest of the cost
 * (its share is not reserved: it stays in the vault).
 */
export async function chainPayeesOf(tx: Queryable, play: StoredPlay): Promise<ChainPayee[]> {
  const rows = await tx.query<{
    id: string;
    debit_account_id: string;
    amount: bigint | number;
    unresolved: boolean;
  }>(
    `SELECT t.id, t.debit_account_id, t.amount,
            NOT EXISTS (SELECT 1 FROM transfers r WHERE r.pending_id = t.id) AS unresolved
     FROM transfers t
     WHERE t.play_id = $1 AND t.reason = 'chain_payout' AND t.kind = 'pending'
     ORDER BY t.debit_account_id, t.id`,
    [play.id],
  );
  const [arcade] = await tx.query<{ account_id: string }>(
    'SELECT account_id FROM arcades WHERE id = $1',
    [play.arcadeId],
  );
  if (!arcade) throw new TypeError(`play ${play.id} names no arcade ${play.arcadeId}`);
  const payees = new Map<string, { paidUnits: bigint; reservations: ChainPayee['reservations'] }>();
  let reserved = 0n;
  for (const r of rows) {
    const amountUnits = BigInt(r.amount);
    reserved += amountUnits;
    const payee = payees.get(r.debit_account_id) ?? { paidUnits: 0n, reservations: [] };
    payees.set(r.debit_account_id, {
      paidUnits: payee.paidUnits + amountUnits,
      reservations: r.unresolved
        ? [...payee.reservations, { transferId: r.id, amountUnits }]
        : payee.reservations,
    });
  }
  return [
    ...[...payees].map(([accountId, p]) => ({ accountId, ...p })),
    { accountId: arcade.account_id, paidUnits: play.costUnits - reserved, reservations: [] },
  ];
}

/**
 * The earliest lock time of the vault's plays still open, on the chain's clock (null when none is
 * open, or none recorded its lock's time): whether any play nears its lock timeout is then one
 * comparison.
 */
export async function earliestOpenLockTime(q: Queryable, key: VaultKey): Promise<Date | null> {
  const [row] = await q.query<{ at: Date | null }>(
    `SELECT min(l.lock_block_time) AS at
     FROM chain_play_locks l JOIN plays p ON p.id = l.play_id
     WHERE l.state = 'open' AND l.chain_id = $1 AND l.vault_address = $2 AND p.status = 'open'`,
    keyParams(key),
  );
  return row?.at ?? null;
}

/** The vault's open plays whose lock was made at or before `cutoff`, their rows locked. */
export async function lockOpenPlaysLockedBy(
  tx: Queryable,
  key: VaultKey,
  cutoff: Date,
): Promise<StoredPlay[]> {
  const rows = await tx.query<PlayRow>(
    `SELECT ${PLAY_COLUMNS_OF_P}
     FROM chain_play_locks l JOIN plays p ON p.id = l.play_id
     WHERE l.state = 'open' AND l.chain_id = $1 AND l.vault_address = $2 AND p.status = 'open'
       AND l.lock_block_time <= $3
     ORDER BY p.id FOR UPDATE OF p`,
    [...keyParams(key), cutoff],
  );
  return rows.map(toPlay);
}
