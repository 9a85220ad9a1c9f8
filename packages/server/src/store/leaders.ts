import { rangesAtOrAbove } from '@coinop/core';
import { boardOrder } from './board-order.js';
import type { Queryable } from './db.js';

export interface LeaderRow {
  playerId: string;
  score: number;
  name: string;
  avatarUrl: string | null;
}

/**
 * How many players' best keys on the board are at or above `key`: a sum over at most 255 sibling
 * buckets on each of 8 levels, found by index range scans. Never scans the board.
 */
export async function countAtOrAbove(
  q: Queryable,
  leaderboardId: string,
  key: bigint,
): Promise<number> {
  const ranges = rangesAtOrAbove(key);
  // LATERAL keeps each range an index range scan: joined as a set, the planner may scan the board.
  const rows = await q.query<{ n: bigint | null }>(
    `SELECT sum(s.n)::bigint AS n
     FROM unnest($2::smallint[], $3::bigint[], $4::bigint[]) AS r(level, after, up_to)
     CROSS JOIN LATERAL (
       SELECT sum(b.players) AS n FROM rank_buckets b
       WHERE b.leaderboard_id = $1 AND b.level = r.level AND b.bucket > r.after
         AND b.bucket <= r.up_to) s`,
    [
      leaderboardId,
      ranges.map((r) => r.level),
      ranges.map((r) => r.after.toString()),
      ranges.map((r) => r.upTo.toString()),
    ],
    'rank_buckets_count',
  );
  return Number(rows[0]?.n ?? 0n);
}

/** The board's leaders, best first (ties to the earlier score), with their profiles. */
export async function topLeaders(
  q: Queryable,
  leaderboardId: string,
  limit: number,
): Promise<LeaderRow[]> {
  const rows = await q.query<{
    player_id: string;
    score: number;
    name: string;
    avatar_url: string | null;
  }>(
    `SELECT l.player_id, l.score, p.name, p.avatar_url
     FROM (SELECT player_id, score, rank_key, achieved_at FROM leaders
           WHERE leaderboard_id = $1
           ORDER BY ${boardOrder()} LIMIT $2) l
     JOIN players p ON p.id = l.player_id
     ORDER BY ${boardOrder('l')}`,
    [leaderboardId, limit],
    'leaders_top',
  );
  return rows.map((r) => ({
    playerId: r.player_id,
    score: r.score,
    name: r.name,
    avatarUrl: r.avatar_url,
  }));
}

export interface StoredScore {
  id: string;
  playId: string;
  leaderboardId: string;
  score: number;
  leaderRank: number;
  isWinner: boolean;
  idempotencyKey: string | null;
  requestHash: string | null;
  createdAt: Date;
}

export async function findScoreByPlay(q: Queryable, playId: string): Promise<StoredScore | null> {
  const rows = await q.query<{
    id: string;
    play_id: string;
    leaderboard_id: string;
    score: number;
    leader_rank: number;
    is_winner: boolean;
    idempotency_key: string | null;
    request_hash: string | null;
    created_at: Date;
  }>(
    `SELECT id, play_id, leaderboard_id, score, leader_rank, is_winner, idempotency_key,
            request_hash, created_at FROM scores WHERE play_id = $1`,
    [playId],
    'scores_by_play',
  );
  const r = rows[0];
  return r
    ? {
        id: r.id,
        playId: r.play_id,
        leaderboardId: r.leaderboard_id,
        score: r.score,
        leaderRank: r.leader_rank,
        isWinner: r.is_winner,
        idempotencyKey: r.idempotency_key,
        requestHash: r.request_hash,
        createdAt: r.created_at,
      }
    : null;
}

/** The leaders of several boards in one query (no query per board), keyed by board id. */
export async function topLeadersOfBoards(
  q: Queryable,
  boards: readonly { id: string; leadersMax: number }[],
): Promise<Map<string, LeaderRow[]>> {
  const result = new Map<string, LeaderRow[]>(boards.map((b) => [b.id, []]));
  if (boards.length === 0) return result;
  const rows = await q.query<{
    leaderboard_id: string;
    player_id: string;
    score: number;
    name: string;
    avatar_url: string | null;
  }>(
    `SELECT b.id AS leaderboard_id, l.player_id, l.score, p.name, p.avatar_url
     FROM unnest($1::uuid[], $2::int[]) WITH ORDINALITY AS b(id, lim, n)
     CROSS JOIN LATERAL (
       SELECT player_id, score, rank_key, achieved_at FROM leaders
       WHERE leaderboard_id = b.id
       ORDER BY ${boardOrder()} LIMIT b.lim) l
     JOIN players p ON p.id = l.player_id
     ORDER BY b.n, ${boardOrder('l')}`,
    [boards.map((b) => b.id), boards.map((b) => b.leadersMax)],
    'leaders_top_of_boards',
  );
  for (const r of rows) {
    result.get(r.leaderboard_id)?.push({
      playerId: r.player_id,
      score: r.score,
      name: r.name,
      avatarUrl: r.avatar_url,
    });
  }
  return result;
}

