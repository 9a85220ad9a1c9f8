import type { ActivityKind } from '@coinop/protocol';
import type { Queryable } from './db.js';

/** Where a line stands in a player's activity: newest first, then the larger id first. */
export interface ActivityPosition {
  /** Microseconds since the epoch: the exact timestamp, which a JS Date would round. */
  readonly atMicros: bigint;
  readonly id: string;
}

export interface StoredActivity {
  readonly kind: ActivityKind;
  readonly id: string;
  readonly at: Date;
  readonly position: ActivityPosition;
  /** Base units: a play's cost, or the HST the line moved. */
  readonly amountUnits: bigint;
  readonly gameId: string | null;
  readonly gameName: string | null;
  readonly leaderboardId: string | null;
  readonly tierName: string | null;
  readonly playId: string | null;
  readonly status: string | null;
  readonly score: number | null;
  /** The game's score unit; empty for none or a line of no game. */
  readonly scoreUnit: string;
  /** A play's rank when scored; a prize's place. */
  readonly rank: number | null;
  readonly txHash: string | null;
  readonly toAddress: string | null;
  /** A play's review outcome (issue 30): its score voided or kept, or its refused attempt. */
  readonly review: PlayReview | null;
  /** A held payout's release time (issue 30); null once released or voided, or never held. */
  readonly releaseAt: Date | null;
  /** Why the score void that reversed a held payout was made; null for any other line. */
  readonly voidReason: string | null;
  /** When a play's time to score it ends (server time); null for any other line. */
  readonly expiresAt: Date | null;
  /**
   * A play locked from the player's wallet on chain (its cost never left the arcade balance), or
   * a payout sent to their wallet on chain (it never reaches the balance); `txHash` is then the
   * lock's transaction, or the vault's settlement once sent.
   */
  readonly onChain: boolean;
}

/** What came of a play's score in review, with the reason the player reads. */
export interface PlayReview {
  readonly outcome: 'voided' | 'kept' | 'refused';
  /** The reviewer's reason; for a refusal, its message. */
  readonly reason: string;
}

/** The ledger reasons of the transfers credited to a player that their activity lists. */
const CREDIT_REASONS: Partial<Record<ActivityKind, readonly string[]>> = {
  payout: ['payout_leader'],
  returned: ['payout_returned', 'tournament_returned'],
  deposit: ['deposit'],
  grant: ['mint'],
  prize: ['tournament_prize'],
};

const after = (at: string, id: string) => `AND (${at}, ${id}) <
  (timestamptz 'epoch' + $6::bigint * interval '1 microsecond', $7::uuid)`;

/**
 * Each source is read newest first down its own index (plays and payments by player, credits by
 * account, withdrawals by account), at most `limit` rows each, and the sources merged: one
 * statement, however many lines, with no query per line.
 */
