import { CoinopError, type Clock, type Ids } from '@coinop/core';
import type { Db } from '../store/db.js';
import { createApiKey } from '../store/api-keys.js';
import { ensureDeveloper } from '../store/developers.js';
import { findPlayer } from '../store/players.js';
import {
  countLiveApiKeys,
  listApiKeys,
  revokeApiKey,
  type ApiKeySummary,
} from '../store/api-keys.js';
import { findDeveloperByWallet } from '../store/developers.js';

/**
 * Developers sign in like players (spec 5.1, 5.3.6): their wallet's player token manages the API
 * keys of the developer account of the same wallet, which the first key creates.
 */

/** Live keys one developer may hold: enough for every environment and a rotation overlap. */
export const API_KEYS_LIVE_MAX = 20;

export interface DeveloperKeyDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
}

/** Creates the developer of the player's wallet if needed, and a new key (shown only now). */
export async function createDeveloperApiKey(
  deps: DeveloperKeyDeps,
  playerId: string,
): Promise<{ developerId: string; apiKey: string; prefix: string; createdAt: Date }> {
  const wallet = await walletOf(deps.db, playerId);
  const developer = await ensureDeveloper(deps.db, deps.clock, deps.ids, wallet);
  return deps.db.transaction(async (tx) => {
    // Serialises key creation per developer so the limit holds under concurrent requests.
    await tx.query('SELECT id FROM developers WHERE id = $1 FOR UPDATE', [developer.id]);
    if ((await countLiveApiKeys(tx, developer.id)) >= API_KEYS_LIVE_MAX) {
      throw new CoinopError(
        'api_key_limit_reached',
        `developer ${developer.id} already has ${API_KEYS_LIVE_MAX} live API keys: revoke one first`,
        { details: { max: API_KEYS_LIVE_MAX } },
      );
    }
    const key = await createApiKey(tx, deps.clock, developer.id);
    return { developerId: developer.id, ...key };
  });
}

/** The keys of the player's wallet's developer; none before the first key is created. */
export async function listDeveloperApiKeys(
  deps: DeveloperKeyDeps,
  playerId: string,
): Promise<ApiKeySummary[]> {
  const developer = await findDeveloperByWallet(deps.db, await walletOf(deps.db, playerId));
  return developer ? listApiKeys(deps.db, developer.id) : [];
}

/** Revokes one of the developer's keys by prefix; `api-key` then refuses it at once. */
export async function revokeDeveloperApiKey(
  deps: DeveloperKeyDeps,
  playerId: string,
  prefix: string,
): Promise<ApiKeySummary> {
  const developer = await findDeveloperByWallet(deps.db, await walletOf(deps.db, playerId));
  const revoked = developer
    ? await revokeApiKey(deps.db, developer.id, prefix, deps.clock.now())
    : null;
  if (!revoked) {
    throw new CoinopError('api_key_not_found', `you have no API key with prefix ${prefix}`, {
      details: { prefix },
    });
  }
  return revoked;
}

export async function walletOf(db: Db, playerId: string): Promise<string> {
  const player = await findPlayer(db, playerId);
  if (!player) throw new CoinopError('player_not_found', `player ${playerId} does not exist`);
  if (player.wallet === null) {
    throw new CoinopError(
      'developer_not_found',
      `player ${playerId} has no wallet, and developer accounts belong to wallets`,
    );
  }
  return player.wallet;
}

export type { ApiKeySummary };
