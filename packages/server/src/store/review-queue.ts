import type { Queryable } from './db.js';
import type { ReportReason, ReviewState } from './score-reviews.js';

/**
 * The review queue's reads (issue 30): the flags of accepted scores (`score_reviews`) and the
 * refused attempts (`score_refusals`, migration 024) in one list, newest first. A refusal is
 * listed as it is, informational: kind = its error code, state `refused`.
 */

/** Where an item stands in the queue: newest first, then the larger id first. */
export interface QueuePosition {
  /** Microseconds since the epoch: the exact timestamp, which a JS Date would round. */
  readonly atMicros: bigint;
  readonly id: string;
}

export type QueueState = ReviewState | 'refused';

export interface QueueItem {
  readonly id: string;
  /** `outlier`, `reported`, or the refusal's error code (`score_out_of_bounds`, ...). */
  readonly kind: string;
  readonly state: QueueState;
  /** The accepted score under review; null for a refused attempt (it never became a score). */
  readonly scoreId: string | null;
  readonly playId: string;
  readonly gameId: string;
  readonly gameName: string;
  readonly scoreUnit: string;
  readonly leaderboardId: string;
  readonly tierName: string;
  readonly playerId: string;
  readonly playerName: string;
  readonly score: number;
  readonly report: { readonly reason: ReportReason; readonly note: string | null } | null;
  /** An outlier's statistics; empty for the other kinds. */
  readonly evidence: Record<string, unknown>;
  /** A refusal's detail ("the replay earns 120, not 4200"); null for a flag. */
  readonly refusalDetail: string | null;
  readonly resolution: { readonly reason: string; readonly by: string; readonly at: Date } | null;
  readonly hasReplay: boolean;
  readonly playOpenedAt: Date;
  /** When the score (or the refused attempt) arrived. */
  readonly scoredAt: Date;
  /** From the play's opening to the score's arrival, in milliseconds. */
  readonly playMs: number;
  readonly createdAt: Date;
  readonly position: QueuePosition;
}

export interface QueueFilter {
  readonly state: QueueState | null;
  readonly kind: string | null;
  readonly gameId: string | null;
}

/** The position after `cursor` ($4, $5) and the one id ($7), each when given. */
const where = (at: string, id: string) => `AND ($4::bigint IS NULL OR (${at}, ${id}) <
    (timestamptz 'epoch' + $4::bigint * interval '1 microsecond', $5::uuid))
  AND ($7::uuid IS NULL OR ${id} = $7::uuid)`;

/** Both sources read newest first down their own index, at most `limit` rows each, merged. */
const QUEUE_SQL = `
  WITH items AS (
    (SELECT r.id, r.kind, r.state, r.score_id, r.play_id, r.game_id, r.leaderboard_id,
            r.player_id, s.score, r.report_reason, r.report_note, r.evidence,
            NULL::text AS refusal_detail, r.resolution_reason, r.resolved_by, r.resolved_at,
            EXISTS (SELECT 1 FROM score_replays k WHERE k.score_id = r.score_id) AS has_replay,
            s.created_at AS scored_at, NULL::integer AS play_ms,
            r.created_at
     FROM score_reviews r JOIN scores s ON s.id = r.score_id
     WHERE ($1::text IS NULL OR r.state = $1) AND ($2::text IS NULL OR r.kind = $2)
       AND ($3::uuid IS NULL OR r.game_id = $3) ${where('r.created_at', 'r.id')}
     ORDER BY r.created_at DESC, r.id DESC LIMIT $6)
    UNION ALL
    (SELECT f.id, f.reason, 'refused', NULL, f.play_id, f.game_id, f.leaderboard_id,
            f.player_id, f.score, NULL, NULL, '{}'::jsonb, f.detail, NULL, NULL, NULL,
            f.replay IS NOT NULL, f.created_at, f.play_ms, f.created_at
     FROM score_refusals f
     WHERE ($1::text IS NULL OR $1 = 'refused') AND ($2::text IS NULL OR f.reason = $2)
       AND ($3::uuid IS NULL OR f.game_id = $3) ${where('f.created_at', 'f.id')}
     ORDER BY f.created_at DESC, f.id DESC LIMIT $6))
  SELECT i.*, (extract(epoch FROM i.created_at) * 1000000)::bigint::text AS micros,
         p.created_at AS play_opened_at, g.name AS game_name, g.score_unit,
         lb.name AS tier_name, pl.name AS player_name
  FROM (SELECT * FROM items ORDER BY created_at DESC, id DESC LIMIT $6) i
    JOIN plays p ON p.id = i.play_id
    JOIN games g ON g.id = i.game_id
    JOIN leaderboards lb ON lb.id = i.leaderboard_id
    JOIN players pl ON pl.id = i.player_id
  ORDER BY i.created_at DESC, i.id DESC`;

interface QueueRow {
  id: string;
  kind: string;
  state: QueueState;
  score_id: string | null;
  play_id: string;
  game_id: string;
  leaderboard_id: string;
  player_id: string;
  score: number;
  report_reason: ReportReason | null;
  report_note: string | null;
  evidence: Record<string, unknown> | string;
  refusal_detail: string | null;
  resolution_reason: string | null;
  resolved_by: string | null;
  resolved_at: Date | null;
  has_replay: boolean;
  scored_at: Date;
  play_ms: number | null;
  created_at: Date;
  micros: string;
  play_opened_at: Date;
  game_name: string;
  score_unit: string;
  tier_name: string;
  player_name: string;
}

const toItem = (r: QueueRow): QueueItem => ({
  id: r.id,
  kind: r.kind,
  state: r.state,
  scoreId: r.score_id,
  playId: r.play_id,
  gameId: r.game_id,
  gameName: r.game_name,
  scoreUnit: r.score_unit,
  leaderboardId: r.leaderboard_id,
  tierName: r.tier_name,
  playerId: r.player_id,
  playerName: r.player_name,
  score: r.score,
  report: r.report_reason === null ? null : { reason: r.report_reason, note: r.report_note },
  evidence: typeof r.evidence === 'string' ? JSON.parse(r.evidence) : r.evidence,
  refusalDetail: r.refusal_detail,
  resolution:
    r.resolution_reason !== null && r.resolved_by !== null && r.resolved_at !== null
      ? { reason: r.resolution_reason, by: r.resolved_by, at: r.resolved_at }
      : null,
  hasReplay: r.has_replay,
  playOpenedAt: r.play_opened_at,
  scoredAt: r.scored_at,
  playMs: r.play_ms ?? r.scored_at.getTime() - r.play_opened_at.getTime(),
  createdAt: r.created_at,
  position: { atMicros: BigInt(r.micros), id: r.id },
});

/** A page of the queue, newest first, after `cursor`; `more` says whether older items follow. */
export async function listQueue(
  q: Queryable,
  filter: QueueFilter,
  cursor: QueuePosition | null,
  limit: number,
): Promise<{ items: QueueItem[]; more: boolean }> {
  const params = [
    filter.state,
    filter.kind,
    filter.gameId,
    cursor?.atMicros.toString() ?? null,
    cursor?.id ?? null,
    limit + 1,
    null,
  ];
  const rows = await q.query<QueueRow>(QUEUE_SQL, params);
  return { items: rows.slice(0, limit).map(toItem), more: rows.length > limit };
}

/** One item of the queue by id (a review or a refusal), or null. */
export async function findQueueItem(q: Queryable, id: string): Promise<QueueItem | null> {
  const rows = await q.query<QueueRow>(QUEUE_SQL, [null, null, null, null, null, 1, id]);
  return rows[0] ? toItem(rows[0]) : null;
}
