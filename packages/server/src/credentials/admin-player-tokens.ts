import { CoinopError } from '@coinop/core';
import type { Db } from '../store/db.js';
import { findGame } from '../store/games.js';
import { findPlayer } from '../store/players.js';
import type { PlayerTokenServices } from './player-token-services.js';

/**
 * A player token minted by the operator (`coinop admin player token`), to test a game server
 * without a browser; bound to `gameId` as a login naming that game would bind it. Any lifetime from 1 second to `maxTtlSeconds`; the signing key stays
 * published until it has expired.
 */
export async function mintPlayerToken(
  db: Db,
  services: PlayerTokenServices,
  input: {
    playerId: string;
    ttlSeconds: number | undefined;
    gameId: string | null;
    maxTtlSeconds: number;
  },
): Promise<{ access_token: string }> {
  const ttlSeconds = input.ttlSeconds ?? services.tokens.ttlSeconds;
  if (ttlSeconds > input.maxTtlSeconds) {
    throw new CoinopError(
      'validation_failed',
      `ttl must be at most ${input.maxTtlSeconds} seconds, got ${ttlSeconds}`,
      { details: { field: 'ttl', in: 'body' } },
    );
  }
  const player = await findPlayer(db, input.playerId);
  if (!player) {
    throw new CoinopError('player_not_found', `player ${input.playerId} does not exist`);
  }
  if (input.gameId !== null && !(await findGame(db, input.gameId))) {
    throw new CoinopError('game_not_found', `game ${input.gameId} does not exist`, {
      details: { gameId: input.gameId },
    });
  }
  const { accessToken } = await services.tokens.issue(player, ttlSeconds, input.gameId);
  return { access_token: accessToken };
}
