import { keyParams, type VaultKey } from './chain-checkpoints.js';
import type { Queryable } from './db.js';

/**
 * HST that reached a vault without a deposit or a play lock (migration 022): one row per ERC-20
 * Transfer event to the vault that nothing the watcher recorded explains, and what the operator
 * did with it (docs/concepts/chain.md#surplus). Addresses and hashes are stored lower-case.
 */

export const SurplusStatuses = ['unsolicited', 'credited', 'swept', 'covered'] as const;
export type SurplusStatus = (typeof SurplusStatuses)[number];

/** An HST Transfer event to the vault, as read from a confirmed block. */
export interface VaultTransfer {
  readonly txHash: string;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  readonly blockHash: string;
  readonly fromAddress: string;
  readonly amountUnits: bigint;
}

export interface SurplusRecord extends VaultKey, VaultTransfer {
  readonly status: SurplusStatus;
  /** The id of the transfer that credits it, derived from its key (used once credited). */
  readonly transferId: string;
  readonly creditedAccountId: string | null;
  readonly withdrawalId: string | null;
  readonly note: string | null;
  readonly seenAt: Date;
  readonly settledAt: Date | null;
}

interface SurplusRow {
  chain_id: bigint | number;
  vault_address: string;
  tx_hash: string;
  log_index: number;
  block_number: bigint | number;
  block_hash: string;
  from_address: string;
  amount_units: string;
  status: SurplusStatus;
  transfer_id: string;
  credited_account_id: string | null;
  withdrawal_id: string | null;
  note: string | null;
  seen_at: Date;
  settled_at: Date | null;
}

const COLUMNS =
  'chain_id, vault_address, tx_hash, log_index, block_number, block_hash, from_address, ' +
  'amount_units::text AS amount_units, status, transfer_id, credited_account_id, withdrawal_id, ' +
  'note, seen_at, settled_at';

function toSurplus(row: SurplusRow): SurplusRecord {
  return {
    chainId: Number(row.chain_id),
    vaultAddress: row.vault_address,
    txHash: row.tx_hash,
    logIndex: Number(row.log_index),
    blockNumber: BigInt(row.block_number),
    blockHash: row.block_hash,
    fromAddress: row.from_address,
    amountUnits: BigInt(row.amount_units),
    status: row.status,
    transferId: row.transfer_id,
    creditedAccountId: row.credited_account_id,
    withdrawalId: row.withdrawal_id,
    note: row.note,
    seenAt: row.seen_at,
    settledAt: row.settled_at,
  };
}

/**
 * What deposits and play locks the watcher recorded in these transactions pulled into the vault,
 * and from whom: the Transfer events they explain.
 */
export async function pullsOfTransactions(
  q: Queryable,
  key: VaultKey,
  txHashes: readonly string[],
): Promise<{ txHash: string; fromAddress: string; amountUnits: bigint }[]> {
  if (txHashes.length === 0) return [];
  const rows = await q.query<{ tx_hash: string; from_address: string; units: string }>(
    `SELECT tx_hash, from_address, amount_units::text AS units FROM chain_deposits
     WHERE chain_id = $1 AND vault_address = $2 AND tx_hash = ANY($3::text[])
     UNION ALL
     SELECT lock_tx_hash, locker_address, locked_units::text FROM chain_play_locks
     WHERE chain_id = $1 AND vault_address = $2 AND lock_tx_hash = ANY($3::text[])`,
    [...keyParams(key), [...new Set(txHashes.map((h) => h.toLowerCase()))]],
  );
  return rows.map((r) => ({
    txHash: r.tx_hash,
    fromAddress: r.from_address,
    amountUnits: BigInt(r.units),
  }));
}

/** Records surplus transfers not recorded yet (by their key), as unsolicited. */
export async function insertSurplus(
  tx: Queryable,
  key: VaultKey,
  transfers: readonly (VaultTransfer & { transferId: string })[],
  now: Date,
): Promise<number> {
  if (transfers.length === 0) return 0;
  const column = <T>(pick: (t: VaultTransfer & { transferId: string }) => T) => transfers.map(pick);
  const rows = await tx.query(
    `INSERT INTO chain_surplus
       (chain_id, vault_address, tx_hash, log_index, block_number, block_hash, from_address,
        amount_units, status, transfer_id, seen_at)
     SELECT $1, $2, t.tx_hash, t.log_index, t.block_number, t.block_hash, t.from_address,
            t.amount_units, 'unsolicited', t.transfer_id, $10
     FROM unnest($3::text[], $4::int[], $5::bigint[], $6::text[], $7::text[], $8::numeric[],
                 $9::uuid[])
       AS t(tx_hash, log_index, block_number, block_hash, from_address, amount_units, transfer_id)
     ORDER BY t.block_number, t.log_index
     ON CONFLICT (tx_hash, log_index, chain_id) DO NOTHING
     RETURNING 1`,
    [
      ...keyParams(key),
      column((t) => t.txHash.toLowerCase()),
      column((t) => t.logIndex),
      column((t) => t.blockNumber.toString()),
      column((t) => t.blockHash.toLowerCase()),
      column((t) => t.fromAddress.toLowerCase()),
      column((t) => t.amountUnits.toString()),
      column((t) => t.transferId),
      now,
    ],
  );
  return rows.length;
}

