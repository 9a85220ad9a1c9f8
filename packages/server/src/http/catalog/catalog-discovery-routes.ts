import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { formatHst, type Units } from '@coinop/core';
import type { DeveloperPage, GamePayouts, PayoutShare, TierPayout } from '@coinop/protocol';
import { ApiTags, Security } from '../../listener/openapi.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Uuid } from '../shared/schemas.js';
import { catalogScreenshotRoutes } from './catalog-screenshots.js';
import { CatalogGameSchema, catalogGameToWire } from './catalog-schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

const ShareSchema = Type.Object({
  units: Type.String({ ...Patterns.digits, description: 'Base units (1 HST = 10^8), decimal' }),
  amount: Type.String({ description: 'The same as exact HST text, e.g. "0.7"' }),
});
const TierPayoutSchema = Type.Object({
  leaderboardId: Uuid('The tier'),
  name: Type.String(),
  cost: ShareSchema,
  leadersMax: Type.Integer({ description: 'The most leaders the board pays' }),
  leaders: Type.Array(Type.Composite([Type.Object({ playerId: Uuid('A leader') }), ShareSchema]), {
    description:
      "The board's leaders now, in rank order, with what each gets from a play begun now",
  }),
  returned: Type.Object(ShareSchema.properties, {
    description: "The leaders' part back to the player who pays when nobody leads yet; 0 otherwise",
  }),
  developer: ShareSchema,
  arcade: ShareSchema,
  fullBoardLeaderShare: ShareSchema,
});
const GamePayoutsSchema = Type.Object({
  split: Type.Object({
    leadersPercent: Type.Integer(),
    developerPercent: Type.Integer(),
    arcadePercent: Type.Integer(),
  }),
  tiers: Type.Array(TierPayoutSchema),
});
const DeveloperPageSchema = Type.Object({
  id: Uuid('The developer'),
  name: Type.Union([Type.String(), Type.Null()], {
    description: "The name of the developer's wallet as a player; null when it has none",
  }),
  games: Type.Array(CatalogGameSchema, { description: 'Their published games, newest first' }),
});

declare const _share: SchemaMatches<typeof ShareSchema, PayoutShare>;
declare const _tierPayout: SchemaMatches<typeof TierPayoutSchema, TierPayout>;
declare const _gamePayouts: SchemaMatches<typeof GamePayoutsSchema, GamePayouts>;
declare const _developerPage: SchemaMatches<typeof DeveloperPageSchema, DeveloperPage>;

const share = (units: Units): PayoutShare => ({
  units: units.toString(),
  amount: formatHst(units),
});

/**
 * Discovery's public reads (issue 31): what a game's tiers pay, a developer's page, a game's
 * screenshots. No credentials; only published games, as the rest of the catalog.
 */
export function catalogDiscoveryRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { arcade } = app;

  app.get(
    '/catalog/games/:gameId/payouts',
    {
      schema: {
        operationId: 'getCatalogGamePayouts',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: 'How each tier of a published game pays: who gets what of one play, in HST',
        description:
          "Computed by the settlement's own split (the operator's --split) for the board as it " +
          'stands now: a play begun now pays these leaders, the developer and the arcade; on a ' +
          "board nobody leads yet, the leaders' part goes back to the player (`returned`). The " +
          'remainder of integer division goes to the arcade, so the shares sum to the cost.',
        params: Type.Object({ gameId: Uuid('the game') }),
        response: { 200: GamePayoutsSchema },
      },
    },
    async (request) => {
      const tiers = await arcade.discovery.payouts(arcade.record.id, request.params.gameId);
      return {
        split: { ...arcade.discovery.splitRule },
        tiers: tiers.map((t) => ({
          leaderboardId: t.board.id,
          name: t.board.name,
          cost: share(t.board.costUnits),
          leadersMax: t.board.leadersMax,
          leaders: t.leaders.map((l) => ({ playerId: l.playerId, ...share(l.units) })),
          returned: share(t.returnedUnits),
          developer: share(t.developerUnits),
          arcade: share(t.arcadeUnits),
          fullBoardLeaderShare: share(t.fullBoardLeaderUnits),
        })),
      };
    },
  );

  app.get(
    '/catalog/developers/:developerId',
    {
      schema: {
        operationId: 'getCatalogDeveloper',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: "A developer's public page: their name and published games",
        description:
          '404 developer_not_found for an unknown developer and for one with no published game.',
        params: Type.Object({ developerId: Uuid('the developer') }),
        response: { 200: DeveloperPageSchema },
      },
    },
    async (request) => {
      const { developerId } = request.params;
      const page = await arcade.discovery.developerPage(arcade.record.id, developerId);
      return { id: developerId, name: page.name, games: page.games.map(catalogGameToWire) };
    },
  );

  catalogScreenshotRoutes(app);
}
