import { catalogLiveRoutes } from './catalog-live.js';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { CoinopError } from '@coinop/core';
import type { CatalogGame, CatalogGameList, CatalogTier } from '@coinop/protocol';
import { boardRoutes } from '../shared/boards.js';
import { catalogTournamentRoutes } from './catalog-tournaments.js';
import { catalogImageRoutes } from './catalog-images.js';
import { ApiTags, Security } from '../../listener/openapi.js';
import { GameSchema, LeaderboardSchema, Uuid } from '../shared/schemas.js';
import { gameToWire, leaderboardToWire } from '../shared/wire.js';
import type { SchemaMatches } from '../../listener/wire-check.js';

const CatalogTierSchema = Type.Pick(LeaderboardSchema, [
  'id',
  'name',
  'cost',
  'currency',
  'formattedCostString',
]);

const CatalogGameSchema = Type.Object(
  {
    id: Uuid('The game id (gameId).'),
    name: Type.String(),
    tagLine: Type.String({ description: 'One-line pitch; empty when unset.' }),
    category: Type.String({ description: 'Catalog category; empty when unset.' }),
    coverUrl: Type.String({ description: 'Cover image URL (a 1920x1080 image).' }),
    url: Type.String({ description: 'Where the game is hosted; empty until set.' }),
    leaderboards: Type.Array(CatalogTierSchema, { description: 'Tiers, in display order.' }),
  },
  { description: 'A published game as the catalog lists it.' },
);
type CatalogGameWire = Static<typeof CatalogGameSchema>;
const CatalogGameListSchema = Type.Object({ games: Type.Array(CatalogGameSchema) });

declare const _catalogTier: SchemaMatches<typeof CatalogTierSchema, CatalogTier>;
declare const _catalogGame: SchemaMatches<typeof CatalogGameSchema, CatalogGame>;
declare const _catalogGameList: SchemaMatches<typeof CatalogGameListSchema, CatalogGameList>;

/**
 * The public catalog the web app shows: published games and one game's page. No credentials:
 * everything here is what any visitor of the arcade may see.
 */
export async function catalogPlugin(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;

  app.get(
    '/catalog/games',
    {
      schema: {
        operationId: 'listCatalogGames',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: 'Published games with their tiers, newest first',
        querystring: Type.Object({
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
      const games = await arcade.reads.catalog(arcade.record.id, request.query);
      return {
        games: games.map((g): CatalogGameWire => ({
          id: g.id,
          name: g.name,
          tagLine: g.tagLine,
          category: g.category,
          coverUrl: g.coverUrl,
          url: g.url,
          leaderboards: g.leaderboards.map((b) => {
            const { id, name, cost, currency, formattedCostString } = leaderboardToWire(b, []);
            return { id, name, cost, currency, formattedCostString };
          }),
        })),
      };
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
      return gameToWire(view.game, view.leaderboards, view.leaders, view.scoreRules);
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
}
