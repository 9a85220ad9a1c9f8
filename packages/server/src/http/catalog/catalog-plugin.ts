import { catalogLiveRoutes } from './catalog-live.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CoinopError } from '@coinop/core';
import { catalogDiscoveryRoutes } from './catalog-discovery-routes.js';
import { CatalogGameListSchema, catalogGameToWire } from './catalog-schemas.js';
import { boardRoutes } from '../shared/boards.js';
import { catalogTournamentRoutes } from './catalog-tournaments.js';
import { catalogImageRoutes } from './catalog-images.js';
import { catalogPlayerRoutes } from './catalog-players.js';
import { ApiTags, Security } from '../../listener/openapi.js';
import { GameSchema, Uuid } from '../shared/schemas.js';
import { gameToWire } from '../shared/wire.js';

/**
 * The public catalog the web app shows: published games and one game's page. No credentials:
 * everything here is what any visitor of the arcade may see.
 */
export async function catalogPlugin(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { arcade, config } = app;

  app.get(
    '/catalog/games',
    {
      schema: {
        operationId: 'listCatalogGames',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: 'Published games with their tiers and their week, newest first or as sorted',
        description:
          'sort=popular: most plays begun in the last 7 days first; sort=pool: most HST paid ' +
          "into the game's boards in the last 7 days first; sort=new (the default): newest " +
          'listed first. Ties keep the newest first (docs/concepts/discovery.md).',
        querystring: Type.Object({
          sort: Type.Optional(
            Type.Union([Type.Literal('popular'), Type.Literal('new'), Type.Literal('pool')], {
              description: 'popular, new (default) or pool',
            }),
          ),
          search: Type.Optional(
            Type.String({
              maxLength: 100,
              description: 'words in the name, tag line or description',
            }),
          ),
          category: Type.Optional(
            Type.String({ maxLength: 100, description: 'exact category, any letter case' }),
          ),
        }),
        response: { 200: CatalogGameListSchema },
      },
    },
    async (request) => {
      const { sort = 'new', ...filter } = request.query;
      const games = await arcade.discovery.catalog(arcade.record.id, filter, sort);
      return { games: games.map(catalogGameToWire) };
    },
  );

  app.get(
    '/catalog/games/:gameId',
    {
      schema: {
        operationId: 'getCatalogGame',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: 'A published game with its tiers and their current leaders',
        params: Type.Object({ gameId: Uuid('the game') }),
        response: { 200: Type.Ref(GameSchema) },
      },
    },
    async (request) => {
      const { gameId } = request.params;
      const view = await arcade.reads.gameView(gameId);
      // An unpublished game is not public: answer as if it did not exist.
      if (view.game.publishedAt === null || view.game.arcadeId !== arcade.record.id) {
        throw new CoinopError('game_not_found', `game ${gameId} does not exist`);
      }
      return gameToWire(
        view.game,
        view.leaderboards,
        view.leaders,
        view.scoreRules,
        config.payoutHoldSeconds,
      );
    },
  );

  catalogTournamentRoutes(app);
  catalogLiveRoutes(app);

  boardRoutes(app, {
    path: '/catalog/games/:gameId/boards/:leaderboardId',
    params: Type.Object({ gameId: Uuid('the game'), leaderboardId: Uuid('the tier') }),
    tags: [ApiTags.catalog],
    security: Security.none,
    operationIds: { page: 'getCatalogBoardPage', around: 'getCatalogBoardAround' },
    who: 'Public, for a published game: leaders are what any visitor of the arcade sees.',
    reads: arcade.reads,
    allow: async (_request, gameId) => {
      const { game } = await arcade.reads.gameView(gameId);
      if (game.publishedAt === null || game.arcadeId !== arcade.record.id) {
        throw new CoinopError('game_not_found', `game ${gameId} does not exist`);
      }
    },
  });

  catalogImageRoutes(app);
  catalogDiscoveryRoutes(app);
  catalogPlayerRoutes(app);
}
