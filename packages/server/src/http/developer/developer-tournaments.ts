import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Tournaments, type TournamentCreator } from '../../services/tournaments.js';
import {
  CREATE_DESCRIPTION,
  CreateBody,
  GameParams,
  GameTournamentParams,
  TournamentListSchema,
  TournamentSchema,
} from '../shared/tournament-schemas.js';
import { toRequest, wireOf } from '../shared/tournament-wire.js';

export interface DeveloperTournamentRoutesOptions {
  /** The developer of the request: the portal's session or the developer's API key. */
  readonly developerOf: (request: FastifyRequest) => Promise<TournamentCreator>;
  readonly security: readonly Record<string, readonly string[]>[];
  readonly tags: readonly string[];
  readonly who: string;
}

/**
 * The developer's tournaments of their own games (another developer's game answers 404
 * game_not_found, as the portal's other routes do). Registered in the /developer plugin.
 */
export function developerTournamentRoutes(
  instance: FastifyInstance,
  options: DeveloperTournamentRoutesOptions,
): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const service = new Tournaments(app.arcade);
  const wire = wireOf(app.arcade);
  const common = {
    tags: [...options.tags],
    security: options.security.map((s) => ({ ...s })),
  };
  const developer = async (request: FastifyRequest) => {
    const creator = await options.developerOf(request);
    if (creator.kind !== 'developer') throw new TypeError('a developer route named the operator');
    return creator;
  };

  app.post(
    '/games/:gameId/tournaments',
    {
      schema: {
        ...common,
        operationId: 'developerCreateTournament',
        summary: 'Create a tournament of my game',
        description: `${CREATE_DESCRIPTION} ${options.who}`,
        params: GameParams,
        body: CreateBody,
        response: { 201: TournamentSchema },
      },
    },
    async (request, reply) => {
      const created = await service.create(
        await developer(request),
        request.params.gameId,
        toRequest(request.body),
      );
      reply.code(201);
      return wire.tournament(created);
    },
  );

  app.get(
    '/games/:gameId/tournaments',
    {
      schema: {
        ...common,
        operationId: 'developerListTournaments',
        summary: 'My game’s tournaments, newest first',
        description: options.who,
        params: GameParams,
        response: { 200: TournamentListSchema },
      },
    },
    async (request) => ({
      tournaments: (await service.ofGame(await developer(request), request.params.gameId)).map(
        wire.tournament,
      ),
    }),
  );

  app.get(
    '/games/:gameId/tournaments/:tournamentId',
    {
      schema: {
        ...common,
        operationId: 'developerGetTournament',
        summary: 'One tournament of my game',
        description: `${options.who} 404 tournament_not_found.`,
        params: GameTournamentParams,
        response: { 200: TournamentSchema },
      },
    },
    async (request) => {
      const { developer: who } = await developer(request);
      const { gameId, tournamentId } = request.params;
      return wire.tournament(await service.ofDeveloper(who, gameId, tournamentId));
    },
  );

  app.post(
    '/games/:gameId/tournaments/:tournamentId/stop',
    {
      schema: {
        ...common,
        operationId: 'developerStopTournament',
        summary: 'Stop a tournament: no round after the current one',
        description:
          'The current round runs to its end and is closed and paid as usual; no round opens ' +
          `after it. Stopping again keeps the first time. ${options.who}`,
        params: GameTournamentParams,
        response: { 200: TournamentSchema },
      },
    },
    async (request) => {
      const { developer: who } = await developer(request);
      const { gameId, tournamentId } = request.params;
      await service.ofDeveloper(who, gameId, tournamentId);
      return wire.tournament(await service.stop(tournamentId, gameId));
    },
  );
}
