import { describe, expect, it } from 'vitest';
import {
  allowanceDay,
  allowanceWithinReach,
  chargeRefusal,
  chargeVerdict,
  dailyLimit,
  type ConsentFacts,
  type DefaultAllowance,
} from '../../src/index.js';

const HST = 100_000_000n;
const facts = (over: Partial<ConsentFacts> = {}): ConsentFacts => ({
  suspended: false,
  published: true,
  insider: false,
  dailyUnits: null,
  spentTodayUnits: 0n,
  ...over,
});

describe('chargeVerdict', () => {
  it.each<[string, Partial<ConsentFacts>, bigint, DefaultAllowance, boolean, string]>([
    [
      'a suspended game charges no one',
      { suspended: true, insider: true },
      1n,
      null,
      false,
      'suspended',
    ],
    ['an unpublished game refuses a stranger', { published: false }, 0n, null, false, 'not_tester'],
    [
      'an unpublished game charges an insider within their allowance',
      { published: false, insider: true, dailyUnits: 5n * HST },
      5n * HST,
      0n,
      false,
      'ok',
    ],
    [
      'an unpublished game charges an insider no more than their allowance',
      { published: false, insider: true, dailyUnits: 5n * HST, spentTodayUnits: 1n },
      5n * HST,
      null,
      false,
      'allowance',
    ],
    [
      "an insider who chose no allowance is under the operator's default",
      { published: false, insider: true },
      1n,
      0n,
      false,
      'allowance',
    ],
    [
      'an insider may approve a play with a signature past their allowance',
      { published: false, insider: true, dailyUnits: 0n },
      500n * HST,
      0n,
      true,
      'ok',
    ],
    ['a published game within the default', {}, 5n * HST, 5n * HST, false, 'ok'],
    ['a published game past the default', {}, 5n * HST + 1n, 5n * HST, false, 'allowance'],
    ['an unlimited default', {}, 10_000n * HST, null, false, 'ok'],
    ['a default of 0 needs explicit consent', {}, 1n, 0n, false, 'allowance'],
    ['a free play needs no allowance', {}, 0n, 0n, false, 'ok'],
    [
      "the player's choice wins over the default",
      { dailyUnits: 20n * HST },
      20n * HST,
      0n,
      false,
      'ok',
    ],
    [
      'a revocation wins over an unlimited default',
      { dailyUnits: 0n },
      1n,
      null,
      false,
      'allowance',
    ],
    [
      "today's spending counts",
      { dailyUnits: 20n * HST, spentTodayUnits: 15n * HST },
      6n * HST,
      0n,
      false,
      'allowance',
    ],
    [
      'exactly the rest of the allowance',
      { dailyUnits: 20n * HST, spentTodayUnits: 15n * HST },
      5n * HST,
      0n,
      false,
      'ok',
    ],
    ['a signed play carries its own consent', { dailyUnits: 0n }, 10n * HST, 0n, true, 'ok'],
    [
      'a signed play of an unpublished game still needs an insider',
      { published: false },
      1n,
      null,
      true,
      'not_tester',
    ],
  ])('%s', (_name, over, cost, defaultAllowance, signed, expected) => {
    const verdict = chargeVerdict(facts(over), cost, defaultAllowance, { signed });
    expect(verdict.ok ? 'ok' : verdict.reason).toBe(expected);
  });

  it('reports the limit and the spending that refused the charge', () => {
    expect(
      chargeVerdict(facts({ dailyUnits: 20n * HST, spentTodayUnits: 15n * HST }), 6n * HST, 0n),
    ).toEqual({
      ok: false,
      reason: 'allowance',
      limitUnits: 20n * HST,
      spentTodayUnits: 15n * HST,
    });
  });
});

describe('dailyLimit and allowanceDay', () => {
  it("is the player's choice, else the default", () => {
    expect(dailyLimit(facts({ dailyUnits: 3n }), 7n)).toBe(3n);
    expect(dailyLimit(facts(), 7n)).toBe(7n);
    expect(dailyLimit(facts(), null)).toBe(null);
  });

  it('counts UTC calendar days', () => {
    expect(allowanceDay(new Date('2026-11-24T23:59:59.999Z'))).toBe('2026-11-24');
    expect(allowanceDay(new Date('2026-11-25T00:00:00.000Z'))).toBe('2026-11-25');
  });
});

describe('chargeRefusal', () => {
  const charge = {
    gameId: 'g1',
    playerId: 'p1',
    costUnits: 10n * HST,
    grantUrl: 'https://arcade.example/games/g1#allowance',
  };

  it('names the game, the player, the limit, the spending and where to consent', () => {
    const error = chargeRefusal(
      { ok: false, reason: 'allowance', limitUnits: 25n * HST, spentTodayUnits: 20n * HST },
      charge,
    );
    expect(error.code).toBe('consent_required');
    expect(error.message).toBe(
      'player p1 allows game g1 25 HST a day and 20 HST are spent today; this play costs 10 HST. ' +
        'They can raise it at https://arcade.example/games/g1#allowance',
    );
    expect(error.details).toEqual({
      gameId: 'g1',
      playerId: 'p1',
      grantUrl: charge.grantUrl,
      dailyLimit: '25',
      spentToday: '20',
      cost: '10',
    });
  });

  it('says when the player never allowed the game', () => {
    const error = chargeRefusal(
      { ok: false, reason: 'allowance', limitUnits: 0n, spentTodayUnits: 0n },
      charge,
    );
    expect(error.message).toBe(
      'player p1 has not allowed game g1 to charge them; they can at https://arcade.example/games/g1#allowance',
    );
  });

  it.each([
    [
      'suspended',
      'game_suspended',
      'game g1 is suspended by the arcade operator and takes no plays or payments',
    ],
    [
      'not_tester',
      'player_not_tester',
      "game g1 is not published: it may charge only its developer and the testers who accepted the developer's invitation, and player p1 is neither",
    ],
  ] as const)('%s is %s', (reason, code, message) => {
    const error = chargeRefusal({ ok: false, reason }, charge);
    expect([error.code, error.message]).toEqual([code, message]);
  });
});

describe('allowanceWithinReach', () => {
  const away = { published: false, insider: false };
  it.each<[string, Partial<ConsentFacts>, bigint | undefined, boolean]>([
    ['a published game, any change', {}, 100n * HST, true],
    [
      'an insider of an unpublished game, any change',
      { published: false, insider: true },
      9n,
      true,
    ],
    ['out of reach, nothing held: not even a look', { ...away }, undefined, false],
    ['out of reach, nothing held: no revocation to make', { ...away }, 0n, false],
    ['out of reach, 5 HST held: a look', { ...away, dailyUnits: 5n * HST }, undefined, true],
    ['out of reach, 5 HST held: revoked', { ...away, dailyUnits: 5n * HST }, 0n, true],
    ['out of reach, 5 HST held: lowered', { ...away, dailyUnits: 5n * HST }, 3n * HST, true],
    ['out of reach, 5 HST held: kept', { ...away, dailyUnits: 5n * HST }, 5n * HST, true],
    [
      'out of reach, 5 HST held: raised by a unit',
      { ...away, dailyUnits: 5n * HST },
      5n * HST + 1n,
      false,
    ],
    ['out of reach, 0 held: revoked again', { ...away, dailyUnits: 0n }, 0n, true],
  ])('%s', (_, over, change, within) => {
    expect(allowanceWithinReach(facts(over), change)).toBe(within);
  });
});
