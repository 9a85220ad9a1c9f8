import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CoinopError } from '@coinop/core';
import { Uuid } from '../shared/schemas.js';
import {
  ScoreVoided,
  VOID_DESCRIPTION,
  VoidScoreBody,
  scoreVoidedToWire,
} from '../shared/score-void-schemas.js';

/**
 * The game's developer voids a score of their own game: the portal's session or their API key
 * (`developerIdOf`). Another developer's game, or a score of another game, answers 404.
 */
export function developerScoreVoidRoutes(
  instance: FastifyInstance,
  options: {
    tags: string[];
    security: readonly Record<string, readonly string[]>[];
    developerIdOf: (request: FastifyRequest) => Promise<string>;
  },
): void {
  const r = instance.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/games/:gameId/scores/:scoreId/void',
    {
      schema: {
        operationId: 'developerVoidScore',
        tags: options.tags,
        security: options.security.map((s) => ({ ...s })),
        summary: 'Void a score of my game and re-settle the held payouts it caused',
        description:
          `${VOID_DESCRIPTION} The game's developer: the portal's session or the developer's ` +
          "API key; another developer's game answers 404 game_not_found.",
        params: Type.Object({ gameId: Uuid('The game.'), scoreId: Uuid('The score.') }),
        body: VoidScoreBody,
        response: { 200: ScoreVoided },
      },
    },
    async (request) => {
      const developerId = await options.developerIdOf(request);
      const { gameId, scoreId } = request.params;
      const game = await r.arcade.games.get(gameId);
      if (game.developerId !== developerId) {
        throw new CoinopError('game_not_found', `game ${gameId} is not one of your games`, {
          details: { field: 'gameId', gameId },
        });
      }
      return scoreVoidedToWire(
        await r.arcade.voids.voidScore({
          scoreId,
          gameId,
          reason: request.body.reason,
          log: request.log,
          actor: { kind: 'developer', developerId },
        }),
      );
    },
  );
}
