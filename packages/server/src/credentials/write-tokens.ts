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
 * Verifies a bearer write token: signature (HS256 only), issuer, audience, an expiry and that it is
 * after `now`.
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
      // A token that never expires is not one coinop issued.
      requiredClaims: ['exp', 'sub'],
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
          ? error.reason === 'missing'
            ? `write token has no ${error.claim} claim; request one at POST /oauth/writetoken`
            : `write token claim ${error.claim} is not valid here`
          : 'write token is malformed or its signature does not verify';
    throw new CoinopError('invalid_write_token', why, { cause: error });
  }
}

/**
 * Verifies write tokens, remembering each verified one until it expires: a game server sends the
 * same token on every call for an hour, and verifying its signature again costs more than the
 * rest of a cached read. Expiry and the client's revocation end a verified token's validity;
 * both are checked on every hit.
 */
export class WriteTokenVerifier {
  readonly #key: Uint8Array;
  readonly #isRevoked: (clientId: string) => boolean;
  readonly #maxEntries: number;
  readonly #verified = new Map<string, WriteTokenClaims & { expiresAt: Date }>();

  /** `isRevoked` answers from memory whether a client was revoked (`RevokedClients`). */
  constructor(key: Uint8Array, isRevoked: (clientId: string) => boolean, maxEntries = 10_000) {
    this.#key = key;
    this.#isRevoked = isRevoked;
    this.#maxEntries = maxEntries;
  }

  async verify(token: string, now: Date): Promise<WriteTokenClaims> {
    let claims = this.#verified.get(token);
    if (!claims || claims.expiresAt.getTime() <= now.getTime()) {
      this.#verified.delete(token);
      claims = await verifyWriteToken(token, this.#key, now);
      if (this.#verified.size >= this.#maxEntries) this.#verified.clear();
      this.#verified.set(token, claims);
    }
    // Checked on every request, remembered or not: a revocation ends a token at once.
    if (this.#isRevoked(claims.clientId)) {
      throw new CoinopError(
        'invalid_write_token',
        `client ${claims.clientId} of this write token was revoked`,
        { details: { reason: 'client_revoked' } },
      );
    }
    return claims;
  }
}
