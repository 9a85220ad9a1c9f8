import type { BoardScore, BucketDelta, ScoreDisplay } from '@coinop/core';
import { rankKey } from '@coinop/core';
import type { Queryable } from './db.js';

/**
 * A score's void (docs/concepts/plays-and-settlement.md#hold-and-void), in the statements the
 * service `ScoreVoids` runs inside one transaction: lock the player's best and the board as the
 * locked score path does, mark the score, move the best, and find the held plays to re-settle.
 */

/** A score as a void needs it: its board, game and whether it is voided already. */
export interface ScoreToVoid {
  readonly id: string;
  readonly playId: string;
  readonly leaderboardId: string;
  readonly playerId: string;
  readonly gameId: string;
  readonly score: number;
  readonly voidedAt: Date | null;
  readonly leadersMax: number;
  readonly scoreDisplay: ScoreDisplay;
}

/** The score, or null when there is none (in `gameId` when given). */
export async function findScoreToVoid(
  q: Queryable,
  scoreId: string,
  gameId: string | null,
): Promise<ScoreToVoid | null> {
  const rows = await q.query<{
    id: string;
    play_id: string;
    leaderboard_id: string;
    player_id: string;
    game_id: string;
    score: number;
    voided_at: Date | null;
    leaders_max: number;
    score_display: ScoreDisplay;
  }>(
    `SELECT s.id, s.play_id, s.leaderboard_id, s.player_id, p.game_id, s.score, s.voided_at,
            lb.leaders_max, g.score_display
     FROM scores s JOIN plays p ON p.id = s.play_id
     JOIN leaderboards lb ON lb.id = s.leaderboard_id JOIN games g ON g.id = p.game_id
     WHERE s.id = $1 AND ($2::uuid IS NULL OR p.game_id = $2::uuid)`,
    [scoreId, gameId],
    'score_voids_find',
  );
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id,
    playId: r.play_id,
    leaderboardId: r.leaderboard_id,
    playerId: r.player_id,
    gameId: r.game_id,
    score: r.score,
    voidedAt: r.voided_at,
    leadersMax: r.leaders_max,
    scoreDisplay: r.score_display,
  };
}

/**
 * Takes the locks the locked score path takes for a player's best: the advisory lock on the
 * player's best on the board (`lockPlaysForScores`), then the board's row, which every score
 * write updates; so no score of that board commits while the void runs.
 */
export async function lockBestAndBoard(
  tx: Queryable,
  leaderboardId: string,
  playerId: string,
): Promise<void> {
  await tx.query(
    `SELECT pg_advisory_xact_lock(('x' || encode(substring(sha256(convert_to(
              $1::uuid::text || ':' || $2::uuid::text, 'UTF8'))
              FROM 1 FOR 8), 'hex'))::bit(64)::bigint) IS NULL AS best_locked,
            (SELECT id FROM leaderboards WHERE id = $1 FOR UPDATE) AS board`,
    [leaderboardId, playerId],
    'score_voids_lock',
  );
}

/** Marks the score voided; false when it already was (another void got there first). */
export async function markScoreVoided(
  tx: Queryable,
  scoreId: string,
  mark: { reason: string; actor: string; now: Date },
): Promise<boolean> {
  const rows = await tx.query<{ id: string }>(
    `UPDATE scores SET voided_at = $2, void_reason = $3, voided_by = $4
     WHERE id = $1 AND voided_at IS NULL RETURNING id`,
    [scoreId, mark.now, mark.reason, mark.actor],
    'score_voids_mark',
  );
  return rows.length === 1;
}

/**
 * The board's accepted, non-voided scores achieved before `before` (every one when null), with
 * their rank keys: what the corrected leaders and bests are computed from.
 */
export async function boardScores(
  q: Queryable,
  leaderboardId: string,
  display: ScoreDisplay,
  before: Date | null,
): Promise<BoardScore[]> {
  const rows = await q.query<{ id: string; player_id: string; score: number; created_at: Date }>(
    `SELECT id, player_id, score, created_at FROM scores
     WHERE leaderboard_id = $1 AND voided_at IS NULL AND ($2::timestamptz IS NULL OR created_at < $2)`,
    [leaderboardId, before],
    'score_voids_board_scores',
  );
  return rows.map((r) => ({
    scoreId: r.id,
    playerId: r.player_id,
    score: r.score,
    rankKey: rankKey(r.score, display),
    achievedAt: r.created_at,
  }));
}

/** The player's best as the board holds it, or null. */
export async function currentBest(
  q: Queryable,
  leaderboardId: string,
  playerId: string,
): Promise<{ scoreId: string; rankKey: bigint; achievedAt: Date } | null> {
  const rows = await q.query<{ score_id: string; rank_key: bigint; achieved_at: Date }>(
    'SELECT score_id, rank_key, achieved_at FROM leaders WHERE leaderboard_id = $1 AND player_id = $2',
    [leaderboardId, playerId],
    'score_voids_current_best',
  );
  const r = rows[0];
  return r ? { scoreId: r.score_id, rankKey: BigInt(r.rank_key), achievedAt: r.achieved_at } : null;
}

/**
 * Moves a player's best back to `next` (their best remaining score) or off the board (null), in
 * the statements a score write uses: the leaders row, the count tree's buckets, a board move for
 * walks in progress, and a new score version and write sequence for the board, so every API
 * process's copy of it is refused at its next write (`ScoreMemory`).
 */
