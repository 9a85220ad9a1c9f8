import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ApiKey, ApiKeyList, NewApiKey } from '@coinop/protocol';
import type { ApiKeySummary } from '../../credentials/api-keys.js';
import type { DeveloperKeys } from '../../services/developer-keys.js';
import { Security } from '../../listener/openapi.js';
import type { SchemaMatches } from '../../listener/wire-check.js';

const TAGS = ['developer'];

const bearer =
  'Authorization: Bearer <player access token> of the developer’s wallet, from the sign-in ' +
  'service (its POST /wallet/verify, or the CLI login). Errors: 401 missing_bearer_token / ' +
  'invalid_player_token.';

const KeyCreated = Type.Object({
  apiKey: Type.String({ description: 'The new API key; shown only in this response' }),
  prefix: Type.String({ description: 'The key’s public prefix, to list or revoke it by' }),
  createdAt: Type.String({ format: 'date-time' }),
});
const KeySummary = Type.Object({
  prefix: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
const KeyList = Type.Object({ keys: Type.Array(KeySummary) });

declare const _keyCreated: SchemaMatches<typeof KeyCreated, NewApiKey>;
declare const _keySummary: SchemaMatches<typeof KeySummary, ApiKey>;
declare const _keyList: SchemaMatches<typeof KeyList, ApiKeyList>;

const PrefixParams = Type.Object({ prefix: Type.String({ minLength: 1, maxLength: 64 }) });

const toWire = (k: ApiKeySummary) => ({
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/**
 * A developer's API keys, managed with a player token of their wallet (spec 5.1): creating the
 * first key creates the developer account. Registered inside the /developer plugin.
 */
export function developerApiKeyRoutes(
  app: FastifyInstance,
  authenticate: (request: FastifyRequest) => Promise<{ playerId: string }>,
  keys: DeveloperKeys,
): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/apikey',
    {
      schema: {
        operationId: 'developerCreateApiKey',
        security: Security.playerToken,
        tags: TAGS,
        summary: 'Create an API key',
        description:
          'Creates the developer account of the wallet on first use and a new API key, shown ' +
          `only in this response and stored hashed. ${bearer} 409 api_key_limit_reached.`,
        response: { 201: KeyCreated },
      },
    },
    async (request, reply) => {
      const { playerId } = await authenticate(request);
      const key = await keys.create(playerId);
      reply.code(201);
      return { apiKey: key.apiKey, prefix: key.prefix, createdAt: key.createdAt.toISOString() };
    },
  );

  r.get(
    '/apikey',
    {
      schema: {
        operationId: 'developerListApiKeys',
        security: Security.playerToken,
        tags: TAGS,
        summary: 'List API keys',
        description: `The developer’s keys by prefix, live and revoked, oldest first. ${bearer}`,
        response: { 200: KeyList },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      return { keys: (await keys.list(playerId)).map(toWire) };
    },
  );

  r.delete(
    '/apikey/:prefix',
    {
      schema: {
        operationId: 'developerRevokeApiKey',
        security: Security.playerToken,
        tags: TAGS,
        summary: 'Revoke an API key',
        description:
          'Revokes the key at once; revoking it again keeps the first date. ' +
          `${bearer} 404 api_key_not_found.`,
        params: PrefixParams,
        response: { 200: KeySummary },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      return toWire(await keys.revoke(playerId, request.params.prefix));
    },
  );
}
