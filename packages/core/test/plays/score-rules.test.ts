import { describe, expect, it } from 'vitest';
import {
  CoinopError,
  NO_SCORE_RULES,
  assertScoreRulesValid,
  checkScoreRules,
  effectiveScoreRules,
  hasScoreRules,
  type ScoreRules,
} from '../../src/index.js';

const rules = (over: Partial<ScoreRules>): ScoreRules => ({ ...NO_SCORE_RULES, ...over });
const attempt = (score: number, playMs = 60_000, hasReplay = false) => ({
  score,
  playMs,
  hasReplay,
});

describe('checkScoreRules', () => {
  it.each([
    [rules({}), attempt(1e12, 0), null],
    [rules({ minScore: 0, maxScore: 100 }), attempt(0), null],
    [rules({ minScore: 0, maxScore: 100 }), attempt(100), null],
    [
      rules({ maxScore: 100 }),
      attempt(100.5),
      {
        code: 'score_out_of_bounds',
        message: "score 100.5 is above this tier's highest possible score, 100",
      },
    ],
    [
      rules({ minScore: 10 }),
      attempt(9),
      {
        code: 'score_out_of_bounds',
        message: "score 9 is below this tier's lowest possible score, 10",
      },
    ],
    [rules({ minPlayMs: 10_000 }), attempt(1, 10_000), null],
    [
      rules({ minPlayMs: 10_000 }),
      attempt(1, 9_999),
      {
        code: 'score_too_fast',
        message:
          'the score came 9,999 ms after the play opened; a run of this tier takes at least 10,000 ms',
      },
    ],
    [rules({ replay: 'required' }), attempt(1, 0, true), null],
    [
      rules({ replay: 'required' }),
      attempt(1, 0, false),
      {
        code: 'replay_required',
        message: "this tier requires a replay with each score, for the game's verifier",
      },
    ],
    // One order, whatever else is wrong: bounds, then time, then the replay.
    [
      rules({ maxScore: 1, minPlayMs: 5, replay: 'required' }),
      attempt(2, 0, false),
      {
        code: 'score_out_of_bounds',
        message: "score 2 is above this tier's highest possible score, 1",
      },
    ],
    [
      rules({ maxScore: 1, minPlayMs: 5, replay: 'required' }),
      attempt(1, 0, false),
      {
        code: 'score_too_fast',
        message:
          'the score came 0 ms after the play opened; a run of this tier takes at least 5 ms',
      },
    ],
  ])('%j with %j → %j', (given, tried, expected) => {
    expect(checkScoreRules(given, tried)).toEqual(expected);
  });
});

describe('effectiveScoreRules and hasScoreRules', () => {
  const game = rules({ minScore: 0, maxScore: 5000, minPlayMs: 1000, replay: 'required' });

  it('a tier’s set fields win, its nulls inherit, replay included', () => {
    expect(effectiveScoreRules(game, undefined)).toBe(game);
    expect(
      effectiveScoreRules(game, { minScore: null, maxScore: 100, minPlayMs: null, replay: 'off' }),
    ).toEqual({ minScore: 0, maxScore: 100, minPlayMs: 1000, replay: 'off' });
    expect(
      effectiveScoreRules(NO_SCORE_RULES, {
        minScore: null,
        maxScore: null,
        minPlayMs: null,
        replay: null,
      }),
    ).toEqual(NO_SCORE_RULES);
  });

  it.each([
    [NO_SCORE_RULES, false],
    [rules({ minScore: 0 }), true],
    [rules({ maxScore: 0 }), true],
    [rules({ minPlayMs: 0 }), true],
    [rules({ replay: 'required' }), true],
    [{ minScore: null, maxScore: null, minPlayMs: null, replay: null }, false],
  ])('hasScoreRules(%j) is %s', (given, expected) => {
    expect(hasScoreRules(given)).toBe(expected);
  });
});

describe('assertScoreRulesValid', () => {
  it.each([
    rules({}),
    rules({ minScore: 0, maxScore: 0 }),
    rules({ minScore: 1.5, maxScore: 1e9, minPlayMs: 86_400_000 }),
  ])('accepts %j', (given) => {
    expect(() => assertScoreRulesValid(given, 'scoreRules')).not.toThrow();
  });

  it.each([
    [rules({ minScore: -1 }), 'scoreRules.minScore', 'must be a finite number ≥ 0 or null, got -1'],
    [
      rules({ maxScore: Number.POSITIVE_INFINITY }),
      'scoreRules.maxScore',
      'must be a finite number ≥ 0 or null, got Infinity',
    ],
    [
      rules({ maxScore: Number.NaN }),
      'scoreRules.maxScore',
      'must be a finite number ≥ 0 or null, got NaN',
    ],
    [
      rules({ minScore: 6, maxScore: 5 }),
      'scoreRules.minScore',
      '6 is above maxScore 5: no score could be accepted',
    ],
    [
      rules({ minPlayMs: 1.5 }),
      'scoreRules.minPlayMs',
      'must be a whole number of milliseconds from 0 to 86400000 or null, got 1.5',
    ],
    [
      rules({ minPlayMs: -1 }),
      'scoreRules.minPlayMs',
      'must be a whole number of milliseconds from 0 to 86400000 or null, got -1',
    ],
    [
      rules({ minPlayMs: 86_400_001 }),
      'scoreRules.minPlayMs',
      'must be a whole number of milliseconds from 0 to 86400000 or null, got 86400001',
    ],
  ])('refuses %j naming %s', (given, field, problem) => {
    let thrown: unknown;
    try {
      assertScoreRulesValid(given, 'scoreRules');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CoinopError);
    expect(thrown).toMatchObject({
      code: 'validation_failed',
      message: `${field} ${problem}`,
      details: { field },
    });
  });
});
