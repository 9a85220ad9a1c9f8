import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CoinopError } from '@coinop/core';
import type { WriteTokenClaims } from '../../credentials/write-tokens.js';
import { bearerToken } from '../../listener/bearer.js';
import type { ArcadeServices } from '../../services/arcade-services.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The verified write token of a game-server route; null elsewhere. */
    writeToken: WriteTokenClaims | null;
  }
}

/**
 * Guards the game-server routes registered in `scope`: each request needs a write token
 * (`request.writeToken`), and the arcade and game in its path must be the token's own. Another
 * developer's game answers exactly as a game that does not exist, so a token cannot probe ids.
 */
export function requireWriteToken(scope: FastifyInstance): void {
  const arcade = scope.arcade;
  scope.decorateRequest('writeToken', null);
  scope.addHook('onRequest', async (request) => {
    request.writeToken = await arcade.verifyWriteToken(writeTokenOf(request));
  });
  scope.addHook('preHandler', async (request) => {
    const params = request.params as { arcadeId?: string; gameId?: string };
    await assertInScope(arcade, request.writeToken, params.arcadeId, params.gameId);
  });
}

async function assertInScope(
  arcade: ArcadeServices,
  token: WriteTokenClaims | null,
  arcadeId: string | undefined,
  gameId: string | undefined,
): Promise<void> {
  if (!token) throw new CoinopError('missing_bearer_token', 'a write token is required');
  if (arcadeId !== undefined && arcadeId !== arcade.record.id) {
    throw new CoinopError('arcade_not_found', `arcade ${arcadeId} does not exist`, {
      details: { arcadeId },
    });
  }
  if (gameId !== undefined && gameId !== token.gameId) await refuseOtherGame(arcade, token, gameId);
  if (gameId !== undefined) await arcade.games.get(gameId);
  if (arcadeId !== undefined && arcadeId !== token.arcadeId) {
    throw new CoinopError('token_scope_mismatch', `this write token is not for arcade ${arcadeId}`);
  }
}

/**
 * Refuses a game other than the token's. Only this refusal looks the game up (in the game cache),
 * so the play and score path reads nothing more. Another developer's game answers exactly as a
 * game that does not exist, so a write token cannot probe which ids are games; a game of the
 * token's own developer is named, since that developer knows it.
 */
async function refuseOtherGame(
  arcade: ArcadeServices,
  token: WriteTokenClaims,
  gameId: string,
): Promise<never> {
  const missing = new CoinopError('game_not_found', `game ${gameId} does not exist`, {
    details: { gameId },
  });
  const game = await arcade.games.get(gameId).catch((error: unknown) => {
    if (error instanceof CoinopError && error.code === 'game_not_found') return null;
    throw error;
  });
  if (game === null || game.developerId !== token.developerId) throw missing;
  throw new CoinopError(
    'token_scope_mismatch',
    `this write token is for game ${token.gameId}, not ${gameId}: get a write token with that ` +
      "game's client",
    { details: { gameId, tokenGameId: token.gameId } },
  );
}

function writeTokenOf(request: FastifyRequest): string {
  const token = bearerToken(request);
  if (token === null) {
    throw new CoinopError(
      'missing_bearer_token',
      'Authorization: Bearer <write token> is required; get one at POST /oauth/writetoken',
    );
  }
  return token;
}
