import { Type, type Static } from '@sinclair/typebox';
import {
  BRIDGE_REPLAY_MAX_LENGTH,
  type Game,
  type Leader,
  type Leaderboard,
  type Play,
  type ScoreResult,
} from '@coinop/protocol';
import type { ScoreDisplay } from '@coinop/core';
import { GAME_FIELD_LIMITS } from '../../services/registration.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Patterns } from '../../listener/string-patterns.js';

/** Wire schemas shared by the game server routes; field names are the spec's. */

export const Uuid = (description: string) => Type.String({ format: 'uuid', description });

export const LeaderSchema = Type.Object(
  {
    playerId: Uuid('The player.'),
    score: Type.Number({ description: "The player's best score on this leaderboard." }),
    name: Type.String({ description: "The player's display name." }),
    avatar: Type.String({ description: "URL of the player's avatar (generated when unset)." }),
  },
  { $id: 'Leader', description: 'A leader: one player with their best score (spec 2.4).' },
);

export const LeaderboardSchema = Type.Object(
  {
    id: Uuid('The leaderboard (tier).'),
    name: Type.String({ description: 'Tier name, e.g. "Practice".' }),
    // A number, not an integer, so a serializer never rounds a cost it was not expecting.
    cost: Type.Number({ description: 'What one play at this tier costs, in HST (whole by rule).' }),
    currency: Type.Literal('HST', { description: 'Always "HST".' }),
    formattedCostString: Type.String({ description: 'The cost for display, e.g. "1 HST".' }),
    leadersMax: Type.Integer({ description: 'How many leaders the board keeps.' }),
    leaders: Type.Array(Type.Ref(LeaderSchema), {
      description: 'Current leaders, best first (ties to the earlier score).',
    }),
    scoreRules: Type.Optional(
      Type.Object(
        {
          minScore: Type.Union([Type.Number(), Type.Null()]),
          maxScore: Type.Union([Type.Number(), Type.Null()]),
          minPlayMs: Type.Union([Type.Integer(), Type.Null()]),
          replay: Type.Union([Type.Literal('off'), Type.Literal('required')]),
        },
        {
          description:
            'The score rules in force on this tier (issue 30, docs/concepts/score-integrity.md); ' +
            'absent when it has none',
        },
      ),
    ),
    payoutHoldSeconds: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          "Seconds a settled play's payouts on this tier stay pending, held for review, before " +
          'they are spendable (issue 30, docs/concepts/plays-and-settlement.md#hold-and-void); ' +
          'absent when they are paid at once',
      }),
    ),
  },
  { $id: 'Leaderboard', description: 'A leaderboard tier with its current leaders (spec 2.3).' },
);

