import { CURRENCY } from '@coinop/protocol';
import {
  effectivePayoutHoldSeconds,
  effectiveScoreRules,
  formatHst,
  hasScoreRules,
  unitsToHstNumber,
  type Leader,
  type Leaderboard,
  type ScoreRules,
} from '@coinop/core';
import type { GameRecord } from '../../services/game-reads.js';
import type { StoredPlay, StoredScore } from '../../services/plays.js';
import type { GameWire, LeaderboardWire, PlayWire, ScoreResultWire } from './schemas.js';

/** Domain records to the spec's wire shapes; the one place field names are mapped. */

/**
 * A tier on the wire. `gameRules` and `holdSeconds` (the tier's effective payout hold) are given
 * where a reader should see them; a tier without rules, or paid at once, answers as it always did.
 */
export function leaderboardToWire(
  board: Leaderboard,
  leaders: readonly Leader[],
  gameRules?: ScoreRules,
  holdSeconds?: number,
): LeaderboardWire {
  const rules = gameRules === undefined ? null : effectiveScoreRules(gameRules, board.scoreRules);
  // A free play has nothing to hold (core: payoutsReleaseAt).
  const held = holdSeconds !== undefined && holdSeconds > 0 && board.costUnits > 0n;
  return {
    id: board.id,
    name: board.name,
    cost: unitsToHstNumber(board.costUnits),
    currency: CURRENCY,
    formattedCostString: `${formatHst(board.costUnits)} ${CURRENCY}`,
    leadersMax: board.leadersMax,
    leaders: [...leaders],
    // Only where a rule is in force: a tier without rules answers as it always did.
    ...(rules !== null && hasScoreRules(rules) ? { scoreRules: rules } : {}),
    ...(held ? { payoutHoldSeconds: holdSeconds } : {}),
  };
}

export function gameToWire(
  game: GameRecord,
  boards: readonly Leaderboard[],
  leaders: ReadonlyMap<string, readonly Leader[]>,
  gameRules?: ScoreRules,
  operatorHoldSeconds?: number,
): GameWire {
  const holdOf = (board: Leaderboard) =>
    operatorHoldSeconds === undefined
      ? undefined
      : effectivePayoutHoldSeconds(game, board, operatorHoldSeconds);
  return {
    id: game.id,
    name: game.name,
    description: game.description,
    category: game.category,
    developerInfo: game.developerInfo,
    tagLine: game.tagLine,
    url: game.url,
    coverUrl: game.coverUrl,
    scoreDisplay: game.scoreDisplay,
    scoreUnit: game.scoreUnit,
    prodDomain: game.prodDomain,
    published: game.publishedAt !== null,
    leaderboards: boards.map((b) =>
      leaderboardToWire(b, leaders.get(b.id) ?? [], gameRules, holdOf(b)),
    ),
    playerId: game.developerId,
    // Only when declared: a game without one answers as it always did.
    ...(game.aspectRatio ? { aspectRatio: game.aspectRatio } : {}),
  };
}

export function playToWire(play: StoredPlay): PlayWire {
  return {
    id: play.id,
    createdAt: play.createdAt.toISOString(),
    updatedAt: play.updatedAt.toISOString(),
    deletedAt: null,
    deleted: false,
    playerId: play.playerId,
    gameId: play.gameId,
    gameArcadeId: play.arcadeId,
    developerId: play.developerId,
    leaderboardId: play.leaderboardId,
    cost: unitsToHstNumber(play.costUnits),
    ilpRegistrationId: play.lockTransferId ?? '',
    status: play.status,
    expiresAt: play.expiresAt.toISOString(),
    ...(play.seed === null ? {} : { seed: play.seed }),
  };
}

export function scoreToWire(score: StoredScore, leaders: readonly Leader[]): ScoreResultWire {
  return {
    id: score.id,
    playId: score.playId,
    leaderboardId: score.leaderboardId,
    score: score.score,
    leaders: [...leaders],
    isWinner: score.isWinner,
    leaderRank: score.leaderRank,
  };
}
