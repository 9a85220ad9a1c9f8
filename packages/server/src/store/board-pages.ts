import { boardOrder, boardOrderReversed } from './board-order.js';
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
  /** The board's `write_seq` the walk is as of (read by the first page). */
  readonly s0: bigint;
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

/** Rows strictly after the cursor's position (`$3..$5`), by the given key and time columns. */
const afterCursor = (key: string, at: string) => `AND ${key} <= $3::bigint
  AND (${key} < $3::bigint OR (${at}, player_id) > (${AT('$4')}, $5::uuid))`;

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
                    ORDER BY ${boardOrder('r')})
    FROM ${from} r
    CROSS JOIN LATERAL (SELECT name, avatar_url FROM players WHERE id = r.player_id LIMIT 1) pl
  )::text`;

/**
 * A page of a walk as of `s0` (the board's `write_seq` when the walk began, $2): the bests
 * unchanged since (`seq <= s0`) merged with each mover's place at `s0`, which its first move
 * after `s0` records (`from_*`; null for a player who joined after `s0`, not part of the walk),
 * in the order of the board at `s0`, after the cursor. Each row's rank is its current one:
 * unchanged rows count from the page's first unchanged row (count tree) along the ranked index,
 * movers from the count tree each (`coinop_players_before`, migration 020). The first page reads
 * `s0` itself (no cursor, no movers).
 */
const pageSql = (continued: boolean) => `
  WITH s0 AS (
    SELECT ${continued ? '$2::bigint' : 'write_seq'} AS seq FROM leaderboards WHERE id = $1),
  unchanged AS (
    SELECT player_id, rank_key, achieved_at FROM leaders
    WHERE leaderboard_id = $1 AND seq <= (SELECT seq FROM s0)
      ${continued ? afterCursor('rank_key', 'achieved_at') : ''}
    ORDER BY ${boardOrder()} LIMIT $${continued ? 6 : 2}),
  ${
    continued
      ? `first_moves AS (
    SELECT DISTINCT ON (player_id) player_id, from_rank_key, from_achieved_at FROM best_moves
    WHERE leaderboard_id = $1 AND seq > $2::bigint
    ORDER BY player_id, seq),
  movers AS (
    SELECT player_id, from_rank_key AS rank_key, from_achieved_at AS achieved_at
    FROM first_moves
    WHERE from_rank_key IS NOT NULL ${afterCursor('from_rank_key', 'from_achieved_at')}
    ORDER BY from_rank_key DESC, from_achieved_at, player_id LIMIT $6),`
      : ''
  }
  page AS (
    SELECT p.*, l.score, l.rank_key AS now_key, l.achieved_at AS now_at
    FROM (SELECT player_id, rank_key, achieved_at, false AS moved FROM unchanged
          ${continued ? 'UNION ALL SELECT player_id, rank_key, achieved_at, true FROM movers' : ''}
          ORDER BY ${boardOrder()} LIMIT $${continued ? 6 : 2}) p
    CROSS JOIN LATERAL (SELECT score, rank_key, achieved_at FROM leaders
                        WHERE leaderboard_id = $1 AND player_id = p.player_id LIMIT 1) l),
  head AS (
    SELECT rank_key, achieved_at, player_id FROM page WHERE NOT moved
    ORDER BY ${boardOrder()} LIMIT 1),
  tail AS (
    SELECT rank_key, achieved_at, player_id FROM page WHERE NOT moved
    ORDER BY ${boardOrderReversed()} LIMIT 1),
  span AS MATERIALIZED (
    SELECT l.player_id,
           row_number() OVER (ORDER BY ${boardOrder('l')}) AS n
    FROM head h, tail t, leaders l
    WHERE l.leaderboard_id = $1 AND l.rank_key <= h.rank_key AND l.rank_key >= t.rank_key
      AND (l.rank_key < h.rank_key OR (l.achieved_at, l.player_id) >= (h.achieved_at, h.player_id))
      AND (l.rank_key > t.rank_key OR (l.achieved_at, l.player_id) <= (t.achieved_at, t.player_id))),
  ${BEFORE_ANCHOR('head')},
  ranked AS (
    SELECT p.player_id, p.score, p.rank_key, p.achieved_at,
           CASE WHEN p.moved
                THEN coinop_players_before($1, p.now_key, p.now_at, p.player_id) + 1
                ELSE (SELECT n FROM above) + (SELECT n FROM tied) + s.n
           END AS rank
    FROM page p LEFT JOIN span s ON s.player_id = p.player_id AND NOT p.moved)
  SELECT (SELECT n FROM total)::text AS players,
         (SELECT seq FROM s0)::text AS s0,
         (SELECT json_agg(json_build_array(r.player_id, r.score, r.rank_key::text,
                                           ${micros('r.achieved_at')}, pl.name, pl.avatar_url,
                                           r.rank::text)
                          ORDER BY ${boardOrder('r')})
          FROM ranked r
          CROSS JOIN LATERAL (SELECT name, avatar_url FROM players
                              WHERE id = r.player_id LIMIT 1) pl)::text AS rows`;

/** The statement's one row: the counts, and the bests as JSON (null when there are none). */
interface Row {
  players: string;
  before: string | null;
  rows: string | null;
}

/** One best of `Row.rows`: player, score, rank key, micros, name, avatar. */
type BestJson = [string, number, string, string, string, string | null];

const bestsOf = <T extends unknown[]>(row: { rows: string | null } | undefined): T[] =>
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

/** Where a walk is: the board as of its first page (`s0`), and the last row's place then. */
export interface BoardWalk {
  /** The board's `write_seq` read by the walk's first page. */
  readonly s0: bigint;
  readonly position: BoardPosition;
}

/**
 * A page of the board as of the walk's first page (from the top when `cursor` is null, which
 * starts a walk), each row with its current exact rank. One statement, so one snapshot: the
 * bests, the moves and the count tree are read at the same instant (a score batch writes them
 * all in one statement). Every player on the board when the walk began appears exactly once
 * across its pages, at their place then; players who joined since do not.
 */
export async function boardPage(
  q: Queryable,
  leaderboardId: string,
  cursor: BoardWalk | null,
  limit: number,
): Promise<StoredBoardPage> {
  const params =
    cursor === null
      ? [leaderboardId, limit + 1]
      : [
          leaderboardId,
          cursor.s0.toString(),
          cursor.position.rankKey.toString(),
          cursor.position.achievedAtMicros.toString(),
          cursor.position.playerId,
          limit + 1,
        ];
  const rows = await q.query<{ players: string; s0: string | null; rows: string | null }>(
    pageSql(cursor !== null),
    params,
    cursor === null ? 'board_page_first' : 'board_page_after',
  );
  const found = bestsOf<[...BestJson, string]>(rows[0]);
  return {
    players: Number(rows[0]?.players ?? 0),
    s0: BigInt(rows[0]?.s0 ?? cursor?.s0 ?? 0n),
    rows: found.slice(0, limit).map(([...best]) => {
      const rank = Number(best.pop());
      return toBest(best as unknown as BestJson, rank);
    }),
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
      ORDER BY ${boardOrderReversed()} LIMIT $3) l
    UNION ALL
    SELECT 'below', l.* FROM me m CROSS JOIN LATERAL (
      SELECT player_id, score, rank_key, achieved_at FROM leaders
      WHERE leaderboard_id = $1 AND rank_key <= m.rank_key
        AND (rank_key < m.rank_key OR (achieved_at, player_id) > (m.achieved_at, m.player_id))
      ORDER BY ${boardOrder()} LIMIT $3) l)
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

/**
 * How long a walk of a board may take, first page to last: its pages read every move since it
 * began, so its cost grows with its age, and the moves it needs are kept this long. Ten minutes
 * is far longer than anyone reads a board by hand; a longer walk starts again.
 */
export const BOARD_WALK_MAX_AGE_MS = 10 * 60_000;

/**
 * Moves are kept this much longer than a walk may last: a batch stamps its moves with its own
 * clock before it commits, and API processes' clocks differ by a little.
 */
const MOVE_KEEP_MARGIN_MS = 60_000;

/** The most moves one pruning statement deletes: each statement stays short. */
export const MOVES_PRUNED_MAX = 5_000;

/**
 * Deletes up to `MOVES_PRUNED_MAX` moves no walk can need any more (older than a walk may be,
 * plus the margin), oldest first; returns how many. Run until it answers fewer than the batch.
 */
export async function pruneBestMoves(q: Queryable, now: Date): Promise<number> {
  const before = new Date(now.getTime() - BOARD_WALK_MAX_AGE_MS - MOVE_KEEP_MARGIN_MS);
  const rows = await q.query<{ n: string }>(
    `WITH gone AS (
       DELETE FROM best_moves WHERE (leaderboard_id, seq, player_id) IN (
         SELECT leaderboard_id, seq, player_id FROM best_moves
         WHERE moved_at < $1 ORDER BY moved_at LIMIT $2)
       RETURNING 1)
     SELECT count(*)::text AS n FROM gone`,
    [before, MOVES_PRUNED_MAX],
    'prune_best_moves',
  );
  return Number(rows[0]?.n ?? 0);
}
