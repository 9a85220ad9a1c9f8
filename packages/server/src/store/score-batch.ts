import { randomBytes } from 'node:crypto';
import {
  rangesAtOrAbove,
  type AccountDelta,
  type BucketDelta,
  type NewBest,
  type RankedEntry,
  type TransferRequest,
} from '@coinop/core';
import { boardOrder } from './board-order.js';
import type { Queryable } from './db.js';
import { translated } from './errors.js';
import {
  READ_SCORE_BATCH_SQL,
  SCORES_LEDGER_PARAMS,
  WRITE_SCORES_SQL,
  WRITE_SCORES_WITH_REPLAYS_SQL,
} from './score-batch-sql.js';
import { toPlay, type PlayRow, type StoredPlay } from './plays.js';
import { columns, type Column } from './params.js';

/**
 * Scoring in as few statements as the rules allow: a batch of scores is two (a read, then one
 * checked write); the core decides the batch (`decideScoreBatch`) between them. Plays:
 * `open-plays.ts`.
 */

/** A play being scored, with what deciding its score needs from its player and its leaders. */
export interface ScoringPlay {
  readonly play: StoredPlay;
  readonly playerAccountId: string;
  readonly playerName: string;
  readonly playerAvatarUrl: string | null;
  /** Account ids of the leaders snapshotted when the play began. */
  readonly leaderAccountIds: string[];
}

export interface BoardEntry extends RankedEntry {
  readonly name: string;
  readonly avatarUrl: string | null;
}

/*
 * Group commit: a batch of scores in two statements, whatever its size. Read every play and
 * standing against the boards as they were before the batch, then write the whole batch in one
 * statement, which checks that nothing the decisions rest on has changed since the read (each
 * play still open, each improved best still the one read) and otherwise rolls itself back with
 * a serialization failure. The service walks the batch in order and adjusts each standing for
 * the scores before it in memory, so each score is ranked exactly as if the batch's scores had
 * been committed one after another.
 *
 * Without a transaction around them (the usual way) the two statements hold no lock between
 * them: one API process runs one batch at a time, so only another process or the expiry
 * sweeper can get in between, and then the write refuses. The service then reruns the batch
 * inside a transaction that first locks its plays and bests (`lockPlaysForScores`).
 */

/**
 * Locks the plays of a batch (in id order), each in its game, and each one's player best
 * (advisory locks), so that nothing the batch reads next can change before it commits.
 */
export async function lockPlaysForScores(
  tx: Queryable,
  plays: readonly { playId: string; gameId: string }[],
): Promise<void> {
  // In id order, so concurrent batches lock plays alike. Each play is locked in a LATERAL
  // subquery, which the planner cannot turn into a scan of the whole plays table.
  const sorted = [...plays].sort((a, b) =>
    a.playId < b.playId ? -1 : a.playId > b.playId ? 1 : 0,
  );
  await tx.query(
    `WITH locked AS (
       SELECT p.id, p.leaderboard_id, p.player_id
       FROM unnest($1::uuid[], $2::uuid[]) AS u(id, game_id)
       CROSS JOIN LATERAL (SELECT * FROM plays WHERE id = u.id AND (game_id = u.game_id) IS TRUE
                           FOR UPDATE) p
     )
     SELECT pg_advisory_xact_lock(('x' || encode(substring(sha256(convert_to(
              locked.leaderboard_id::text || ':' || locked.player_id::text, 'UTF8'))
              FROM 1 FOR 8), 'hex'))::bit(64)::bigint) IS NULL AS best_locked
     FROM locked ORDER BY locked.id`,
    [sorted.map((x) => x.playId), sorted.map((x) => x.gameId)],
    'play_path_lock_plays',
  );
}

/** A score to decide: its play (looked up in its game) and its rank key. */
export interface ScoreQuery {
  readonly playId: string;
  readonly gameId: string;
  readonly key: bigint;
}

