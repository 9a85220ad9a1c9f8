import type { Queryable } from './db.js';

/** A notification as stored: a credit to the player's account, a refund, or a publish decision. */
export interface StoredNotification {
  readonly kind:
    'payout' | 'prize' | 'deposit' | 'refund' | 'publish_approved' | 'publish_declined';
  /** The credit's or refund's transfer id; a publish decision's request id. */
  readonly transferId: string;
  readonly at: Date;
  /** Microseconds since the epoch: the exact timestamp, which a JS Date would round. */
  readonly atMicros: bigint;
  /** HST moved, in base units; 0 for a publish decision. */
  readonly amountUnits: bigint;
  readonly status: 'held' | 'paid' | 'voided' | null;
  readonly gameId: string | null;
  readonly gameName: string | null;
  readonly tierName: string | null;
  readonly playId: string | null;
  readonly fromPlayerName: string | null;
  /** A payout of the player's own play (they lead the board they played on). */
  readonly ownPlay: boolean;
  readonly rank: number | null;
  /** A declined publish request: the operator's reason. */
  readonly reason: string | null;
}

/** The ledger reasons a player is notified of; other credits (a faucet grant) are their own doing. */
const NOTIFIED_REASONS = ['payout_leader', 'tournament_prize', 'deposit'];

const micros = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;
const sinceClause = (column: string) =>
  `AND ${column} >= timestamptz 'epoch' + $4::bigint * interval '1 microsecond'`;

/**
 * One account's notifications, each with the play, player, tier and game that explain it, in one
 * statement however many rows: its credits, down `transfers_by_credit_account` (credit account,
 * time, id); its refunds (a play's lock voided back to it: a suspended game's open play, a
 * round's entry among them; a round's close settles an unscored entry, it refunds none), down
 * `transfers_refunds_by_account` (migration 036); and, when the player's wallet is a developer's,
 * the operator's decisions on that developer's publish requests. Each part is ordered and limited
 * on its own, so each reads only what it may return.
 */
const notificationsSql = (since: boolean) => {
  const order = since ? 'ASC' : 'DESC';
  return `
  (SELECT CASE t.reason WHEN 'payout_leader' THEN 'payout' WHEN 'tournament_prize' THEN 'prize'
              ELSE 'deposit' END AS kind,
         t.id, t.created_at AS at, ${micros('t.created_at')} AS micros,
         t.amount::text AS amount,
         CASE WHEN t.reason <> 'payout_leader' THEN NULL
              WHEN t.kind = 'posted' OR st.kind = 'post_pending' THEN 'paid'
              WHEN st.kind = 'void_pending' THEN 'voided' ELSE 'held' END AS status,
         g.id AS game_id, g.name AS game_name, lb.name AS tier_name, t.play_id,
         pl.name AS from_player_name, coalesce(pl.account_id = $1, false) AS own_play,
         tr.place AS rank, NULL::text AS reason
  FROM transfers t
    LEFT JOIN plays pp ON pp.id = t.play_id
    LEFT JOIN players pl ON pl.id = pp.player_id
    -- A held payout is posted or voided at most once (transfers_settle_once).
    LEFT JOIN transfers st ON t.kind = 'pending' AND st.pending_id = t.id
    LEFT JOIN tournament_results tr ON tr.transfer_id = t.id
    LEFT JOIN leaderboards lb ON lb.id = coalesce(pp.leaderboard_id, tr.round_id)
    LEFT JOIN games g ON g.id = lb.game_id
  WHERE t.credit_account_id = $1 AND t.reason = ANY($2::text[]) AND t.kind IN ('posted', 'pending')
    ${since ? sinceClause('t.created_at') : ''}
  ORDER BY t.created_at ${order}, t.id ${order}
  LIMIT $3)
  UNION ALL
  (SELECT 'refund', t.id, t.created_at, ${micros('t.created_at')}, t.amount::text, NULL,
         g.id, g.name, coalesce(tn.name, lb.name), t.play_id, NULL, false, NULL, NULL
  FROM transfers t
    JOIN plays pp ON pp.id = t.play_id
    JOIN leaderboards lb ON lb.id = pp.leaderboard_id
    JOIN games g ON g.id = lb.game_id
    LEFT JOIN tournament_rounds rd ON rd.id = lb.id
    LEFT JOIN tournaments tn ON tn.id = rd.tournament_id
  WHERE t.debit_account_id = $1 AND t.reason = 'play_void'
    ${since ? sinceClause('t.created_at') : ''}
  ORDER BY t.created_at ${order}, t.id ${order}
  LIMIT $3)
  UNION ALL
  (SELECT CASE r.state WHEN 'approved' THEN 'publish_approved' ELSE 'publish_declined' END,
         r.id, r.decided_at, ${micros('r.decided_at')}, '0', NULL,
         g.id, g.name, NULL, NULL, NULL, false, NULL, r.decline_reason
  FROM players me
    JOIN developers d ON d.wallet = me.wallet
    JOIN games g ON g.developer_id = d.id
    JOIN publish_requests r ON r.game_id = g.id
  WHERE me.account_id = $1 AND r.state IN ('approved', 'declined')
    ${since ? sinceClause('r.decided_at') : ''}
  ORDER BY r.decided_at ${order}, r.id ${order}
  LIMIT $3)
  ORDER BY at ${order}, id ${order}
  LIMIT $3`;
};

const RECENT_SQL = notificationsSql(false);
const SINCE_SQL = notificationsSql(true);

interface NotificationRow {
  kind: StoredNotification['kind'];
  id: string;
  at: Date;
  micros: string;
  amount: string;
  status: StoredNotification['status'];
  game_id: string | null;
  game_name: string | null;
  tier_name: string | null;
  play_id: string | null;
  from_player_name: string | null;
  own_play: boolean;
  rank: number | null;
  reason: string | null;
}

/** The account's latest notifications, newest first. */
export async function recentNotifications(
  q: Queryable,
  accountId: string,
  limit: number,
): Promise<StoredNotification[]> {
  const rows = await q.query<NotificationRow>(
    RECENT_SQL,
    [accountId, NOTIFIED_REASONS, limit],
    'notifications_recent',
  );
  return rows.map(toNotification);
}

/** The account's notifications made at or after `sinceMicros`, oldest first. */
export async function notificationsSince(
  q: Queryable,
  accountId: string,
  sinceMicros: bigint,
  limit: number,
): Promise<StoredNotification[]> {
  const rows = await q.query<NotificationRow>(
    SINCE_SQL,
    [accountId, NOTIFIED_REASONS, limit, sinceMicros.toString()],
    'notifications_since',
  );
  return rows.map(toNotification);
}

function toNotification(r: NotificationRow): StoredNotification {
  return {
    kind: r.kind,
    transferId: r.id,
    at: r.at,
    atMicros: BigInt(r.micros),
    amountUnits: BigInt(r.amount),
    status: r.status,
    gameId: r.game_id,
    gameName: r.game_name,
    tierName: r.tier_name,
    playId: r.play_id,
    fromPlayerName: r.from_player_name,
    ownPlay: r.own_play,
    rank: r.rank,
    reason: r.reason,
  };
}
