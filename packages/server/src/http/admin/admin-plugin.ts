import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { timingSafeEqual } from 'node:crypto';
import { CoinopError, parseHst, unitsToHstNumber } from '@coinop/core';
import { hashSecret } from '../../credentials/secrets.js';
import type { GameRecord } from '../../services/game-reads.js';
import { playerTokenServices } from '../../signin/signin.js';
import { Security } from '../openapi.js';
import {
  accountBalance,
  addLeaderboard,
  auditHst,
  createClient,
  createDeveloper,
  mintHst,
  mintTokenOfPlayer,
  publish,
  registerPlayer,
  requirePlayer,
  unpublish,
} from '../../services/admin.js';
import { Uuid } from '../shared/schemas.js';
import { bearerToken } from '../../listener/bearer.js';
import { adminChainRoutes } from './admin-chain.js';
import { AdminGame, adminGameToWire, adminLookupRoutes } from './admin-lookups.js';
import { adminPublishRequestRoutes } from '../shared/publish-requests.js';
import { adminTournamentRoutes } from './admin-tournaments.js';

import {
  TAGS,
  CreateDeveloperBody,
  DeveloperCreated,
  GameParams,
  ClientCreated,
  CreatePlayerBody,
  PlayerCreated,
  MintBody,
  Minted,
  BalanceParams,
  Balance,
  Audit,
  AuditQuery,
  PublishedGame,
  CreateLeaderboardBody,
  LeaderboardCreated,
  KeysRotated,
  PlayerParams,
  PlayerTokenBody,
  PlayerTokenMinted,
} from './admin-schemas.js';