/** What a batch read for one score whose play exists in its game. */
export interface ScoreStanding {
  readonly scoring: ScoringPlay;
  /** The player's best on the play's board before the batch. */
  readonly best: { rankKey: bigint; achievedAt: Date; scoreId: string } | null;
  /** Players whose best key is at or above the score's key, before the batch. */
  readonly atOrAbove: number;
}

export interface BatchRead {
  /** By play id; a play missing here does not exist in its game. */
  readonly standings: ReadonlyMap<string, ScoreStanding>;
  /** Each board's top entries before the batch, for the boards of the plays found. */
  readonly tops: ReadonlyMap<string, BoardEntry[]>;
}

/**
 * One read of everything a batch decides on, from one snapshot: each play with its player and
 * its leaders' accounts, the player's best on the play's board, the count of bests at or above
 * the score's key (from the count tree), and each board's top `leaders_max + 1` (the entry that
 * moves up when a leader improves). Each lookup is a LATERAL subquery with LIMIT 1, which the
 * planner cannot flatten into a join: a generic plan would otherwise hash-join whole tables
 * (every play, every player, every best on the board).
 */
export async function readScoreBatch(
  q: Queryable,
  queries: readonly ScoreQuery[],
): Promise<BatchRead> {
  const ranges = queries.flatMap((x, i) => rangesAtOrAbove(x.key).map((r) => ({ i: i + 1, ...r })));
  const rows = await q.query<ScoreBatchRow>(
    READ_SCORE_BATCH_SQL,
    [
      queries.map((x) => x.playId),
      queries.map((x) => x.gameId),
      ranges.map((r) => r.i),
      ranges.map((r) => r.level),
      ranges.map((r) => r.after.toString()),
      ranges.map((r) => r.upTo.toString()),
    ],
    'play_path_read_score_batch',
  );
  return toBatchRead(rows);
}

/**
 * A row of `READ_SCORE_BATCH_SQL`: a play found in its game, with its standing; the first row
 * carries every board's top.
 */
interface ScoreBatchRow extends PlayRow {
  player_account_id: string;
  player_name: string;
  player_avatar_url: string | null;
  leader_account_ids: string[];
  best_rank_key: bigint | null;
  best_achieved_at: Date | null;
  best_score_id: string | null;
  at_or_above: bigint | null;
  tops:
    | {
        leaderboard_id: string;
        player_id: string;
        score: number;
        rank_key: string;
        achieved_at: string;
        name: string;
        avatar_url: string | null;
      }[]
    | null;
}

/** The batch's read from its rows: each play's standing by play id, and each board's top. */
function toBatchRead(rows: readonly ScoreBatchRow[]): BatchRead {
  const tops = new Map<string, BoardEntry[]>();
  const standings = new Map<string, ScoreStanding>();
  for (const row of rows) {
    if (!tops.has(row.leaderboard_id)) tops.set(row.leaderboard_id, []);
    for (const t of row.tops ?? []) {
      let top = tops.get(t.leaderboard_id);
      if (!top) tops.set(t.leaderboard_id, (top = []));
      top.push({
        playerId: t.player_id,
        score: t.score,
        rankKey: BigInt(t.rank_key),
        achievedAt: new Date(t.achieved_at),
        name: t.name,
        avatarUrl: t.avatar_url,
      });
    }
    standings.set(row.id, {
      scoring: {
        play: toPlay(row),
        playerAccountId: row.player_account_id,
        playerName: row.player_name,
        playerAvatarUrl: row.player_avatar_url,
        leaderAccountIds: row.leader_account_ids,
      },
      best:
        row.best_rank_key === null || row.best_achieved_at === null || row.best_score_id === null
          ? null
          : {
              rankKey: BigInt(row.best_rank_key),
              achievedAt: row.best_achieved_at,
              scoreId: row.best_score_id,
            },
      atOrAbove: Number(row.at_or_above ?? 0n),
    });
  }
  return { standings, tops };
}

