import type { Clock } from '@coinop/core';
import type { Queryable } from '../store/db.js';
import {
  insertGameClient,
  replaceClientSecret,
  type GameClientSummary,
} from '../store/developer-games.js';
import { generatePublicId, generateSecret, hashSecret } from './secrets.js';

/** Game servers' client ids and secrets: made and hashed here; the store keeps only the hash. */

/** A new client id and secret for a game's server. The secret is returned once. */
export async function createGameClient(
  q: Queryable,
  clock: Clock,
  gameId: string,
): Promise<{ clientId: string; clientSecret: string }> {
  const clientId = generatePublicId('cid', 12);
  const clientSecret = generateSecret('csec');
  await insertGameClient(q, {
    clientId,
    gameId,
    secretHash: hashSecret(clientSecret),
    createdAt: clock.now(),
  });
  return { clientId, clientSecret };
}

/**
 * Replaces a live client's secret: the old one stops matching at once, since every write-token
 * request reads the hash from storage. Returns the new secret (shown once); null when the client
 * is not a live client of the game.
 */
export async function rotateClientSecret(
  q: Queryable,
  clock: Clock,
  gameId: string,
  clientId: string,
): Promise<(GameClientSummary & { clientSecret: string }) | null> {
  const clientSecret = generateSecret('csec');
  const client = await replaceClientSecret(
    q,
    gameId,
    clientId,
    hashSecret(clientSecret),
    clock.now(),
  );
  return client ? { ...client, clientSecret } : null;
}
