import type { Queryable } from './db.js';

/** Read-only queries behind the game server's read endpoints. */

export interface PayoutRow {
  transferId: string;
  amount: bigint;
  createdAt: Date;
  payeeName: string;
  payerName: string;
}

/**
 * Leader payouts a player received from plays of one game, newest first, keyset-paginated by
 * transfer id (time-ordered UUIDs): `startingAfter` continues after that transfer (older ones),
 * `endingBefore` returns the page just before it (newer ones).
 */
export async function listPayouts(
  q: Queryable,
  gameId: string,
  playerAccountId: string,
  page: { limit: number; startingAfter: string | null; endingBefore: string | null },
): Promise<PayoutRow[]> {
  const newerFirst = page.endingBefore === null;
  const rows = await q.query<{
    id: string;
    amount: bigint;
    created_at: Date;
    payee_name: string;
    payer_name: string;
  }>(
    `SELECT t.id, t.amount, t.created_at, payee.name AS payee_name, payer.name AS payer_name
     FROM transfers t
     JOIN plays p ON p.id = t.play_id
     JOIN players payer ON payer.id = p.player_id
     JOIN players payee ON payee.account_id = t.credit_account_id
     WHERE t.credit_account_id = $1 AND t.reason = 'payout_leader' AND p.game_id = $2
       AND ($3::uuid IS NULL OR t.id < $3) AND ($4::uuid IS NULL OR t.id > $4)
     ORDER BY t.id ${newerFirst ? 'DESC' : 'ASC'}
     LIMIT $5`,
    [playerAccountId, gameId, page.startingAfter, page.endingBefore, page.limit],
  );
  const mapped = rows.map((r) => ({
    transferId: r.id,
    amount: BigInt(r.amount),
    createdAt: r.created_at,
    payeeName: r.payee_name,
    payerName: r.payer_name,
  }));
  return newerFirst ? mapped : mapped.reverse();
}

/** The state of a play's lock transfer: pending until settled, then posted or voided. */
export async function lockTransferState(
  q: Queryable,
  lockTransferId: string,
): Promise<'pending' | 'posted' | 'voided'> {
  const rows = await q.query<{ kind: string }>(
    'SELECT kind FROM transfers WHERE pending_id = $1',
    [lockTransferId],
    'transfers_settlement_of',
  );
  const kind = rows[0]?.kind;
  return kind === 'post_pending' ? 'posted' : kind === 'void_pending' ? 'voided' : 'pending';
}
