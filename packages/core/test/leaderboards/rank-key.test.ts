import { describe, expect, it } from 'vitest';
import {
  bucketAt,
  bucketPath,
  improvesBest,
  isWinner,
  leadersAfter,
  rangesAtOrAbove,
  rankKey,
} from '../../src/index.js';

/** Counts keys ≥ k the way the store does: summing bucket counts over rangesAtOrAbove(k). */
function countWithTree(keys: bigint[], k: bigint): number {
  const buckets = new Map<string, number>();
  for (const key of keys) {
    bucketPath(key).forEach((b, i) =>
      buckets.set(`${i + 1}:${b}`, (buckets.get(`${i + 1}:${b}`) ?? 0) + 1),
    );
  }
  let total = 0;
  for (const range of rangesAtOrAbove(k)) {
    for (const [id, n] of buckets) {
      const [level, bucket] = id.split(':');
      if (
        Number(level) === range.level &&
        BigInt(bucket!) > range.after &&
        BigInt(bucket!) <= range.upTo
      )
        total += n;
    }
  }
  return total;
}

describe('rankKey', () => {
  const scores = [0, 1e-300, 0.5, 1, 1.5, 2, 10, 99.99, 100, 2 ** 53, 1e308];

  it('orders NORMAL keys like the scores and REVERSE keys the other way', () => {
    for (let i = 1; i < scores.length; i++) {
      expect(rankKey(scores[i]!, 'NORMAL')).toBeGreaterThan(rankKey(scores[i - 1]!, 'NORMAL'));
      expect(rankKey(scores[i]!, 'REVERSE')).toBeLessThan(rankKey(scores[i - 1]!, 'REVERSE'));
    }
  });

  it('keeps keys within a non-negative bigint column and folds -0 into 0', () => {
    for (const s of scores) {
      for (const d of ['NORMAL', 'REVERSE'] as const) {
        expect(rankKey(s, d)).toBeGreaterThanOrEqual(0n);
        expect(rankKey(s, d)).toBeLessThan(2n ** 63n);
      }
    }
    expect(rankKey(-0, 'NORMAL')).toBe(rankKey(0, 'NORMAL'));
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s', (bad) => {
    expect(() => rankKey(bad, 'NORMAL')).toThrow(TypeError);
  });
});

describe('count tree ranges', () => {
  it('counts the keys at or above any key exactly, over a seeded sample', () => {
    let seed = 12345;
    const rand = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    const keys = Array.from({ length: 300 }, () =>
      rankKey(Math.floor(rand() * 1000) / 4, 'NORMAL'),
    );
    for (const probe of [...keys.slice(0, 60), rankKey(0, 'NORMAL'), rankKey(1e9, 'NORMAL')]) {
      const expected = keys.filter((k) => k >= probe).length;
      expect(countWithTree(keys, probe), `probe ${probe}`).toBe(expected);
    }
  });

  it('buckets refine level by level', () => {
    const key = rankKey(1234.5, 'NORMAL');
    for (let level = 2; level <= 8; level++)
      expect(bucketAt(key, level) >> 8n).toBe(bucketAt(key, level - 1));
    expect(bucketAt(key, 8)).toBe(key);
    expect(() => bucketAt(key, 9)).toThrow(TypeError);
  });
});

describe('best and winners', () => {
  const at = new Date(0);
  it.each([
    [null, 5n, true],
    [{ rankKey: 4n, achievedAt: at }, 5n, true],
    [{ rankKey: 5n, achievedAt: at }, 5n, false],
    [{ rankKey: 6n, achievedAt: at }, 5n, false],
  ] as const)('case %#: improves best', (current, key, expected) => {
    expect(improvesBest(current, key)).toBe(expected);
  });

  it.each([
    [1, 10, true],
    [10, 10, true],
    [11, 10, false],
  ])('rank %s with %s leaders → winner %s', (rank, max, expected) => {
    expect(isWinner(rank, max)).toBe(expected);
  });
});

describe('leadersAfter', () => {
  const e = (playerId: string, rankKey: bigint, at: number) => ({
    playerId,
    score: Number(rankKey),
    rankKey,
    achievedAt: new Date(at),
  });

  it('moves an improved player up and keeps the top max', () => {
    const before = [e('a', 90n, 1), e('b', 80n, 2), e('c', 70n, 3), e('d', 60n, 4)];
    expect(leadersAfter(before, e('d', 85n, 9), 3).map((x) => x.playerId)).toEqual(['a', 'd', 'b']);
  });

  it('lets the earlier of equal scores lead and adds a newcomer below them', () => {
    const before = [e('a', 90n, 1), e('b', 80n, 2)];
    expect(leadersAfter(before, e('n', 90n, 5), 10).map((x) => x.playerId)).toEqual([
      'a',
      'n',
      'b',
    ]);
  });

  it('leaves a newcomer out when the board is full of better scores', () => {
    const before = [e('a', 90n, 1), e('b', 80n, 2), e('c', 70n, 3)];
    expect(leadersAfter(before, e('n', 10n, 5), 2).map((x) => x.playerId)).toEqual(['a', 'b']);
  });
});