/**
 * One player's best and rank on each of the given boards, in two queries whatever the number of
 * boards. The rank counts the players strictly above the best, plus those with an equal best
 * achieved earlier, plus the player.
 */
export async function standingsOf(
  q: Queryable,
  leaderboardIds: readonly string[],
  playerId: string,
): Promise<Map<string, { score: number; rank: number }>> {
  const result = new Map<string, { score: number; rank: number }>();
  if (leaderboardIds.length === 0) return result;
  const bests = await q.query<{
    leaderboard_id: string;
    score: number;
    rank_key: bigint;
    achieved_at: Date;
  }>(
    `SELECT leaderboard_id, score, rank_key, achieved_at FROM leaders
     WHERE player_id = $1 AND leaderboard_id = ANY($2::uuid[])`,
    [playerId, leaderboardIds],
    'leaders_bests_of_player',
  );
  if (bests.length === 0) return result;
  const ranges = bests.flatMap((b) =>
    rangesAtOrAbove(BigInt(b.rank_key) + 1n).map((r) => ({ board: b.leaderboard_id, ...r })),
  );
  const rows = await q.query<{ board: string; above: bigint | null; tied: bigint }>(
    `WITH above AS (
       SELECT r.board, sum(s.n)::bigint AS above
       FROM unnest($1::uuid[], $2::smallint[], $3::bigint[], $4::bigint[])
         AS r(board, level, after, up_to)
       CROSS JOIN LATERAL (
         SELECT sum(b.players) AS n FROM rank_buckets b
         WHERE b.leaderboard_id = r.board AND b.level = r.level AND b.bucket > r.after
           AND b.bucket <= r.up_to) s
       GROUP BY r.board)
     SELECT e.board, a.above,
            (SELECT count(*) FROM leaders l
             WHERE l.leaderboard_id = e.board AND l.rank_key = e.key AND l.achieved_at < e.at)
              AS tied
     FROM unnest($5::uuid[], $6::bigint[], $7::timestamptz[]) AS e(board, key, at)
     LEFT JOIN above a ON a.board = e.board`,
    [
      ranges.map((r) => r.board),
      ranges.map((r) => r.level),
      ranges.map((r) => r.after.toString()),
      ranges.map((r) => r.upTo.toString()),
      bests.map((b) => b.leaderboard_id),
      bests.map((b) => b.rank_key.toString()),
      bests.map((b) => b.achieved_at),
    ],
    'leaders_standings_of_player',
  );
  const scores = new Map(bests.map((b) => [b.leaderboard_id, b.score]));
  for (const row of rows) {
    result.set(row.board, {
      score: scores.get(row.board) ?? 0,
      rank: Number(row.above ?? 0n) + Number(row.tied) + 1,
    });
  }
  return result;
}

/** A count-tree bucket whose stored count differs from the bests that fall in it. */
export interface RankTreeMismatch {
  readonly leaderboardId: string;
  readonly level: number;
  readonly bucket: string;
  readonly expected: string;
  readonly actual: string;
}

/**
 * Audits the count tree against the leaders it counts: every board, level and bucket whose
 * stored count is not the number of players whose best key falls in it. Reads every best, so it
 * is for audits and tests, not for the request path.
 */
export async function rankTreeMismatches(q: Queryable): Promise<RankTreeMismatch[]> {
  const rows = await q.query<{
    leaderboard_id: string;
    level: number;
    bucket: string;
    expected: string;
    actual: string;
  }>(
    `WITH expected AS (
       SELECT l.leaderboard_id, g.level::smallint AS level, l.rank_key >> (64 - 8 * g.level) AS bucket,
              count(*)::bigint AS players
       FROM leaders l CROSS JOIN generate_series(1, 8) AS g(level)
       GROUP BY 1, 2, 3),
     actual AS (SELECT leaderboard_id, level, bucket, players FROM rank_buckets WHERE players <> 0)
     SELECT coalesce(e.leaderboard_id, a.leaderboard_id) AS leaderboard_id,
            coalesce(e.level, a.level) AS level, coalesce(e.bucket, a.bucket)::text AS bucket,
            coalesce(e.players, 0)::text AS expected, coalesce(a.players, 0)::text AS actual
     FROM expected e FULL JOIN actual a
       ON a.leaderboard_id = e.leaderboard_id AND a.level = e.level AND a.bucket = e.bucket
     WHERE e.players IS DISTINCT FROM a.players`,
  );
  return rows.map((r) => ({
    leaderboardId: r.leaderboard_id,
    level: r.level,
    bucket: r.bucket,
    expected: r.expected,
    actual: r.actual,
  }));
}
