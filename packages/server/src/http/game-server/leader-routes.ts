import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CoinopError, unitsToHstNumber } from '@coinop/core';
import { ApiTags, Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import { boardRoutes } from '../shared/boards.js';
import {
  LeaderListSchema,
  PAYOUTS_PAGE_MAX,
  PayoutsPageSchema,
  TopScoreSchema,
} from './game-server-schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

/**
 * A tier's leaders, its board and a player's best score on it. Registered in the game server
 * plugin's write-token scope.
 */
export function leaderRoutes(instance: FastifyInstance): void {
  const api = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = api.arcade;

  api.get(
    '/arcades/:arcadeId/games/:gameId/leaders/:leaderboardId',
    {
      schema: {
        operationId: 'getLeaders',
        tags: [ApiTags.gameServer],
        summary: 'The current leaders of a tier',
        security: Security.writeToken,
        params: Type.Object({
          arcadeId: Uuid('the arcade'),
          gameId: Uuid('the game'),
          leaderboardId: Uuid('the tier'),
        }),
        response: { 200: LeaderListSchema },
      },
    },
    async (request) => ({
      leaders: await arcade.reads.leaders(request.params.gameId, request.params.leaderboardId),
    }),
  );

  boardRoutes(api, {
    path: '/arcades/:arcadeId/games/:gameId/boards/:leaderboardId',
    params: Type.Object({
      arcadeId: Uuid('the arcade'),
      gameId: Uuid('the game'),
      leaderboardId: Uuid('the tier'),
    }),
    tags: [ApiTags.gameServer],
    security: Security.writeToken,
    operationIds: { page: 'getBoardPage', around: 'getBoardAround' },
    who: "The game's write token, published or not.",
    reads: arcade.reads,
    // The scope's hooks checked the token is this game's.
    allow: async () => {},
  });

  api.get(
    '/arcades/:arcadeId/games/:gameId/topscore/:leaderboardId/:playerId',
    {
      schema: {
        operationId: 'getTopScore',
        tags: [ApiTags.gameServer],
        summary: "A player's best score on a tier (null when they have none)",
        security: Security.writeToken,
        params: Type.Object({
          arcadeId: Uuid('the arcade'),
          gameId: Uuid('the game'),
          leaderboardId: Uuid('the tier'),
          playerId: Uuid('the player'),
        }),
        response: { 200: TopScoreSchema },
      },
    },
    async (request) => {
      const { gameId, leaderboardId, playerId } = request.params;
      const standings = await arcade.reads.standings(gameId, playerId);
      const standing = standings.find((s) => s.leaderboardId === leaderboardId);
      if (!standing) {
        throw new CoinopError(
          'leaderboard_not_in_game',
          `leaderboardId ${leaderboardId} is not a leaderboard of game ${gameId}`,
          { details: { field: 'leaderboardId' } },
        );
      }
      return { userId: playerId, leaderboardId, value: standing.score, rank: standing.rank };
    },
  );
}

/**
 * The leader payouts a player received from the game. Registered in the game server plugin's
 * write-token scope.
 */
export function payoutRoutes(instance: FastifyInstance): void {
  const api = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = api.arcade;

  api.get(
    '/arcades/:arcadeId/games/:gameId/payouts/:playerId',
    {
      schema: {
        operationId: 'getPayouts',
        tags: [ApiTags.gameServer],
        summary: 'Leader payouts a player received from this game, newest first',
        security: Security.writeToken,
        params: Type.Object({
          arcadeId: Uuid('the arcade'),
          gameId: Uuid('the game'),
          playerId: Uuid('the player'),
        }),
        querystring: Type.Object({
          // Query values arrive as text, and the API never coerces types (a body's "12" is not 12).
          limit: Type.Optional(
            Type.String({
              ...Patterns.from1To100,
              description: `page size, 1 to ${PAYOUTS_PAGE_MAX} (default ${PAYOUTS_PAGE_MAX})`,
            }),
          ),
          starting_after: Type.Optional(Uuid('continue after this event id (older events)')),
          ending_before: Type.Optional(Uuid('the page before this event id (newer events)')),
          endingBefore: Type.Optional(Uuid('alias of ending_before')),
        }),
        response: { 200: PayoutsPageSchema },
      },
    },
    async (request) => {
      const { gameId, playerId } = request.params;
      const q = request.query;
      const rows = await arcade.reads.payouts(gameId, playerId, {
        limit: q.limit === undefined ? PAYOUTS_PAGE_MAX : Number(q.limit),
        startingAfter: q.starting_after ?? null,
        endingBefore: q.ending_before ?? q.endingBefore ?? null,
      });
      return {
        startingAfter: rows[0]?.transferId ?? null,
        endingBefore: rows.at(-1)?.transferId ?? null,
        events: rows.map((r) => ({
          eventId: r.transferId,
          details: {
            userId: playerId,
            createdAt: r.createdAt.toISOString(),
            payeeHandle: r.payeeName,
            payerHandle: r.payerName,
            paymentAmount: unitsToHstNumber(r.amount),
          },
        })),
      };
    },
  );
}
