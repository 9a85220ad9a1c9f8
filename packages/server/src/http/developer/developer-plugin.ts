import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import cors from '@fastify/cors';
import { availableUnits, formatHst, lockedUnits } from '@coinop/core';
import type { DeveloperBalance } from '@coinop/protocol';
import { playerTokenServices } from '../../credentials/player-token-services.js';
import { developerApiKeyRoutes } from './developer-api-keys.js';
import { testerRoutes } from './testers.js';
import { developerScreenshotRoutes } from './developer-screenshots.js';
import { developerPublishRequestRoutes } from './publish-requests.js';
import { developerGameRoutes } from './developer-games.js';
import { withdrawalRoutes } from '../shared/withdrawals.js';
import { developerTournamentRoutes } from './developer-tournaments.js';
import { developerVerifierRoutes } from './developer-verifier.js';
import { reviewRoutes } from '../shared/reviews.js';
import { developerReviewScope } from '../../services/score-reviews.js';
import { developerScoreVoidRoutes } from './developer-score-voids.js';
import { developerById } from '../../services/tournaments.js';
import { API_KEY_HEADER } from '../../credentials/api-keys.js';
import { DeveloperPortal } from '../../services/developer-games.js';
import { DeveloperKeys } from '../../services/developer-keys.js';
import { AccountReads } from '../../services/account-reads.js';
import { Security } from '../../listener/openapi.js';
import type { SchemaMatches } from '../../listener/wire-check.js';

const TAGS = ['developer'];
/** Who may call a route on one of the developer's games. */
const who =
  "The game's developer: the portal's session or the developer's API key; another " +
  "developer's game answers 404 game_not_found.";
/** Where app.ts mounts this plugin; CORS preflight stays inside it. */
export const DEVELOPER_PREFIX = '/developer';

const bearer =
  'Authorization: Bearer <player access token> of the developer’s wallet, from the sign-in ' +
  'service (its POST /wallet/verify, or the CLI login). Errors: 401 missing_bearer_token / ' +
  'invalid_player_token.';

const DeveloperBalanceSchema = Type.Object({
  available: Type.String({ description: 'HST the developer may withdraw, as an exact decimal' }),
  reserved: Type.String({
    description: 'HST reserved by withdrawals not yet paid, as an exact decimal',
  }),
});
declare const _balance: SchemaMatches<typeof DeveloperBalanceSchema, DeveloperBalance>;

/**
 * The developer's side of the arcade, with a player token of their wallet (and, where a script
 * may call, the developer's API key): API keys, the portal's games, testers, publish requests,
 * tournaments, withdrawals and the balance. Mounted at /developer.
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

  developerApiKeyRoutes(app, (request) => players.authenticate(request), keys);
  developerGameRoutes(app, { authenticate: (request) => players.authenticate(request) });
  testerRoutes(app, (request) => players.authenticate(request));
  developerScreenshotRoutes(app, (request) => players.authenticate(request));
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
  const developerIdOf = async (request: FastifyRequest): Promise<string> => {
    if (request.headers[API_KEY_HEADER] !== undefined) {
      return (await keys.verify(request.headers[API_KEY_HEADER])).developerId;
    }
    return (await portal.developerOf((await players.authenticate(request)).playerId)).id;
  };
  // The developer the portal's session or the API key names.
  const developerOf = async (request: FastifyRequest) => {
    if (request.headers[API_KEY_HEADER] !== undefined) {
      const { developerId } = await keys.verify(request.headers[API_KEY_HEADER]);
      return developerById(arcade, developerId);
    }
    return portal.developerOf((await players.authenticate(request)).playerId);
  };
  developerTournamentRoutes(app, {
    tags: TAGS,
    security,
    who,
    developerOf: async (request) => ({
      kind: 'developer',
      developer: await developerOf(request),
    }),
  });
  developerVerifierRoutes(app, { tags: TAGS, security, who, developerOf });
  reviewRoutes(app, {
    audience: 'developer',
    tags: TAGS,
    security,
    who,
    reviewerOf: async (request, gameId) => {
      const developerId = await developerIdOf(request);
      const scope = await developerReviewScope(arcade, developerId, gameId ?? '');
      return { scope, actor: { kind: 'developer', developerId } };
    },
    voider: arcade.voids,
  });
  developerScoreVoidRoutes(app, {
    tags: TAGS,
    security: security.map((s) =>
      Object.fromEntries(Object.entries(s).map(([k, v]) => [k, [...v]])),
    ),
    developerIdOf,
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
