import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Tournaments } from '../../services/tournaments.js';
import { Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import {
  CREATE_DESCRIPTION,
  CreateBody,
  RoundDetailSchema,
  RoundPageSchema,
  RoundParams,
  RoundsQuery,
  TournamentListSchema,
  TournamentParams,
  TournamentSchema,
} from '../shared/tournament-schemas.js';
import { roundReads, toRequest, wireOf } from '../shared/tournament-wire.js';

/** The operator's tournaments, of any game. Registered in the admin plugin (admin token). */
export function adminTournamentRoutes(instance: FastifyInstance, tags: readonly string[]): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const service = new Tournaments(app.arcade);
  const wire = wireOf(app.arcade);
  const rounds = roundReads(service, wire, { publishedOnly: false });
  const common = { tags: [...tags], security: Security.adminToken.map((s) => ({ ...s })) };

  app.post(
    '/admin/tournaments',
    {
      schema: {
        ...common,
        operationId: 'adminCreateTournament',
        summary: 'Create a tournament of any game, funded by the arcade',
        description: `The guarantee comes from the arcade’s account. ${CREATE_DESCRIPTION}`,
        body: Type.Composite([Type.Object({ gameId: Uuid('The game.') }), CreateBody], {
          additionalProperties: false,
        }),
        response: { 201: TournamentSchema },
      },
    },
    async (request, reply) => {
      const { gameId, ...body } = request.body;
      const created = await service.create({ kind: 'operator' }, gameId, toRequest(body));
      reply.code(201);
      return wire.tournament(created);
    },
  );

  app.get(
    '/admin/tournaments',
    {
      schema: {
        ...common,
        operationId: 'adminListTournaments',
        summary: 'Every tournament, those with a round to come first',
        description: 'Of published and unpublished games alike; at most 200.',
        response: { 200: TournamentListSchema },
      },
    },
    async () => ({ tournaments: (await service.all()).map(wire.tournament) }),
  );

  app.post(
    '/admin/tournaments/:tournamentId/stop',
    {
      schema: {
        ...common,
        operationId: 'adminStopTournament',
        summary: 'Stop a tournament: no round after the current one',
        description: 'The current round closes and pays as usual. 404 tournament_not_found.',
        params: TournamentParams,
        response: { 200: TournamentSchema },
      },
    },
    async (request) => wire.tournament(await service.stop(request.params.tournamentId, null)),
  );

  app.get(
    '/admin/tournaments/:tournamentId/rounds',
    {
      schema: {
        ...common,
        operationId: 'adminListTournamentRounds',
        summary: 'A tournament’s rounds, newest first, cursor paged, of any game',
        description:
          'As GET /catalog/tournaments/{tournamentId}/rounds, for published and unpublished games ' +
          'alike. 404 tournament_not_found; 400 validation_failed naming `cursor` or `limit`.',
        params: TournamentParams,
        querystring: RoundsQuery,
        response: { 200: RoundPageSchema },
      },
    },
    async (request) => rounds.page(request.params.tournamentId, request.query),
  );

  app.get(
    '/admin/tournaments/:tournamentId/rounds/:roundId',
    {
      schema: {
        ...common,
        operationId: 'adminGetTournamentRound',
        summary: 'One round with its paid places, of any game',
        description:
          'As GET /catalog/tournaments/{tournamentId}/rounds/{roundId}, for published and ' +
          'unpublished games alike. 404 tournament_not_found, tournament_round_not_found.',
        params: RoundParams,
        response: { 200: RoundDetailSchema },
      },
    },
    async (request) => rounds.one(request.params.tournamentId, request.params.roundId),
  );
}
