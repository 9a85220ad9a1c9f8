import { Type, type Static } from '@sinclair/typebox';
import { CURRENCY } from '@coinop/protocol';
import { formatHst, unitsToHstNumber, type Leader, type Leaderboard } from '@coinop/core';
import type { GameRecord } from '../store/games.js';

/** Spec 2.4. */
export const LeaderSchema = Type.Object(
  {
    playerId: Type.String({ format: 'uuid', description: 'The player.' }),
    score: Type.Number({ description: "The player's best score on this leaderboard." }),
    name: Type.String({ description: "The player's display name." }),
    avatar: Type.String({ description: "URL of the player's avatar (generated when unset)." }),
  },
  { description: 'A leader: one player with their best score (spec 2.4).' },
);

/** Spec 2.3, plus the currency fields `@hastearcade/server` shows. */
export const LeaderboardSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The leaderboard (tier).' }),
    name: Type.String({ description: 'Tier name, e.g. "Practice".' }),
    // A number, not an integer, so a serializer never rounds a cost it was not expecting.
    cost: Type.Number({ description: 'What one play at this tier costs, in HST (whole by rule).' }),
    currency: Type.Literal(CURRENCY, { description: 'Always "HST".' }),
    formattedCostString: Type.String({ description: 'The cost for display, e.g. "1 HST".' }),
    leaders: Type.Array(LeaderSchema, {
      description: 'Current leaders, best first (ties to the earlier score).',
    }),
  },
  { description: 'A leaderboard tier with its current leaders (spec 2.3).' },
);

/** Spec 2.2, plus the registration fields of 2.9 a developer sets. */
export const GameSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'The game id (gameId).' }),
    name: Type.String({ description: 'Game name; fixed at registration.' }),
    description: Type.String({ description: 'Short description.' }),
    category: Type.String({ description: 'Catalog category; empty when unset.' }),
    developerInfo: Type.String({ description: 'About the developer; empty when unset.' }),
    tagLine: Type.String({ description: 'One-line pitch; empty when unset.' }),
    url: Type.String({ description: 'Where the game is hosted; empty until set.' }),
    coverUrl: Type.String({ description: 'Cover image URL (a 1920x1080 image).' }),
    scoreDisplay: Type.Union([Type.Literal('NORMAL'), Type.Literal('REVERSE')], {
      description: 'NORMAL: higher scores are better; REVERSE: lower. Fixed at registration.',
    }),
    prodDomain: Type.Union([Type.String(), Type.Null()], {
      description: 'Production domain of the game; null until set.',
    }),
    leaderboards: Type.Array(LeaderboardSchema, { description: 'Tiers, in display order.' }),
    playerId: Type.String({ format: 'uuid', description: "The game developer's id (spec 2.2)." }),
  },
  { description: 'A game with its leaderboards (spec 2.2).' },
);

export type LeaderboardWire = Static<typeof LeaderboardSchema>;
export type GameWire = Static<typeof GameSchema>;

/** A tier on the wire: cost in HST, never base units. */
export function leaderboardToWire(
  board: Leaderboard,
  leaders: readonly Leader[] = [],
): LeaderboardWire {
  return {
    id: board.id,
    name: board.name,
    cost: unitsToHstNumber(board.costUnits),
    currency: CURRENCY,
    formattedCostString: `${formatHst(board.costUnits)} ${CURRENCY}`,
    leaders: leaders.map((l) => ({
      playerId: l.playerId,
      score: l.score,
      name: l.name,
      avatar: l.avatar,
    })),
  };
}

/**
 * A game as every endpoint returns it (spec 2.2): its tiers in order, each with the leaders
 * found for it in `leadersByBoard` (none when absent), and the developer's id as `playerId`.
 */
export function gameToWire(
  game: GameRecord,
  leaderboards: readonly Leaderboard[],
  leadersByBoard: ReadonlyMap<string, readonly Leader[]> = new Map(),
): GameWire {
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
    prodDomain: game.prodDomain,
    leaderboards: leaderboards.map((b) => leaderboardToWire(b, leadersByBoard.get(b.id))),
    playerId: game.developerId,
  };
}