/** The operator API behind `coinop admin`, guarded by the admin bearer token. */
export async function adminPlugin(
  app: FastifyInstance,
  options: { adminToken: string },
): Promise<void> {
  const tokenHash = hashSecret(options.adminToken);
  // Encapsulated: the hook guards only the routes of this plugin.
  app.addHook('onRequest', async (request) => {
    const presented = bearerToken(request);
    if (presented === null) {
      throw new CoinopError(
        'missing_bearer_token',
        'the admin API needs an Authorization: Bearer <admin token> header',
      );
    }
    // Hashing both sides gives equal lengths, so the comparison is constant-time.
    if (!timingSafeEqual(hashSecret(presented), tokenHash)) {
      throw new CoinopError('invalid_admin_token', 'the bearer token is not the admin token');
    }
  });

  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;
  const signin = playerTokenServices(app.config, arcade);

  r.post(
    '/admin/developers',
    {
      schema: {
        operationId: 'adminCreateDeveloper',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Create a developer and an API key',
        description:
          'Creates the developer of a wallet (or finds the existing one) and issues a new API key.',
        body: CreateDeveloperBody,
        response: { 201: DeveloperCreated },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createDeveloper(arcade, request.body.wallet);
    },
  );

  r.post(
    '/admin/games/:gameId/clients',
    {
      schema: {
        operationId: 'adminCreateClient',
        tags: TAGS,
        security: Security.adminToken,
        summary: "Create a client id and secret for a game's server",
        params: GameParams,
        response: { 201: ClientCreated },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createClient(arcade, request.params.gameId);
    },
  );

  r.post(
    '/admin/players',
    {
      schema: {
        operationId: 'adminCreatePlayer',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Create a player',
        description: 'One player per wallet: a second one is 409 wallet_already_registered.',
        body: CreatePlayerBody,
        response: { 201: PlayerCreated },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return registerPlayer(arcade, request.body);
    },
  );

  r.post(
    '/admin/hst/mints',
    {
      schema: {
        operationId: 'adminMintHst',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Mint HST into an account',
        description:
          'A posted transfer from the mint account. The only way HST comes into existence.',
        body: MintBody,
        response: { 201: Minted },
      },
    },
    async (request, reply) => {
      const { accountId, amount, transferId } = request.body;
      const amountUnits = parseHst(amount, 'amount');
      const minted = await mintHst(arcade, { id: accountId, amountUnits, transferId });
      reply.code(201);
      return { transferId: minted.transferId, balance: unitsToHstNumber(minted.balanceUnits) };
    },
  );

  r.get(
    '/admin/hst/balances/:accountId',
    {
      schema: {
        operationId: 'adminGetBalance',
        tags: TAGS,
        security: Security.adminToken,
        summary: "An account's balance",
        params: BalanceParams,
        response: { 200: Balance },
      },
    },
    async (request) => accountBalance(arcade, request.params.accountId),
  );

  r.get(
    '/admin/hst/audit',
    {
      schema: {
        operationId: 'adminAuditHst',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Audit the ledger, and with ?chain=true reconcile the chain vault with it',
        description:
          'Totals over every account, the HST minted and held by chain vaults, and whether the ' +
          'books balance. With `chain=true` (chain mode only, else 409 chain_mode_off), also the ' +
          "vault's HST on chain against what the ledger owes, exactly, at the watcher's " +
          'checkpoint block, line by line, with the unexplained difference; 503 chain_not_ready ' +
          'before the watcher has read a block or while the chain does not answer.',
        querystring: AuditQuery,
        response: { 200: Audit },
      },
    },
    async (request) => auditHst(arcade, { chain: request.query.chain === 'true' }),
  );

  r.post(
    '/admin/games/:gameId/publish',
    {
      schema: {
        operationId: 'adminPublishGame',
        tags: TAGS,
        security: Security.adminToken,
        summary: "List a game in the arcade's catalog",
        description: 'Idempotent: publishing again keeps the first publishedAt.',
        params: GameParams,
        response: { 200: PublishedGame },
      },
    },
    async (request) => toPublishedGame(await publish(arcade, request.params.gameId)),
  );

  r.post(
    '/admin/games/:gameId/unpublish',
    {
      schema: {
        tags: TAGS,
        security: Security.adminToken,
        operationId: 'adminUnpublishGame',
        summary: "Take a game off the arcade's catalog",
        description:
          'The opposite of publish: the game leaves the catalog and, as before it was published, ' +
          'only its developer and testers may open new plays. Plays already open keep settling ' +
          '(a suspension voids them instead). Idempotent; publishing again gives a new publishedAt.',
        params: GameParams,
        response: { 200: AdminGame },
      },
    },
    async (request) => adminGameToWire(await unpublish(arcade, request.params.gameId)),
  );

  r.post(
    '/admin/games/:gameId/suspend',
    {
      schema: {
        operationId: 'adminSuspendGame',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Suspend a game: refuse its new plays and void its open ones',
        description:
          'From now on every play of the game is refused with 403 game_suspended; each open play ' +
          'is voided, its locked HST returned to its player and nobody paid. Suspending again ' +
          'keeps the first date and voids whatever is still open.',
        params: GameParams,
        response: {
          200: Type.Object({
            gameId: Uuid('The game'),
            suspended: Type.Literal(true),
            voidedPlays: Type.Integer({ description: 'Open plays voided by this call' }),
          }),
        },
      },
    },
    async (request) => {
      const { voidedPlays } = await arcade.consent.suspend(request.params.gameId);
      return { gameId: request.params.gameId, suspended: true as const, voidedPlays };
    },
  );

  r.post(
    '/admin/games/:gameId/resume',
    {
      schema: {
        operationId: 'adminResumeGame',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Lift a suspension: the game takes plays again',
        params: GameParams,
        response: {
          200: Type.Object({ gameId: Uuid('The game'), suspended: Type.Literal(false) }),
        },
      },
    },
    async (request) => {
      await arcade.consent.resume(request.params.gameId);
      return { gameId: request.params.gameId, suspended: false as const };
    },
  );

  r.post(
    '/admin/leaderboards',
    {
      schema: {
        operationId: 'adminCreateLeaderboard',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Add a leaderboard (tier) to a game',
        body: CreateLeaderboardBody,
        response: { 201: LeaderboardCreated },
      },
    },
    async (request, reply) => {
      const { gameId, name, cost, leadersMax } = request.body;
      const created = await addLeaderboard(arcade, { gameId, name, costHst: cost, leadersMax });
      reply.code(201);
      return created;
    },
  );

  r.post(
    '/admin/keys/rotate',
    {
      schema: {
        operationId: 'adminRotateSigningKey',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Rotate the player-token signing key',
        description:
          'Retires the active signing key and signs with a new one from now on. The retired key ' +
          'stays in the JWKS until every token it signed has expired.',
        response: { 200: KeysRotated },
      },
    },
    async () => signin.keys.rotate(),
  );

  adminChainRoutes(app);
  adminLookupRoutes(app);
  adminPublishRequestRoutes(app);
  adminTournamentRoutes(app, TAGS);

  r.post(
    '/admin/players/:playerId/token',
    {
      schema: {
        operationId: 'adminMintPlayerToken',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Mint a player token',
        description:
          'A player token as the sign-in service issues, for testing a game server without a ' +
          'browser.',
        params: PlayerParams,
        body: PlayerTokenBody,
        response: { 201: PlayerTokenMinted },
      },
    },
    async (request, reply) => {
      const player = await requirePlayer(arcade, request.params.playerId);
      const minted = await mintTokenOfPlayer(arcade, signin, {
        playerId: player.id,
        ttlSeconds: request.body.ttl,
        maxTtlSeconds: app.config.playerTokenTtlMaxSeconds,
      });
      reply.code(201);
      return minted;
    },
  );
}

function toPublishedGame(game: GameRecord): Static<typeof PublishedGame> {
  if (game.publishedAt === null)
    throw new TypeError(`game ${game.id} was published without a date`);
  return {
    ...game,
    publishedAt: game.publishedAt.toISOString(),
    createdAt: game.createdAt.toISOString(),
    updatedAt: game.updatedAt.toISOString(),
  };
}
