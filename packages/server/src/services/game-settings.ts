import {
  NO_SCORE_RULES,
  effectivePayoutHoldSeconds,
  effectiveScoreRules,
  type Leaderboard,
  type ScoreRules,
  type TierScoreRules,
} from '@coinop/core';
import { findGame } from '../store/games.js';
import { gameRules, tierRules } from '../store/score-rules.js';
import type { ArcadeServices } from './arcade-services.js';

/** A tier's own settings and those in force on it. */
export interface TierSettings {
  readonly tier: Leaderboard;
  /** The tier's own hold; null: the game's. */
  readonly payoutHoldSeconds: number | null;
  readonly effectivePayoutHoldSeconds: number;
  /** The tier's overrides; each null inherits the game's rule. */
  readonly scoreRules: TierScoreRules;
  readonly effectiveScoreRules: ScoreRules;
}

/** What judges and holds a game's scores: its own settings and each live tier's (issue 30). */
export interface GameSettings {
  readonly gameId: string;
  readonly name: string;
  readonly operatorPayoutHoldSeconds: number;
  /** The game's own hold; null: the operator's default. */
  readonly payoutHoldSeconds: number | null;
  readonly effectivePayoutHoldSeconds: number;
  readonly scoreRules: ScoreRules;
  readonly tiers: readonly TierSettings[];
}

const NO_OVERRIDES: TierScoreRules = { ...NO_SCORE_RULES, replay: null };

/**
 * A game's score rules and payout holds as they stand, read from storage rather than a cache so
 * the operator sees a change the moment it is made. `game_not_found` for an unknown id.
 */
export async function readGameSettings(
  arcade: ArcadeServices,
  gameId: string,
): Promise<GameSettings> {
  const { db, config } = arcade;
  const ref = await arcade.games.get(gameId);
  const game = await findGame(db, gameId);
  if (!game) throw new Error(`game ${gameId} has a cached reference but no row`);
  const tierIds = ref.leaderboards.map((t) => t.id);
  const [rulesOfGame, rulesOfTiers] = await Promise.all([
    gameRules(db, [gameId]),
    tierRules(db, tierIds),
  ]);
  const rules = rulesOfGame.get(gameId) ?? NO_SCORE_RULES;
  const operator = config.payoutHoldSeconds;
  return {
    gameId,
    name: game.name,
    operatorPayoutHoldSeconds: operator,
    payoutHoldSeconds: game.payoutHoldSeconds ?? null,
    effectivePayoutHoldSeconds: effectivePayoutHoldSeconds(game, {}, operator),
    scoreRules: rules,
    tiers: ref.leaderboards.map((tier) => {
      const overrides = rulesOfTiers.get(tier.id) ?? NO_OVERRIDES;
      return {
        tier,
        payoutHoldSeconds: tier.payoutHoldSeconds ?? null,
        effectivePayoutHoldSeconds: effectivePayoutHoldSeconds(game, tier, operator),
        scoreRules: overrides,
        effectiveScoreRules: effectiveScoreRules(rules, overrides),
      };
    }),
  };
}
