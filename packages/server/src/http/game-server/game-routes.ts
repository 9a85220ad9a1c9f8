import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { GameView } from '../../services/game-reads.js';
import type { GameWire } from '../shared/schemas.js';
import { ApiTags, Security } from '../../listener/openapi.js';
import { GameSchema, Uuid } from '../shared/schemas.js';
import { gameToWire } from '../shared/wire.js';
import { ArcadeGameParams, GamePlayerStandingsSchema } from './game-server-schemas.js';

/**
 * The game with its tiers and leaders, and one player's standings on them (spec 4.3). Registered
 * in the game server plugin's write-token scope.
 */
export function gameReadRoutes(instance: FastifyInstance): void {
  const api = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { arcade, config } = api;
  const serializedViews = new WeakMap<GameView, string>();

  api.get(
    '/arcades/:arcadeId/developergames/:gameId',
    {
      schema: {
        operationId: 'getGame',
        tags: [ApiTags.gameServer],
        summary: 'The game with its tiers and their current leaders (spec 4.3)',
        security: Security.writeToken,
        params: ArcadeGameParams,
        response: { 200: Type.Ref(GameSchema) },
      },
    },
    async (request, reply) => {
      const view = await arcade.reads.gameView(request.params.gameId);
      // The hottest read: each cached view is serialized once, then sent as is.
      let body = serializedViews.get(view);
      if (body === undefined) {
        body = JSON.stringify(
          gameToWire(
            view.game,
            view.leaderboards,
            view.leaders,
            view.scoreRules,
            config.payoutHoldSeconds,
          ),
        );
        serializedViews.set(view, body);
      }
      // A string payload skips the response serializer; the schema still documents the shape.
      return reply.type('application/json; charset=utf-8').send(body as unknown as GameWire);
    },
  );

  api.get(
    '/arcades/:arcadeId/developergames/:gameId/player/:playerId',
    {
      schema: {
        operationId: 'getGamePlayerStandings',
        tags: [ApiTags.gameServer],
        summary: "The game's tiers with one player's best score and rank on each",
        security: Security.writeToken,
        params: Type.Object({
          arcadeId: Uuid('the arcade'),
          gameId: Uuid('the game'),
          playerId: Uuid('the player'),
        }),
        response: { 200: GamePlayerStandingsSchema },
      },
    },
    async (request) => {
      const { gameId, playerId } = request.params;
      const [view, standings] = await Promise.all([
        arcade.reads.gameView(gameId),
        arcade.reads.standings(gameId, playerId),
      ]);
      const wire = gameToWire(
        view.game,
        view.leaderboards,
        view.leaders,
        view.scoreRules,
        config.payoutHoldSeconds,
      );
      const byBoard = new Map(standings.map((s) => [s.leaderboardId, s]));
      return {
        ...wire,
        leaderboards: wire.leaderboards.map((b) => ({
          ...b,
          playerBestScore: byBoard.get(b.id)?.score ?? null,
          playerRank: byBoard.get(b.id)?.rank ?? null,
        })),
      };
    },
  );
}
