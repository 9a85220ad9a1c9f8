import type { Queryable } from './db.js';

/** What a published game saw in the catalog's window (docs/concepts/discovery.md). */
export interface GameActivity {
  /** Plays begun in the window, free plays included. */
  readonly plays: number;
  /** HST paid into the game's boards by those plays, in base units: its pool this week. */
  readonly paidUnits: bigint;
}

/**
 * Each published game's plays and paid HST since `since`, in one statement: a range scan of the
 * `plays_by_game (game_id, created_at)` index per published game (migration 005), never a scan of
 * the plays table. Games without plays in the window are left out.
 */
const WEEKLY_ACTIVITY_SQL = `SELECT g.id AS game_id, w.plays, w.paid_units
  FROM games g
  CROSS JOIN LATERAL (
    SELECT count(*) AS plays, coalesce(sum(p.cost_units), 0)::text AS paid_units
    FROM plays p
    WHERE p.game_id = g.id AND p.created_at >= $2
  ) w
  WHERE g.arcade_id = $1 AND g.published_at IS NOT NULL AND w.plays > 0`;

export async function publishedGameActivity(
  q: Queryable,
  arcadeId: string,
  since: Date,
): Promise<Map<string, GameActivity>> {
  const rows = await q.query<{ game_id: string; plays: bigint | number; paid_units: string }>(
    WEEKLY_ACTIVITY_SQL,
    [arcadeId, since],
    'catalog_game_activity',
  );
  return new Map(
    rows.map((r) => [r.game_id, { plays: Number(r.plays), paidUnits: BigInt(r.paid_units) }]),
  );
}
