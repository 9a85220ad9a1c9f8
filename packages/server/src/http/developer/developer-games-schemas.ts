import { Type, type Static } from '@sinclair/typebox';

import type {
  ClientSecret,
  DeveloperGame,
  DeveloperGameList,
  DeveloperGameRequest,
  DeveloperGameUpdateRequest,
  DeveloperTier,
  GameClient,
  GameStats,
  RetiredTier,
  TierRequest,
  TierUpdateRequest,
} from '@coinop/protocol';
import type { GameClientSummary, TierRecord } from '../../services/developer-games.js';
import { COVER_UPLOAD_MAX_CHARS } from '../../services/cover-uploads.js';
import { type DeveloperGameView } from '../../services/developer-games.js';
import { GAME_FIELD_LIMITS } from '../../services/registration.js';

import {
  LeaderboardSchema,
  MAX_COST_HST,
  ScoreDisplaySchema,
  Uuid,
  coverUrl,
  mutableFields,
  optionalListingFields,
  text,
} from '../shared/schemas.js';
import { leaderboardToWire } from '../shared/wire.js';
import { PAYOUT_HOLD_MAX_SECONDS } from '@coinop/core';
import type { SchemaMatches, ShapeMatches } from '../../listener/wire-check.js';
import {
  ScoreRulesBody,
  ScoreRulesSchema,
  TierScoreRulesBody,
  TierScoreRulesSchema,
} from './score-rules-schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

export const TAGS = ['developer'];

/** A tier that overrides none of its game's score rules. */
const NO_TIER_OVERRIDES = { minScore: null, maxScore: null, minPlayMs: null, replay: null };
/** Room for the largest cover upload plus the other fields: the largest body any route takes. */
export const GAME_BODY_LIMIT = COVER_UPLOAD_MAX_CHARS + 64 * 1024;

export const bearer =
  'Authorization: Bearer <player access token> of the developer’s wallet (401 ' +
  'missing_bearer_token / invalid_player_token); the developer account is created on first use.';
export const ownGame = 'A game of another developer answers 404 game_not_found.';

export const date = (description: string) => Type.String({ format: 'date-time', description });

/** A payout hold in seconds (0 to 30 days), or null to inherit. */
export const payoutHold = (description: string) =>
  Type.Union([Type.Integer({ minimum: 0, maximum: PAYOUT_HOLD_MAX_SECONDS }), Type.Null()], {
    description,
  });
const TIER_HOLD =
  'Seconds this tier’s payouts stay pending before they are spendable, so a false score can ' +
  'be voided first (0 to 2592000); null: the game’s hold.';
export const GAME_HOLD =
  'Seconds the game’s payouts stay pending before they are spendable (0 to 2592000); null: ' +
  'the arcade operator’s default (--payout-hold).';

/** A game frame's shape (issue 31): whole numbers up to 999, or null for the arcade's default. */
const aspectRatio = Type.Union(
  [Type.String({ pattern: '^[1-9][0-9]{0,2}:[1-9][0-9]{0,2}$', maxLength: 7 }), Type.Null()],
  {
    description:
      'The shape of the game’s frame as "width:height" in whole numbers, e.g. "16:9" or ' +
      '"9:16"; the game page sizes the frame to it within the viewport. null: the arcade’s ' +
      'default frame.',
  },
);

