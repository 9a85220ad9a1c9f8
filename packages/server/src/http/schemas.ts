import { Type, type Static } from '@sinclair/typebox';

/** Wire schemas shared by the game server routes; field names are the spec's. */

export const Uuid = (description: string) => Type.String({ format: 'uuid', description });

export const LeaderSchema = Type.Object(
  {
    playerId: Uuid('the player'),
    score: Type.Number({ description: "the player's best score on this board" }),
    name: Type.String({ description: 'player display name' }),
    avatar: Type.String({ description: 'URL of the player avatar' }),
  },
  { $id: 'Leader', description: 'A leader of a board (spec 2.4)' },
);

export const LeaderboardSchema = Type.Object(
  {
    id: Uuid('the leaderboard (tier)'),
    name: Type.String(),
    cost: Type.Number({ description: 'HST a play at this tier costs' }),
    currency: Type.Literal('HST'),
    formattedCostString: Type.String({ description: 'cost for display, e.g. "10 HST"' }),
    leadersMax: Type.Integer({ description: 'how many leaders the board keeps' }),
    leaders: Type.Array(Type.Ref(LeaderSchema)),
  },
  { $id: 'Leaderboard', description: 'A leaderboard tier (spec 2.3)' },
);

export const GameSchema = Type.Object(
  {
    id: Uuid('the game'),
    name: Type.String(),
    description: Type.String(),
    category: Type.String(),
    developerInfo: Type.String(),
    tagLine: Type.String(),
    url: Type.String({ description: 'hosted URL of the game' }),
    coverUrl: Type.String(),
    scoreDisplay: Type.Union([Type.Literal('NORMAL'), Type.Literal('REVERSE')]),
    prodDomain: Type.Union([Type.String(), Type.Null()]),
    published: Type.Boolean(),
    leaderboards: Type.Array(Type.Ref(LeaderboardSchema)),
    playerId: Uuid("the game developer's id (spec 2.2)"),
  },
  { $id: 'Game', description: 'A game with its tiers and their leaders (spec 2.2)' },
);

export const PlaySchema = Type.Object(
  {
    id: Uuid('the play id; required when submitting the score'),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    deletedAt: Type.Null(),
    deleted: Type.Boolean(),
    playerId: Uuid('the player'),
    gameId: Uuid('the game'),
    gameArcadeId: Uuid('the arcade'),
    developerId: Uuid('the developer'),
    leaderboardId: Uuid('the tier played'),
    cost: Type.Number({ description: 'HST locked for the play' }),
    ilpRegistrationId: Type.String({
      description: 'id of the ledger transfer that locked the cost ("" for a free tier)',
    }),
    status: Type.Union([Type.Literal('open'), Type.Literal('scored'), Type.Literal('expired')]),
    expiresAt: Type.String({ format: 'date-time', description: 'when an unscored play expires' }),
  },
  { $id: 'Play', description: 'A play record (spec 2.5)' },
);

export const ScoreResultSchema = Type.Object(
  {
    id: Uuid('the score'),
    playId: Uuid('the play scored'),
    leaderboardId: Uuid('the tier'),
    score: Type.Number(),
    leaders: Type.Array(Type.Ref(LeaderSchema)),
    isWinner: Type.Boolean({ description: 'the score places the player among the leaders' }),
    leaderRank: Type.Integer({ description: '1 + the other players whose best beats the score' }),
  },
  { $id: 'ScoreResult', description: 'A score result (spec 2.6)' },
);

export type LeaderWire = Static<typeof LeaderSchema>;
export type LeaderboardWire = Static<typeof LeaderboardSchema>;
export type GameWire = Static<typeof GameSchema>;
export type PlayWire = Static<typeof PlaySchema>;
export type ScoreResultWire = Static<typeof ScoreResultSchema>;

/** Shared schemas, added once to the app so routes and the OpenAPI document can $ref them. */
export const sharedSchemas = [
  LeaderSchema,
  LeaderboardSchema,
  GameSchema,
  PlaySchema,
  ScoreResultSchema,
];