/**
 * Forgets the unsolicited surplus above `blockNumber` (null: all of it) when the checkpoint is
 * moved back there after a reorganisation: the watcher reads those blocks again, and records what
 * the chain has now. Surplus an operator already settled stays, as the ledger does.
 */
export async function forgetUnsolicitedAbove(
  tx: Queryable,
  key: VaultKey,
  blockNumber: bigint | null,
): Promise<number> {
  const rows = await tx.query(
    `DELETE FROM chain_surplus
     WHERE chain_id = $1 AND vault_address = $2 AND status = 'unsolicited'
       AND ($3::bigint IS NULL OR block_number > $3)
     RETURNING 1`,
    [...keyParams(key), blockNumber],
  );
  return rows.length;
}

/** The most surplus transfers one listing returns. */
export const SURPLUS_PAGE_MAX = 500;

/** Surplus of every vault watched, newest first, of `status` only if given. */
export async function listSurplus(
  q: Queryable,
  options: { status?: SurplusStatus | undefined; limit: number },
): Promise<SurplusRecord[]> {
  const rows = await q.query<SurplusRow>(
    `SELECT ${COLUMNS} FROM chain_surplus
     WHERE $1::text IS NULL OR status = $1
     ORDER BY block_number DESC, log_index DESC, chain_id
     LIMIT $2`,
    [options.status ?? null, options.limit],
  );
  return rows.map(toSurplus);
}

/** The surplus with this transaction hash and log index (one per chain it happened on), locked. */
export async function lockSurplusAt(
  tx: Queryable,
  txHash: string,
  logIndex: number,
): Promise<SurplusRecord[]> {
  const rows = await tx.query<SurplusRow>(
    `SELECT ${COLUMNS} FROM chain_surplus WHERE tx_hash = $1 AND log_index = $2
     ORDER BY chain_id FOR UPDATE`,
    [txHash.toLowerCase(), logIndex],
  );
  return rows.map(toSurplus);
}

/** Marks an unsolicited surplus settled: credited, swept (credited and withdrawn) or covered. */
export async function settleSurplus(
  tx: Queryable,
  surplus: { chainId: number; txHash: string; logIndex: number },
  settled:
    | { status: 'credited'; accountId: string }
    | { status: 'swept'; accountId: string; withdrawalId: string }
    | { status: 'covered'; note: string },
  now: Date,
): Promise<SurplusRecord> {
  const [row] = await tx.query<SurplusRow>(
    `UPDATE chain_surplus
     SET status = $4, credited_account_id = $5, withdrawal_id = $6, note = $7, settled_at = $8
     WHERE chain_id = $1 AND tx_hash = $2 AND log_index = $3 AND status = 'unsolicited'
     RETURNING ${COLUMNS}`,
    [
      surplus.chainId,
      surplus.txHash.toLowerCase(),
      surplus.logIndex,
      settled.status,
      settled.status === 'covered' ? null : settled.accountId,
      settled.status === 'swept' ? settled.withdrawalId : null,
      settled.status === 'covered' ? settled.note : null,
      now,
    ],
  );
  if (!row) throw new Error('the surplus was settled under a lock that should have held');
  return toSurplus(row);
}

/** How many of the vault's surplus transfers there are in each status, and what they amount to. */
export async function surplusTotals(
  q: Queryable,
  key: VaultKey,
): Promise<Record<SurplusStatus, { count: number; units: bigint }>> {
  const rows = await q.query<{ status: SurplusStatus; count: number; units: string }>(
    `SELECT status, count(*)::int AS count, sum(amount_units)::text AS units FROM chain_surplus
     WHERE chain_id = $1 AND vault_address = $2 GROUP BY status`,
    keyParams(key),
  );
  const totals = Object.fromEntries(
    SurplusStatuses.map((s) => [s, { count: 0, units: 0n }]),
  ) as Record<SurplusStatus, { count: number; units: bigint }>;
  for (const row of rows) totals[row.status] = { count: row.count, units: BigInt(row.units) };
  return totals;
}
