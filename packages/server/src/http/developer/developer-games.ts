import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formatHst } from '@coinop/core';
import type { DeveloperRecord } from '../../services/developer-games.js';

import { DeveloperPortal } from '../../services/developer-games.js';
import { developerStatsRoutes } from './developer-stats.js';

import type { CoverCheck } from '../../services/cover-check.js';
import { RateLimitedResponse, Security } from '../../listener/openapi.js';
import { oncePerRequest, perKey } from '../../listener/rate-limit.js';

import {
  TAGS,
  GAME_BODY_LIMIT,
  bearer,
  ownGame,
  TierSchema,
  ClientSchema,
  DeveloperGameSchema,
  DeveloperGameListSchema,
  CreateBody,
  UpdateBody,
  AddTierBody,
  PatchTierBody,
  NewClientSchema,
  StatsSchema,
  RetiredTierSchema,
  GameParams,
  TierParams,
  ClientParams,
  tierToWire,
  clientToWire,
  developerGameToWire,
} from './developer-games-schemas.js';

export interface DeveloperGameRoutesOptions {
  /** The signed-in player of a request (throws 401 otherwise). */
  readonly authenticate: (request: FastifyRequest) => Promise<{ playerId: string }>;
  /** Replaces the cover check built from config (tests). */
  readonly checkCover?: CoverCheck | undefined;
}

/** What the portal's game routes share: the portal, the signed-in developer, the rate limit. */
interface PortalRoutes {
  readonly portal: DeveloperPortal;
  readonly developer: (request: FastifyRequest) => Promise<DeveloperRecord>;
  readonly registration: ReturnType<typeof perKey>;
}

/**
 * The developer portal's games, tiers, clients and stats (issue 5), for the wallet's developer.
 * Registered inside the /developer plugin, so CORS and the prefix apply.
 */
export function developerGameRoutes(
  app: FastifyInstance,
  options: DeveloperGameRoutesOptions,
): void {
  const portal = new DeveloperPortal(app.arcade, options.checkCover);
  const signedIn = oncePerRequest(options.authenticate);
  const developer = async (request: FastifyRequest): Promise<DeveloperRecord> =>
    portal.developerOf((await signedIn(request)).playerId);
  // Registering and updating games may fetch a cover image: limited as POST /game/create is.
  const registration = perKey(
    app.config.rateLimits.registration,
    'this developer',
    async (request) => (await signedIn(request)).playerId,
  );
  const routes = { portal, developer, registration };
  gameRoutes(app, routes);
  tierRoutes(app, routes);
  clientRoutes(app, routes);
  developerStatsRoutes(app, signedIn);
}

/** The developer's games: list, read, register and update. */
function gameRoutes(app: FastifyInstance, { portal, developer, registration }: PortalRoutes): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/games',
    {
      schema: {
        operationId: 'developerListGames',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'List my games',
        description: `The developer’s games, newest first, with live tiers and clients. ${bearer}`,
        response: { 200: DeveloperGameListSchema },
      },
    },
    async (request) => ({
      games: (await portal.listGames(await developer(request))).map(developerGameToWire),
    }),
  );

  r.get(
    '/games/:gameId',
    {
      schema: {
        operationId: 'developerGetGame',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'One of my games',
        description: `${bearer} ${ownGame}`,
        params: GameParams,
        response: { 200: DeveloperGameSchema },
      },
    },
    async (request) =>
      developerGameToWire(await portal.getGame(await developer(request), request.params.gameId)),
  );

  r.post(
    '/games',
    {
      bodyLimit: GAME_BODY_LIMIT,
      config: registration,
      schema: {
        operationId: 'developerCreateGame',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Register a game',
        description:
          'Registers a game with the default tiers, as POST /game/create does (spec 4.8), with a ' +
          'cover URL or an uploaded cover. Errors: 400 validation_failed (both or neither cover), ' +
          `422 cover_unreachable / cover_not_image / cover_wrong_size. ${bearer}`,
        body: CreateBody,
        response: { 201: DeveloperGameSchema, 429: RateLimitedResponse },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const view = await portal.createGame(await developer(request), {
        ...body,
        description: body.description ?? '',
        scoreDisplay: body.scoreDisplay ?? 'NORMAL',
      });
      reply.code(201);
      return developerGameToWire(view);
    },
  );

  r.patch(
    '/games/:gameId',
    {
      bodyLimit: GAME_BODY_LIMIT,
      config: registration,
      schema: {
        operationId: 'developerUpdateGame',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Update one of my games',
        description:
          'Changes any mutable field (spec 4.9); a coverUrl replaces an uploaded cover and an ' +
          'upload replaces a cover URL. Errors: 409 field_immutable (name, scoreDisplay), 422 ' +
          `cover_*. ${bearer} ${ownGame}`,
        params: GameParams,
        body: UpdateBody,
        response: { 200: DeveloperGameSchema, 429: RateLimitedResponse },
      },
    },
    async (request) =>
      developerGameToWire(
        await portal.updateGame(await developer(request), request.params.gameId, request.body),
      ),
  );
}