export const TierSchema = Type.Composite(
  [
    Type.Pick(LeaderboardSchema, [
      'id',
      'name',
      'cost',
      'currency',
      'formattedCostString',
      'leadersMax',
    ]),
    Type.Object({
      scoreRules: TierScoreRulesSchema,
      payoutHoldSeconds: Type.Optional(payoutHold(TIER_HOLD)),
    }),
  ],
  { description: 'A live leaderboard tier of the game.' },
);
export const ClientSchema = Type.Object(
  {
    clientId: Type.String({ description: 'The game server’s client_id.' }),
    createdAt: date('When the client was created.'),
    revokedAt: Type.Union([date('When it was revoked.'), Type.Null()]),
  },
  { description: 'A game server client; its secret is never shown again.' },
);
export const DeveloperGameSchema = Type.Object(
  {
    id: Uuid('The game id (gameId).'),
    name: Type.String(),
    description: Type.String(),
    category: Type.String(),
    tagLine: Type.String(),
    developerInfo: Type.String(),
    url: Type.String({ description: 'Where the game is hosted; empty until set.' }),
    coverUrl: Type.String({
      description:
        'The cover image: the URL given, or where the arcade serves an uploaded one ' +
        '(…/api/catalog/games/{gameId}/cover?v=…).',
    }),
    scoreDisplay: ScoreDisplaySchema,
    scoreUnit: Type.String({ description: 'Shown after each score, e.g. "ms"; empty for none.' }),
    prodDomain: Type.Union([Type.String(), Type.Null()]),
    published: Type.Boolean({ description: 'Whether an operator listed it in the catalog.' }),
    createdAt: date('When the game was registered.'),
    payoutHoldSeconds: Type.Optional(payoutHold(GAME_HOLD)),
    operatorPayoutHoldSeconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'The arcade operator’s default payout hold (--payout-hold), in force where the game ' +
          'and a tier set none.',
      }),
    ),
    aspectRatio: Type.Optional(aspectRatio),
    leaderboards: Type.Array(TierSchema, { description: 'Live tiers, in display order.' }),
    clients: Type.Array(ClientSchema, { description: 'Clients, live and revoked, oldest first.' }),
    scoreRules: ScoreRulesSchema,
    verifierVersion: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
        description:
          'The version of the current replay verifier (GET …/verifier); null when it has none.',
      }),
    ),
  },
  { description: 'A game of the signed-in developer, as the developer portal shows it.' },
);
export type DeveloperGameWire = Static<typeof DeveloperGameSchema>;
export const DeveloperGameListSchema = Type.Object({ games: Type.Array(DeveloperGameSchema) });

export const coverImage = Type.String({
  minLength: 1,
  maxLength: COVER_UPLOAD_MAX_CHARS,
  description:
    'An uploaded cover: a data:image/png;base64,… or data:image/jpeg;base64,… URL, at most 2 MB ' +
    'decoded, 1920x1080. The arcade stores it and serves it at GET /catalog/games/{gameId}/cover. ' +
    'Not together with coverUrl.',
});
export const coverFields = {
  coverUrl: Type.Optional(coverUrl),
  coverImage: Type.Optional(coverImage),
};

export const CreateBody = Type.Object(
  {
    name: text(GAME_FIELD_LIMITS.name, 'Game name, 1 to 100 characters; fixed once registered.', 1),
    description: Type.Optional(text(GAME_FIELD_LIMITS.description, 'Short description.')),
    scoreDisplay: Type.Optional(ScoreDisplaySchema),
    ...coverFields,
    ...optionalListingFields,
    scoreRules: Type.Optional(ScoreRulesBody),
    payoutHoldSeconds: Type.Optional(payoutHold(GAME_HOLD)),
  },
  {
    additionalProperties: false,
    description:
      'A new game: as POST /game/create, with description optional (default empty), ' +
      'scoreDisplay optional (default NORMAL), and a cover as coverUrl or coverImage (at most ' +
      'one; none leaves coverUrl empty until a PATCH sets one).',
  },
);
export const UpdateBody = Type.Object(
  {
    description: Type.Optional(mutableFields.description),
    ...coverFields,
    ...optionalListingFields,
    scoreRules: Type.Optional(ScoreRulesBody),
    payoutHoldSeconds: Type.Optional(payoutHold(GAME_HOLD)),
    aspectRatio: Type.Optional(aspectRatio),
    name: Type.Optional(Type.Unknown({ description: 'Immutable: 409 field_immutable.' })),
    scoreDisplay: Type.Optional(Type.Unknown({ description: 'Immutable: 409 field_immutable.' })),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'Any mutable field; at least one.',
  },
);

export const tierName = Type.String({
  minLength: 1,
  maxLength: 100,
  ...Patterns.notBlank,
  description: 'Name',
});
export const tierCost = Type.Integer({
  minimum: 0,
  maximum: MAX_COST_HST,
  description: 'Cost of one play in whole HST.',
});
export const AddTierBody = Type.Object(
  {
    name: tierName,
    cost: tierCost,
    leadersMax: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100, description: 'Leaders kept; default from config.' }),
    ),
    scoreRules: Type.Optional(TierScoreRulesBody),
    payoutHoldSeconds: Type.Optional(payoutHold(TIER_HOLD)),
  },
  { additionalProperties: false },
);
export const PatchTierBody = Type.Object(
  {
    name: Type.Optional(tierName),
    cost: Type.Optional(tierCost),
    scoreRules: Type.Optional(TierScoreRulesBody),
    payoutHoldSeconds: Type.Optional(payoutHold(TIER_HOLD)),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'A new name, cost, score rules or payout hold; at least one.',
  },
);

export const NewClientSchema = Type.Object({
  clientId: Type.String(),
  clientSecret: Type.String({ description: 'Shown only in this response; stored hashed.' }),
  createdAt: date('When the client was created.'),
});

