import { describe, expect, it } from 'vitest';
import {
  RANK_TREE_LEVELS,
  bucketAt,
  bucketChanges,
  compareRanked,
  decideScoreBatch,
  rankKey,
  type BatchedScore,
  type RankedEntry,
  type ScoreDisplay,
} from '../../src/index.js';

/** A small deterministic PRNG (mulberry32), so a failing sequence can be replayed by its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Best extends RankedEntry {
  readonly scoreId: string;
}

const NOW = new Date('2026-11-25T12:00:00Z');

/**
 * The naive model: every score committed alone, in order, against full boards held in memory.
 * Rank counts the players whose best is at or above the score after it was recorded; leaders
 * are the whole board sorted; the count tree is recounted from scratch.
 */
function naive(
  initial: ReadonlyMap<string, Map<string, Best>>,
  scores: readonly { board: string; leadersMax: number; best: Best }[],
) {
  const boards = new Map([...initial].map(([id, b]) => [id, new Map(b)]));
  const placed = scores.map(({ board, leadersMax, best }) => {
    const bests = boards.get(board) ?? new Map<string, Best>();
    boards.set(board, bests);
    const current = bests.get(best.playerId);
    if (!current || best.rankKey > current.rankKey) bests.set(best.playerId, best);
    const rank = [...bests.values()].filter((b) => b.rankKey >= best.rankKey).length;
    const leaders = [...bests.values()].sort(compareRanked).slice(0, leadersMax);
    return { rank, isWinner: rank <= leadersMax, leaders: leaders.map((l) => l.playerId) };
  });
  return { placed, boards };
}

function countTree(boards: ReadonlyMap<string, ReadonlyMap<string, Best>>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [board, bests] of boards) {
    for (const best of bests.values()) {
      for (let level = 1; level <= RANK_TREE_LEVELS; level++) {
        const id = `${board}:${level}:${bucketAt(best.rankKey, level)}`;
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
    }
  }
  return counts;
}

function scenario(seed: number, display: ScoreDisplay) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T;
  const players = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7'];
  const boardIds = ['b1', 'b2'];
  const leadersMax = new Map([
    ['b1', 3],
    ['b2', 1],
  ]);
  // Few distinct values, so ties are common.
  const value = () => Math.floor(next() * 6) * 10;
  const initial = new Map<string, Map<string, Best>>();
  let n = 0;
  for (const board of boardIds) {
    const bests = new Map<string, Best>();
    for (const playerId of players) {
      if (next() < 0.5) continue;
      const score = value();
      bests.set(playerId, {
        playerId,
        score,
        rankKey: rankKey(score, display),
        achievedAt: new Date(NOW.getTime() - 1000 * (100 - n)),
        scoreId: `s${++n}`,
      });
    }
    initial.set(board, bests);
  }
  const scores = Array.from({ length: 30 }, () => {
    const board = pick(boardIds);
    const score = value();
    const best: Best = {
      playerId: pick(players),
      score,
      rankKey: rankKey(score, display),
      achievedAt: NOW,
      scoreId: `s${++n}`,
    };
    return { board, leadersMax: leadersMax.get(board) as number, best };
  });
  return { initial, scores };
}

/** What the store reads before the batch: standings and tops, from the initial boards. */
function batchInput(
  initial: ReadonlyMap<string, ReadonlyMap<string, Best>>,
  scores: readonly { board: string; leadersMax: number; best: Best }[],
) {
  const batched: BatchedScore<Best>[] = scores.map(({ board, leadersMax, best }) => {
    const bests = [...(initial.get(board)?.values() ?? [])];
    const before = initial.get(board)?.get(best.playerId) ?? null;
    return {
      leaderboardId: board,
      leadersMax,
      entry: best,
      scoreId: best.scoreId,
      bestBefore: before,
      atOrAboveBefore: bests.filter((b) => b.rankKey >= best.rankKey).length,
    };
  });
  const tops = new Map(
    [...initial].map(([board, bests]) => {
      const max = board === 'b1' ? 3 : 1;
      return [board, [...bests.values()].sort(compareRanked).slice(0, max + 1)] as const;
    }),
  );
  return { batched, tops };
}

