import type { ReportReason } from '@coinop/protocol';
import type { Queryable } from './db.js';

/**
 * The review queue's writes (issue 30, migration 027): flags of accepted scores (an outlier, a
 * player's report) and their resolution. The unique indexes keep one outlier flag per score and
 * one report per score and reporter; a resolution is a conditional update on `state = 'open'`,
 * so two reviewers race to one winner.
 */

export const ReviewKinds = ['outlier', 'reported'] as const;
export type ReviewKind = (typeof ReviewKinds)[number];
export const ReviewStates = ['open', 'approved', 'voided'] as const;
export type ReviewState = (typeof ReviewStates)[number];
export type { ReportReason } from '@coinop/protocol';

/** A score as a flag needs it: where it is, whose it is, and whether it still stands. */
export interface FlaggableScore {
  readonly scoreId: string;
  readonly playId: string;
  readonly gameId: string;
  readonly leaderboardId: string;
  readonly playerId: string;
  readonly score: number;
  readonly voided: boolean;
}

export async function findFlaggableScore(
  q: Queryable,
  scoreId: string,
): Promise<FlaggableScore | null> {
  const rows = await q.query<{
    id: string;
    play_id: string;
    game_id: string;
    leaderboard_id: string;
    player_id: string;
    score: number;
    voided: boolean;
  }>(
    `SELECT s.id, s.play_id, l.game_id, s.leaderboard_id, s.player_id, s.score,
            s.voided_at IS NOT NULL AS voided
     FROM scores s JOIN leaderboards l ON l.id = s.leaderboard_id WHERE s.id = $1`,
    [scoreId],
  );
  const r = rows[0];
  return r
    ? {
        scoreId: r.id,
        playId: r.play_id,
        gameId: r.game_id,
        leaderboardId: r.leaderboard_id,
        playerId: r.player_id,
        score: r.score,
        voided: r.voided,
      }
    : null;
}

/** The score of the player's current best on the board (the row a board shows), if any. */
export async function bestScoreId(
  q: Queryable,
  boardId: string,
  playerId: string,
): Promise<string | null> {
  const rows = await q.query<{ score_id: string }>(
    `SELECT score_id FROM leaders WHERE leaderboard_id = $1 AND player_id = $2`,
    [boardId, playerId],
  );
  return rows[0]?.score_id ?? null;
}

/**
 * A new flag's state: open, unless the score was approved already, when the flag is born closed
 * with that approval (the score was kept; it does not come back to the queue).
 */
const FLAG_COLUMNS = `id, score_id, play_id, game_id, leaderboard_id, player_id, kind, reporter_id,
  report_reason, report_note, evidence, state, resolution_reason, resolved_by, resolved_at,
  created_at`;
const FLAG_VALUES = `SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::uuid, $6::uuid, $7, $8::uuid,
    $9, $10, $11::jsonb, CASE WHEN k.resolved_by IS NULL THEN 'open' ELSE 'approved' END,
    k.resolution_reason, k.resolved_by, CASE WHEN k.resolved_by IS NULL THEN NULL ELSE $12::timestamptz END,
    $12::timestamptz
  FROM (SELECT 1) one LEFT JOIN LATERAL (
    SELECT resolution_reason, resolved_by FROM score_reviews
    WHERE score_id = $2 AND state = 'approved' ORDER BY resolved_at LIMIT 1) k ON true`;

export interface NewFlag {
  readonly id: string;
  readonly score: FlaggableScore;
  readonly now: Date;
}

