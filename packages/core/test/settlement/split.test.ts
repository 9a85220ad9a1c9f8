import { describe, expect, it } from 'vitest';
import { DEFAULT_SPLIT_RULE, assertSplitRule, splitCost } from '../../src/index.js';

const amounts = (shares: ReturnType<typeof splitCost>) =>
  shares.map((s) => [s.role, s.accountId, s.amount]);

describe('splitCost', () => {
  it("gives an empty board's share to the developer: 90/10", () => {
    expect(amounts(splitCost(1_000n, [], 'dev', 'arcade'))).toEqual([
      ['developer', 'dev', 900n],
      ['arcade', 'arcade', 100n],
    ]);
  });

  it('shares 70% equally among leaders and sends every remainder to the arcade', () => {
    expect(amounts(splitCost(1_000n, ['a', 'b', 'c'], 'dev', 'arcade'))).toEqual([
      ['leader', 'a', 233n],
      ['leader', 'b', 233n],
      ['leader', 'c', 233n],
      ['developer', 'dev', 200n],
      ['arcade', 'arcade', 101n],
    ]);
  });

  it.each([0n, 1n, 2n, 3n, 7n, 99n, 100n, 101n, 999_999_999n, 10n ** 17n])(
    'sums to the cost exactly for %s units and 1..12 leaders',
    (cost) => {
      for (let n = 0; n <= 12; n++) {
        const leaders = Array.from({ length: n }, (_, i) => `l${i}`);
        const shares = splitCost(cost, leaders, 'dev', 'arcade');
        expect(shares.reduce((sum, s) => sum + s.amount, 0n)).toBe(cost);
        expect(shares.every((s) => s.amount > 0n)).toBe(true);
      }
    },
  );

  it('pays a leader listed twice once', () => {
    expect(amounts(splitCost(100n, ['a', 'a'], 'dev', 'arcade'))).toEqual([
      ['leader', 'a', 70n],
      ['developer', 'dev', 20n],
      ['arcade', 'arcade', 10n],
    ]);
  });

  it('follows a custom rule', () => {
    expect(
      amounts(
        splitCost(100n, ['a'], 'dev', 'arcade', {
          leadersPercent: 50,
          developerPercent: 50,
          arcadePercent: 0,
        }),
      ),
    ).toEqual([
      ['leader', 'a', 50n],
      ['developer', 'dev', 50n],
    ]);
  });

  it.each([
    [
      { leadersPercent: 70, developerPercent: 20, arcadePercent: 20 },
      'split rule must be whole percents summing to 100, got 70/20/20',
    ],
    [
      { leadersPercent: 70.5, developerPercent: 19.5, arcadePercent: 10 },
      'split rule must be whole percents summing to 100, got 70.5/19.5/10',
    ],
    [
      { leadersPercent: -10, developerPercent: 100, arcadePercent: 10 },
      'split rule must be whole percents summing to 100, got -10/100/10',
    ],
  ])('rejects rule %j', (rule, message) => {
    expect(() => assertSplitRule(rule)).toThrow(new TypeError(message));
  });

  it('accepts the default rule', () => {
    expect(() => assertSplitRule(DEFAULT_SPLIT_RULE)).not.toThrow();
  });
});
