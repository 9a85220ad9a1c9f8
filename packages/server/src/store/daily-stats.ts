import type { Units } from '@coinop/core';
import type { Queryable } from './db.js';

/**
 * Activity per UTC day for the portal's and the console's charts (issue 31): one grouped query
 * per chart. Days with nothing have no row here; the service fills them in.
 */

/** A half-open window of whole UTC days: `from` is a UTC midnight, `to` the midnight after. */
export interface DayWindow {
  readonly from: Date;
  readonly to: Date;
}

/** One game's activity on one UTC day (`day` as `YYYY-MM-DD`). */
export interface GameDayRow {
  readonly day: string;
  readonly gameId: string;
  readonly plays: number;
  readonly earnedUnits: Units;
}

/** The arcade's activity on one UTC day. */
export interface ArcadeDayRow {
  readonly day: string;
  readonly plays: number;
  readonly volumeUnits: Units;
  readonly activePlayers: number;
  readonly paidOutUnits: Units;
}

/**
 * What a credit transfer made spendable: a posted transfer's amount, or a held payout's amount
 * when its release posts it (`post_pending` with amount 0 posts the pending amount in full). The
 * held payout is read by primary key for each release alone (a subquery, not a join: the join was
 * planned as a hash of every transfer, 356 ms of 1,256 on 1.2 million transfers).
 */
export const SPENDABLE_AMOUNT = `CASE WHEN t.kind = 'posted' OR t.amount > 0 THEN t.amount
  ELSE (SELECT held.amount FROM transfers held WHERE held.id = t.pending_id) END`;

/**
 * Plays opened, and HST credited to the developer's account, per UTC day and game. Plays walk
 * `plays_by_game (game_id, created_at)`; credits walk `transfers_by_credit_account
 * (credit_account_id, created_at, id)` and find their game through the play (primary key) or the
 * in-game purchase (primary key `transfer_id`). A held share counts on the day it is released.
 */
export async function developerDailyRows(
  q: Queryable,
  developerAccountId: string,
  gameIds: readonly string[],
  window: DayWindow,
): Promise<GameDayRow[]> {
  const rows = await q.query<{ day: string; game_id: string; plays: number; earned: bigint }>(
    `WITH game_plays AS (
       SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, game_id,
              count(*)::int AS plays
       FROM plays
       WHERE game_id = ANY($1::uuid[]) AND created_at >= $2 AND created_at < $3
       GROUP BY 1, 2
     ), game_credits AS (
       SELECT date_trunc('day', t.created_at AT TIME ZONE 'UTC') AS day,
              coalesce(p.game_id, gp.game_id) AS game_id,
              sum(${SPENDABLE_AMOUNT})::bigint AS earned
       FROM transfers t
       LEFT JOIN plays p ON p.id = t.play_id
       LEFT JOIN game_purchases gp ON gp.transfer_id = t.id
       WHERE t.credit_account_id = $4 AND t.kind IN ('posted', 'post_pending')
         AND t.created_at >= $2 AND t.created_at < $3
         AND coalesce(p.game_id, gp.game_id) = ANY($1::uuid[])
       GROUP BY 1, 2
     )
     SELECT to_char(coalesce(gp.day, gc.day), 'YYYY-MM-DD') AS day, coalesce(gp.game_id, gc.game_id) AS game_id,
            coalesce(gp.plays, 0) AS plays, coalesce(gc.earned, 0)::bigint AS earned
     FROM game_plays gp FULL JOIN game_credits gc ON gc.day = gp.day AND gc.game_id = gp.game_id`,
    [gameIds, window.from, window.to, developerAccountId],
    'developer_daily_stats',
  );
  return rows.map((r) => ({
    day: r.day,
    gameId: r.game_id,
    plays: r.plays,
    earnedUnits: BigInt(r.earned),
  }));
}

/**
 * The arcade's plays, HST locked by them, distinct players who opened one, and HST paid to
 * leaders (posted, or released from a hold), per UTC day. Both walk a BRIN index on
 * `created_at` (migration 035): cheap to keep on tables every play writes, and these rows are
 * written in time order.
 */
export async function arcadeDailyRows(q: Queryable, window: DayWindow): Promise<ArcadeDayRow[]> {
  const rows = await q.query<{
    day: string;
    plays: number;
    volume: bigint;
    active_players: number;
    paid_out: bigint;
  }>(
    `WITH day_plays AS (
       SELECT date_trunc('day', created_at AT TIME ZONE 'UTC') AS day, count(*)::int AS plays,
              sum(cost_units)::bigint AS volume, count(DISTINCT player_id)::int AS active_players
       FROM plays
       WHERE created_at >= $1 AND created_at < $2
       GROUP BY 1
     ), day_payouts AS (
       SELECT date_trunc('day', t.created_at AT TIME ZONE 'UTC') AS day,
              sum(${SPENDABLE_AMOUNT})::bigint AS paid_out
       FROM transfers t
       WHERE t.created_at >= $1 AND t.created_at < $2
         AND t.reason IN ('payout_leader', 'payout_release')
         AND ((t.kind = 'posted' AND t.reason = 'payout_leader')
           OR (t.kind = 'post_pending' AND (SELECT held.reason FROM transfers held
                                             WHERE held.id = t.pending_id) = 'payout_leader'))
       GROUP BY 1
     )
     SELECT to_char(coalesce(p.day, o.day), 'YYYY-MM-DD') AS day, coalesce(p.plays, 0) AS plays,
            coalesce(p.volume, 0)::bigint AS volume,
            coalesce(p.active_players, 0) AS active_players,
            coalesce(o.paid_out, 0)::bigint AS paid_out
     FROM day_plays p FULL JOIN day_payouts o ON o.day = p.day`,
    [window.from, window.to],
    'arcade_daily_stats',
  );
  return rows.map((r) => ({
    day: r.day,
    plays: r.plays,
    volumeUnits: BigInt(r.volume),
    activePlayers: r.active_players,
    paidOutUnits: BigInt(r.paid_out),
  }));
}
