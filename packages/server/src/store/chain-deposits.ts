import type { AccountKind } from '@coinop/core';
import type { Queryable } from './db.js';
import { keyParams, type VaultKey } from './chain-checkpoints.js';

/**
 * Deposits read from a chain vault (migration 012): every Deposited event once its block is deep
 * enough, credited or held. Addresses and hashes are stored lower-case.
 */

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

const DEPOSIT_COLUMNS =
  'chain_id, tx_hash, log_index, vault_address, block_number, block_hash, account_id, ' +
  'from_address, amount_units::text AS amount_units, status, held_reason, transfer_id, ' +
  'credited_account_id, seen_at, credited_at';

function toDeposit(row: DepositRow): DepositRecord {
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

/** The deposits one transaction made, on any chain and vault watched, in log order. */
export async function depositsOfTransaction(
  q: Queryable,
  txHash: string,
): Promise<DepositRecord[]> {
  const rows = await q.query<DepositRow>(
    `SELECT ${DEPOSIT_COLUMNS} FROM chain_deposits WHERE tx_hash = $1
     ORDER BY chain_id, log_index`,
    [txHash.toLowerCase()],
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
