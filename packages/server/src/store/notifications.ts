import type { Queryable } from './db.js';

/** A notification as stored: a credit to the player's account, told with what caused it. */
export interface StoredNotification {
  readonly kind: 'payout' | 'prize' | 'deposit';
  /** The credit's transfer id. */
  readonly transferId: string;
  readonly at: Date;
  /** Microseconds since the epoch: the exact timestamp, which a JS Date would round. */
  readonly atMicros: bigint;
  readonly amountUnits: bigint;
  readonly status: 'held' | 'paid' | 'voided' | null;
  readonly gameId: string | null;
  readonly gameName: string | null;
  readonly tierName: string | null;
  readonly playId: string | null;
  readonly fromPlayerName: string | null;
  readonly rank: number | null;
}

/** The ledger reasons a player is notified of; other credits (a faucet grant) are their own doing. */
const NOTIFIED_REASONS = ['payout_leader', 'tournament_prize', 'deposit'];

/**
 * Credits to one account, down `transfers_by_credit_account` (credit account, time, id), each
 * with the play, player, tier and game that explain it: one statement, however many rows.
 */
const notificationsSql = (since: boolean) => `
  SELECT CASE t.reason WHEN 'payout_leader' THEN 'payout' WHEN 'tournament_prize' THEN 'prize'
              ELSE 'deposit' END AS kind,
         t.id, t.created_at AS at, (extract(epoch FROM t.created_at) * 1000000)::bigint::text AS micros,
         t.amount::text AS amount,
         CASE WHEN t.reason <> 'payout_leader' THEN NULL
              WHEN t.kind = 'posted' OR st.kind = 'post_pending' THEN 'paid'
              WHEN st.kind = 'void_pending' THEN 'voided' ELSE 'held' END AS status,
         g.id AS game_id, g.name AS game_name, lb.name AS tier_name, t.play_id,
         pl.name AS from_player_name, tr.place AS rank
  FROM transfers t
    LEFT JOIN plays pp ON pp.id = t.play_id
    LEFT JOIN players pl ON pl.id = pp.player_id
    -- A held payout is posted or voided at most once (transfers_settle_once).
    LEFT JOIN transfers st ON t.kind = 'pending' AND st.pending_id = t.id
    LEFT JOIN tournament_results tr ON tr.transfer_id = t.id
    LEFT JOIN leaderboards lb ON lb.id = coalesce(pp.leaderboard_id, tr.round_id)
    LEFT JOIN games g ON g.id = lb.game_id
  WHERE t.credit_account_id = $1 AND t.reason = ANY($2::text[]) AND t.kind IN ('posted', 'pending')
    ${since ? `AND t.created_at >= timestamptz 'epoch' + $4::bigint * interval '1 microsecond'` : ''}
  ORDER BY t.created_at ${since ? 'ASC' : 'DESC'}, t.id ${since ? 'ASC' : 'DESC'}
  LIMIT $3`;

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
  rank: number | null;
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
    rank: r.rank,
  };
}
