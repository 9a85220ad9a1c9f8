import type { ApprovalKind } from '@coinop/protocol';
import type { Queryable } from './db.js';

/** A wallet signature that approved a play, a score or a payment (client-side play). */
export interface WalletApproval {
  id: string;
  playerId: string;
  wallet: string;
  kind: ApprovalKind;
  /** The play (play, score) or the ledger transfer (purchase) approved. */
  subjectId: string;
  nonce: string;
  message: string;
  signature: string;
  createdAt: Date;
}

interface ApprovalRow {
  id: string;
  player_id: string;
  wallet: string;
  kind: ApprovalKind;
  subject_id: string;
  nonce: string;
  message: string;
  signature: string;
  created_at: Date;
}

const toApproval = (r: ApprovalRow): WalletApproval => ({
  id: r.id,
  playerId: r.player_id,
  wallet: r.wallet,
  kind: r.kind,
  subjectId: r.subject_id,
  nonce: r.nonce,
  message: r.message,
  signature: r.signature,
  createdAt: r.created_at,
});

/**
 * Records an approval; a second one with the player's same kind and nonce is not recorded.
 * Returns whether this call recorded it.
 */
export async function insertApproval(q: Queryable, a: WalletApproval): Promise<boolean> {
  const rows = await q.query<{ id: string }>(
    `INSERT INTO wallet_approvals
       (id, player_id, wallet, kind, subject_id, nonce, message, signature, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     ON CONFLICT (player_id, kind, nonce) DO NOTHING
     RETURNING id`,
    [a.id, a.playerId, a.wallet, a.kind, a.subjectId, a.nonce, a.message, a.signature, a.createdAt],
    'insert_wallet_approval',
  );
  return rows.length === 1;
}

/** The approval a player gave with `nonce` for `kind`, if any. */
export async function findApproval(
  q: Queryable,
  playerId: string,
  kind: ApprovalKind,
  nonce: string,
): Promise<WalletApproval | null> {
  const rows = await q.query<ApprovalRow>(
    `SELECT id, player_id, wallet, kind, subject_id, nonce, message, signature, created_at
       FROM wallet_approvals WHERE player_id = $1 AND kind = $2 AND nonce = $3`,
    [playerId, kind, nonce],
    'find_wallet_approval',
  );
  return rows[0] ? toApproval(rows[0]) : null;
}

/** The approvals of a play or transfer, oldest first. */
export async function approvalsOf(q: Queryable, subjectId: string): Promise<WalletApproval[]> {
  const rows = await q.query<ApprovalRow>(
    `SELECT id, player_id, wallet, kind, subject_id, nonce, message, signature, created_at
       FROM wallet_approvals WHERE subject_id = $1 ORDER BY created_at, id`,
    [subjectId],
    'approvals_of_subject',
  );
  return rows.map(toApproval);
}

export async function insertPurchase(
  q: Queryable,
  p: { transferId: string; gameId: string; playerId: string; amountUnits: bigint; createdAt: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO game_purchases (transfer_id, game_id, player_id, amount_units, created_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [p.transferId, p.gameId, p.playerId, p.amountUnits, p.createdAt],
    'insert_game_purchase',
  );
}
