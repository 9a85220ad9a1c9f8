import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { scoreBodyLimit } from '../shared/score-body-limit.js';
import { ApiTags, RateLimitedResponse, Security } from '../../listener/openapi.js';
import { PlaySchema, ScoreResultSchema } from '../shared/schemas.js';
import { playToWire, scoreToWire } from '../shared/wire.js';
import { perKey } from '../../listener/rate-limit.js';
import {
  ArcadeGameParams,
  IdempotencyHeaders,
  PlayBody,
  ScoreBody,
} from './game-server-schemas.js';

/**
 * Opening a play and scoring it (spec 4.4, 4.5). Registered in the game server plugin's write-token
 * scope.
 */
export function playRoutes(instance: FastifyInstance): void {
  const api = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = api.arcade;
  const limits = api.config.rateLimits;

  api.post(
    '/arcades/:arcadeId/games/:gameId/play',
    {
      config: perKey(limits.plays, 'this game client', (request) => {
        if (!request.writeToken) throw new TypeError('the play route is behind a write token');
        return request.writeToken.clientId;
      }),
      schema: {
        operationId: 'openPlay',
        tags: [ApiTags.gameServer],
        summary: 'Submit a play: lock the tier cost of the player (spec 4.4)',
        description:
          'Locks the cost of the tier from the player into escrow. 402 `insufficient_funds` ' +
          'when the player cannot spend it; nothing is recorded then.',
        security: Security.writeToken,
        params: ArcadeGameParams,
        headers: IdempotencyHeaders,
        body: PlayBody,
        response: { 200: Type.Ref(PlaySchema), 429: RateLimitedResponse },
      },
    },
    async (request) => {
      const play = await arcade.plays.open({
        gameId: request.params.gameId,
        playerId: request.body.playerId,
        leaderboardId: request.body.leaderboardId,
        idempotencyKey: request.headers['idempotency-key'] ?? null,
      });
      return playToWire(play);
    },
  );

  api.post(
    '/arcades/:arcadeId/games/:gameId/score',
    {
      bodyLimit: scoreBodyLimit(api.config),
      schema: {
        operationId: 'submitScore',
        tags: [ApiTags.gameServer],
        summary: 'Submit the score of a play (spec 4.5)',
        description:
          'Scores a play once; settles its locked HST to the leaders, the developer and the ' +
          'arcade; returns the rank of the score and the current leaders.',
        security: Security.writeToken,
        params: ArcadeGameParams,
        headers: IdempotencyHeaders,
        body: ScoreBody,
        response: { 200: Type.Ref(ScoreResultSchema) },
      },
    },
    async (request) => {
      const { gameId } = request.params;
      const outcome = await arcade.plays.score({
        gameId,
        playId: request.body.playId,
        leaderboardId: request.body.leaderboardId,
        score: request.body.score,
        replay: request.body.replay ?? null,
        idempotencyKey: request.headers['idempotency-key'] ?? null,
      });
      arcade.reads.invalidate(gameId);
      return scoreToWire(outcome.score, await arcade.reads.leadersAfterScore(gameId, outcome));
    },
  );
}