export async function moveBestBack(
  tx: Queryable,
  move: {
    readonly leaderboardId: string;
    readonly playerId: string;
    readonly from: { rankKey: bigint; achievedAt: Date };
    readonly next: BoardScore | null;
    readonly buckets: readonly BucketDelta[];
    readonly version: bigint;
    readonly now: Date;
  },
): Promise<void> {
  const { leaderboardId, playerId, next } = move;
  const seq = await bumpBoard(tx, leaderboardId, move.version);
  if (next === null) {
    await tx.query(
      'DELETE FROM leaders WHERE leaderboard_id = $1 AND player_id = $2',
      [leaderboardId, playerId],
      'score_voids_best_gone',
    );
  } else {
    await tx.query(
      `UPDATE leaders SET score = $3, rank_key = $4, score_id = $5, achieved_at = $6, seq = $7
       WHERE leaderboard_id = $1 AND player_id = $2`,
      [
        leaderboardId,
        playerId,
        next.score,
        next.rankKey.toString(),
        next.scoreId,
        next.achievedAt,
        seq.toString(),
      ],
      'score_voids_best_back',
    );
  }
  await tx.query(
    `INSERT INTO best_moves (leaderboard_id, seq, player_id, from_rank_key, from_achieved_at, moved_at)
     VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      leaderboardId,
      seq.toString(),
      playerId,
      move.from.rankKey.toString(),
      move.from.achievedAt,
      move.now,
    ],
    'score_voids_best_move',
  );
  await tx.query(
    `UPDATE rank_buckets rb SET players = rb.players + d.delta
     FROM unnest($1::smallint[], $2::bigint[], $3::bigint[]) AS d(level, bucket, delta)
     WHERE rb.leaderboard_id = $4 AND rb.level = d.level AND rb.bucket = d.bucket`,
    [
      move.buckets.filter((b) => b.delta < 0).map((b) => b.level),
      move.buckets.filter((b) => b.delta < 0).map((b) => b.bucket.toString()),
      move.buckets.filter((b) => b.delta < 0).map((b) => b.delta),
      leaderboardId,
    ],
    'score_voids_buckets_lost',
  );
  await tx.query(
    `INSERT INTO rank_buckets (leaderboard_id, level, bucket, players)
     SELECT $4, d.level, d.bucket, d.delta
     FROM unnest($1::smallint[], $2::bigint[], $3::bigint[]) AS d(level, bucket, delta)
     ON CONFLICT (leaderboard_id, level, bucket) DO UPDATE
       SET players = rank_buckets.players + excluded.players`,
    [
      move.buckets.filter((b) => b.delta > 0).map((b) => b.level),
      move.buckets.filter((b) => b.delta > 0).map((b) => b.bucket.toString()),
      move.buckets.filter((b) => b.delta > 0).map((b) => b.delta),
      leaderboardId,
    ],
    'score_voids_buckets_gained',
  );
}

/** Gives the board a new score version (refusing every copy of it) and its next write seq. */
export async function bumpBoard(
  tx: Queryable,
  leaderboardId: string,
  version: bigint,
): Promise<bigint> {
  const rows = await tx.query<{ write_seq: bigint }>(
    `UPDATE leaderboards SET score_version = $2, write_seq = write_seq + 1 WHERE id = $1
     RETURNING write_seq`,
    [leaderboardId, version.toString()],
    'score_voids_bump_board',
  );
  const seq = rows[0]?.write_seq;
  if (seq === undefined) throw new TypeError(`board ${leaderboardId} vanished under its lock`);
  return BigInt(seq);
}

/** A play a void may correct: still open, or settled with its payouts held. */
export interface PlayLedBy {
  readonly id: string;
  readonly playerId: string;
  readonly costUnits: bigint;
  readonly createdAt: Date;
  /** True when it is settled and its payouts are held; false when it is still open. */
  readonly isHeld: boolean;
}

/**
 * The plays of the board whose leaders snapshot holds the player and that a void still changes:
 * open ones (their leaders are corrected before they settle) and settled ones whose payouts are
 * held at `now`. Locked in id order, first, as the score path locks its plays first; the release
 * sweep and the score path wait for them (or skip them) meanwhile.
 */
export async function lockPlaysLedBy(
  tx: Queryable,
  leaderboardId: string,
  playerId: string,
  now: Date,
): Promise<PlayLedBy[]> {
  const rows = await tx.query<{
    id: string;
    player_id: string;
    cost_units: bigint;
    created_at: Date;
    status: string;
    payouts_release_at: Date | null;
  }>(
    `SELECT id, player_id, cost_units, created_at, status, payouts_release_at FROM plays
     WHERE leaderboard_id = $1 AND $2::uuid = ANY(leader_player_ids)
       AND (status = 'open' OR payouts_release_at > $3)
     ORDER BY id FOR UPDATE`,
    [leaderboardId, playerId, now],
    'score_voids_lock_plays',
  );
  return rows
    .filter((r) => r.status === 'open' || (r.payouts_release_at?.getTime() ?? 0) > now.getTime())
    .map((r) => ({
      id: r.id,
      playerId: r.player_id,
      costUnits: BigInt(r.cost_units),
      createdAt: r.created_at,
      isHeld: r.status !== 'open',
    }));
}

/** Corrects open plays' leaders snapshots: each play's leaders as the board stood then. */
export async function setLeaderSnapshots(
  tx: Queryable,
  plays: readonly { playId: string; leaderPlayerIds: readonly string[] }[],
): Promise<void> {
  for (const p of plays) {
    await tx.query(
      'UPDATE plays SET leader_player_ids = $2::uuid[] WHERE id = $1',
      [p.playId, p.leaderPlayerIds],
      'score_voids_set_snapshot',
    );
  }
}
