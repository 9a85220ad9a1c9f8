import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Tournaments } from '../../services/tournaments.js';
import { ApiTags, Security } from '../../listener/openapi.js';
import { EntryQuery, EntrySchema, RULES, TournamentParams } from '../shared/tournament-schemas.js';
import { wireOf } from '../shared/tournament-wire.js';

/**
 * The signed-in player's own entry in a round (player token, as the other /player routes).
 * Registered in the player plugin, under /player.
 */
export function playerTournamentRoutes(
  instance: FastifyInstance,
  authenticate: (request: FastifyRequest) => Promise<{ playerId: string }>,
): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const service = new Tournaments(app.arcade);
  const wire = wireOf(app.arcade);

  app.get(
    '/tournaments/:tournamentId/entry',
    {
      schema: {
        operationId: 'playerGetTournamentEntry',
        tags: [ApiTags.player],
        security: Security.playerToken.map((s) => ({ ...s })),
        summary: 'My entry in a tournament round: attempts used and left, rank and best',
        description:
          'The round is `roundId` when given, else the current round (the latest not yet ' +
          'closed), else the latest round. `entered` is false and `attempts` 0 until the player ' +
          'opens a play on it; `rank` and `score` are null until they score. 404 ' +
          '`tournament_not_found` (also for an unpublished game’s), `tournament_round_not_found`; ' +
          `400 validation_failed naming \`roundId\`. ${RULES}`,
        params: TournamentParams,
        querystring: EntryQuery,
        response: { 200: EntrySchema },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      const { tournamentId } = request.params;
      return wire.entry(
        await service.entryOf(tournamentId, request.query.roundId ?? null, playerId),
      );
    },
  );
}
