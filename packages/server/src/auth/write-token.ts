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
): Promise<WriteTokenClaims> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: WRITE_TOKEN_ISSUER,
      audience: WRITE_TOKEN_AUDIENCE,
      currentDate: now,
    });
    const { sub, developerId, gameId, arcadeId } = payload;
    if (
      typeof sub !== 'string' ||
      typeof developerId !== 'string' ||
      typeof gameId !== 'string' ||
      typeof arcadeId !== 'string'
    ) {
      throw new CoinopError('invalid_write_token', 'write token lacks its game claims');
    }
    return { clientId: sub, developerId, gameId, arcadeId };
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