describe('deciding a batch of scores', () => {
  for (const display of ['NORMAL', 'REVERSE'] as const) {
    it(`ranks, leads, keeps bests and moves the count tree as scores one by one would (${display})`, () => {
      for (let seed = 1; seed <= 200; seed++) {
        const { initial, scores } = scenario(seed, display);
        const model = naive(initial, scores);
        const { batched, tops } = batchInput(initial, scores);
        const decided = decideScoreBatch(batched, tops);

        const context = `seed ${seed}`;
        expect(
          decided.placed.map((p) => ({
            rank: p.rank,
            isWinner: p.isWinner,
            leaders: p.leaders.map((l) => l.playerId),
          })),
          context,
        ).toEqual(model.placed);

        // Each changed best, with the best before the batch it replaces.
        const expectedBests = [...model.boards].flatMap(([board, bests]) =>
          [...bests.values()]
            .filter((b) => initial.get(board)?.get(b.playerId) !== b)
            .map((b) => ({
              leaderboardId: board,
              playerId: b.playerId,
              score: b.score,
              rankKey: b.rankKey,
              scoreId: b.scoreId,
              achievedAt: b.achievedAt,
              replacesScoreId: initial.get(board)?.get(b.playerId)?.scoreId ?? null,
              replaces: ((before) =>
                before ? { rankKey: before.rankKey, achievedAt: before.achievedAt } : null)(
                initial.get(board)?.get(b.playerId),
              ),
            })),
        );
        const byId = (a: { scoreId: string }, b: { scoreId: string }) =>
          a.scoreId < b.scoreId ? -1 : 1;
        expect([...decided.bests].sort(byId), context).toEqual(expectedBests.sort(byId));

        // The count tree after the batch, recounted, equals before plus the decided deltas.
        const after = countTree(initial);
        for (const b of decided.buckets) {
          expect(b.delta, context).not.toBe(0);
          const id = `${b.leaderboardId}:${b.level}:${b.bucket}`;
          after.set(id, (after.get(id) ?? 0) + b.delta);
        }
        const recount = countTree(model.boards);
        const nonzero = (m: Map<string, number>) =>
          new Map([...m].filter(([, count]) => count !== 0));
        expect(nonzero(after), context).toEqual(recount);
      }
    });
  }

  it('keeps the earlier best on a tie and ranks the tied score below it', () => {
    const key = rankKey(50, 'NORMAL');
    const earlier: Best = {
      playerId: 'a',
      score: 50,
      rankKey: key,
      achievedAt: new Date(NOW.getTime() - 1000),
      scoreId: 'old',
    };
    const tied: Best = { playerId: 'b', score: 50, rankKey: key, achievedAt: NOW, scoreId: 'new' };
    const decided = decideScoreBatch(
      [
        {
          leaderboardId: 'b1',
          leadersMax: 1,
          entry: tied,
          scoreId: 'new',
          bestBefore: null,
          atOrAboveBefore: 1,
        },
      ],
      new Map([['b1', [earlier]]]),
    );
    expect(decided.placed).toEqual([{ rank: 2, isWinner: false, leaders: [earlier] }]);
    expect(decided.bests.map((b) => b.scoreId)).toEqual(['new']);
  });

  it('lists count-tree changes level by level, a bucket that does not change left out', () => {
    const from = rankKey(10, 'NORMAL');
    const to = rankKey(20, 'NORMAL');
    const changes = bucketChanges(from, to);
    expect(changes.map((c) => c.level)).toEqual(
      [...changes.map((c) => c.level)].sort((a, b) => a - b),
    );
    for (const c of changes) {
      expect(c.bucket).toBe(bucketAt(c.delta === 1 ? to : from, c.level));
    }
    expect(changes.filter((c) => c.delta === 1).length).toBe(
      changes.filter((c) => c.delta === -1).length,
    );
    expect(bucketChanges(null, to)).toEqual(
      Array.from({ length: RANK_TREE_LEVELS }, (_, i) => ({
        level: i + 1,
        bucket: bucketAt(to, i + 1),
        delta: 1,
      })),
    );
  });
});
