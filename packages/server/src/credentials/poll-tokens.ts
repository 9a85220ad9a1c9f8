import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { CoinopError } from '@coinop/core';

/**
 * The bearer token of one CLI login request (spec 2.7 `token`): an HS256 JWT under a key that
 * only the sign-in service holds, with its own issuer and audience, so neither a player token
 * (RS256, published keys) nor any other token passes for it, and it names its one request.
 */
const POLL_TOKEN_ISSUER = 'coinop:signin';
const POLL_TOKEN_AUDIENCE = 'coinop:cli-poll';
const POLL_TOKEN_ALG = 'HS256';

/** Signs the polling token of `requestorId`, valid until the request expires. */
export async function signPollToken(
  requestorId: string,
  key: Uint8Array,
  now: Date,
  expiresAt: Date,
): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: POLL_TOKEN_ALG, typ: 'cli-poll+jwt' })
    .setIssuer(POLL_TOKEN_ISSUER)
    .setAudience(POLL_TOKEN_AUDIENCE)
    .setSubject(requestorId)
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key);
}

/**
 * Checks that `token` is the polling token of `requestorId`. Throws `missing_bearer_token`,
 * `invalid_poll_token` (forged, another kind of token, another request's), or `expired_token`
 * once the request's time is up (RFC 8628 §3.5).
 */
export async function verifyPollToken(
  token: string | null,
  requestorId: string,
  key: Uint8Array,
  now: Date,
): Promise<void> {
  if (token === null) {
    throw new CoinopError(
      'missing_bearer_token',
      'poll with Authorization: Bearer <token from POST /cli>',
    );
  }
  let subject: unknown;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: [POLL_TOKEN_ALG],
      issuer: POLL_TOKEN_ISSUER,
      audience: POLL_TOKEN_AUDIENCE,
      currentDate: now,
    });
    subject = payload.sub;
  } catch (error) {
    // JWTExpired is raised only after the signature has verified, so the token is ours.
    if (error instanceof joseErrors.JWTExpired && error.payload.sub === requestorId) {
      throw new CoinopError('expired_token', `login request ${requestorId} has expired`);
    }
    throw new CoinopError(
      'invalid_poll_token',
      'the bearer token is not a polling token from POST /cli (a player token does not poll)',
      { cause: error },
    );
  }
  if (subject !== requestorId) {
    throw new CoinopError(
      'invalid_poll_token',
      `the bearer token polls login request ${String(subject)}, not ${requestorId}`,
    );
  }
}
