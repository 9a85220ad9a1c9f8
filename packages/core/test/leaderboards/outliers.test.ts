import { describe, expect, it } from 'vitest';
import {
  findOutlier,
  OUTLIER_BEST_FACTOR,
  OUTLIER_MAD_LIMIT,
  OUTLIER_MIN_PLAYERS,
  type BoardHistory,
} from '../../src/index.js';

const history = (over: Partial<BoardHistory> = {}): BoardHistory => ({
  players: 40,
  median: 100,
  mad: 10,
  previousBest: 180,
  ...over,
});

describe('findOutlier (issue 30: the review queue flags scores that stand out)', () => {
  it('keeps the constants the docs state', () => {
    expect([OUTLIER_MIN_PLAYERS, OUTLIER_MAD_LIMIT, OUTLIER_BEST_FACTOR]).toEqual([20, 6, 2]);
  });

  it.each([
    // NORMAL: 6 scaled MADs above 100 is 100 + 6 × 14.826 = 188.956.
    ['a leader within the spread', 150, 'NORMAL', history(), null],
    ['just inside 6 MADs', 188.9, 'NORMAL', history(), null],
    ['just beyond 6 MADs', 189, 'NORMAL', history({ previousBest: 1000 }), 'mad'],
    ['twice the best with a wide spread', 400, 'NORMAL', history({ mad: 1000 }), 'best_factor'],
    ['below twice the best with a wide spread', 359, 'NORMAL', history({ mad: 1000 }), null],
    [
      'a REVERSE time far below the median',
      30,
      'REVERSE',
      history({ mad: 5, previousBest: 20 }),
      'mad',
    ],
    ['a REVERSE time above the median', 189, 'REVERSE', history(), null],
    [
      'half the best REVERSE time',
      40,
      'REVERSE',
      history({ mad: 1000, previousBest: 80 }),
      'best_factor',
    ],
    ['19 other players: no history', 10_000, 'NORMAL', history({ players: 19 }), null],
    ['20 other players', 10_000, 'NORMAL', history({ players: 20 }), 'mad'],
    [
      'equal bests (MAD 0) and no factor',
      150,
      'NORMAL',
      history({ mad: 0, previousBest: 100 }),
      null,
    ],
    [
      'equal bests (MAD 0) and twice the best',
      200,
      'NORMAL',
      history({ mad: 0, previousBest: 100 }),
      'best_factor',
    ],
    [
      'a best of 0 on a NORMAL board',
      50,
      'NORMAL',
      history({ median: 0, mad: 0, previousBest: 0 }),
      null,
    ],
    [
      'a REVERSE best of 0 cannot be halved',
      0,
      'REVERSE',
      history({ median: 0, mad: 0, previousBest: 0 }),
      null,
    ],
  ] as const)('%s', (_name, score, display, board, rule) => {
    expect(findOutlier(score, board, display)?.rule ?? null).toBe(rule);
  });

  it('answers every number the rule used as evidence', () => {
    const found = findOutlier(250, history(), 'NORMAL');
    expect(found?.robustZ).toBeCloseTo(150 / 14.826, 12);
    expect(found).toEqual({
      rule: 'mad',
      score: 250,
      n: 40,
      median: 100,
      mad: 10,
      robustZ: found?.robustZ,
      madLimit: 6,
      previousBest: 180,
      bestFactor: 2,
    });
  });
});