export const PlayStatusSchema = Type.Union([
  Type.Literal('open'),
  Type.Literal('scored'),
  Type.Literal('expired'),
  Type.Literal('voided'),
]);
export const StatsSchema = Type.Object({
  plays: Type.Object({
    total: Type.Integer(),
    open: Type.Integer(),
    scored: Type.Integer(),
    expired: Type.Integer(),
    voided: Type.Integer({
      description: 'Open plays voided when the operator suspended the game.',
    }),
  }),
  scores: Type.Integer({ description: 'Scores submitted.' }),
  hstEarned: Type.String({
    description:
      'HST credited to the developer by this game: its share of settled plays plus in-game ' +
      'purchases, as an exact decimal string.',
  }),
  recentPlays: Type.Array(
    Type.Object({
      playId: Uuid('The play.'),
      playerName: Type.String(),
      leaderboardName: Type.String(),
      cost: Type.String({ description: 'HST the play locked, as an exact decimal string.' }),
      status: PlayStatusSchema,
      score: Type.Union([Type.Number(), Type.Null()]),
      createdAt: date('When the play was opened.'),
    }),
    { description: 'The 20 newest plays, newest first.' },
  ),
});

export const RetiredTierSchema = Type.Object({
  id: Uuid('The tier.'),
  retired: Type.Literal(true),
});

declare const _tier: SchemaMatches<typeof TierSchema, DeveloperTier>;
declare const _client: SchemaMatches<typeof ClientSchema, GameClient>;
declare const _game: SchemaMatches<typeof DeveloperGameSchema, DeveloperGame>;
declare const _gameList: SchemaMatches<typeof DeveloperGameListSchema, DeveloperGameList>;
declare const _createBody: SchemaMatches<typeof CreateBody, DeveloperGameRequest>;
// name and scoreDisplay are in the schema only to answer 409 field_immutable.
declare const _updateBody: ShapeMatches<
  Omit<Static<typeof UpdateBody>, 'name' | 'scoreDisplay'>,
  DeveloperGameUpdateRequest
>;
declare const _addTierBody: SchemaMatches<typeof AddTierBody, TierRequest>;
declare const _patchTierBody: SchemaMatches<typeof PatchTierBody, TierUpdateRequest>;
declare const _retiredTier: SchemaMatches<typeof RetiredTierSchema, RetiredTier>;
declare const _newClient: SchemaMatches<typeof NewClientSchema, ClientSecret>;
declare const _stats: SchemaMatches<typeof StatsSchema, GameStats>;

export const GameParams = Type.Object({ gameId: Uuid('The game.') });
export const TierParams = Type.Object({
  gameId: Uuid('The game.'),
  leaderboardId: Uuid('The tier.'),
});
export const ClientParams = Type.Object({
  gameId: Uuid('The game.'),
  clientId: Type.String({ minLength: 1, maxLength: 64, description: 'The client_id.' }),
});

export function tierToWire(tier: TierRecord): Static<typeof TierSchema> {
  const { id, name, cost, currency, formattedCostString, leadersMax } = leaderboardToWire(tier, []);
  return {
    id,
    name,
    cost,
    currency,
    formattedCostString,
    leadersMax,
    scoreRules: tier.scoreRules ?? NO_TIER_OVERRIDES,
    payoutHoldSeconds: tier.payoutHoldSeconds ?? null,
  };
}

export function clientToWire(client: GameClientSummary): Static<typeof ClientSchema> {
  return {
    clientId: client.clientId,
    createdAt: client.createdAt.toISOString(),
    revokedAt: client.revokedAt?.toISOString() ?? null,
  };
}

export function developerGameToWire({
  game,
  tiers,
  clients,
  scoreRules,
  operatorPayoutHoldSeconds,
  verifierVersion,
}: DeveloperGameView): DeveloperGameWire {
  return {
    id: game.id,
    name: game.name,
    description: game.description,
    category: game.category,
    tagLine: game.tagLine,
    developerInfo: game.developerInfo,
    url: game.url,
    coverUrl: game.coverUrl,
    scoreDisplay: game.scoreDisplay,
    scoreUnit: game.scoreUnit,
    prodDomain: game.prodDomain,
    published: game.publishedAt !== null,
    createdAt: game.createdAt.toISOString(),
    payoutHoldSeconds: game.payoutHoldSeconds ?? null,
    operatorPayoutHoldSeconds,
    aspectRatio: game.aspectRatio ?? null,
    leaderboards: tiers.map(tierToWire),
    clients: clients.map(clientToWire),
    scoreRules,
    verifierVersion,
  };
}
