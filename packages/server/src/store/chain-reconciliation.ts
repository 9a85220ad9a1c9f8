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

/** A play lock whose HST may be on either side of the block between the vault and the ledger. */
export interface PlayLockToCheck {
  readonly playId: string;
  readonly lockedUnits: bigint;
  /** Its play was scored or expired: the ledger paid it out (else it goes back to the wallet). */
  readonly settles: boolean;
  /** Its payout reservations to wallets posted, and those still pending. */
  readonly payoutsPostedUnits: bigint;
  readonly payoutsPendingUnits: bigint;
  /** What the vault pays to wallets when it settles it (reservations of payees with a wallet). */
  readonly payoutsToWalletsUnits: bigint;
  /**
   * Its play was settled in the ledger, then its lock ended on chain without the vault paying it
   * (reclaimed or refunded): the settlement was reversed, so the ledger holds nothing for it.
   */
  readonly undone: boolean;
}

export interface VaultLedgerSnapshot {
  readonly checkpoint: Checkpoint;
  /** Every account kind's totals (zero for a kind with no account). */
  readonly byKind: Readonly<Record<AccountKind, AccountTotals>>;
  /** This vault's account. */
  readonly vault: AccountTotals;
  /** Held deposits of this vault: in the vault, credited to nobody. */
  readonly held: { readonly count: number; readonly units: bigint };
  /** Unsolicited surplus recorded (transfers to the vault without deposit), settled by nobody. */
  readonly surplus: { readonly count: number; readonly units: bigint };
  /** Surplus an operator used to cover a shortfall: in the vault, backing what the ledger owes. */
  readonly covered: { readonly count: number; readonly units: bigint };
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
  /** Payouts of plays locked on chain reserved to this vault and not yet posted or voided. */
  readonly chainPayoutsPending: { readonly count: number; readonly units: bigint };
  /**
   * Play locks the vault may hold while the ledger does not, or the reverse: to refund (no play,
   * or a voided one), in a transaction, or settled by a transaction not known to be at or below
   * the block.
   */
  readonly playLocks: readonly PlayLockToCheck[];
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
    const [
      byKind,
      vault,
      held,
      surplus,
      covered,
      reserved,
      sent,
      paidMaybeAfter,
      chainPayoutsPending,
      playLocks,
    ] = await sequential(
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
      () => countAndSum(tx, 'chain_surplus', "status = 'unsolicited'", key),
      () => countAndSum(tx, 'chain_surplus', "status = 'covered'", key),
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
      () => pendingChainPayouts(tx, checkpoint.accountId),
      () => playLocksToCheck(tx, key, block),
    );
    return {
      checkpoint,
      byKind,
      vault,
      held,
      surplus,
      covered,
      reserved,
      sent,
      paidMaybeAfter,
      chainPayoutsPending,
      playLocks,
    };
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
  table: 'chain_deposits' | 'chain_withdrawals' | 'chain_surplus',
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

/** A pending transfer not yet posted or voided. */
const UNRESOLVED = 'NOT EXISTS (SELECT 1 FROM transfers r WHERE r.pending_id = t.id)';

async function pendingChainPayouts(
  tx: Queryable,
  vaultAccountId: string,
): Promise<{ count: number; units: bigint }> {
  const [row] = await tx.query<{ count: number; units: string | null }>(
    `SELECT count(DISTINCT t.play_id)::int AS count, sum(t.amount)::text AS units
     FROM transfers t
     WHERE t.reason = 'chain_payout' AND t.kind = 'pending' AND t.credit_account_id = $1
       AND ${UNRESOLVED}`,
    [vaultAccountId],
  );
  return { count: row?.count ?? 0, units: BigInt(row?.units ?? 0) };
}

async function playLocksToCheck(
  tx: Queryable,
  key: VaultKey,
  block: bigint,
): Promise<PlayLockToCheck[]> {
  const rows = await tx.query<{
    play_id: string;
    locked: string;
    settles: boolean;
    undone: boolean;
    posted: string | null;
    pending: string | null;
    to_wallets: string | null;
  }>(
    `SELECT l.play_id, l.locked_units::text AS locked,
            COALESCE(p.status IN ('scored', 'expired'), false) AS settles,
            COALESCE(p.status IN ('scored', 'expired'), false)
              AND l.state IN ('reclaimed', 'refunded') AS undone,
            (SELECT sum(t.amount) FROM transfers t
             WHERE t.play_id = l.play_id AND t.reason = 'chain_payout' AND t.kind = 'post_pending'
            )::text AS posted,
            (SELECT sum(t.amount) FROM transfers t
             WHERE t.play_id = l.play_id AND t.reason = 'chain_payout' AND t.kind = 'pending'
               AND ${UNRESOLVED})::text AS pending,
            (SELECT sum(t.amount) FROM transfers t
             LEFT JOIN players pl ON pl.account_id = t.debit_account_id
             LEFT JOIN developers d ON d.account_id = t.debit_account_id
             WHERE t.play_id = l.play_id AND t.reason = 'chain_payout' AND t.kind = 'pending'
               AND COALESCE(pl.wallet, d.wallet) IS NOT NULL)::text AS to_wallets
     FROM chain_play_locks l
     LEFT JOIN plays p ON p.id = l.play_id AND p.vault_account_id IS NOT NULL
     LEFT JOIN chain_withdrawal_batches b ON b.id = l.batch_id
     WHERE l.chain_id = $1 AND l.vault_address = $2 AND l.lock_tx_hash IS NOT NULL
       AND (l.state IN ('refund_due', 'sent')
            OR (l.state = 'open' AND p.status IN ('scored', 'expired', 'voided'))
            OR (l.state IN ('settled', 'refunded', 'reclaimed')
                AND NOT COALESCE(b.status = 'confirmed' AND b.block_number <= $3, false)
                AND NOT COALESCE(l.end_block_number <= $3, false)))`,
    [...keyParams(key), block],
  );
  return rows.map((r) => ({
    playId: r.play_id,
    lockedUnits: BigInt(r.locked),
    settles: r.settles,
    undone: r.undone,
    payoutsPostedUnits: BigInt(r.posted ?? 0),
    payoutsPendingUnits: BigInt(r.pending ?? 0),
    payoutsToWalletsUnits: BigInt(r.to_wallets ?? 0),
  }));
}
