import {
  CoinopError,
  NO_SCORE_RULES,
  assertScoreRulesValid,
  effectiveScoreRules,
  type Clock,
  type ScoreRules,
  type TierScoreRules,
} from '@coinop/core';
import { notifyGameChanged } from '../store/cache-notices.js';
import type { Db, Queryable } from '../store/db.js';
import { liveTiersOf, lockGameRow } from '../store/developer-games.js';
import { gameRules, tierRules, writeGameRules, writeTierRules } from '../store/score-rules.js';
import type { ScoreVerification } from './score-rules-gate.js';

/** A change of a game's rules: the fields given are set (null clears one), the others kept. */
export type GameRulesChange = Partial<{ -readonly [K in keyof ScoreRules]: ScoreRules[K] }>;
/** A change of a tier's overrides, likewise. */
export type TierRulesChange = Partial<{ -readonly [K in keyof TierScoreRules]: TierScoreRules[K] }>;

const NO_OVERRIDES: TierScoreRules = {
  minScore: null,
  maxScore: null,
  minPlayMs: null,
  replay: null,
};

/**
 * Setting the score rules of games and tiers (issue 30). Rules are checked as they combine: a
 * game's with each of its live tiers' overrides, so that no tier is left with bounds no score
 * can meet; and replays may be required only of a game with a verifier. A change is checked
 * before anything else of its request is written (`check*`), and again under the game's lock as
 * it is written (`change*`).
 */
export class ScoreRulesSettings {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #verification: ScoreVerification | null;

  constructor(db: Db, clock: Clock, verification: ScoreVerification | null) {
    this.#db = db;
    this.#clock = clock;
    this.#verification = verification;
  }

  /** Checks a change of a game's rules, writing nothing; `gameId` null for a game not yet made. */
  async checkGame(gameId: string | null, change: GameRulesChange): Promise<void> {
    await this.#decideGame(this.#db, gameId, change);
  }

  /**
   * Checks the bounds of a new game's rules, writing nothing. Whether replays may be required
   * needs the game's verifier, which a game not yet made has not: `changeGameIn` decides that
   * in the transaction that creates the game, so a refusal there leaves no game behind.
   */
  checkNewGame(change: GameRulesChange): void {
    assertScoreRulesValid({ ...NO_SCORE_RULES, ...given(change) }, 'scoreRules');
  }

  /** Applies a change of a game's rules; the rules now in force. */
  async changeGame(gameId: string, change: GameRulesChange): Promise<ScoreRules> {
    return this.#db.transaction(async (tx) => this.changeGameIn(tx, gameId, change));
  }

  /**
   * Applies a change of a game's rules inside the caller's transaction, under the game's lock,
   * so the game's other fields and its rules are written together or not at all.
   */
  async changeGameIn(tx: Queryable, gameId: string, change: GameRulesChange): Promise<ScoreRules> {
    await lockGameRow(tx, gameId);
    const next = await this.#decideGame(tx, gameId, change);
    await writeGameRules(tx, gameId, next, this.#clock.now());
    await notifyGameChanged(tx, gameId);
    return next;
  }

  /** Checks a change of a tier's overrides, writing nothing; `leaderboardId` null for a new tier. */
  async checkTier(gameId: string, leaderboardId: string | null, change: TierRulesChange) {
    await this.#decideTier(this.#db, gameId, leaderboardId, change);
  }

  /** Applies a change of a tier's overrides; the overrides now set. */
  async changeTier(
    gameId: string,
    leaderboardId: string,
    change: TierRulesChange,
  ): Promise<TierScoreRules> {
    return this.#db.transaction(async (tx) => this.changeTierIn(tx, gameId, leaderboardId, change));
  }

  /** Applies a change of a tier's overrides inside the caller's transaction, as `changeGameIn`. */
  async changeTierIn(
    tx: Queryable,
    gameId: string,
    leaderboardId: string,
    change: TierRulesChange,
  ): Promise<TierScoreRules> {
    await lockGameRow(tx, gameId);
    const next = await this.#decideTier(tx, gameId, leaderboardId, change);
    await writeTierRules(tx, leaderboardId, next);
    await notifyGameChanged(tx, gameId);
    return next;
  }

  /** The game's rules after the change, checked with each live tier's overrides. */
  async #decideGame(q: Queryable, gameId: string | null, change: GameRulesChange) {
    const current = gameId === null ? NO_SCORE_RULES : await this.#gameRules(q, gameId);
    const next: ScoreRules = { ...current, ...given(change) };
    assertScoreRulesValid(next, 'scoreRules');
    const tiers = gameId === null ? [] : ((await liveTiersOf(q, [gameId])).get(gameId) ?? []);
    for (const tier of tiers) {
      assertScoreRulesValid(
        effectiveScoreRules(next, tier.scoreRules),
        `scoreRules (with the overrides of tier "${tier.name}")`,
      );
    }
    if (change.replay === 'required') await this.#assertVerifier(q, gameId, 'scoreRules.replay');
    return next;
  }

  /** The tier's overrides after the change, checked as they combine with the game's rules. */
  async #decideTier(
    q: Queryable,
    gameId: string,
    leaderboardId: string | null,
    change: TierRulesChange,
  ): Promise<TierScoreRules> {
    const current =
      leaderboardId === null
        ? NO_OVERRIDES
        : ((await tierRules(q, [leaderboardId])).get(leaderboardId) ?? NO_OVERRIDES);
    const next: TierScoreRules = { ...current, ...given(change) };
    assertScoreRulesValid(next, 'scoreRules');
    assertScoreRulesValid(
      effectiveScoreRules(await this.#gameRules(q, gameId), next),
      "scoreRules (with the game's rules)",
    );
    if (change.replay === 'required') await this.#assertVerifier(q, gameId, 'scoreRules.replay');
    return next;
  }

  async #gameRules(q: Queryable, gameId: string): Promise<ScoreRules> {
    return (await gameRules(q, [gameId])).get(gameId) ?? NO_SCORE_RULES;
  }

  /** Replays may be required only of a game whose verifier can check them. */
  async #assertVerifier(q: Queryable, gameId: string | null, field: string): Promise<void> {
    const has =
      gameId !== null &&
      this.#verification !== null &&
      (await this.#verification.hasVerifier(gameId, q));
    if (has) return;
    throw new CoinopError(
      'validation_failed',
      `${field} 'required' needs the game's replay verifier: upload it first ` +
        '(docs/reference/verifier.md), then require replays',
      { details: { field } },
    );
  }
}

/** The fields a change gives (an absent or undefined field keeps the current value). */
function given<T extends object>(change: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(change).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
