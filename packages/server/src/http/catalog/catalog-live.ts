import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiTags, Security } from '../../listener/openapi.js';
import { serveLiveStream } from '../shared/live.js';
import { EventStreamResponse } from '../shared/live-schemas.js';
import { Uuid } from '../shared/schemas.js';

/** A published game's boards, live, for anyone (docs/concepts/live-updates.md). */
export function catalogLiveRoutes(instance: FastifyInstance): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;

  app.get(
    '/catalog/games/:gameId/events',
    {
      schema: {
        operationId: 'catalogGameEvents',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: "A published game's boards, live (Server-Sent Events)",
        description:
          'A `board` event for each tier on connecting, then one whenever its leaders change ' +
          '(a score, a void), from any server on the database. Works with a plain EventSource. ' +
          'The stream ends if the game is unpublished. 404 game_not_found for a game not ' +
          'published; 503 live_streams_full when this server holds its most streams.',
        params: Type.Object({ gameId: Uuid('the game') }),
        response: { 200: EventStreamResponse },
      },
    },
    async (request, reply) => {
      await serveLiveStream(arcade, reply, {
        gameId: request.params.gameId,
        player: null,
        resumeAfter: null,
      });
      return reply;
    },
  );
}
