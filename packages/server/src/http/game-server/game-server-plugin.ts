import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { CoinopError } from '@coinop/core';
import { ApiTags, RateLimitedResponse, Security } from '../../listener/openapi.js';
import { WriteTokenBody, WriteTokenSchema } from './game-server-schemas.js';
import { requireWriteToken } from './write-token-scope.js';
import { gameServerTournamentRoutes } from './game-server-tournaments.js';
import { gameReadRoutes } from './game-routes.js';
import { playRoutes } from './play-routes.js';
import { leaderRoutes, payoutRoutes } from './leader-routes.js';
import { playerDetailRoutes, playRecordRoutes } from './play-record-routes.js';
import { perClientAddress } from '../../listener/rate-limit.js';

/** The server-to-server API a game's authoritative server calls (spec 4.2–4.5). */
export async function gameServerPlugin(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;
  const limits = app.config.rateLimits;

  app.post(
    '/oauth/writetoken',
    {
      config: perClientAddress(limits.token),
      schema: {
        operationId: 'createWriteToken',
        security: Security.none,
        tags: [ApiTags.gameServer],
        summary: 'Exchange client credentials for a write token (spec 4.2)',
        description:
          "Accepts the spec's `client_id`/`client_secret` or the camelCase body that " +
          '@hastearcade/server sends (`clientId`, `clientSecret`, `environment`).',
        body: WriteTokenBody,
        response: { 200: WriteTokenSchema, 429: RateLimitedResponse },
      },
    },
    async (request) => {
      const clientId = request.body.client_id ?? request.body.clientId;
      const clientSecret = request.body.client_secret ?? request.body.clientSecret;
      if (clientId === undefined) throw missingField('client_id');
      if (clientSecret === undefined) throw missingField('client_secret');
      const token = await arcade.issueWriteToken(clientId, clientSecret);
      return {
        access_token: token.accessToken,
        token_type: 'Bearer' as const,
        expires_in: token.expiresInSeconds,
        developerId: token.developerId,
        gameId: token.gameId,
        arcadeId: token.arcadeId,
      };
    },
  );

  // Everything below needs a write token, scoped to the arcade and game in the path.
  await app.register(async (scoped) => {
    requireWriteToken(scoped);
    gameServerTournamentRoutes(scoped);
    gameReadRoutes(scoped);
    playRoutes(scoped);
    leaderRoutes(scoped);
    payoutRoutes(scoped);
    playRecordRoutes(scoped);
    playerDetailRoutes(scoped);
  });
}

function missingField(field: string): CoinopError {
  return new CoinopError('validation_failed', `${field} is required`, { details: { field } });
}
