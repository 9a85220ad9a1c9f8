import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CoinopError } from '@coinop/core';
import type { Queryable } from '../store/db.js';
import { findLiveApiKey } from '../store/api-keys.js';
import { hashSecret, secretMatches } from './secrets.js';

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
export function requireApiKey(app: FastifyInstance, db: Queryable): void {
  if (!app.hasRequestDecorator('apiKey')) app.decorateRequest('apiKey', null);
  app.addHook('onRequest', async (request) => {
    request.apiKey = await verifyApiKey(db, request.headers[API_KEY_HEADER]);
  });
}

/** The principal of a request behind `requireApiKey`. */
export function apiKeyOf(request: FastifyRequest): ApiKeyPrincipal {
  if (!request.apiKey) throw new TypeError('route is not guarded by requireApiKey');
  return request.apiKey;
}
