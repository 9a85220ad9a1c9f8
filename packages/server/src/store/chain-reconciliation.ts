import type { AccountKind } from '@coinop/core';
import { keyParams, readCheckpoint, type Checkpoint, type VaultKey } from './chain-checkpoints.js';
import type { Db, Queryable } from './db.js';

/**
 * What the ledger and the chain tables say about one vault, read in one snapshot, for
 * `coinop admin hst audit --chain` (docs/concepts/chain.md#reconciliation).
 */

/** Sums of the running totals of a set of accounts. */
export interface AccountTotals {
  readonly debitsPosted: bigint;
  readonly creditsPosted: bigint;
  readonly debitsPending: bigint;
  readonly creditsPending: bigint;
}

/** A withdrawal whose payment on chain the reconciliation must ask the vault about. */
export interface WithdrawalToCheck {
  readonly id: string;
  readonly amountUnits: bigint;
}

export interface VaultLedgerSnapshot {
  readonly checkpoint: Checkpoint;
  /** Every account kind's totals (zero for a kind with no account). */
  readonly byKind: Readonly<Record<AccountKind, AccountTotals>>;
  /** This vault's account. */
  readonly vault: AccountTotals;
  /** Held deposits of this vault: in the vault, credited to nobody. */
  readonly held: { readonly count: number; readonly units: bigint };
  /** Withdrawals of this vault reserved and not settled (queued or sent), as its table says. */
  readonly reserved: { readonly count: number; readonly units: bigint };
  /** Withdrawals sent: the vault may have paid them at the block before they are posted. */
  readonly sent: readonly WithdrawalToCheck[];
  /**
   * Withdrawals posted as paid whose paying transaction is not known to be at or below the
   * checkpoint's block (its batch was mined above it, reverted or dropped): the vault may have
   * paid them after the block.
   */
  readonly paidMaybeAfter: readonly WithdrawalToCheck[];
}

const ZERO: AccountTotals = {
  debitsPosted: 0n,
  creditsPosted: 0n,
  debitsPending: 0n,
  creditsPending: 0n,
};
const KINDS: readonly AccountKind[] = ['player', 'developer', 'arcade', 'escrow', 'mint', 'vault'];

interface TotalsRow {
  dpo: string | null;
  cpo: string | null;
  dpe: string | null;
  cpe: string | null;
}
const TOTALS = `sum(debits_posted)::text AS dpo, sum(credits_posted)::text AS cpo,
  sum(debits_pending)::text AS dpe, sum(credits_pending)::text AS cpe`;
const toTotals = (row: TotalsRow | undefined): AccountTotals => ({
  debitsPosted: BigInt(row?.dpo ?? 0),
  creditsPosted: BigInt(row?.cpo ?? 0),
  debitsPending: BigInt(row?.dpe ?? 0),
  creditsPending: BigInt(row?.cpe ?? 0),
});

/**
 * Reads the vault's side of the ledger in one read-only snapshot (REPEATABLE READ), so the
 * checkpoint, the deposits recorded up to it, the balances and the withdrawals all describe the
 * same moment even while the watcher and the sender commit. Null when the vault has no
 * checkpoint.
 */
export async function readVaultLedgerSnapshot(
  db: Db,
  key: VaultKey,
): Promise<VaultLedgerSnapshot | null> {
  return db.transaction(async (tx) => {
    await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
    const checkpoint = await readCheckpoint(tx, key);
    if (!checkpoint) return null;
    const block = checkpoint.blockNumber ?? checkpoint.startBlock - 1n;
    const [byKind, vault, held, reserved, sent, paidMaybeAfter] = await sequential(
      () => totalsByKind(tx),
      async () =>
        toTotals(
          (
            await tx.query<TotalsRow>(`SELECT ${TOTALS} FROM accounts WHERE id = $1`, [
              checkpoint.accountId,
            ])
          )[0],
        ),
      () => countAndSum(tx, 'chain_deposits', "status = 'held'", key),
      () => countAndSum(tx, 'chain_withdrawals', "status IN ('queued', 'sent')", key),
      () =>
        withdrawalsToCheck(
          tx,
          `SELECT id, amount_units::text AS units FROM chain_withdrawals
           WHERE chain_id = $1 AND vault_address = $2 AND status = 'sent'`,
          keyParams(key),
        ),
      () =>
        withdrawalsToCheck(
          tx,
          `SELECT w.id, w.amount_units::text AS units
           FROM chain_withdrawals w LEFT JOIN chain_withdrawal_batches b ON b.id = w.batch_id
           WHERE w.chain_id = $1 AND w.vault_address = $2 AND w.status = 'paid'
             AND NOT COALESCE(b.status = 'confirmed' AND b.block_number <= $3, false)`,
          [...keyParams(key), block],
        ),
    );
    return { checkpoint, byKind, vault, held, reserved, sent, paidMaybeAfter };
  });
}

/** One statement after another: a transaction's connection takes one at a time anyway. */
async function sequential<T extends unknown[]>(
  ...reads: { [K in keyof T]: () => Promise<T[K]> }
): Promise<T> {
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as T;
}

async function totalsByKind(tx: Queryable): Promise<Record<AccountKind, AccountTotals>> {
  const rows = await tx.query<TotalsRow & { kind: AccountKind }>(
    `SELECT kind, ${TOTALS} FROM accounts GROUP BY kind`,
  );
  const byKind = Object.fromEntries(KINDS.map((k) => [k, ZERO])) as Record<
    AccountKind,
    AccountTotals
  >;
  for (const row of rows) byKind[row.kind] = toTotals(row);
  return byKind;
}

async function countAndSum(
  tx: Queryable,
  table: 'chain_deposits' | 'chain_withdrawals',
  where: string,
  key: VaultKey,
): Promise<{ count: number; units: bigint }> {
  const [row] = await tx.query<{ count: number; units: string | null }>(
    `SELECT count(*)::int AS count, sum(amount_units)::text AS units FROM ${table}
     WHERE chain_id = $1 AND vault_address = $2 AND ${where}`,
    keyParams(key),
  );
  return { count: row?.count ?? 0, units: BigInt(row?.units ?? 0) };
}

async function withdrawalsToCheck(
  tx: Queryable,
  sql: string,
  params: unknown[],
): Promise<WithdrawalToCheck[]> {
  const rows = await tx.query<{ id: string; units: string }>(sql, params);
  return rows.map((r) => ({ id: r.id, amountUnits: BigInt(r.units) }));
}
