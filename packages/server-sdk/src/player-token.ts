import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTVerifyGetKey,
} from 'jose';
import {
  ArcadeNetworkError,
  PlayerTokenClaimsError,
  PlayerTokenError,
  PlayerTokenExpiredError,
  PlayerTokenIssuerError,
  PlayerTokenMalformedError,
  PlayerTokenMissingError,
  PlayerTokenSignatureError,
} from './errors.js';
import type { Clock } from './options.js';
import type { PlayerIdentity } from './types.js';

/** The audience of the player tokens coinop issues for games (its web sessions have another). */
const GAME_AUDIENCE = 'coinop:game';

/** Player tokens are RS256 JWTs (spec 5.3); any other algorithm is refused before key lookup. */
const PLAYER_TOKEN_ALG = 'RS256';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PlayerTokenSettings {
  readonly authUrl: URL;
  /** The exact `iss` a token must carry. */
  readonly issuer: string;
  readonly claimsNamespace: string;
  readonly fetchTimeoutMs: number;
  readonly clock: Clock;
}

/**
 * Checks player tokens against the sign-in service's published keys (spec 5.3). The key set is
 * fetched once and cached; jose fetches it again when a token names a `kid` it does not hold
 * (a rotated key), at most once per cooldown.
 */
export class PlayerTokenVerifier {
  readonly #settings: PlayerTokenSettings;
  readonly #jwksUrl: URL;
  readonly #keys: JWTVerifyGetKey;

  constructor(settings: PlayerTokenSettings) {
    this.#settings = settings;
    // {auth_url}/.well-known/jwks.json: below the auth URL's path when it has one.
    const base = settings.authUrl.href.endsWith('/')
      ? settings.authUrl.href
      : `${settings.authUrl.href}/`;
    this.#jwksUrl = new URL('.well-known/jwks.json', base);
    const remote = createRemoteJWKSet(this.#jwksUrl, { timeoutDuration: settings.fetchTimeoutMs });
    this.#keys = async (header, token) => {
      try {
        return await remote(header, token);
      } catch (error) {
        throw this.#keyError(error, header.kid);
      }
    };
  }

  /** Validates `token` as a token for the game `gameId` (this server's game). */
  async validate(token: string | null | undefined, gameId: string): Promise<PlayerIdentity> {
    if (token === undefined || token === null || typeof token !== 'string' || token.trim() === '') {
      throw new PlayerTokenMissingError('a player token is required (spec 5.3)');
    }
    const { issuer, claimsNamespace, clock } = this.#settings;
    let payload;
    try {
      ({ payload } = await jwtVerify(token.trim(), this.#keys, {
        algorithms: [PLAYER_TOKEN_ALG],
        issuer,
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: clock.now(),
      }));
    } catch (error) {
      throw refusal(error, token, issuer);
    }
    // coinop gives game servers tokens for games; the arcade web app's own session tokens (a
    // distinct audience) are refused. A token without an audience is from an older arcade.
    const audience = payload.aud;
    if (
      audience !== undefined &&
      !(Array.isArray(audience) ? audience : [audience]).includes(GAME_AUDIENCE)
    ) {
      throw new PlayerTokenClaimsError(
        `player token is for ${String(audience)}, not for games (${GAME_AUDIENCE}): have the ` +
          'player sign in through the CLI login',
      );
    }
    const claim = (name: keyof PlayerIdentity | 'gameId') => {
      const value = payload[`https://${claimsNamespace}/${name}`];
      return typeof value === 'string' ? value : null;
    };
    const playerId = claim('playerId');
    if (playerId === null || !UUID.test(playerId)) {
      throw new PlayerTokenClaimsError(
        `player token has no player id in claim https://${claimsNamespace}/playerId; is ` +
          `claimsNamespace the arcade's --claims-namespace?`,
      );
    }
    // A game token names the game whose login the player approved: another game's token would
    // let that game's operator spend what the player allowed this one.
    const tokenGame = claim('gameId');
    if (audience !== undefined && tokenGame !== gameId) {
      throw new PlayerTokenClaimsError(
        tokenGame === null
          ? 'player token names no game: have the player sign in through a login naming this ' +
              `game (gameId ${gameId} on POST {auth_url}/cli)`
          : `player token is for game ${tokenGame}, not this game (${gameId}): a token the ` +
              'player gave another game cannot spend what they allowed this one',
      );
    }
    return { playerId, displayName: claim('displayName'), picture: claim('picture') };
  }

  /** A failure to pick the key: the token's fault, or the key set could not be loaded. */
  #keyError(error: unknown, kid: string | undefined): Error {
    if (
      error instanceof joseErrors.JWKSNoMatchingKey ||
      error instanceof joseErrors.JWKSMultipleMatchingKeys
    ) {
      return new PlayerTokenSignatureError(
        `player token names signing key ${kid ?? '(no kid)'}, which ${this.#jwksUrl.href} ` +
          'does not publish',
        { cause: error },
      );
    }
    if (error instanceof joseErrors.JWKSTimeout) {
      return new ArcadeNetworkError(
        'network_timeout',
        `GET ${this.#jwksUrl.href}: no answer within ${this.#settings.fetchTimeoutMs} ms`,
        { cause: error },
      );
    }
    if (error instanceof joseErrors.JOSENotSupported) return error;
    const why = error instanceof Error ? error.message : String(error);
    return new ArcadeNetworkError(
      'network_error',
      `GET ${this.#jwksUrl.href}: cannot load the signing keys: ${why}`,
      { cause: error },
    );
  }
}

/** jose's verdict as one of our errors, naming the check that failed. */
function refusal(error: unknown, token: string, issuer: string): Error {
  if (error instanceof PlayerTokenError || error instanceof ArcadeNetworkError) return error;
  if (error instanceof joseErrors.JWTExpired) {
    return new PlayerTokenExpiredError('player token has expired; the player must sign in again', {
      cause: error,
    });
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') {
      return new PlayerTokenIssuerError(
        `player token was issued by ${String(error.payload.iss)}, not ${issuer}`,
        { cause: error },
      );
    }
    return new PlayerTokenClaimsError(`player token claim ${error.claim} is missing or invalid`, {
      cause: error,
    });
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new PlayerTokenSignatureError('player token signature does not verify', {
      cause: error,
    });
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) {
    return new PlayerTokenSignatureError(
      `player token is signed with ${algorithmOf(token)}; player tokens are signed with ` +
        PLAYER_TOKEN_ALG,
      { cause: error },
    );
  }
  if (error instanceof joseErrors.JOSEError) {
    return new PlayerTokenMalformedError('player token is not a well-formed signed JWT', {
      cause: error,
    });
  }
  return error instanceof Error ? error : new Error(String(error));
}

function algorithmOf(token: string): string {
  try {
    return decodeProtectedHeader(token).alg ?? 'no algorithm';
  } catch {
    return 'an unreadable header';
  }
}
