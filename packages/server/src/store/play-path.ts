import { createHash } from 'node:crypto';
import {
  bucketPath,
  rangesAtOrAbove,
  type AccountDelta,
  type RankedEntry,
  type TransferRequest,
} from '@coinop/core';
import type { Queryable } from './db.js';
import { transferBatchSql } from './ledger.js';
import { toPlay, PLAY_COLUMNS_OF_P, type PlayRow, type StoredPlay } from './plays.js';

/**
 * The play and score hot path in as few statements as the rules allow: a play is one statement,
 * a score three inside its transaction. The core builds every transfer and decides every rule it
 * can decide from what the caller knows; these statements apply the result, with conditional
 * updates where a rule depends on a balance only Postgres sees under lock.
 */

export interface OpenPlayRow {
  /** Null when the player does not exist. */
  readonly playerAccountId: string | null;
  /** Null when nothing was written: the player could not spend the cost. */
  readonly leaderPlayerIds: string[] | null;
}

/**
 * Opens a paid play in one statement: debits the lock from the player's account only if they
 * can spend it (the `exceeds_credits` rule, checked by Postgres under the row lock), creates the
 * play's escrow account, records the lock transfer — the one `lockTransfer()` in the core
 * describes, from the player's account to the escrow whose id is the play id — and inserts the
 * play with a snapshot of the board's leaders. All or nothing.
 */
export async function openPaidPlay(
  q: Queryable,
  play: StoredPlay,
  leadersMax: number,
): Promise<OpenPlayRow> {
  if (play.lockTransferId === null) throw new TypeError(`play ${play.id} has no lock transfer`);
  const rows = await q.query<{ account_id: string | null; leader_player_ids: string[] | null }>(
    `WITH player AS (
       SELECT account_id FROM players WHERE id = $1
     ), debit AS (
       UPDATE accounts a SET debits_pending = a.debits_pending + $2
       FROM player
       WHERE a.id = player.account_id
         AND a.credits_posted - a.debits_posted - a.debits_pending >= $2
       RETURNING a.id
     ), escrow AS (
       INSERT INTO accounts (id, kind, credits_pending, created_at)
       SELECT $3, 'escrow', $2, $4 FROM debit
       RETURNING id
     ), lock AS (
       INSERT INTO transfers (id, kind, debit_account_id, credit_account_id, amount, pending_id,
                              reason, play_id, created_at)
       SELECT $5, 'pending', debit.id, escrow.id, $2, NULL, 'play_lock', $3, $4
       FROM debit, escrow
       RETURNING id
     ), play AS (
       INSERT INTO plays (id, arcade_id, game_id, developer_id, leaderboard_id, player_id,
                          cost_units, lock_transfer_id, leader_player_ids, status,
                          idempotency_key, request_hash, expires_at, created_at, updated_at)
       SELECT $3, $6, $7, $8, $9, $1, $2, lock.id,
              ARRAY(SELECT player_id FROM leaders WHERE leaderboard_id = $9
                    ORDER BY rank_key DESC, achieved_at, player_id LIMIT $10),
              'open', $11, $12, $13, $4, $4
       FROM lock
       RETURNING leader_player_ids
     )
     SELECT (SELECT account_id FROM player) AS account_id,
            (SELECT leader_player_ids FROM play) AS leader_player_ids`,
    [
      play.playerId,
      play.costUnits.toString(),
      play.id,
      play.createdAt,
      play.lockTransferId,
      play.arcadeId,
      play.gameId,
      play.developerId,
      play.leaderboardId,
      leadersMax,
      play.idempotencyKey,
      play.requestHash,
      play.expiresAt,
    ],
    'play_path_open_paid',
  );
  return {
    playerAccountId: rows[0]?.account_id ?? null,
    leaderPlayerIds: rows[0]?.leader_player_ids ?? null,
  };
}

/** Opens a free play: nothing to lock; the play and its leaders snapshot, if the player exists. */
export async function openFreePlay(
  q: Queryable,
  play: StoredPlay,
  leadersMax: number,
): Promise<OpenPlayRow> {
  const rows = await q.query<{ leader_player_ids: string[] }>(
    `INSERT INTO plays (id, arcade_id, game_id, developer_id, leaderboard_id, player_id,
                        cost_units, lock_transfer_id, leader_player_ids, status,
                        idempotency_key, request_hash, expires_at, created_at, updated_at)
     SELECT $1, $2, $3, $4, $5, p.id, 0, NULL,
            ARRAY(SELECT player_id FROM leaders WHERE leaderboard_id = $5
                  ORDER BY rank_key DESC, achieved_at, player_id LIMIT $6),
            'open', $7, $8, $9, $10, $10
     FROM players p WHERE p.id = $11
     RETURNING leader_player_ids`,
    [
      play.id,
      play.arcadeId,
      play.gameId,
      play.developerId,
      play.leaderboardId,
      leadersMax,
      play.idempotencyKey,
      play.requestHash,
      play.expiresAt,
      play.createdAt,
      play.playerId,
    ],
    'play_path_open_free',
  );
  const row = rows[0];
  return {
    playerAccountId: row ? play.playerId : null,
    leaderPlayerIds: row?.leader_player_ids ?? null,
  };
}