/** A score of a batch, decided: what `writeScores` records for it. */
export interface BatchScore {
  readonly scoreId: string;
  readonly playId: string;
  readonly leaderboardId: string;
  readonly playerId: string;
  readonly score: number;
  readonly leaderRank: number;
  readonly isWinner: boolean;
  readonly idempotencyKey: string | null;
  readonly requestHash: string;
  readonly now: Date;
  /** When the play's held payouts are posted; null when they were paid at once. */
  readonly payoutsReleaseAt: Date | null;
  /** The replay the score came with, kept in `score_replays`; null when it came without. */
  readonly replay: string | null;
}

/**
 * A board a batch scores on: its score version becomes `next`. With `expected`, the batch was
 * decided from a copy of the board at that version, and the write refuses if it has moved since.
 * A version is drawn at random by the batch that writes it (`nextBoardVersion`), not counted,
 * so only that batch can have left a board at it: a batch decided on top of one still in flight
 * is refused unless that one committed.
 */
export interface BoardVersion {
  readonly leaderboardId: string;
  readonly expected: bigint | null;
  readonly next: bigint;
}

/** A new board version: 63 random bits, so no other write can be expected to leave it. */
export function nextBoardVersion(): bigint {
  return randomBytes(8).readBigInt64BE() & 0x7fff_ffff_ffff_ffffn;
}

/**
 * Writes a decided batch in one statement: each improved player's final best, the net change of
 * every count-tree bucket, the scores, the plays' status, and the settlement transfers with the
 * balance changes summed per account (in id order). It checks what the batch was decided on:
 * every play must still be open, every replaced best still the one read (and a first best
 * still the first), and each board still at its expected version; else it throws WriteRaced
 * (a serialization failure, 40001, or a deadlock with another process) and writes nothing.
 * Each board's `write_seq` moves on by one (numbering its batches in commit order: the board's
 * row stays locked until commit), stamped on every best written, and each best written leaves
 * a `best_moves` row with where it stood before, for board walks (`board-pages.ts`).
 * Those checks come first: the balance changes only run once the main query asks whether every
 * account they name exists (a lost race would otherwise surface as the settled escrow's
 * balance check).
 */
export function writeScores(q: Queryable, batch: ScoreBatchWrite): Promise<void> {
  return translated(() => writeScoresStatement(q, batch));
}

/** Everything one batch of scores writes, decided. */
export interface ScoreBatchWrite {
  readonly scores: readonly BatchScore[];
  /** Each improved player's final best on a board. */
  readonly bests: readonly NewBest[];
  /** The net change of each count-tree bucket the batch moved. */
  readonly buckets: readonly BucketDelta[];
  readonly transfers: readonly TransferRequest[];
  readonly transferTimes: readonly Date[];
  /** Balance changes summed per account. */
  readonly deltas: ReadonlyMap<string, AccountDelta>;
  /** Each board's version as the batch was decided on it (null: not checked). */
  readonly boards: readonly BoardVersion[];
}

/** The columns of each kind of row a score batch writes, in its statement's parameter order. */
const FIRST_BEST_COLUMNS: readonly Column<NewBest>[] = [
  (b) => b.leaderboardId,
  (b) => b.playerId,
  (b) => b.score,
  (b) => b.rankKey.toString(),
  (b) => b.scoreId,
  (b) => b.achievedAt,
];
const MOVED_BEST_COLUMNS: readonly Column<NewBest>[] = [
  ...FIRST_BEST_COLUMNS,
  (b) => b.replacesScoreId,
];
const BUCKET_COLUMNS: readonly Column<BucketDelta>[] = [
  (b) => b.leaderboardId,
  (b) => b.level,
  (b) => b.bucket.toString(),
  (b) => b.delta,
];
const SCORE_COLUMNS: readonly Column<BatchScore>[] = [
  (s) => s.scoreId,
  (s) => s.playId,
  (s) => s.leaderboardId,
  (s) => s.playerId,
  (s) => s.score,
  (s) => s.leaderRank,
  (s) => s.isWinner,
  (s) => s.idempotencyKey,
  (s) => s.requestHash,
  (s) => s.now,
  (s) => s.playId,
  (s) => s.now,
];
const BOARD_VERSION_COLUMNS: readonly Column<BoardVersion>[] = [
  (b) => b.leaderboardId,
  (b) => b.expected?.toString() ?? null,
  (b) => b.next.toString(),
];
const BEST_MOVE_COLUMNS: readonly Column<NewBest>[] = [
  (b) => b.leaderboardId,
  (b) => b.playerId,
  (b) => b.replaces?.rankKey.toString() ?? null,
  (b) => b.replaces?.achievedAt ?? null,
  (b) => b.achievedAt,
];
const RELEASE_COLUMNS: readonly Column<BatchScore>[] = [(s) => s.payoutsReleaseAt];
const REPLAY_COLUMNS: readonly Column<BatchScore>[] = [(s) => s.scoreId, (s) => s.replay];

