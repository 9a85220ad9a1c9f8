import { groupedNumber } from '@coinop/protocol';
import { CoinopError } from '../errors.js';

/**
 * The rules a developer declares for a game's scores (issue 30, docs/concepts/score-integrity.md):
 * inclusive bounds, the shortest possible play, and whether a score must come with a replay that
 * the game's verifier reproduces. A null field is no rule.
 */
export interface ScoreRules {
  readonly minScore: number | null;
  readonly maxScore: number | null;
  /** Milliseconds from the play's open (server time) to the score's arrival, at least. */
  readonly minPlayMs: number | null;
  readonly replay: ReplayRule;
}

/** `required`: a score needs a replay that the game's verifier reproduces. */
export const ReplayRules = ['off', 'required'] as const;
export type ReplayRule = (typeof ReplayRules)[number];

/** A tier's overrides of its game's rules: each null field inherits the game's. */
export interface TierScoreRules {
  readonly minScore: number | null;
  readonly maxScore: number | null;
  readonly minPlayMs: number | null;
  readonly replay: ReplayRule | null;
}

/** No rule at all: what a game without rules has, and the path of today's scores. */
export const NO_SCORE_RULES: ScoreRules = {
  minScore: null,
  maxScore: null,
  minPlayMs: null,
  replay: 'off',
};

/** The longest `minPlayMs` a rule may name: a day, longer than any play lives by default. */
export const MIN_PLAY_MS_MAX = 86_400_000;

/** The rules in force on a tier: its own where it sets them, else its game's. */
export function effectiveScoreRules(
  game: ScoreRules,
  tier: TierScoreRules | null | undefined,
): ScoreRules {
  if (tier === null || tier === undefined) return game;
  return {
    minScore: tier.minScore ?? game.minScore,
    maxScore: tier.maxScore ?? game.maxScore,
    minPlayMs: tier.minPlayMs ?? game.minPlayMs,
    replay: tier.replay ?? game.replay,
  };
}

/** Whether any rule is set: a game or tier with none takes the score path as it always did. */
export function hasScoreRules(rules: ScoreRules | TierScoreRules): boolean {
  return (
    rules.minScore !== null ||
    rules.maxScore !== null ||
    rules.minPlayMs !== null ||
    rules.replay === 'required'
  );
}

/** What a score attempt shows of itself to the rules. */
export interface ScoreAttempt {
  readonly score: number;
  /** Milliseconds from the play's open to the score's arrival, both by the server's clock. */
  readonly playMs: number;
  readonly hasReplay: boolean;
}

/** Why the rules refuse a score: the error code the caller receives, and a message naming why. */
export interface ScoreRefusal {
  readonly code: 'score_out_of_bounds' | 'score_too_fast' | 'replay_required';
  readonly message: string;
}

/**
 * Checks a score against the rules in force on its tier; null when they let it through (a
 * required replay must still be verified). Checked in a fixed order, so the same attempt always
 * gets the same answer: bounds, then the shortest play, then the replay's presence.
 */
export function checkScoreRules(rules: ScoreRules, attempt: ScoreAttempt): ScoreRefusal | null {
  const { score, playMs } = attempt;
  if (rules.minScore !== null && score < rules.minScore) {
    return {
      code: 'score_out_of_bounds',
      message: `score ${groupedNumber(score)} is below this tier's lowest possible score, ${groupedNumber(rules.minScore)}`,
    };
  }
  if (rules.maxScore !== null && score > rules.maxScore) {
    return {
      code: 'score_out_of_bounds',
      message: `score ${groupedNumber(score)} is above this tier's highest possible score, ${groupedNumber(rules.maxScore)}`,
    };
  }
  if (rules.minPlayMs !== null && playMs < rules.minPlayMs) {
    return {
      code: 'score_too_fast',
      message:
        `the score came ${groupedNumber(playMs)} ms after the play opened; ` +
        `a run of this tier takes at least ${groupedNumber(rules.minPlayMs)} ms`,
    };
  }
  if (rules.replay === 'required' && !attempt.hasReplay) {
    return {
      code: 'replay_required',
      message: "this tier requires a replay with each score, for the game's verifier",
    };
  }
  return null;
}

/**
 * Checks rules a developer declares: bounds finite, not negative and in order, the shortest play
 * a whole number of milliseconds within a day. Throws `validation_failed` naming the field
 * (`${path}.minScore`, ...). Run on a tier's rules as they combine with its game's too, so that
 * no tier is left with bounds no score can meet.
 */
export function assertScoreRulesValid(rules: ScoreRules | TierScoreRules, path: string): void {
  for (const field of ['minScore', 'maxScore'] as const) {
    const value = rules[field];
    if (value !== null && (!Number.isFinite(value) || value < 0)) {
      throw invalid(`${path}.${field}`, `must be a finite number ≥ 0 or null, got ${value}`);
    }
  }
  if (rules.minScore !== null && rules.maxScore !== null && rules.minScore > rules.maxScore) {
    throw invalid(
      `${path}.minScore`,
      `${rules.minScore} is above maxScore ${rules.maxScore}: no score could be accepted`,
    );
  }
  const { minPlayMs } = rules;
  if (
    minPlayMs !== null &&
    (!Number.isInteger(minPlayMs) || minPlayMs < 0 || minPlayMs > MIN_PLAY_MS_MAX)
  ) {
    throw invalid(
      `${path}.minPlayMs`,
      `must be a whole number of milliseconds from 0 to ${MIN_PLAY_MS_MAX} or null, got ${minPlayMs}`,
    );
  }
}

function invalid(field: string, problem: string): CoinopError {
  return new CoinopError('validation_failed', `${field} ${problem}`, { details: { field } });
}