export interface LockedPlay {
  readonly play: StoredPlay;
  readonly playerAccountId: string;
  readonly playerName: string;
  readonly playerAvatarUrl: string | null;
  /** Account ids of the leaders snapshotted when the play began. */
  readonly leaderAccountIds: string[];
}

/**
 * Locks a play for scoring, and serialises every score of its player on its board (an advisory
 * lock), so the player's best read next cannot change before this transaction writes it.
 */
export async function lockPlayForScore(
  tx: Queryable,
  gameId: string,
  playId: string,
): Promise<LockedPlay | null> {
  const rows = await tx.query<
    PlayRow & {
      player_account_id: string;
      player_name: string;
      player_avatar_url: string | null;
      leader_account_ids: string[];
    }
  >(
    `SELECT ${PLAY_COLUMNS_OF_P}, pl.account_id AS player_account_id, pl.name AS player_name,
            pl.avatar_url AS player_avatar_url,
            ARRAY(SELECT account_id FROM players WHERE id = ANY(p.leader_player_ids))
              AS leader_account_ids
     FROM plays p JOIN players pl ON pl.id = p.player_id
     WHERE p.id = $1 AND p.game_id = $2
     FOR UPDATE OF p`,
    [playId, gameId],
    'play_path_lock_play',
  );
  const row = rows[0];
  if (!row) return null;
  await tx.query(
    'SELECT pg_advisory_xact_lock($1::bigint)',
    [bestLockKey(row.leaderboard_id, row.player_id).toString()],
    'play_path_lock_best',
  );
  return {
    play: toPlay(row),
    playerAccountId: row.player_account_id,
    playerName: row.player_name,
    playerAvatarUrl: row.player_avatar_url,
    leaderAccountIds: row.leader_account_ids,
  };
}

/** A 64-bit advisory lock key for one player's best on one board. */
function bestLockKey(leaderboardId: string, playerId: string): bigint {
  return createHash('sha256').update(`${leaderboardId}:${playerId}`).digest().readBigInt64BE(0);
}

export interface BoardEntry extends RankedEntry {
  readonly name: string;
  readonly avatarUrl: string | null;
}

export interface Standing {
  /** The player's best before this score, or null. */
  readonly best: { rankKey: bigint; achievedAt: Date } | null;
  /** Players whose best key is at or above `key`, before this score is recorded. */
  readonly atOrAbove: number;
  /** The board's top `limit` before this score. */
  readonly top: BoardEntry[];
}

/** One read of everything ranking a score needs: the player's best, the count, the top. */
export async function readStanding(
  tx: Queryable,
  leaderboardId: string,
  playerId: string,
  key: bigint,
  limit: number,
): Promise<Standing> {
  const ranges = rangesAtOrAbove(key);
  const rows = await tx.query<{
    best_key: bigint | null;
    best_at: Date | null;
    at_or_above: bigint | null;
    top:
      | {
          player_id: string;
          score: number;
          rank_key: string;
          achieved_at: string;
          name: string;
          avatar_url: string | null;
        }[]
      | null;
  }>(
    `SELECT b.rank_key AS best_key, b.achieved_at AS best_at,
            (SELECT sum(s.n)::bigint
             FROM unnest($3::smallint[], $4::bigint[], $5::bigint[]) AS r(level, after, up_to)
             CROSS JOIN LATERAL (
               SELECT sum(rb.players) AS n FROM rank_buckets rb
               WHERE rb.leaderboard_id = $1 AND rb.level = r.level AND rb.bucket > r.after
                 AND rb.bucket <= r.up_to) s) AS at_or_above,
            (SELECT json_agg(t) FROM (
               SELECT l.player_id, l.score, l.rank_key::text AS rank_key, l.achieved_at, p.name,
                      p.avatar_url
               FROM (SELECT * FROM leaders WHERE leaderboard_id = $1
                     ORDER BY rank_key DESC, achieved_at, player_id LIMIT $6) l
               JOIN players p ON p.id = l.player_id
               ORDER BY l.rank_key DESC, l.achieved_at, l.player_id) t) AS top
     FROM (SELECT 1) one
     LEFT JOIN leaders b ON b.leaderboard_id = $1 AND b.player_id = $2`,
    [
      leaderboardId,
      playerId,
      ranges.map((r) => r.level),
      ranges.map((r) => r.after.toString()),
      ranges.map((r) => r.upTo.toString()),
      limit,
    ],
    'play_path_read_standing',
  );
  const row = rows[0];
  const top = (row?.top ?? []).map((t) => ({
    playerId: t.player_id,
    score: t.score,
    rankKey: BigInt(t.rank_key),
    achievedAt: new Date(t.achieved_at),
    name: t.name,
    avatarUrl: t.avatar_url,
  }));
  return {
    best:
      row && row.best_key !== null && row.best_at !== null
        ? { rankKey: BigInt(row.best_key), achievedAt: row.best_at }
        : null,
    atOrAbove: Number(row?.at_or_above ?? 0n),
    top,
  };
}

