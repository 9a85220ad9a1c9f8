import type { HeldPayout, TransferReason } from '@coinop/core';
import type { Queryable } from './db.js';

/**
 * Held payouts (docs/concepts/plays-and-settlement.md#hold-and-void): a settled play whose
 * payouts are pending records when they are posted (`plays.payouts_release_at`, migration 026),
 * so the release sweep finds the due plays by an index scan and a void finds the held ones.
 */

/** Records when each play's held payouts are posted. Inside the settlement's transaction. */
export async function holdPayouts(
  tx: Queryable,
  held: readonly { playId: string; releaseAt: Date }[],
): Promise<void> {
  if (held.length === 0) return;
  await tx.query(
    `UPDATE plays p SET payouts_release_at = h.release_at
     FROM unnest($1::uuid[], $2::timestamptz[]) AS h(id, release_at) WHERE p.id = h.id`,
    [held.map((h) => h.playId), held.map((h) => h.releaseAt)],
    'payout_holds_hold',
  );
}

/**
 * Up to `limit` plays whose hold ended by `now`, oldest first, locked; plays another process is
 * releasing (or a void is re-settling) are skipped, so several sweepers can run at once.
 */
export async function lockDuePlays(tx: Queryable, now: Date, limit: number): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `SELECT id FROM plays WHERE payouts_release_at IS NOT NULL AND payouts_release_at <= $1
     ORDER BY payouts_release_at LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [now, limit],
    'payout_holds_lock_due',
  );
  return rows.map((r) => r.id);
}

/** Marks plays' payouts released (posted); in the transaction that posted them. */
export async function markReleased(tx: Queryable, playIds: readonly string[]): Promise<void> {
  if (playIds.length === 0) return;
  await tx.query(
    'UPDATE plays SET payouts_release_at = NULL WHERE id = ANY($1::uuid[])',
    [playIds],
    'payout_holds_released',
  );
}

/** A held payout with the play it belongs to. */
export interface StoredHeldPayout extends HeldPayout {
  readonly playId: string;
}

/**
 * The held payouts of the plays given: pending transfers from each play's escrow (the account
 * whose id is the play's) that are neither posted nor voided yet, oldest first.
 */
export async function heldPayoutsOf(
  q: Queryable,
  playIds: readonly string[],
): Promise<StoredHeldPayout[]> {
  if (playIds.length === 0) return [];
  const rows = await q.query<{
    id: string;
    play_id: string;
    credit_account_id: string;
    amount: bigint;
    reason: TransferReason;
  }>(
    `SELECT t.id, t.play_id, t.credit_account_id, t.amount, t.reason FROM transfers t
     WHERE t.play_id = ANY($1::uuid[]) AND t.kind = 'pending' AND t.debit_account_id = t.play_id
       AND NOT EXISTS (SELECT 1 FROM transfers s WHERE s.pending_id = t.id)
     ORDER BY t.created_at, t.id`,
    [playIds],
    'payout_holds_held_of',
  );
  return rows.map((r) => ({
    id: r.id,
    playId: r.play_id,
    creditAccountId: r.credit_account_id,
    amount: BigInt(r.amount),
    reason: r.reason,
  }));
}

/** What an account is owed by payouts still held, and when the next of them is released. */
export interface PendingPayouts {
  readonly units: bigint;
  readonly nextReleaseAt: Date | null;
}

/** The held payouts credited to an account: their sum and the earliest release time. */
export async function pendingPayoutsOf(q: Queryable, accountId: string): Promise<PendingPayouts> {
  const rows = await q.query<{ units: bigint | null; next_release_at: Date | null }>(
    `SELECT sum(t.amount) AS units, min(p.payouts_release_at) AS next_release_at
     FROM transfers t JOIN plays p ON p.id = t.play_id
     WHERE t.credit_account_id = $1 AND t.kind = 'pending' AND t.debit_account_id = t.play_id
       AND p.payouts_release_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM transfers s WHERE s.pending_id = t.id)`,
    [accountId],
    'payout_holds_pending_of',
  );
  const row = rows[0];
  return { units: BigInt(row?.units ?? 0n), nextReleaseAt: row?.next_release_at ?? null };
}
