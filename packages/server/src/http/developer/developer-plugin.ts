import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import cors from '@fastify/cors';
import { availableUnits, formatHst, lockedUnits } from '@coinop/core';
import type { ApiKey, ApiKeyList, DeveloperBalance, NewApiKey } from '@coinop/protocol';
import { playerTokenServices } from '../../signin/signin.js';
import type { ApiKeySummary } from '../../credentials/api-keys.js';
import { testerRoutes } from '../shared/testers.js';
import { developerPublishRequestRoutes } from '../shared/publish-requests.js';
import { developerGameRoutes } from './developer-games.js';
import { withdrawalRoutes } from '../shared/withdrawals.js';
import { developerTournamentRoutes } from './developer-tournaments.js';
import { developerById } from '../../services/tournaments.js';
import { API_KEY_HEADER } from '../../credentials/api-keys.js';
import { DeveloperPortal } from '../../services/developer-games.js';
import { DeveloperKeys } from '../../services/developer-keys.js';
import { AccountReads } from '../../services/account-reads.js';
import { Security } from '../openapi.js';
import type { SchemaMatches } from '../../listener/wire-check.js';

const TAGS = ['developer'];
/** Where app.ts mounts this plugin; CORS preflight stays inside it. */
export const DEVELOPER_PREFIX = '/developer';

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

const DeveloperBalanceSchema = Type.Object({
  available: Type.String({ description: 'HST the developer may withdraw, as an exact decimal' }),
  reserved: Type.String({
    description: 'HST reserved by withdrawals not yet paid, as an exact decimal',
  }),
});
declare const _balance: SchemaMatches<typeof DeveloperBalanceSchema, DeveloperBalance>;

const PrefixParams = Type.Object({ prefix: Type.String({ minLength: 1, maxLength: 64 }) });

const toWire = (k: ApiKeySummary) => ({
  prefix: k.prefix,
  createdAt: k.createdAt.toISOString(),
  revokedAt: k.revokedAt?.toISOString() ?? null,
});

/**
 * A developer's API keys, managed with a player token of their wallet (spec 5.1): creating the
 * first key creates the developer account. Mounted at /developer, with the portal's game routes.
 */
export async function developerPlugin(app: FastifyInstance): Promise<void> {
  const { arcade, config } = app;
  const { players } = playerTokenServices(config, arcade);
  const keys = new DeveloperKeys(arcade);
  const accounts = new AccountReads(arcade);
  if (config.webOrigins.length > 0) {
    // The developer portal runs on a web origin; only the configured ones may call from a page.
    await app.register(cors, {
      origin: [...config.webOrigins],
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type', 'idempotency-key'],
      maxAge: 600,
    });
  }
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
      const { playerId } = await players.authenticate(request);
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
      const { playerId } = await players.authenticate(request);
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
      const { playerId } = await players.authenticate(request);
      return toWire(await keys.revoke(playerId, request.params.prefix));
    },
  );

  developerGameRoutes(app, { authenticate: (request) => players.authenticate(request) });
  testerRoutes(app, (request) => players.authenticate(request));
  developerPublishRequestRoutes(app, (request) => players.authenticate(request));
  const portal = new DeveloperPortal(arcade);
  // The portal's session, or the developer's API key (for scripts paying earnings out).
  const accountOf = async (request: FastifyRequest): Promise<string> => {
    if (request.headers[API_KEY_HEADER] !== undefined) {
      const { developerId } = await keys.verify(request.headers[API_KEY_HEADER]);
      return (await accounts.developer(developerId)).accountId;
    }
    const { playerId } = await players.authenticate(request);
    return (await portal.developerOf(playerId)).accountId;
  };
  const security = [...Security.playerToken, ...Security.apiKey];
  developerTournamentRoutes(app, {
    tags: TAGS,
    security,
    who:
      "The game's developer: the portal's session or the developer's API key; another " +
      "developer's game answers 404 game_not_found.",
    developerOf: async (request) => {
      if (request.headers[API_KEY_HEADER] !== undefined) {
        const { developerId } = await keys.verify(request.headers[API_KEY_HEADER]);
        return { kind: 'developer', developer: await developerById(arcade, developerId) };
      }
      const { playerId } = await players.authenticate(request);
      return { kind: 'developer', developer: await portal.developerOf(playerId) };
    },
  });
  withdrawalRoutes(app, {
    tags: TAGS,
    security,
    who: "the developer's earnings",
    operationIdPrefix: 'developer',
    accountOf,
  });

  r.get(
    '/balance',
    {
      schema: {
        operationId: 'developerGetBalance',
        tags: TAGS,
        security: security.map((s) => ({ ...s })),
        summary: "The developer's HST: earnings available to withdraw, and what is reserved",
        description: `The portal's session (${bearer}) or the developer's API key.`,
        response: { 200: DeveloperBalanceSchema },
      },
    },
    async (request) => {
      const accountId = await accountOf(request);
      const account = await accounts.account(accountId, 'developer');
      return {
        available: formatHst(availableUnits(account)),
        reserved: formatHst(lockedUnits(account)),
      };
    },
  );
}
