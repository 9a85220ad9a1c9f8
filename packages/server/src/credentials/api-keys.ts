import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CoinopError, type Clock, type Ids } from '@coinop/core';
import type { Db, Queryable } from '../store/db.js';
import {
  countLiveApiKeys,
  findLiveApiKey,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
  type ApiKeySummary,
} from '../store/api-keys.js';
import { ensureDeveloper, findDeveloperByWallet } from '../store/developers.js';
import { findPlayer } from '../store/players.js';
import { generatePublicId, generateSecret, hashSecret, secretMatches } from './secrets.js';

/** Developers' API keys: issued, listed and revoked by their wallet; checked on every request. */

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

/** A new API key for a developer. The whole key is returned once; only its hash is stored. */
export async function createApiKey(
  q: Queryable,
  clock: Clock,
  developerId: string,
): Promise<{ apiKey: string; prefix: string; createdAt: Date }> {
  const prefix = generatePublicId('ck', 6);
  const apiKey = `${prefix}.${generateSecret('sk').slice(3)}`;
  const createdAt = clock.now();
  await insertApiKey(q, { prefix, developerId, secretHash: hashSecret(apiKey), createdAt });
  return { apiKey, prefix, createdAt };
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

/** The header a developer's API key travels in (spec 5.1). */
export const API_KEY_HEADER = 'api-key';

/** Keys we issue are about 56 characters; anything far longer is refused before hashing. */
const API_KEY_MAX_CHARS = 256;

/** Compared against when the prefix is unknown, so a miss costs the same as a wrong secret. */
const NO_SUCH_KEY_HASH = hashSecret('ck_none.unused');

/** Who an API key speaks for. */
export interface ApiKeyPrincipal {
  readonly developerId: string;
  /** The key's public prefix: safe to log, names the key without revealing it. */
  readonly keyPrefix: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireApiKey` on the routes it guards; null elsewhere. */
    apiKey: ApiKeyPrincipal | null;
  }
}

/**
 * Checks an `api-key` header value: `<prefix>.<secret>`, looked up by prefix among live keys and
 * compared with the stored hash in constant time. Throws `missing_api_key` when absent and
 * `invalid_api_key` for anything else that is not a live key (unknown, revoked, malformed).
 */
export async function verifyApiKey(
  q: Queryable,
  presented: string | string[] | undefined,
): Promise<ApiKeyPrincipal> {
  if (presented === undefined || presented === '') {
    throw new CoinopError('missing_api_key', `the ${API_KEY_HEADER} header is required`, {
      details: { header: API_KEY_HEADER },
    });
  }
  const invalid = new CoinopError(
    'invalid_api_key',
    `the ${API_KEY_HEADER} header is not a valid API key`,
    { details: { header: API_KEY_HEADER } },
  );
  if (typeof presented !== 'string' || presented.length > API_KEY_MAX_CHARS) throw invalid;
  const dot = presented.indexOf('.');
  if (dot <= 0) throw invalid;
  const prefix = presented.slice(0, dot);
  const key = await findLiveApiKey(q, prefix);
  const matches = secretMatches(presented, key?.secretHash ?? NO_SUCH_KEY_HASH);
  if (!key || !matches) throw invalid;
  return { developerId: key.developerId, keyPrefix: key.prefix };
}

/**
 * Guards every route of the (encapsulated) plugin `app` with the developer API key. It runs on
 * request, before the body is read or validated, so an unauthenticated caller learns nothing
 * about the request's shape. Handlers read the principal with `apiKeyOf(request)`.
 */
export function requireApiKey(
  app: FastifyInstance,
  verify: (presented: string | string[] | undefined) => Promise<ApiKeyPrincipal>,
): void {
  if (!app.hasRequestDecorator('apiKey')) app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request) => {
    request.apiKey = await verify(request.headers[API_KEY_HEADER]);
  });
}

/** The principal of a request behind `requireApiKey`. */
export function apiKeyOf(request: FastifyRequest): ApiKeyPrincipal {
  if (!request.apiKey) throw new TypeError('route is not guarded by requireApiKey');
  return request.apiKey;
}
