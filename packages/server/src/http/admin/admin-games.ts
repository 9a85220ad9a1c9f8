import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { GameRecord } from '../../services/game-reads.js';
import { Security } from '../../listener/openapi.js';
import { addLeaderboard, publish, unpublish } from '../../services/admin.js';
import { Uuid } from '../shared/schemas.js';
import { AdminGame, adminGameToWire } from './admin-lookups.js';
import {
  TAGS,
  GameParams,
  PublishedGame,
  CreateLeaderboardBody,
  LeaderboardCreated,
} from './admin-schemas.js';

/**
 * The operator publishes, unpublishes, suspends and resumes a game, and adds its tiers. Registered
 * inside the admin plugin, so its admin-token hook guards them: only the operator may call them.
 */
export function adminGameRoutes(instance: FastifyInstance): void {
  const r = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = r.arcade;

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
    async (request) =>
      adminGameToWire(
        await unpublish(arcade, request.params.gameId),
        instance.config.payoutHoldSeconds,
      ),
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
}

/** The operator adds a tier to a game. Registered as the game routes above. */
export function adminLeaderboardRoutes(instance: FastifyInstance): void {
  const r = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = r.arcade;

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
