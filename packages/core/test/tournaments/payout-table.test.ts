import { describe, expect, it } from 'vitest';
import { dividePool, paidPlaces, parsePayoutTable } from '../../src/tournaments/payout-table.js';

describe('parsePayoutTable', () => {
  it('accepts places summing to 10,000 basis points and a top percent', () => {
    expect(parsePayoutTable({ places: [5000, 3000, 2000] })).toEqual({
      places: [5000, 3000, 2000],
    });
    expect(parsePayoutTable({ topPercent: 10 })).toEqual({ topPercent: 10 });
  });

  it.each([
    [null, 'payoutTable must be'],
    [[5000], 'payoutTable must be'],
    [{}, 'exactly one'],
    [{ places: [5000], topPercent: 10 }, 'exactly one'],
    [{ places: [] }, '1 to 100 places'],
    [{ places: Array.from({ length: 101 }, () => 1) }, '1 to 100 places'],
    [{ places: [5000, 5000.5] }, 'whole basis points'],
    [{ places: [10000, 0] }, 'whole basis points'],
    [{ places: [5000, 3000] }, 'sum to 10000 basis points, got 8000'],
    [{ topPercent: 0 }, 'topPercent must be a whole percent'],
    [{ topPercent: 101 }, 'topPercent must be a whole percent'],
    [{ topPercent: '10' }, 'topPercent must be a whole percent'],
    [{ top: 10 }, 'exactly one'],
  ])('refuses %j naming the problem', (value, problem) => {
    const parsed = parsePayoutTable(value);
    expect('problem' in parsed && parsed.problem).toContain(problem);
  });
});

describe('paidPlaces', () => {
  it('pays the table, cut to the field', () => {
    expect(paidPlaces({ places: [5000, 3000, 2000] }, 0)).toBe(0);
    expect(paidPlaces({ places: [5000, 3000, 2000] }, 2)).toBe(2);
    expect(paidPlaces({ places: [5000, 3000, 2000] }, 100)).toBe(3);
  });

  it('pays the top percent, rounded up, at least one', () => {
    expect(paidPlaces({ topPercent: 10 }, 1)).toBe(1);
    expect(paidPlaces({ topPercent: 10 }, 95)).toBe(10);
    expect(paidPlaces({ topPercent: 10 }, 100_000)).toBe(10_000);
    expect(paidPlaces({ topPercent: 100 }, 7)).toBe(7);
  });
});

describe('dividePool', () => {
  const table = { places: [5000, 3000, 2000] };

  it('pays the worked example of docs/concepts/tournaments.md to the unit', () => {
    expect(dividePool(1_840_000_000n, table, 3)).toEqual({
      prizes: [920_000_000n, 552_000_000n, 368_000_000n],
      remainder: 0n,
    });
    expect(dividePool(1_840_000_000n, table, 2)).toEqual({
      prizes: [1_150_000_000n, 690_000_000n],
      remainder: 0n,
    });
    expect(dividePool(1_000_000_001n, table, 3)).toEqual({
      prizes: [500_000_000n, 300_000_000n, 200_000_000n],
      remainder: 1n,
    });
  });

  it('shares the top percent equally, the remainder to the arcade', () => {
    expect(dividePool(100n, { topPercent: 30 }, 10)).toEqual({
      prizes: [33n, 33n, 33n],
      remainder: 1n,
    });
  });

  it('leaves the whole pool as remainder with nobody ranked, and always sums to the pool', () => {
    expect(dividePool(7n, table, 0)).toEqual({ prizes: [], remainder: 7n });
    for (const pool of [0n, 1n, 2n, 3n, 9_999n, 123_456_789_012_345n]) {
      for (const n of [1, 2, 3, 50]) {
        for (const t of [table, { topPercent: 7 }, { places: [9999, 1] }]) {
          const { prizes, remainder } = dividePool(pool, t, n);
          expect(prizes.reduce((a, b) => a + b, 0n) + remainder).toBe(pool);
          expect(remainder >= 0n).toBe(true);
        }
      }
    }
  });

  it('refuses a negative pool', () => {
    expect(() => dividePool(-1n, table, 1)).toThrow(TypeError);
  });
});