/** Records a player's report; false when this reporter had reported the score already. */
export async function insertReport(
  q: Queryable,
  flag: NewFlag & { reporterId: string; reason: ReportReason; note: string | null },
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO score_reviews (${FLAG_COLUMNS}) ${FLAG_VALUES}
     ON CONFLICT (score_id, reporter_id) WHERE kind = 'reported' DO NOTHING RETURNING id`,
    flagParams(flag, 'reported', flag.reporterId, flag.reason, flag.note, {}),
  );
  return rows.length === 1;
}

/** Records an outlier flag; false when the score was flagged once already. */
export async function insertOutlier(
  q: Queryable,
  flag: NewFlag & { evidence: object },
): Promise<boolean> {
  const rows = await q.query(
    `INSERT INTO score_reviews (${FLAG_COLUMNS}) ${FLAG_VALUES}
     ON CONFLICT (score_id) WHERE kind = 'outlier' DO NOTHING RETURNING id`,
    flagParams(flag, 'outlier', null, null, null, flag.evidence),
  );
  return rows.length === 1;
}

function flagParams(
  flag: NewFlag,
  kind: ReviewKind,
  reporterId: string | null,
  reason: ReportReason | null,
  note: string | null,
  evidence: object,
): unknown[] {
  const { score } = flag;
  return [
    flag.id,
    score.scoreId,
    score.playId,
    score.gameId,
    score.leaderboardId,
    score.playerId,
    kind,
    reporterId,
    reason,
    note,
    JSON.stringify(evidence),
    flag.now,
  ];
}

/** The id of the reporter's report of the score, if any. */
export async function findReportId(
  q: Queryable,
  scoreId: string,
  reporterId: string,
): Promise<string | null> {
  const rows = await q.query<{ id: string }>(
    `SELECT id FROM score_reviews WHERE score_id = $1 AND reporter_id = $2 AND kind = 'reported'`,
    [scoreId, reporterId],
  );
  return rows[0]?.id ?? null;
}

/** Who closed a review: the operator, or a game's developer. */
export type ReviewActor =
  { readonly kind: 'admin' } | { readonly kind: 'developer'; readonly developerId: string };

export function actorText(actor: ReviewActor): string {
  return actor.kind === 'admin' ? 'admin' : `developer:${actor.developerId}`;
}

/**
 * Closes the score's reviews as `state`; answers how many it closed. An approval closes the open
 * ones, and none of a voided score (answers -1: the score is gone, approving it means nothing). A
 * void closes the open ones and overrides an approval that raced it: the score is voided.
 */
export async function resolveReviewsOfScore(
  q: Queryable,
  input: {
    scoreId: string;
    state: Exclude<ReviewState, 'open'>;
    reason: string;
    actor: ReviewActor;
    now: Date;
  },
): Promise<number> {
  if (input.state === 'approved') {
    const [score] = await q.query<{ gone: boolean }>(
      'SELECT voided_at IS NOT NULL AS gone FROM scores WHERE id = $1',
      [input.scoreId],
    );
    if (score?.gone === true) return -1;
  }
  const rows = await q.query<{ id: string }>(
    `UPDATE score_reviews
     SET state = $2, resolution_reason = $3, resolved_by = $4, resolved_at = $5
     WHERE score_id = $1
       AND (state = 'open' OR ($2 = 'voided' AND state = 'approved'))
       AND ($2 = 'voided'
            OR NOT EXISTS (SELECT 1 FROM scores WHERE id = $1 AND voided_at IS NOT NULL))
     RETURNING id`,
    [input.scoreId, input.state, input.reason, actorText(input.actor), input.now],
  );
  return rows.length;
}

/**
 * Closes the open reviews of a score being voided, in the void's transaction: whichever route
 * voids it (the score's own, or a review's), its open reviews say `voided` with the void's reason
 * and who voided it. An approved review keeps its approval: it was the reviewer's decision then,
 * and the score's void records the later one. Answers the ids it closed, in id order.
 */
export async function closeOpenReviewsOfVoidedScore(
  tx: Queryable,
  input: { scoreId: string; reason: string; by: string; now: Date },
): Promise<string[]> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE score_reviews
     SET state = 'voided', resolution_reason = $2, resolved_by = $3, resolved_at = $4
     WHERE score_id = $1 AND state = 'open'
     RETURNING id`,
    [input.scoreId, input.reason, input.by, input.now],
    'score_voids_close_reviews',
  );
  return rows.map((r) => r.id).sort();
}