/** A game's tiers: add, change, retire. */
function tierRoutes(app: FastifyInstance, { portal, developer }: PortalRoutes): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/games/:gameId/leaderboards',
    {
      schema: {
        operationId: 'developerAddLeaderboard',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Add a tier',
        description:
          'A new leaderboard tier, listed after the others. Its name may not be another live ' +
          'tier’s of the game (in any case, spaces around ignored): 409 tier_name_taken. ' +
          `${bearer} ${ownGame}`,
        params: GameParams,
        body: AddTierBody,
        response: { 201: TierSchema },
      },
    },
    async (request, reply) => {
      const tier = await portal.addTier(
        await developer(request),
        request.params.gameId,
        request.body,
      );
      reply.code(201);
      return tierToWire(tier);
    },
  );

  r.patch(
    '/games/:gameId/leaderboards/:leaderboardId',
    {
      schema: {
        operationId: 'developerUpdateLeaderboard',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Rename a tier or change its cost',
        description:
          'A new cost applies to plays opened afterwards; open plays settle at the cost they ' +
          'locked. Errors: 404 leaderboard_not_found, 409 leaderboard_retired, 409 ' +
          'tier_name_taken (another live tier of the game has the name). ' +
          `${bearer} ${ownGame}`,
        params: TierParams,
        body: PatchTierBody,
        response: { 200: TierSchema },
      },
    },
    async (request) => {
      const { gameId, leaderboardId } = request.params;
      const tier = await portal.updateTier(
        await developer(request),
        gameId,
        leaderboardId,
        request.body,
      );
      return tierToWire(tier);
    },
  );

  r.delete(
    '/games/:gameId/leaderboards/:leaderboardId',
    {
      schema: {
        operationId: 'developerRetireLeaderboard',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Retire a tier',
        description:
          'The tier takes no new plays (409 leaderboard_retired) and leaves the game’s reads and ' +
          'the catalog; its open plays still settle and its leaders stay readable. The last live ' +
          'tier cannot be retired (409 last_live_leaderboard). Retiring again answers the same. ' +
          `Errors: 404 leaderboard_not_found. ${bearer} ${ownGame}`,
        params: TierParams,
        response: { 200: RetiredTierSchema },
      },
    },
    async (request) => {
      const { gameId, leaderboardId } = request.params;
      return portal.retireTier(await developer(request), gameId, leaderboardId);
    },
  );
}

/** A game's server clients, and its stats. */
function clientRoutes(app: FastifyInstance, { portal, developer }: PortalRoutes): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/games/:gameId/clients',
    {
      schema: {
        operationId: 'developerCreateClient',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Create a game server client',
        description:
          'A new client id and secret for POST /oauth/writetoken; the secret is shown only here. ' +
          `${bearer} ${ownGame}`,
        params: GameParams,
        response: { 201: NewClientSchema },
      },
    },
    async (request, reply) => {
      const client = await portal.createClient(await developer(request), request.params.gameId);
      reply.code(201);
      return { ...client, createdAt: client.createdAt.toISOString() };
    },
  );

  r.post(
    '/games/:gameId/clients/:clientId/rotate',
    {
      schema: {
        operationId: 'developerRotateClient',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Rotate a client’s secret',
        description:
          'A new secret for the same client id, shown only here; the old secret fails ' +
          'POST /oauth/writetoken at once (write tokens it already got live until they expire). ' +
          `Errors: 404 client_not_found, 409 client_revoked. ${bearer} ${ownGame}`,
        params: ClientParams,
        response: { 200: NewClientSchema },
      },
    },
    async (request) => {
      const { gameId, clientId } = request.params;
      const client = await portal.rotateClient(await developer(request), gameId, clientId);
      return { ...client, createdAt: client.createdAt.toISOString() };
    },
  );

  r.delete(
    '/games/:gameId/clients/:clientId',
    {
      schema: {
        operationId: 'developerRevokeClient',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Revoke a client',
        description:
          'The client’s secret fails POST /oauth/writetoken at once; revoking again keeps the ' +
          `first date. Errors: 404 client_not_found. ${bearer} ${ownGame}`,
        params: ClientParams,
        response: { 200: ClientSchema },
      },
    },
    async (request) => {
      const { gameId, clientId } = request.params;
      return clientToWire(await portal.revokeClient(await developer(request), gameId, clientId));
    },
  );

  r.get(
    '/games/:gameId/stats',
    {
      schema: {
        operationId: 'developerGetGameStats',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Plays, scores and HST earned of one of my games',
        description: `${bearer} ${ownGame}`,
        params: GameParams,
        response: { 200: StatsSchema },
      },
    },
    async (request) => {
      const stats = await portal.stats(await developer(request), request.params.gameId);
      return {
        plays: stats.plays,
        scores: stats.scores,
        hstEarned: formatHst(stats.earnedUnits),
        recentPlays: stats.recentPlays.map((p) => ({
          playId: p.playId,
          playerName: p.playerName,
          leaderboardName: p.leaderboardName,
          cost: formatHst(p.costUnits),
          status: p.status,
          score: p.score,
          createdAt: p.createdAt.toISOString(),
        })),
      };
    },
  );
}
