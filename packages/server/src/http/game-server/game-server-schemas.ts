import { Type } from '@sinclair/typebox';
import type {
  LeaderList,
  PayoutsPage,
  PlayerDetails,
  PlayRequest,
  PlayTransaction,
  ScoreRequest,
  TopScore,
  WriteTokenGrant,
  WriteTokenRequest,
} from '@coinop/protocol';

import {
  GameSchema,
  LeaderboardSchema,
  LeaderSchema,
  ReplayField,
  Uuid,
} from '../shared/schemas.js';
import type { SchemaMatches } from '../../listener/wire-check.js';

export const ArcadeGameParams = Type.Object({
  arcadeId: Uuid('the arcade'),
  gameId: Uuid('the game'),
});
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'retrying with the same key returns the first result instead of acting again',
    }),
  ),
});
export const PAYOUTS_PAGE_MAX = 100;

export const WriteTokenBody = Type.Object(
  {
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    clientId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    clientSecret: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    environment: Type.Optional(Type.String({ maxLength: 50 })),
    grant_type: Type.Optional(Type.String({ maxLength: 50 })),
  },
  { additionalProperties: false },
);
export const WriteTokenSchema = Type.Object({
  access_token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_in: Type.Integer({ description: 'seconds until the token expires' }),
  developerId: Uuid('the developer'),
  gameId: Uuid('the game the token is scoped to'),
  arcadeId: Uuid('the arcade'),
});
export const PlayBody = Type.Object(
  {
    playerId: Uuid('the player, from the validated player JWT'),
    leaderboardId: Uuid('one of the game leaderboards'),
  },
  { additionalProperties: false },
);
export const ScoreBody = Type.Object(
  {
    playId: Uuid('the id of the play record'),
    leaderboardId: Uuid('the leaderboard of the play'),
    score: Type.Number({ minimum: 0, description: 'the score; finite and not negative' }),
    replay: ReplayField,
  },
  { additionalProperties: false },
);
export const LeaderListSchema = Type.Object({ leaders: Type.Array(Type.Ref(LeaderSchema)) });
export const TopScoreSchema = Type.Object({
  userId: Uuid('the player'),
  leaderboardId: Uuid('the tier'),
  value: Type.Union([Type.Number(), Type.Null()]),
  rank: Type.Union([Type.Integer(), Type.Null()]),
});
export const PlayTransactionSchema = Type.Object({
  id: Type.String({ description: 'the lock transfer id ("" for a free tier)' }),
  playId: Uuid('the play'),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('posted'),
    Type.Literal('voided'),
    Type.Literal('free'),
  ]),
  tx: Type.String({ description: 'the lock transfer id' }),
  amount: Type.Number({ description: 'HST locked' }),
});
export const PlayerDetailsSchema = Type.Object({
  id: Uuid('the player'),
  name: Type.String(),
  avatar: Type.String(),
  balance: Type.Number({ description: 'HST the player can spend now' }),
  pending: Type.Number({ description: 'HST locked by unsettled plays' }),
  currency: Type.Literal('HST'),
});

/**
 * The game with one player's standing on each tier: the Game of spec 2.2 whose leaderboards also
 * carry the player's best score and rank (null where they have not scored).
 */
export const GamePlayerStandingsSchema = Type.Object(
  {
    ...GameSchema.properties,
    leaderboards: Type.Array(
      Type.Object({
        ...LeaderboardSchema.properties,
        playerBestScore: Type.Union([Type.Number(), Type.Null()], {
          description: "The player's best score on this tier; null when they have none.",
        }),
        playerRank: Type.Union([Type.Integer(), Type.Null()], {
          description: '1 + the other players whose best beats theirs; null with no score.',
        }),
      }),
      { description: 'Tiers, in display order.' },
    ),
  },
  { description: "A game with one player's best score and rank on each tier." },
);
export const PayoutEventSchema = Type.Object({
  eventId: Uuid('the payout transfer; pass it as starting_after to read older payouts'),
  details: Type.Object({
    userId: Uuid('the player paid'),
    createdAt: Type.String({ format: 'date-time' }),
    payeeHandle: Type.String({ description: "the paid player's display name" }),
    payerHandle: Type.String({ description: 'the display name of the player whose play paid' }),
    paymentAmount: Type.Number({ description: 'HST paid (at most 8 decimals)' }),
  }),
});
export const PayoutsPageSchema = Type.Object({
  startingAfter: Type.Union([Uuid('the newest event of the page'), Type.Null()], {
    description: 'Id of the newest event of the page; null for an empty page.',
  }),
  endingBefore: Type.Union([Uuid('the oldest event of the page'), Type.Null()], {
    description: 'Id of the oldest event of the page; null for an empty page.',
  }),
  events: Type.Array(PayoutEventSchema, { description: 'Payouts, newest first.' }),
});

declare const _writeTokenBody: SchemaMatches<typeof WriteTokenBody, WriteTokenRequest>;
declare const _writeToken: SchemaMatches<typeof WriteTokenSchema, WriteTokenGrant>;
declare const _playBody: SchemaMatches<typeof PlayBody, PlayRequest>;
declare const _scoreBody: SchemaMatches<typeof ScoreBody, ScoreRequest>;
declare const _leaderList: SchemaMatches<typeof LeaderListSchema, LeaderList>;
declare const _topScore: SchemaMatches<typeof TopScoreSchema, TopScore>;
declare const _playTransaction: SchemaMatches<typeof PlayTransactionSchema, PlayTransaction>;
declare const _playerDetails: SchemaMatches<typeof PlayerDetailsSchema, PlayerDetails>;
declare const _payoutsPage: SchemaMatches<typeof PayoutsPageSchema, PayoutsPage>;
