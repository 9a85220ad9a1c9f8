import type { BoardHistory, ScoreDisplay } from '@coinop/core';
import type { Queryable } from './db.js';
import { boardOrder } from './board-order.js';

/**
 * The outlier check's reads (issue 30, docs/reference/review-queue.md#outliers). It follows each
 * board's `write_seq` (migration 020): a board no score batch wrote since the last run is not
 * read at all, and one that was is read only at its top `leaders_max` bests.
 */

/** A board some score batch wrote since the check last looked at it. */
export interface BoardToCheck {
  readonly id: string;
  readonly gameId: string;
  readonly leadersMax: number;
  readonly writeSeq: bigint;
  readonly display: ScoreDisplay;
}

/** The boards written since their last check, at most `limit`, in id order. */
export async function boardsToCheck(q: Queryable, limit: number): Promise<BoardToCheck[]> {
  const rows = await q.query<{
    id: string;
    game_id: string;
    leaders_max: number;
    write_seq: string;
    score_display: ScoreDisplay;
  }>(
    `SELECT l.id, l.game_id, l.leaders_max, l.write_seq::text AS write_seq, g.score_display
     FROM leaderboards l JOIN games g ON g.id = l.game_id
       LEFT JOIN score_outlier_checks c ON c.leaderboard_id = l.id
     WHERE l.write_seq > coalesce(c.checked_seq, 0)
     ORDER BY l.id LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    gameId: r.game_id,
    leadersMax: r.leaders_max,
    writeSeq: BigInt(r.write_seq),
    display: r.score_display,
  }));
}

/**
 * Takes the board's check for this transaction: its `checked_seq`, or null when another process
 * is checking it now (the row is locked; this one skips the board).
 */
export async function claimBoardCheck(q: Queryable, boardId: string): Promise<bigint | null> {
  await q.query(
    `INSERT INTO score_outlier_checks (leaderboard_id, checked_seq) VALUES ($1, 0)
     ON CONFLICT (leaderboard_id) DO NOTHING`,
    [boardId],
  );
  const rows = await q.query<{ checked_seq: string }>(
    `SELECT checked_seq::text AS checked_seq FROM score_outlier_checks
     WHERE leaderboard_id = $1 FOR UPDATE SKIP LOCKED`,
    [boardId],
  );
  return rows[0] ? BigInt(rows[0].checked_seq) : null;
}

export async function markBoardChecked(q: Queryable, boardId: string, seq: bigint): Promise<void> {
  await q.query(
    `UPDATE score_outlier_checks SET checked_seq = greatest(checked_seq, $2::bigint)
     WHERE leaderboard_id = $1`,
    [boardId, seq.toString()],
  );
}

/** A best among the board's leaders that a batch wrote after the last check. */
export interface NewLeader {
  readonly scoreId: string;
  readonly playerId: string;
  readonly score: number;
}

/** The board's top `leadersMax` bests written after `checkedSeq` (walks `leaders_ranked`). */
export async function newLeaders(
  q: Queryable,
  board: BoardToCheck,
  checkedSeq: bigint,
): Promise<NewLeader[]> {
  const rows = await q.query<{ score_id: string; player_id: string; score: number }>(
    `SELECT t.score_id, t.player_id, t.score FROM (
       SELECT score_id, player_id, score, seq FROM leaders WHERE leaderboard_id = $1
       ORDER BY ${boardOrder()} LIMIT $2) t
     WHERE t.seq > $3::bigint`,
    [board.id, board.leadersMax, checkedSeq.toString()],
  );
  return rows.map((r) => ({ scoreId: r.score_id, playerId: r.player_id, score: r.score }));
}

/**
 * The board's history as the outlier rule reads it: the players' bests written at or before
 * `seq` (null: every best) — the count, the median, the median absolute deviation and the best
 * in the board's better direction. The review's evidence panel shows the same numbers.
 */
export async function boardHistory(
  q: Queryable,
  boardId: string,
  display: ScoreDisplay,
  seq: bigint | null,
): Promise<BoardHistory> {
  const rows = await q.query<{
    players: number;
    median: number | null;
    mad: number | null;
    best: number | null;
  }>(
    `WITH bests AS (
       SELECT score FROM leaders
       WHERE leaderboard_id = $1 AND ($2::bigint IS NULL OR seq <= $2::bigint)),
     m AS (
       SELECT count(*)::int AS players,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY score) AS median,
              CASE WHEN $3 = 'REVERSE' THEN min(score) ELSE max(score) END AS best
       FROM bests)
     SELECT m.players, m.median, m.best,
            (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY abs(b.score - m.median))
             FROM bests b) AS mad
     FROM m`,
    [boardId, seq === null ? null : seq.toString(), display],
  );
  const r = rows[0];
  if (!r) throw new TypeError('an aggregate answered no row');
  return {
    players: r.players,
    median: r.median === null ? null : Number(r.median),
    mad: r.mad === null ? null : Number(r.mad),
    previousBest: r.best === null ? null : Number(r.best),
  };
}