const activitySql = (afterCursor: boolean) => {
  const cut = (at: string, id: string) => (afterCursor ? after(at, id) : '');
  return `
  WITH items AS (
    (SELECT 'play'::text AS kind, p.id, p.created_at AS at, p.cost_units AS amount, p.game_id,
            p.leaderboard_id, NULL::uuid AS play_id, p.status, s.score, s.leader_rank AS rank,
            cl.lock_tx_hash AS tx_hash, NULL::text AS to_address,
            CASE WHEN s.voided_at IS NOT NULL THEN 'voided' WHEN k.reason IS NOT NULL THEN 'kept'
                 WHEN s.id IS NULL AND f.reason IS NOT NULL THEN 'refused' END AS review,
            coalesce(s.void_reason, k.reason, f.reason) AS review_reason,
            NULL::timestamptz AS release_at, p.expires_at,
            p.vault_account_id IS NOT NULL AS on_chain
     FROM plays p LEFT JOIN scores s ON s.play_id = p.id
       LEFT JOIN chain_play_locks cl ON p.vault_account_id IS NOT NULL AND cl.play_id = p.id
       LEFT JOIN LATERAL (SELECT r.resolution_reason AS reason FROM score_reviews r
         WHERE r.score_id = s.id AND r.state = 'approved' ORDER BY r.resolved_at DESC LIMIT 1) k
         ON true
       LEFT JOIN LATERAL (SELECT x.detail AS reason FROM score_refusals x
         WHERE x.play_id = p.id ORDER BY x.created_at DESC LIMIT 1) f ON s.id IS NULL
     WHERE 'play' = ANY($3::text[]) AND p.player_id = $1 ${cut('p.created_at', 'p.id')}
     ORDER BY p.created_at DESC, p.id DESC LIMIT $4)
    UNION ALL
    (SELECT CASE t.reason WHEN 'payout_leader' THEN 'payout' WHEN 'deposit' THEN 'deposit'
                 WHEN 'tournament_prize' THEN 'prize' WHEN 'mint' THEN 'grant'
                 ELSE 'returned' END,
            t.id, t.created_at, t.amount, coalesce(pp.game_id, rb.game_id),
            coalesce(pp.leaderboard_id, rb.id), t.play_id,
            CASE WHEN t.reason IN ('deposit', 'mint', 'tournament_prize') THEN NULL
                 WHEN t.kind = 'posted' OR st.kind = 'post_pending' THEN 'paid'
                 WHEN st.kind = 'void_pending' THEN 'voided' ELSE 'held' END,
            NULL, tr.place, coalesce(d.tx_hash, cs.tx_hash, cl.settle_tx_hash), NULL, NULL,
            vs.void_reason,
            CASE WHEN t.kind = 'pending' AND st.id IS NULL THEN pp.payouts_release_at END, NULL,
            cp.id IS NOT NULL
     FROM transfers t
       LEFT JOIN plays pp ON pp.id = t.play_id
       -- A held payout is posted or voided at most once (transfers_settle_once).
       LEFT JOIN transfers st ON t.kind = 'pending' AND st.pending_id = t.id
       -- The void that reversed it: its transfers carry the void's time (028's index).
       LEFT JOIN LATERAL (SELECT s.void_reason FROM scores s
         WHERE st.kind = 'void_pending' AND s.leaderboard_id = pp.leaderboard_id
           AND s.voided_at = st.created_at
         ORDER BY s.id LIMIT 1) vs ON true
       -- A payout of a play locked on chain, reserved for the payee's wallet (not voided: a payee
       -- without a wallet keeps it in the ledger) and paid there by the vault's settleBatch.
       LEFT JOIN LATERAL (SELECT c.id FROM transfers c
         WHERE pp.vault_account_id IS NOT NULL AND c.play_id = t.play_id
           AND c.reason = 'chain_payout' AND c.debit_account_id = $2
           AND NOT EXISTS (SELECT 1 FROM transfers v
             WHERE v.pending_id = c.id AND v.kind = 'void_pending')
         LIMIT 1) cp ON true
       LEFT JOIN chain_play_locks cl ON cp.id IS NOT NULL AND cl.play_id = t.play_id
       LEFT JOIN chain_deposits d ON d.transfer_id = t.id
       LEFT JOIN chain_surplus cs ON cs.transfer_id = t.id
       LEFT JOIN tournament_results tr ON tr.transfer_id = t.id
       -- A round's board: a prize's result names it; an entry returned at the close comes from
       -- the round's pool account, whose id is the round's.
       LEFT JOIN leaderboards rb ON rb.id = coalesce(tr.round_id,
         CASE WHEN t.reason = 'tournament_returned' THEN t.debit_account_id END)
     WHERE t.credit_account_id = $2 AND t.reason = ANY($5::text[])
       ${cut('t.created_at', 't.id')}
     ORDER BY t.created_at DESC, t.id DESC LIMIT $4)
    UNION ALL
    (SELECT 'payment', gp.transfer_id, gp.created_at, gp.amount_units, gp.game_id, NULL, NULL,
            NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, false
     FROM game_purchases gp
     WHERE 'payment' = ANY($3::text[]) AND gp.player_id = $1
       ${cut('gp.created_at', 'gp.transfer_id')}
     ORDER BY gp.created_at DESC, gp.transfer_id DESC LIMIT $4)
    UNION ALL
    (SELECT 'withdrawal', w.id, w.requested_at, w.amount_units, NULL, NULL, NULL, w.status, NULL,
            NULL, w.tx_hash, w.to_address, NULL, NULL, NULL, NULL, false
     FROM chain_withdrawals w
     WHERE 'withdrawal' = ANY($3::text[]) AND w.account_id = $2
       ${cut('w.requested_at', 'w.id')}
     ORDER BY w.requested_at DESC, w.id DESC LIMIT $4))
  SELECT i.kind, i.id, i.at, (extract(epoch FROM i.at) * 1000000)::bigint::text AS micros,
         i.amount::text AS amount, i.game_id, g.name AS game_name,
         coalesce(g.score_unit, '') AS score_unit, i.leaderboard_id,
         lb.name AS tier_name, i.play_id, i.status, i.score, i.rank, i.tx_hash, i.to_address,
         i.review, i.review_reason, i.release_at, i.expires_at, i.on_chain
  FROM (SELECT * FROM items ORDER BY at DESC, id DESC LIMIT $4) i
    LEFT JOIN games g ON g.id = i.game_id
    LEFT JOIN leaderboards lb ON lb.id = i.leaderboard_id
  ORDER BY i.at DESC, i.id DESC`;
};

