import { improvesBest, isWinner, leaderRank, leadersAfter, type RankedEntry } from './best.js';
import { bucketPath } from './rank-key.js';

/**
 * Deciding a batch of scores at once (group commit): each score is ranked, and the board's
 * leaders and the count tree are moved, exactly as if the batch's scores had committed one by
 * one in order. The store reads the standings before the batch and writes what this decides.
 */

/** A count-tree bucket's net change over a batch. */
export interface BucketDelta {
  readonly leaderboardId: string;
  readonly level: number;
  readonly bucket: bigint;
  readonly delta: number;
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

/** One score of a batch, with its player's standing on its board before the batch. */
export interface BatchedScore<E extends RankedEntry> {
  readonly leaderboardId: string;
  readonly leadersMax: number;
  /** The player's board entry should this score become their best (achieved now). */
  readonly entry: E;
  readonly scoreId: string;
  /** The player's best on the board before the batch. */
  readonly bestBefore: {
    readonly rankKey: bigint;
    readonly achievedAt: Date;
    readonly scoreId: string;
  } | null;
  /** Players whose best key is at or above this score's key, before the batch. */
  readonly atOrAboveBefore: number;
}

/** Where one score of the batch placed. */
export interface PlacedScore<E extends RankedEntry> {
  readonly rank: number;
  readonly isWinner: boolean;
  /** The board's leaders right after this score. */
  readonly leaders: E[];
}

/** A player's new best on a board after the batch, and the best before it (by score id). */
export interface NewBest {
  readonly leaderboardId: string;
  readonly playerId: string;
  readonly score: number;
  readonly rankKey: bigint;
  readonly scoreId: string;
  readonly achievedAt: Date;
  /** The best the write must still find in place: the one before the batch. */
  readonly replacesScoreId: string | null;
  /** Where that best stood (null with it): a board walk's record of the move. */
  readonly replaces: { readonly rankKey: bigint; readonly achievedAt: Date } | null;
}

export interface ScoreBatchDecision<E extends RankedEntry> {
  /** One per score, in the batch's order. */
  readonly placed: PlacedScore<E>[];
  /** Each improved player's final best per board. */
  readonly bests: NewBest[];
  /** The count tree's net changes; buckets that net to zero are left out. */
  readonly buckets: BucketDelta[];
}

/** A board as the batch's scores so far left it: its top, and each best they moved. */
interface BoardState<E> {
  top: readonly E[];
  readonly moves: { from: bigint | null; to: bigint }[];
}

/**
 * Decides a batch of scores in order. `topsBefore` holds each board's top `leadersMax + 1`
 * entries before the batch (one spare, in case a leader drops out).
 */
export function decideScoreBatch<E extends RankedEntry>(
  scores: readonly BatchedScore<E>[],
  topsBefore: ReadonlyMap<string, readonly E[]>,
): ScoreBatchDecision<E> {
  const boards = new Map<string, BoardState<E>>();
  const bests = new Map<string, NewBest>();
  const buckets = new Map<
    string,
    { leaderboardId: string; level: number; bucket: bigint; delta: number }
  >();
  const placed = scores.map((s): PlacedScore<E> => {
    const { leaderboardId, leadersMax, entry } = s;
    let board = boards.get(leaderboardId);
    if (!board) {
      board = { top: topsBefore.get(leaderboardId) ?? [], moves: [] };
      boards.set(leaderboardId, board);
    }
    const bestId = `${leaderboardId}:${entry.playerId}`;
    const earlier = bests.get(bestId);
    const current = earlier ?? s.bestBefore;
    const improves = improvesBest(current, entry.rankKey);
    // The count as the batch's earlier scores left it: each moved one player's best.
    let atOrAbove = s.atOrAboveBefore;
    for (const m of board.moves) {
      if (m.to >= entry.rankKey) atOrAbove += 1;
      if (m.from !== null && m.from >= entry.rankKey) atOrAbove -= 1;
    }
    const rank = leaderRank(atOrAbove + (improves ? 1 : 0));
    if (!improves) {
      return {
        rank,
        isWinner: isWinner(rank, leadersMax),
        leaders: board.top.slice(0, leadersMax),
      };
    }
    const leaders = leadersAfter(board.top, entry, leadersMax);
    board.top = leadersAfter(board.top, entry, leadersMax + 1);
    board.moves.push({ from: current?.rankKey ?? null, to: entry.rankKey });
    for (const c of bucketChanges(current?.rankKey ?? null, entry.rankKey)) {
      const id = `${leaderboardId}:${c.level}:${c.bucket}`;
      const sum = buckets.get(id);
      if (sum) sum.delta += c.delta;
      else buckets.set(id, { leaderboardId, ...c });
    }
    bests.set(bestId, {
      leaderboardId,
      playerId: entry.playerId,
      score: entry.score,
      rankKey: entry.rankKey,
      scoreId: s.scoreId,
      achievedAt: entry.achievedAt,
      replacesScoreId: earlier ? earlier.replacesScoreId : (s.bestBefore?.scoreId ?? null),
      replaces: earlier
        ? earlier.replaces
        : s.bestBefore && { rankKey: s.bestBefore.rankKey, achievedAt: s.bestBefore.achievedAt },
    });
    return { rank, isWinner: isWinner(rank, leadersMax), leaders };
  });
  return {
    placed,
    bests: [...bests.values()],
    buckets: [...buckets.values()].filter((b) => b.delta !== 0),
  };
}
