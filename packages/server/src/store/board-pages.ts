import type { Queryable } from './db.js';

/**
 * Where a best stands in a board's total order: rank key descending, then the earlier
 * `achieved_at`, then the player id. A page cursor is the position of a page's last row.
 * `achievedAtMicros` is the exact timestamp (microseconds since the epoch), not a JS Date,
 * so a cursor never loses the tie-break.
 */
export interface BoardPosition {
  readonly rankKey: bigint;
  readonly achievedAtMicros: bigint;
  readonly playerId: string;
}

export interface RankedBest {
  readonly rank: number;
  readonly playerId: string;
  readonly name: string;
  readonly avatarUrl: string | null;
  readonly score: number;
  readonly position: BoardPosition;
}

export interface StoredBoardPage {
  /** Players with a best on the board. */
  readonly players: number;
  readonly rows: readonly RankedBest[];
  /** Whether rows follow the last one. */
  readonly more: boolean;
}

export interface StoredBoardAround {
  readonly players: number;
  readonly above: readonly RankedBest[];
  readonly player: RankedBest | null;
  readonly below: readonly RankedBest[];
}

const micros = (column: string) => `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;
const AT = (param: string) => `(timestamptz 'epoch' + ${param}::bigint * interval '1 microsecond')`;

/**
 * Players ranked before the best in `anchor` (a one-row CTE), from the count tree: per level, the
 * sibling buckets above the anchor's own (O(log n), never a scan of the board), plus the equal
 * keys reached earlier (a range of the ranked index: those tied with the anchor).
 */
const BEFORE_ANCHOR = (anchor: string) => `
  above AS (
    SELECT coalesce(sum(s.n), 0)::bigint AS n
    FROM ${anchor} a CROSS JOIN generate_series(1, 8) AS g(level)
    CROSS JOIN LATERAL (
      SELECT sum(b.players) AS n FROM rank_buckets b
      WHERE b.leaderboard_id = $1 AND b.level = g.level
        AND b.bucket > (a.rank_key >> (64 - 8 * g.level))
        AND b.bucket <= ((a.rank_key >> (64 - 8 * g.level)) | 255::bigint)) s),
  tied AS (
    SELECT count(*)::bigint AS n FROM ${anchor} a JOIN leaders l
      ON l.leaderboard_id = $1 AND l.rank_key = a.rank_key
     AND (l.achieved_at, l.player_id) < (a.achieved_at, a.player_id)),
  total AS (
    SELECT coalesce(sum(players), 0)::bigint AS n FROM rank_buckets
    WHERE leaderboard_id = $1 AND level = 1)`;

/** Rows strictly after a position in the board's order (`$2..$4`). */
const AFTER_CURSOR = `AND rank_key <= $2::bigint
  AND (rank_key < $2::bigint OR (achieved_at, player_id) > (${AT('$3')}, $4::uuid))`;

/**
 * The rows as one JSON array, best first, each `[player, score, rank key, micros, name, avatar]`
 * (after `side` for around-me): one value to decode instead of a row each, which halves the
 * time an embedded PGlite spends handing a page over (docs/benchmarks.md, "Board reads").
 * A float8 prints its shortest exact form, so a score survives JSON unchanged. Each name is
 * a LATERAL lookup with LIMIT 1, which a plan made without the values cannot turn into a hash
 * join over every player (as a plain join became under `force_generic_plan`: 500 ms at 200,000).
 */
const ROWS_JSON = (from: string, side: string) => `(
    SELECT json_agg(json_build_array(${side}r.player_id, r.score, r.rank_key::text,
                                     ${micros('r.achieved_at')}, pl.name, pl.avatar_url)
                    ORDER BY r.rank_key DESC, r.achieved_at, r.player_id)
    FROM ${from} r
    CROSS JOIN LATERAL (SELECT name, avatar_url FROM players WHERE id = r.player_id LIMIT 1) pl
  )::text`;

const pageSql = (afterCursor: boolean) => `
  WITH page AS (
    SELECT player_id, score, rank_key, achieved_at FROM leaders
    WHERE leaderboard_id = $1 ${afterCursor ? AFTER_CURSOR : ''}
    ORDER BY rank_key DESC, achieved_at, player_id LIMIT $${afterCursor ? 5 : 2}),
  head AS (
    SELECT rank_key, achieved_at, player_id FROM page
    ORDER BY rank_key DESC, achieved_at, player_id LIMIT 1),
  ${BEFORE_ANCHOR('head')}
  SELECT (SELECT n FROM total)::text AS players,
         ((SELECT n FROM above) + (SELECT n FROM tied))::text AS before,
         ${ROWS_JSON('page', '')} AS rows`;

/** The statement's one row: the counts, and the bests as JSON (null when there are none). */
interface Row {
  players: string;
  before: string | null;
  rows: string | null;
}

/** One best of `Row.rows`: player, score, rank key, micros, name, avatar. */
type BestJson = [string, number, string, string, string, string | null];

const bestsOf = <T extends unknown[]>(row: Row | undefined): T[] =>
  row?.rows === undefined || row.rows === null ? [] : (JSON.parse(row.rows) as T[]);

const toBest = (
  [playerId, score, rankKey, micros, name, avatarUrl]: BestJson,
  rank: number,
): RankedBest => ({
  rank,
  playerId,
  name,
  avatarUrl,
  score,
  position: { rankKey: BigInt(rankKey), achievedAtMicros: BigInt(micros), playerId },
});

/**
 * A page of the board, best first, after `cursor` (from the top when null), with exact ranks.
 * One statement, so one snapshot: the bests and the count tree the ranks come from are read at
 * the same instant (a score batch writes both in one statement).
 */
export async function boardPage(
  q: Queryable,
  leaderboardId: string,
  cursor: BoardPosition | null,
  limit: number,
): Promise<StoredBoardPage> {
  const params =
    cursor === null
      ? [leaderboardId, limit + 1]
      : [
          leaderboardId,
          cursor.rankKey.toString(),
          cursor.achievedAtMicros.toString(),
          cursor.playerId,
          limit + 1,
        ];
  const rows = await q.query<Row>(
    pageSql(cursor !== null),
    params,
    cursor === null ? 'board_page_first' : 'board_page_after',
  );
  const found = bestsOf<BestJson>(rows[0]);
  const before = Number(rows[0]?.before ?? 0);
  return {
    players: Number(rows[0]?.players ?? 0),
    rows: found.slice(0, limit).map((r, i) => toBest(r, before + i + 1)),
    more: found.length > limit,
  };
}

const AROUND_SQL = `
  WITH me AS (
    SELECT player_id, score, rank_key, achieved_at FROM leaders
    WHERE leaderboard_id = $1 AND player_id = $2),
  ${BEFORE_ANCHOR('me')},
  near AS (
    SELECT 'me' AS side, player_id, score, rank_key, achieved_at FROM me
    UNION ALL
    SELECT 'above', l.* FROM me m CROSS JOIN LATERAL (
      SELECT player_id, score, rank_key, achieved_at FROM leaders
      WHERE leaderboard_id = $1 AND rank_key >= m.rank_key
        AND (rank_key > m.rank_key OR (achieved_at, player_id) < (m.achieved_at, m.player_id))
      ORDER BY rank_key, achieved_at DESC, player_id DESC LIMIT $3) l
    UNION ALL
    SELECT 'below', l.* FROM me m CROSS JOIN LATERAL (
      SELECT player_id, score, rank_key, achieved_at FROM leaders
      WHERE leaderboard_id = $1 AND rank_key <= m.rank_key
        AND (rank_key < m.rank_key OR (achieved_at, player_id) > (m.achieved_at, m.player_id))
      ORDER BY rank_key DESC, achieved_at, player_id LIMIT $3) l)
  SELECT (SELECT n FROM total)::text AS players,
         ((SELECT n FROM above) + (SELECT n FROM tied))::text AS before,
         ${ROWS_JSON('near', 'r.side, ')} AS rows`;

/**
 * A player's best and rank with up to `count` players just above and below, in one statement
 * (one snapshot). `player` is null when the player has no best on the board.
 */
export async function boardAround(
  q: Queryable,
  leaderboardId: string,
  playerId: string,
  count: number,
): Promise<StoredBoardAround> {
  const rows = await q.query<Row>(AROUND_SQL, [leaderboardId, playerId, count], 'board_around');
  const players = Number(rows[0]?.players ?? 0);
  const found = bestsOf<['me' | 'above' | 'below', ...BestJson]>(rows[0]).map(
    ([side, ...best]) => ({ side, best }),
  );
  const meAt = found.findIndex((r) => r.side === 'me');
  const me = found[meAt];
  if (me === undefined) return { players, above: [], player: null, below: [] };
  const rank = Number(rows[0]?.before ?? 0) + 1;
  // Rows come best first: the player's row sits between those above and those below.
  return {
    players,
    above: found.slice(0, meAt).map((r, i) => toBest(r.best, rank - meAt + i)),
    player: toBest(me.best, rank),
    below: found.slice(meAt + 1).map((r, i) => toBest(r.best, rank + i + 1)),
  };
}