async function writeScoresStatement(q: Queryable, batch: ScoreBatchWrite): Promise<void> {
  const { scores, bests, buckets, transfers, transferTimes, deltas, boards } = batch;
  const first = bests.filter((b) => b.replacesScoreId === null);
  const moved = bests.filter((b) => b.replacesScoreId !== null);
  const replayed = scores.filter((s) => s.replay !== null);
  await q.query(
    replayed.length === 0 ? WRITE_SCORES_SQL : WRITE_SCORES_WITH_REPLAYS_SQL,
    [
      ...columns(first, FIRST_BEST_COLUMNS),
      ...columns(moved, MOVED_BEST_COLUMNS),
      ...columns(
        buckets.filter((b) => b.delta > 0),
        BUCKET_COLUMNS,
      ),
      ...columns(
        buckets.filter((b) => b.delta < 0),
        BUCKET_COLUMNS,
      ),
      ...columns(scores, SCORE_COLUMNS),
      ...SCORES_LEDGER_PARAMS(transfers, deltas, transferTimes),
      scores.length,
      first.length,
      moved.length,
      ...columns(boards, BOARD_VERSION_COLUMNS),
      ...columns(bests, BEST_MOVE_COLUMNS),
      ...columns(scores, RELEASE_COLUMNS),
      ...(replayed.length === 0 ? [] : columns(replayed, REPLAY_COLUMNS)),
    ],
    replayed.length === 0 ? 'play_path_write_scores' : 'play_path_write_scores_replays',
  );
}

/** A player's best on a board, with what answering and settling a score needs of the player. */
export interface BoardBest extends BoardEntry {
  readonly scoreId: string;
  readonly accountId: string;
}

/**
 * A board's score version and its bests, best first, from one snapshot; `limit` bests at most.
 * Null when the board does not exist.
 */
export async function readBoard(
  q: Queryable,
  leaderboardId: string,
  limit: number,
): Promise<{ version: bigint; bests: BoardBest[] } | null> {
  const rows = await q.query<{
    score_version: bigint;
    player_id: string | null;
    score: number;
    rank_key: bigint;
    achieved_at: Date;
    score_id: string;
    account_id: string;
    name: string;
    avatar_url: string | null;
  }>(
    `SELECT lb.score_version, l.player_id, l.score, l.rank_key, l.achieved_at, l.score_id,
            pl.account_id, pl.name, pl.avatar_url
     FROM leaderboards lb
     LEFT JOIN LATERAL (SELECT * FROM leaders WHERE leaderboard_id = lb.id
                        ORDER BY ${boardOrder()} LIMIT $2) l ON true
     LEFT JOIN players pl ON pl.id = l.player_id
     WHERE lb.id = $1
     ORDER BY ${boardOrder('l')}`,
    [leaderboardId, limit],
    'play_path_read_board',
  );
  const first = rows[0];
  if (!first) return null;
  const bests: BoardBest[] = [];
  for (const r of rows) {
    if (r.player_id === null) continue;
    bests.push({
      playerId: r.player_id,
      score: r.score,
      rankKey: BigInt(r.rank_key),
      achievedAt: r.achieved_at,
      scoreId: r.score_id,
      accountId: r.account_id,
      name: r.name,
      avatarUrl: r.avatar_url,
    });
  }
  return { version: BigInt(first.score_version), bests };
}

export { WRITE_SCORES_SQL };
