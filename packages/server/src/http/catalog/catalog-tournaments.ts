import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Tournaments } from '../../services/tournaments.js';
import { ApiTags, Security } from '../../listener/openapi.js';
import {
  GameParams,
  RULES,
  RoundDetailSchema,
  RoundPageSchema,
  RoundParams,
  RoundsQuery,
  TournamentListSchema,
  TournamentParams,
  TournamentSchema,
} from '../shared/tournament-schemas.js';
import { roundReads, wireOf } from '../shared/tournament-wire.js';

/** The public reads: tournaments of published games. Registered in the catalog plugin. */
export function catalogTournamentRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const service = new Tournaments(app.arcade);
  const wire = wireOf(app.arcade);
  const rounds = roundReads(service, wire, { publishedOnly: true });
  const common = { tags: [ApiTags.catalog], security: [...Security.none] };

  app.get(
    '/catalog/tournaments',
    {
      schema: {
        ...common,
        operationId: 'listCatalogTournaments',
        summary: 'Tournaments of published games: open and upcoming first',
        description:
          'Those with a round not yet closed first, the soonest to end first; then the others, ' +
          `newest first; at most 200. ${RULES}`,
        response: { 200: TournamentListSchema },
      },
    },
    async () => ({ tournaments: (await service.catalog(null)).map(wire.tournament) }),
  );

  app.get(
    '/catalog/games/:gameId/tournaments',
    {
      schema: {
        ...common,
        operationId: 'listCatalogGameTournaments',
        summary: 'A published game’s tournaments, newest first',
        params: GameParams,
        response: { 200: TournamentListSchema },
      },
    },
    async (request) => ({
      tournaments: (await service.catalog(request.params.gameId)).map(wire.tournament),
    }),
  );

  app.get(
    '/catalog/tournaments/:tournamentId',
    {
      schema: {
        ...common,
        operationId: 'getCatalogTournament',
        summary: 'A tournament of a published game',
        description: '404 tournament_not_found (also for an unpublished game’s).',
        params: TournamentParams,
        response: { 200: TournamentSchema },
      },
    },
    async (request) => wire.tournament(await service.published(request.params.tournamentId)),
  );

  app.get(
    '/catalog/tournaments/:tournamentId/rounds',
    {
      schema: {
        ...common,
        operationId: 'listCatalogTournamentRounds',
        summary: 'A tournament’s rounds, newest first, cursor paged',
        description:
          'Every round, the current one included. 400 validation_failed naming `cursor` or ' +
          '`limit` when one is not valid.',
        params: TournamentParams,
        querystring: RoundsQuery,
        response: { 200: RoundPageSchema },
      },
    },
    async (request) => rounds.page(request.params.tournamentId, request.query),
  );

  app.get(
    '/catalog/tournaments/:tournamentId/rounds/:roundId',
    {
      schema: {
        ...common,
        operationId: 'getCatalogTournamentRound',
        summary: 'One round with its paid places',
        description:
          'The full standings are the round’s board: GET /catalog/games/{gameId}/boards/{roundId}. ' +
          '404 tournament_not_found, tournament_round_not_found.',
        params: RoundParams,
        response: { 200: RoundDetailSchema },
      },
    },
    async (request) => rounds.one(request.params.tournamentId, request.params.roundId),
  );
}
