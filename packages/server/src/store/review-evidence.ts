import type { Queryable } from './db.js';
import type { ReportReason } from './score-reviews.js';

/**
 * What a reviewer reads beside a queue item (issue 30): the player's other scores on the board,
 * the reports of the score, the replay of the score or of a refused attempt.
 */

/** How many of the player's latest scores on the board the evidence shows. */
export const PLAYER_SCORES_SHOWN = 20;
/** How many reports of one score the evidence shows (the newest). */
export const REPORTS_SHOWN = 50;

export interface PlayerScore {
  readonly scoreId: string;
  readonly playId: string;
  readonly score: number;
  readonly playOpenedAt: Date;
  readonly scoredAt: Date;
  readonly voided: boolean;
}

/** The player's latest scores on the board, newest first (down `plays_by_player_newest`). */
export async function playerScoresOnBoard(
  q: Queryable,
  playerId: string,
  boardId: string,
): Promise<PlayerScore[]> {
  const rows = await q.query<{
    id: string;
    play_id: string;
    score: number;
    opened_at: Date;
    created_at: Date;
    voided: boolean;
  }>(
    `SELECT s.id, s.play_id, s.score, p.created_at AS opened_at, s.created_at,
            s.voided_at IS NOT NULL AS voided
     FROM plays p JOIN scores s ON s.play_id = p.id
     WHERE p.player_id = $1 AND p.leaderboard_id = $2
     ORDER BY p.created_at DESC, p.id DESC LIMIT $3`,
    [playerId, boardId, PLAYER_SCORES_SHOWN],
  );
  return rows.map((r) => ({
    scoreId: r.id,
    playId: r.play_id,
    score: r.score,
    playOpenedAt: r.opened_at,
    scoredAt: r.created_at,
    voided: r.voided,
  }));
}

/** How many refused attempts the player made on the board. */
export async function refusalsOnBoard(
  q: Queryable,
  playerId: string,
  boardId: string,
): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM score_refusals WHERE player_id = $1 AND leaderboard_id = $2`,
    [playerId, boardId],
  );
  return rows[0]?.n ?? 0;
}

export interface ScoreReport {
  readonly reason: ReportReason;
  readonly note: string | null;
  readonly reportedAt: Date;
}

/** The reports of the score, newest first. */
export async function reportsOfScore(q: Queryable, scoreId: string): Promise<ScoreReport[]> {
  const rows = await q.query<{
    report_reason: ReportReason;
    report_note: string | null;
    created_at: Date;
  }>(
    `SELECT report_reason, report_note, created_at FROM score_reviews
     WHERE score_id = $1 AND kind = 'reported' ORDER BY created_at DESC, id DESC LIMIT $2`,
    [scoreId, REPORTS_SHOWN],
  );
  return rows.map((r) => ({
    reason: r.report_reason,
    note: r.report_note,
    reportedAt: r.created_at,
  }));
}

/** The replay an accepted score came with (`score_replays`); null when it came without. */
export async function replayOfScore(q: Queryable, scoreId: string): Promise<string | null> {
  const rows = await q.query<{ replay: string }>(
    `SELECT replay FROM score_replays WHERE score_id = $1`,
    [scoreId],
  );
  return rows[0]?.replay ?? null;
}

/** The replay a refused attempt carried; null when it carried none or `id` is not a refusal. */
export async function replayOfRefusal(q: Queryable, id: string): Promise<string | null> {
  const rows = await q.query<{ replay: string | null }>(
    `SELECT replay FROM score_refusals WHERE id = $1`,
    [id],
  );
  return rows[0]?.replay ?? null;
}