export interface ScoreWrite {
  readonly scoreId: string;
  readonly playId: string;
  readonly leaderboardId: string;
  readonly playerId: string;
  readonly score: number;
  readonly rankKey: bigint;
  readonly leaderRank: number;
  readonly isWinner: boolean;
  readonly idempotencyKey: string | null;
  readonly requestHash: string;
  readonly now: Date;
  /** The player's best before, when this score improves it; undefined when it does not. */
  readonly replacesBest: { rankKey: bigint } | null | undefined;
  readonly transfers: readonly TransferRequest[];
  readonly deltas: ReadonlyMap<string, AccountDelta>;
}

/**
 * Records a score in one statement: the player's new best and its move in the count tree (when
 * it improves), the score, the play's status, and the settlement transfers with their balance
 * changes. Account rows are updated in id order, as every batch does, so concurrent settlements
 * lock them in one order.
 */
export async function writeScore(tx: Queryable, w: ScoreWrite): Promise<void> {
  const improves = w.replacesBest !== undefined;
  const buckets = improves ? bucketChanges(w.replacesBest?.rankKey ?? null, w.rankKey) : [];
  const batch = transferBatchSql(16);
  await tx.query(
    `WITH best AS (
       INSERT INTO leaders (leaderboard_id, player_id, score, rank_key, score_id, achieved_at)
       SELECT $1, $2, $3, $4, $5, $6 WHERE $7::boolean
       ON CONFLICT (leaderboard_id, player_id) DO UPDATE
         SET score = excluded.score, rank_key = excluded.rank_key, score_id = excluded.score_id,
             achieved_at = excluded.achieved_at
       RETURNING 1
     ), buckets AS (
       INSERT INTO rank_buckets (leaderboard_id, level, bucket, players)
       SELECT $1, level, bucket, CASE WHEN delta > 0 THEN 1 ELSE 0 END
       FROM unnest($8::smallint[], $9::bigint[], $10::int[])
         WITH ORDINALITY AS c(level, bucket, delta, n)
       ORDER BY n
       ON CONFLICT (leaderboard_id, level, bucket) DO UPDATE
         SET players = rank_buckets.players + CASE WHEN excluded.players = 1 THEN 1 ELSE -1 END
       RETURNING 1
     ), score AS (
       INSERT INTO scores (id, play_id, leaderboard_id, player_id, score, leader_rank, is_winner,
                           idempotency_key, request_hash, created_at)
       VALUES ($5, $11, $1, $2, $3, $12, $13, $14, $15, $6)
       RETURNING 1
     ), played AS (
       UPDATE plays SET status = 'scored', updated_at = $6 WHERE id = $11
       RETURNING 1
     ), moved AS (${batch.insertTransfers})
     ${batch.applyDeltas}`,
    [
      w.leaderboardId,
      w.playerId,
      w.score,
      w.rankKey.toString(),
      w.scoreId,
      w.now,
      improves,
      buckets.map((b) => b.level),
      buckets.map((b) => b.bucket.toString()),
      buckets.map((b) => b.delta),
      w.playId,
      w.leaderRank,
      w.isWinner,
      w.idempotencyKey,
      w.requestHash,
      ...batch.params(w.transfers, w.deltas, w.now),
    ],
    'play_path_write_score',
  );
}

/**
 * The count-tree changes of a player's best moving from `previous` to `next`: one bucket per
 * level gains them, one loses them (when they had a best); a level where both are the same
 * bucket does not change. In (level, bucket) order, so concurrent scores lock rows alike.
 */
export function bucketChanges(
  previous: bigint | null,
  next: bigint,
): { level: number; bucket: bigint; delta: 1 | -1 }[] {
  const changes: { level: number; bucket: bigint; delta: 1 | -1 }[] = [];
  const gained = bucketPath(next);
  const lost = previous === null ? null : bucketPath(previous);
  gained.forEach((bucket, i) => {
    const old = lost?.[i];
    if (old === bucket) return;
    if (old !== undefined) changes.push({ level: i + 1, bucket: old, delta: -1 });
    changes.push({ level: i + 1, bucket, delta: 1 });
  });
  return changes.sort((a, b) =>
    a.level !== b.level
      ? a.level - b.level
      : a.bucket < b.bucket
        ? -1
        : a.bucket > b.bucket
          ? 1
          : 0,
  );
}
