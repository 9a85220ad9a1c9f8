import { describe, expect, it } from 'vitest';
import { DEFAULT_SPLIT_RULE, assertSplitRule, splitCost } from '../../src/index.js';

const payees = { playerAccountId: 'player', developerAccountId: 'dev', arcadeAccountId: 'arcade' };

const amounts = (shares: ReturnType<typeof splitCost>) =>
  shares.map((s) => [s.role, s.accountId, s.amount]);

describe('splitCost', () => {
  it("returns an empty board's leaders' part to the player who paid it, never the developer", () => {
    // The first play on a board, or one whose every leader's score was voided: nobody to pay
    // for leading, so the player pays only the developer's 20% and the arcade's 10%.
    expect(amounts(splitCost(1_000n, [], payees))).toEqual([
      ['player', 'player', 700n],
      ['developer', 'dev', 200n],
      ['arcade', 'arcade', 100n],
    ]);
  });

  it('sends the remainder to the arcade on an empty board too', () => {
    expect(amounts(splitCost(7n, [], payees))).toEqual([
      ['player', 'player', 4n],
      ['developer', 'dev', 1n],
      ['arcade', 'arcade', 2n],
    ]);
  });

  it('pays a player who leads their own board as a leader, not as a return', () => {
    expect(amounts(splitCost(100n, ['player'], payees))).toEqual([
      ['leader', 'player', 70n],
      ['developer', 'dev', 20n],
      ['arcade', 'arcade', 10n],
    ]);
  });

  it('shares 70% equally among leaders and sends every remainder to the arcade', () => {
    expect(amounts(splitCost(1_000n, ['a', 'b', 'c'], payees))).toEqual([
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
        const shares = splitCost(cost, leaders, payees);
        expect(shares.reduce((sum, s) => sum + s.amount, 0n)).toBe(cost);
        expect(shares.every((s) => s.amount > 0n)).toBe(true);
        expect(shares.some((s) => s.role === 'player')).toBe(n === 0 && cost >= 2n);
      }
    },
  );

  it('pays a leader listed twice once', () => {
    expect(amounts(splitCost(100n, ['a', 'a'], payees))).toEqual([
      ['leader', 'a', 70n],
      ['developer', 'dev', 20n],
      ['arcade', 'arcade', 10n],
    ]);
  });

  it('follows a custom rule', () => {
    expect(
      amounts(
        splitCost(100n, ['a'], payees, {
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
