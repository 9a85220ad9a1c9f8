import { errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { CoinopError } from '@coinop/core';
import { PLAYER_TOKEN_ALG } from './signing-keys.js';
import { claimName, issuerUrl, type TokenAudience } from './player-tokens.js';

/**
 * Where the verification keys come from: `createRemoteJWKSet(new URL(jwksUrl))` for a game
 * server, `SigningKeys.keySource()` inside coinop. Either picks the key by the token's `kid`.
 */
export type PlayerKeySource = JWTVerifyGetKey;

export interface PlayerTokenCheck {
  readonly keys: PlayerKeySource;
  /** The sign-in service's public host[:port]; the token's iss must be https://{authIssuer}/. */
  readonly authIssuer: string;
  readonly claimsNamespace: string;
  /** The time to check `exp` against; the current time by default. */
  readonly now?: Date;
  /** The token must be for this audience (`aud`): game tokens and web sessions do not mix. */
  readonly audience?: TokenAudience;
  /** The longest lifetime (exp − iat) a token of that kind is issued with; longer is refused. */
  readonly maxLifetimeSeconds?: number;
}

/** What a valid player token proves. */
export interface ValidPlayerToken {
  readonly playerId: string;
  readonly displayName: string | null;
  readonly picture: string | null;
  readonly kid: string;
  readonly issuedAt: Date;
  readonly expiresAt: Date;
  /** A web session's wallet sign-in time (`auth_time`); null for a game token. */
  readonly authTime: Date | null;
}

/** Why a token was refused, in `details.reason` of the `invalid_player_token` error. */
export type PlayerTokenFailure =
  | 'malformed'
  | 'algorithm'
  | 'unknown_kid'
  | 'signature'
  | 'issuer'
  | 'audience'
  | 'lifetime'
  | 'expired'
  | 'claims';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Validates a player token as spec 5.3 says, in one place for the API, the sign-in service and
 * game servers: RS256 only, signature by the key its `kid` names, `iss` equal to
 * https://{authIssuer}/, `exp` in the future, and a UUID in the playerId claim.
 *
 * Throws `CoinopError` `missing_bearer_token` when there is no token, and `invalid_player_token`
 * with `details.reason` (a {@link PlayerTokenFailure}) for anything else; a key source that cannot
 * be reached is `service_unavailable`.
 *
 * @example
 * ```ts
 * const keys = createRemoteJWKSet(new URL('https://auth.example.com/.well-known/jwks.json'));
 * const { playerId } = await validatePlayerToken(token, {
 *   keys,
 *   authIssuer: 'auth.example.com',
 *   claimsNamespace: 'auth.example.com',
 * });
 * ```
 */
export async function validatePlayerToken(
  token: string | null | undefined,
  check: PlayerTokenCheck,
): Promise<ValidPlayerToken> {
  if (token === undefined || token === null || token.trim() === '') {
    throw new CoinopError(
      'missing_bearer_token',
      'a player token is required: send Authorization: Bearer <player access token>',
    );
  }
  const issuer = issuerUrl(check.authIssuer);
  let verified;
  try {
    verified = await jwtVerify(token, check.keys, {
      algorithms: [PLAYER_TOKEN_ALG],
      issuer,
      requiredClaims: ['exp', 'iat', 'sub'],
      currentDate: check.now ?? new Date(),
      ...(check.audience === undefined ? {} : { audience: check.audience }),
    });
  } catch (error) {
    throw refusal(error, issuer, check.audience);
  }
  const { payload, protectedHeader } = verified;
  const claim = (name: 'playerId' | 'displayName' | 'picture') => {
    const value = payload[claimName(check.claimsNamespace, name)];
    return typeof value === 'string' ? value : null;
  };
  const playerId = claim('playerId');
  if (playerId === null || !UUID.test(playerId)) {
    throw invalid(
      'claims',
      `player token has no playerId claim ${claimName(check.claimsNamespace, 'playerId')}`,
    );
  }
  const lifetime = (payload.exp ?? 0) - (payload.iat ?? 0);
  if (check.maxLifetimeSeconds !== undefined && lifetime > check.maxLifetimeSeconds) {
    throw invalid(
      'lifetime',
      `player token lives ${lifetime} seconds, more than the ${check.maxLifetimeSeconds} this ` +
        'arcade issues; sign in again',
    );
  }
  const authTime = payload['auth_time'];
  return {
    playerId,
    displayName: claim('displayName'),
    picture: claim('picture'),
    kid: protectedHeader.kid ?? '',
    issuedAt: new Date((payload.iat ?? 0) * 1000),
    expiresAt: new Date((payload.exp ?? 0) * 1000),
    authTime: typeof authTime === 'number' ? new Date(authTime * 1000) : null,
  };
}

function invalid(reason: PlayerTokenFailure, message: string, cause?: unknown): CoinopError {
  return new CoinopError('invalid_player_token', message, { details: { reason }, cause });
}

/** Turns jose's verdict into our error, saying which check failed. */
function refusal(error: unknown, issuer: string, audience: TokenAudience | undefined): CoinopError {
  if (error instanceof CoinopError) return error;
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid) {
    return new CoinopError(
      'service_unavailable',
      `cannot load the signing keys: ${error.message}`,
      {
        cause: error,
      },
    );
  }
  if (
    error instanceof joseErrors.JOSEAlgNotAllowed ||
    error instanceof joseErrors.JOSENotSupported
  ) {
    return invalid('algorithm', `player tokens are signed with ${PLAYER_TOKEN_ALG} only`, error);
  }
  if (error instanceof joseErrors.JWKSNoMatchingKey) {
    return invalid(
      'unknown_kid',
      `player token names an unknown signing key: ${error.message}`,
      error,
    );
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return invalid('signature', 'player token signature does not verify', error);
  }
  if (error instanceof joseErrors.JWTExpired) {
    return invalid('expired', 'player token has expired; sign in again', error);
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') {
      return invalid('issuer', `player token was not issued by ${issuer}`, error);
    }
    if (error.claim === 'aud') {
      return invalid(
        'audience',
        audience === 'coinop:web'
          ? "this token is not the arcade web app's session: sign in with your wallet there " +
              '(a token given to games opens nothing of the arcade)'
          : `player token is not for ${audience ?? 'this use'}`,
        error,
      );
    }
    return invalid('claims', `player token claim ${error.claim} is missing or invalid`, error);
  }
  if (error instanceof joseErrors.JOSEError) {
    return invalid('malformed', 'player token is not a well-formed signed JWT', error);
  }
  // A key source failing for another reason (storage down): not the token's fault.
  throw error;
}
