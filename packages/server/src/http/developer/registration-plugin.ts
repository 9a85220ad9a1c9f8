import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { API_KEY_HEADER, apiKeyOf, requireApiKey } from '../../credentials/api-keys.js';
import type { CoverCheck } from '../../services/cover-check.js';
import { DeveloperKeys } from '../../services/developer-keys.js';
import {
  GAME_FIELD_LIMITS,
  registerGame,
  registrationDeps,
  updateDeveloperGame,
  type GameWithLeaderboards,
} from '../../services/registration.js';
import { ApiTags, RateLimitedResponse, Security } from '../../listener/openapi.js';
import {
  coverUrl,
  GameSchema,
  mutableFields,
  optionalListingFields,
  ScoreDisplaySchema,
  text,
} from '../shared/schemas.js';
import { gameToWire } from '../shared/wire.js';
import { perKey } from '../../listener/rate-limit.js';
import { GAME_HOLD, payoutHold } from './developer-games-schemas.js';
import { ScoreRulesBody } from './score-rules-schemas.js';

export interface RegistrationPluginOptions {
  /** Replaces the cover check built from config (fetch over the network, 1920×1080). */
  checkCover?: CoverCheck;
}

const TAGS = [ApiTags.registration];

/** Issue 30's settings of a game, beyond the spec, as the portal's routes take them. */
const settingFields = {
  scoreRules: Type.Optional(ScoreRulesBody),
  payoutHoldSeconds: Type.Optional(payoutHold(GAME_HOLD)),
};

const CreateGameBody = Type.Object(
  {
    name: text(GAME_FIELD_LIMITS.name, 'Game name, 1 to 100 characters; fixed once registered.', 1),
    description: mutableFields.description,
    coverUrl,
    scoreDisplay: ScoreDisplaySchema,
    ...optionalListingFields,
    ...settingFields,
  },
  {
    additionalProperties: false,
    description:
      'CreateGameRequest (spec 2.9), with the score rules and payout hold coinop adds (issue 30).',
  },
);

const UpdateGameBody = Type.Object(
  {
    description: Type.Optional(mutableFields.description),
    coverUrl: Type.Optional(coverUrl),
    ...optionalListingFields,
    ...settingFields,
    // Accepted by the schema only so the answer can be 409 naming the field, not 400.
    name: Type.Optional(
      Type.Unknown({ description: 'Immutable: any value is refused with 409 field_immutable.' }),
    ),
    scoreDisplay: Type.Optional(
      Type.Unknown({ description: 'Immutable: any value is refused with 409 field_immutable.' }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description: 'Any of the mutable game fields (spec 4.9); at least one.',
  },
);

const apiKeyHeader = Type.String({
  description: "The developer's API key, `<prefix>.<secret>` (spec 5.1).",
});

/** Game registration and update with a developer API key (spec 4.8, 4.9). */
export async function registrationPlugin(
  app: FastifyInstance,
  options: RegistrationPluginOptions = {},
): Promise<void> {
  const { arcade } = app;
  const keys = new DeveloperKeys(arcade);
  requireApiKey(app, (presented) => keys.verify(presented));
  const deps = registrationDeps(arcade, options.checkCover);
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  // Each tier as the catalog shows it: the rules and the payout hold in force on it.
  const answer = (found: GameWithLeaderboards) =>
    gameToWire(
      found.game,
      found.leaderboards,
      found.leadersByBoard,
      found.scoreRules,
      app.config.payoutHoldSeconds,
    );
  // Per developer rather than per key: a developer may hold several keys.
  const limited = perKey(
    app.config.rateLimits.registration,
    'this developer',
    (request) => apiKeyOf(request).developerId,
  );

  routes.post(
    '/game/create',
    {
      config: limited,
      schema: {
        tags: TAGS,
        security: Security.apiKey,
        operationId: 'createGame',
        summary: 'Register a game',
        description:
          "Registers a game under the API key's developer (spec 4.8) with the default " +
          'leaderboard tiers. The game is not yet in the catalog: an operator publishes it. ' +
          'Optional `scoreRules` and `payoutHoldSeconds` (issue 30) are written with the game in ' +
          'one transaction, as `POST /developer/games` writes them. Errors: 400 ' +
          'validation_failed (naming the field; nothing written), 401 missing_api_key / ' +
          'invalid_api_key, 422 cover_unreachable / cover_not_image / cover_wrong_size.',
        headers: Type.Object({ [API_KEY_HEADER]: apiKeyHeader }),
        body: CreateGameBody,
        response: { 201: GameSchema, 429: RateLimitedResponse },
      },
    },
    async (request, reply) => {
      const { developerId } = apiKeyOf(request);
      const found = await registerGame(deps, developerId, request.body);
      return reply.code(201).send(answer(found));
    },
  );

  routes.patch(
    '/game/update',
    {
      config: limited,
      schema: {
        tags: TAGS,
        security: Security.apiKey,
        operationId: 'updateGame',
        summary: 'Update a game',
        description:
          "Changes any of a game's mutable fields (spec 4.9). The game must belong to the API " +
          "key's developer. `scoreRules` and `payoutHoldSeconds` (issue 30) change as on " +
          '`PATCH /developer/games/{gameId}`: a field given is set, null clears it; a refused ' +
          'change writes nothing. Errors: 400 validation_failed, 401 missing_api_key / ' +
          'invalid_api_key, 404 game_not_found, 409 field_immutable (name, scoreDisplay), 422 ' +
          'cover_unreachable / cover_not_image / cover_wrong_size.',
        headers: Type.Object({
          [API_KEY_HEADER]: apiKeyHeader,
          'game-id': Type.String({ format: 'uuid', description: 'The game to update.' }),
        }),
        body: UpdateGameBody,
        response: { 200: GameSchema, 429: RateLimitedResponse },
      },
    },
    async (request) => {
      const { developerId } = apiKeyOf(request);
      const found = await updateDeveloperGame(
        deps,
        developerId,
        request.headers['game-id'],
        request.body,
      );
      return answer(found);
    },
  );
}
