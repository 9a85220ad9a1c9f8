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

export interface RegistrationPluginOptions {
  /** Replaces the cover check built from config (fetch over the network, 1920×1080). */
  checkCover?: CoverCheck;
}

const TAGS = [ApiTags.registration];

const CreateGameBody = Type.Object(
  {
    name: text(GAME_FIELD_LIMITS.name, 'Game name, 1 to 100 characters; fixed once registered.', 1),
    description: mutableFields.description,
    coverUrl,
    scoreDisplay: ScoreDisplaySchema,
    ...optionalListingFields,
  },
  { additionalProperties: false, description: 'CreateGameRequest (spec 2.9).' },
);

const UpdateGameBody = Type.Object(
  {
    description: Type.Optional(mutableFields.description),
    coverUrl: Type.Optional(coverUrl),
    ...optionalListingFields,
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
          'Errors: 400 validation_failed, 401 missing_api_key / invalid_api_key, 422 ' +
          'cover_unreachable / cover_not_image / cover_wrong_size.',
        headers: Type.Object({ [API_KEY_HEADER]: apiKeyHeader }),
        body: CreateGameBody,
        response: { 201: GameSchema, 429: RateLimitedResponse },
      },
    },
    async (request, reply) => {
      const { developerId } = apiKeyOf(request);
      const found = await registerGame(deps, developerId, request.body);
      return reply.code(201).send(gameToWire(found.game, found.leaderboards, found.leadersByBoard));
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
          "key's developer. Errors: 400 validation_failed, 401 missing_api_key / " +
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
      return gameToWire(found.game, found.leaderboards, found.leadersByBoard);
    },
  );
}