/**
 * A page of a player's activity, newest first, after `cursor` (from the newest when null), of
 * the given kinds. `more` says whether older lines follow.
 */
export async function playerActivity(
  q: Queryable,
  player: { id: string; accountId: string },
  kinds: readonly ActivityKind[],
  cursor: ActivityPosition | null,
  limit: number,
): Promise<{ items: StoredActivity[]; more: boolean }> {
  const reasons = kinds.flatMap((k) => CREDIT_REASONS[k] ?? []);
  const base = [player.id, player.accountId, kinds, limit + 1, reasons];
  const rows = await q.query<{
    kind: ActivityKind;
    id: string;
    at: Date;
    micros: string;
    amount: string;
    game_id: string | null;
    game_name: string | null;
    leaderboard_id: string | null;
    tier_name: string | null;
    play_id: string | null;
    status: string | null;
    score: number | null;
    score_unit: string;
    rank: number | null;
    tx_hash: string | null;
    to_address: string | null;
    review: PlayReview['outcome'] | null;
    review_reason: string | null;
    release_at: Date | null;
    expires_at: Date | null;
    on_chain: boolean;
  }>(
    activitySql(cursor !== null),
    cursor === null ? base : [...base, cursor.atMicros.toString(), cursor.id],
    cursor === null ? 'player_activity_first' : 'player_activity_after',
  );
  return {
    items: rows.slice(0, limit).map((r) => ({
      kind: r.kind,
      id: r.id,
      at: r.at,
      position: { atMicros: BigInt(r.micros), id: r.id },
      amountUnits: BigInt(r.amount),
      gameId: r.game_id,
      gameName: r.game_name,
      leaderboardId: r.leaderboard_id,
      tierName: r.tier_name,
      playId: r.play_id,
      status: r.status,
      score: r.score,
      scoreUnit: r.score_unit,
      rank: r.rank,
      txHash: r.tx_hash,
      toAddress: r.to_address,
      review:
        r.review === null || r.review_reason === null
          ? null
          : { outcome: r.review, reason: r.review_reason },
      releaseAt: r.release_at,
      voidReason: r.kind === 'payout' ? r.review_reason : null,
      expiresAt: r.expires_at,
      onChain: r.on_chain,
    })),
    more: rows.length > limit,
  };
}
