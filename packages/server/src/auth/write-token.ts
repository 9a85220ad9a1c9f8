import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { CoinopError } from '@coinop/core';

/** The issuer and audience every write token carries; tokens of other services never pass. */
const WRITE_TOKEN_ISSUER = 'coinop:api';
const WRITE_TOKEN_AUDIENCE = 'coinop:write';

/** What a write token grants: one developer's game in one arcade. */
export interface WriteTokenClaims {
  readonly clientId: string;
  readonly developerId: string;
  readonly gameId: string;
  readonly arcadeId: string;
}

/** Signs a write token (HS256 JWT) that lives `ttlSeconds` from `now`. */
export async function signWriteToken(
  claims: WriteTokenClaims,
  key: Uint8Array,
  now: Date,
  ttlSeconds: number,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({
    developerId: claims.developerId,
    gameId: claims.gameId,
    arcadeId: claims.arcadeId,
    scope: 'write',
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(WRITE_TOKEN_ISSUER)
    .setAudience(WRITE_TOKEN_AUDIENCE)
    .setSubject(claims.clientId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(key);
}

/**
 * Verifies a bearer write token: signature (HS256 only), issuer, audience, expiry against `now`.
 * Throws `invalid_write_token` saying why.
 */
export async function verifyWriteToken(
  token: string,
  key: Uint8Array,
  now: Date,
): Promise<WriteTokenClaims & { expiresAt: Date }> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: WRITE_TOKEN_ISSUER,
      audience: WRITE_TOKEN_AUDIENCE,
      currentDate: now,
    });
    const { sub, developerId, gameId, arcadeId, exp } = payload;
    if (
      typeof sub !== 'string' ||
      typeof developerId !== 'string' ||
      typeof gameId !== 'string' ||
      typeof arcadeId !== 'string'
    ) {
      throw new CoinopError('invalid_write_token', 'write token lacks its game claims');
    }
    return { clientId: sub, developerId, gameId, arcadeId, expiresAt: new Date((exp ?? 0) * 1000) };
  } catch (error) {
    if (error instanceof CoinopError) throw error;
    const why =
      error instanceof joseErrors.JWTExpired
        ? 'write token has expired; request a new one at POST /oauth/writetoken'
        : error instanceof joseErrors.JWTClaimValidationFailed
          ? `write token claim ${error.claim} is not valid here`
          : 'write token is malformed or its signature does not verify';
    throw new CoinopError('invalid_write_token', why, { cause: error });
  }
}

/**
 * Verifies write tokens, remembering each verified one until it expires: a game server sends the
 * same token on every call for an hour, and verifying its signature again costs more than the
 * rest of a cached read. Only expiry can end a verified token's validity, and it is checked on
 * every hit.
 */
export class WriteTokenVerifier {
  readonly #key: Uint8Array;
  readonly #maxEntries: number;
  readonly #verified = new Map<string, WriteTokenClaims & { expiresAt: Date }>();

  constructor(key: Uint8Array, maxEntries = 10_000) {
    this.#key = key;
    this.#maxEntries = maxEntries;
  }

  async verify(token: string, now: Date): Promise<WriteTokenClaims> {
    const known = this.#verified.get(token);
    if (known && known.expiresAt.getTime() > now.getTime()) return known;
    this.#verified.delete(token);
    const claims = await verifyWriteToken(token, this.#key, now);
    if (this.#verified.size >= this.#maxEntries) this.#verified.clear();
    this.#verified.set(token, claims);
    return claims;
  }
}
