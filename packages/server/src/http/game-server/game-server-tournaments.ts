import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Tournaments } from '../../services/tournaments.js';
import { ApiTags, Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import {
  ArcadeGameParams,
  EntryQuery,
  EntrySchema,
  RULES,
  TournamentListSchema,
} from '../shared/tournament-schemas.js';
import { wireOf } from '../shared/tournament-wire.js';

/** The game server's view of its game's tournaments (write token). */
export function gameServerTournamentRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const service = new Tournaments(app.arcade);
  const wire = wireOf(app.arcade);

  app.get(
    '/arcades/:arcadeId/games/:gameId/tournaments',
    {
      schema: {
        operationId: 'listGameTournaments',
        tags: [ApiTags.gameServer],
        security: Security.writeToken.map((s) => ({ ...s })),
        summary: 'The game’s tournaments, newest first',
        description:
          'A play names a round by its id (`currentRound.id`) or by the tournament’s id (its ' +
          `round open now) as the leaderboardId. ${RULES}`,
        params: ArcadeGameParams,
        response: { 200: TournamentListSchema },
      },
    },
    async (request) => ({
      tournaments: (await service.ofGame(null, request.params.gameId)).map(wire.tournament),
    }),
  );

  app.get(
    '/arcades/:arcadeId/games/:gameId/tournaments/:tournamentId/players/:playerId/entry',
    {
      schema: {
        operationId: 'getGameTournamentEntry',
        tags: [ApiTags.gameServer],
        security: Security.writeToken.map((s) => ({ ...s })),
        summary: 'A player’s entry in a round: attempts used and left, rank and best',
        description:
          'The answer of GET /player/tournaments/{tournamentId}/entry, for any player, on a ' +
          'tournament of this game (published or not). A player who never opened a play on the ' +
          'round, or an id nobody has, reads as not entered. 404 `tournament_not_found` (also ' +
          'for another game’s), `tournament_round_not_found`; 400 validation_failed naming the ' +
          `id that is not a UUID. ${RULES}`,
        params: Type.Object({
          arcadeId: Uuid('The arcade.'),
          gameId: Uuid('The game.'),
          tournamentId: Uuid('The tournament.'),
          playerId: Uuid('The player.'),
        }),
        querystring: EntryQuery,
        response: { 200: EntrySchema },
      },
    },
    async (request) => {
      const { gameId, tournamentId, playerId } = request.params;
      const roundId = request.query.roundId ?? null;
      return wire.entry(await service.entryInGame(gameId, tournamentId, roundId, playerId));
    },
  );
}