export const GameSchema = Type.Object(
  {
    id: Uuid('The game id (gameId).'),
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
    scoreUnit: Type.String({
      description: 'The unit to show after each score, e.g. "ms" ("109 ms"); empty for none.',
    }),
    prodDomain: Type.Union([Type.String(), Type.Null()], {
      description: 'Production domain of the game; null until set.',
    }),
    published: Type.Boolean({ description: "Whether the game is listed in the arcade's catalog." }),
    leaderboards: Type.Array(Type.Ref(LeaderboardSchema), {
      description: 'Tiers, in display order.',
    }),
    playerId: Uuid("The game developer's id (spec 2.2)."),
    aspectRatio: Type.Optional(
      Type.String({
        description:
          'The shape of the game frame, "width:height" (e.g. "16:9"); absent: the arcade\'s ' +
          'default frame (issue 31).',
      }),
    ),
  },
  { $id: 'Game', description: 'A game with its leaderboards (spec 2.2).' },
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
    status: Type.Union([
      Type.Literal('open'),
      Type.Literal('scored'),
      Type.Literal('expired'),
      Type.Literal('voided'),
    ]),
    expiresAt: Type.String({
      format: 'date-time',
      description:
        'when an unscored play expires (and settles without a score); on a tournament round, ' +
        "the round's end at the latest",
    }),
    seed: Type.Optional(
      Type.String({
        ...Patterns.hex32Bytes,
        description:
          '32 random bytes (64 lowercase hex) drawn when the play opened, for the game to derive ' +
          'its randomness from and its verifier to replay the run (issue 30); absent for a play ' +
          'opened before seeds',
      }),
    ),
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

declare const _leader: SchemaMatches<typeof LeaderSchema, Leader>;
declare const _leaderboard: SchemaMatches<typeof LeaderboardSchema, Leaderboard>;
declare const _game: SchemaMatches<typeof GameSchema, Game>;
declare const _play: SchemaMatches<typeof PlaySchema, Play>;
declare const _scoreResult: SchemaMatches<typeof ScoreResultSchema, ScoreResult>;

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

/* Game fields as the registration, developer-portal and admin routes take them. */

/** Same ceiling as a single mint: a tier costing more is a typo. */
export const MAX_COST_HST = 1_000_000_000;

/**
 * A score's optional replay (issue 30). The schema bounds it by the most any arcade allows, in
 * characters; the arcade's own `--replay-max-bytes`, in UTF-8 bytes, is checked by the play path,
 * which answers 413 `replay_too_large`.
 */
export const ReplayField = Type.Optional(
  Type.String({
    maxLength: BRIDGE_REPLAY_MAX_LENGTH,
    description:
      "what the game recorded of the run, in a format it chooses, for the game's verifier to " +
      "recompute the score from the play's seed; at most `--replay-max-bytes` UTF-8 bytes " +
      '(64 KiB by default), else 413 `replay_too_large`',
  }),
);

export const ScoreDisplaySchema = Type.Unsafe<ScoreDisplay>({
  type: 'string',
  enum: ['NORMAL', 'REVERSE'],
  description: 'NORMAL: a higher score is better; REVERSE: a lower score is better.',
});

export const text = (max: number, description: string, minLength = 0) =>
  Type.String({ minLength, maxLength: max, description });

export const coverUrl = text(
  GAME_FIELD_LIMITS.url,
  'Absolute http(s) URL of the cover image, which must be a 1920x1080 PNG, JPEG, GIF, WebP or ' +
    'AVIF image. The arcade fetches it (bounded time and size; loopback and private addresses ' +
    'refused unless the operator allows them).',
  1,
);
export const mutableFields = {
  description: text(GAME_FIELD_LIMITS.description, 'Short description.', 1),
  prodDomain: text(
    GAME_FIELD_LIMITS.prodDomain,
    'Production domain of the game, e.g. game.example.com; must be set before going live.',
    1,
  ),
  url: text(GAME_FIELD_LIMITS.url, 'Absolute http(s) URL where the game is hosted.', 1),
  category: text(GAME_FIELD_LIMITS.category, 'Catalog category.'),
  tagLine: text(GAME_FIELD_LIMITS.tagLine, 'One-line pitch.'),
  developerInfo: text(GAME_FIELD_LIMITS.developerInfo, 'About the developer.'),
  scoreUnit: text(
    GAME_FIELD_LIMITS.scoreUnit,
    'The unit shown after each score, e.g. "ms", "pts" or "s": at most 12 characters of plain ' +
      'text (no control characters, line breaks, <, > or &, no spaces around it); empty for none.',
  ),
};

/** The listing fields every game body may leave out, in the order the documents list them. */
export const optionalListingFields = {
  prodDomain: Type.Optional(mutableFields.prodDomain),
  url: Type.Optional(mutableFields.url),
  category: Type.Optional(mutableFields.category),
  tagLine: Type.Optional(mutableFields.tagLine),
  developerInfo: Type.Optional(mutableFields.developerInfo),
  scoreUnit: Type.Optional(mutableFields.scoreUnit),
};
