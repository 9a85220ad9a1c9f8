import { isErrorCode, type ErrorCode } from '@coinop/protocol';

/**
 * The arcade API answered with an error: the status, and the `code`, `message` and `details` of
 * its application/problem+json body. Retrying the same request will not help (a 4xx), or did not
 * help within the SDK's attempts (a 5xx).
 *
 * @example
 * ```ts
 * import { ArcadeApiError } from '@coinop/server-sdk';
 * try {
 *   await arcade.play(playerId, leaderboardId);
 * } catch (error) {
 *   if (error instanceof ArcadeApiError && error.code === 'insufficient_funds') {
 *     console.log(`cannot play: ${error.message}`); // status 402
 *   } else throw error;
 * }
 * ```
 */
export class ArcadeApiError extends Error {
  override readonly name = 'ArcadeApiError';
  /** The HTTP status of the response. */
  readonly status: number;
  /** A code of the catalogue in `@coinop/protocol`; stable across releases. */
  readonly code: ErrorCode;
  /** Extra facts the server gave (for example the `field` of a validation failure). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    details?: Readonly<Record<string, unknown>>,
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/**
 * Why a request never got an answer: the connection failed or the answer took too long.
 *
 * @example
 * ```ts
 * import type { ArcadeNetworkErrorCode } from '@coinop/server-sdk';
 * const retryLater: ArcadeNetworkErrorCode[] = ['network_error', 'network_timeout'];
 * ```
 */
export type ArcadeNetworkErrorCode = 'network_error' | 'network_timeout';

/**
 * A request to the arcade API or the sign-in service got no response: the connection was refused
 * or dropped (`network_error`), or no answer came within `fetchTimeoutMs` (`network_timeout`).
 * The underlying error is kept as `cause`. Calls that are safe to repeat were already retried.
 *
 * @example
 * ```ts
 * import { ArcadeNetworkError } from '@coinop/server-sdk';
 * try {
 *   await arcade.leaderboards();
 * } catch (error) {
 *   if (error instanceof ArcadeNetworkError) console.log(error.code, error.cause);
 *   else throw error;
 * }
 * ```
 */
export class ArcadeNetworkError extends Error {
  override readonly name = 'ArcadeNetworkError';
  readonly code: ArcadeNetworkErrorCode;

  constructor(code: ArcadeNetworkErrorCode, message: string, options: { cause: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/**
 * The codes of the player-token errors, one per reason a token is refused.
 *
 * @example
 * ```ts
 * import type { PlayerTokenErrorCode } from '@coinop/server-sdk';
 * const signInAgain: PlayerTokenErrorCode[] = ['player_token_expired', 'player_token_missing'];
 * ```
 */
export type PlayerTokenErrorCode =
  | 'player_token_missing'
  | 'player_token_malformed'
  | 'player_token_expired'
  | 'player_token_wrong_issuer'
  | 'player_token_bad_signature'
  | 'player_token_invalid_claims';

/**
 * The base of every player-token refusal: catch it to answer 401 to a player whatever the reason.
 *
 * @example
 * ```ts
 * import { PlayerTokenError } from '@coinop/server-sdk';
 * try {
 *   const { playerId } = await arcade.validatePlayerToken(token);
 * } catch (error) {
 *   if (error instanceof PlayerTokenError) console.log(`401: ${error.code}`);
 *   else throw error;
 * }
 * ```
 */
export abstract class PlayerTokenError extends Error {
  abstract readonly code: PlayerTokenErrorCode;
}

/**
 * No player token was given (undefined, null or blank), so there is nothing to check (spec 5.3).
 *
 * @example
 * ```ts
 * import { PlayerTokenMissingError } from '@coinop/server-sdk';
 * await arcade.validatePlayerToken('').catch((e) => e instanceof PlayerTokenMissingError); // true
 * ```
 */
export class PlayerTokenMissingError extends PlayerTokenError {
  override readonly name = 'PlayerTokenMissingError';
  override readonly code = 'player_token_missing';
}

/**
 * The player token is not a well-formed signed JWT (three base64url parts, a JSON header).
 *
 * @example
 * ```ts
 * import { PlayerTokenMalformedError } from '@coinop/server-sdk';
 * await arcade.validatePlayerToken('abc').catch((e) => e instanceof PlayerTokenMalformedError);
 * ```
 */
export class PlayerTokenMalformedError extends PlayerTokenError {
  override readonly name = 'PlayerTokenMalformedError';
  override readonly code = 'player_token_malformed';
}

/**
 * The player token's `exp` has passed: the player must sign in again (spec 5.3).
 *
 * @example
 * ```ts
 * import { PlayerTokenExpiredError } from '@coinop/server-sdk';
 * const ok = await arcade.validatePlayerToken(oldToken).catch((e) => {
 *   if (e instanceof PlayerTokenExpiredError) return null; // ask the player to sign in again
 *   throw e;
 * });
 * ```
 */
export class PlayerTokenExpiredError extends PlayerTokenError {
  override readonly name = 'PlayerTokenExpiredError';
  override readonly code = 'player_token_expired';
}

/**
 * The player token's `iss` is not this arcade's sign-in service: a token of another arcade, or a
 * wrong `authUrl` / `issuer` option.
 *
 * @example
 * ```ts
 * import { PlayerTokenIssuerError } from '@coinop/server-sdk';
 * await arcade.validatePlayerToken(foreignToken).catch((e) => e instanceof PlayerTokenIssuerError);
 * ```
 */
export class PlayerTokenIssuerError extends PlayerTokenError {
  override readonly name = 'PlayerTokenIssuerError';
  override readonly code = 'player_token_wrong_issuer';
}

/**
 * The player token's signature does not verify with the published key its `kid` names, the key
 * is not published, or it is not signed with RS256.
 *
 * @example
 * ```ts
 * import { PlayerTokenSignatureError } from '@coinop/server-sdk';
 * const forged = `${token.slice(0, -4)}AAAA`;
 * await arcade.validatePlayerToken(forged).catch((e) => e instanceof PlayerTokenSignatureError);
 * ```
 */
export class PlayerTokenSignatureError extends PlayerTokenError {
  override readonly name = 'PlayerTokenSignatureError';
  override readonly code = 'player_token_bad_signature';
}

/**
 * The player token is signed and current but lacks a claim coinop needs: `exp`, `iat`, `sub`, or
 * a UUID in `https://{claimsNamespace}/playerId` (a wrong `claimsNamespace` option shows so).
 *
 * @example
 * ```ts
 * import { PlayerTokenClaimsError } from '@coinop/server-sdk';
 * await arcade.validatePlayerToken(token).catch((e) => e instanceof PlayerTokenClaimsError);
 * ```
 */
export class PlayerTokenClaimsError extends PlayerTokenError {
  override readonly name = 'PlayerTokenClaimsError';
  override readonly code = 'player_token_invalid_claims';
}

/**
 * Every error the SDK throws on purpose, so `switch (error.code)` narrows to one class. Misuse
 * (a missing option, a non-number score) is a `TypeError` instead.
 *
 * @example
 * ```ts
 * import type { ArcadeError } from '@coinop/server-sdk';
 * function statusFor(error: ArcadeError): number {
 *   switch (error.code) {
 *     case 'insufficient_funds':
 *       return 402;
 *     case 'network_error':
 *     case 'network_timeout':
 *       return 503;
 *     case 'player_token_expired':
 *       return 401;
 *     default:
 *       return 500;
 *   }
 * }
 * ```
 */
export type ArcadeError =
  | ArcadeApiError
  | ArcadeNetworkError
  | PlayerTokenMissingError
  | PlayerTokenMalformedError
  | PlayerTokenExpiredError
  | PlayerTokenIssuerError
  | PlayerTokenSignatureError
  | PlayerTokenClaimsError;

/**
 * Whether a value is one of the SDK's errors.
 *
 * @example
 * ```ts
 * import { isArcadeError } from '@coinop/server-sdk';
 * try {
 *   await arcade.score(play, 1200);
 * } catch (error) {
 *   if (!isArcadeError(error)) throw error;
 *   console.log(error.code);
 * }
 * ```
 */
export function isArcadeError(value: unknown): value is ArcadeError {
  return (
    value instanceof ArcadeApiError ||
    value instanceof ArcadeNetworkError ||
    value instanceof PlayerTokenError
  );
}

/**
 * The error a non-2xx response stands for. A body that is not coinop's problem+json (a proxy's
 * page, or a code newer than this SDK) gets a code from the status, and keeps what it said in
 * `details`.
 */
export function apiErrorFrom(status: number, body: string, what: string): ArcadeApiError {
  const problem = parseProblem(body);
  const details = problem?.details;
  if (problem !== null && isErrorCode(problem.code) && typeof problem.message === 'string') {
    return new ArcadeApiError(status, problem.code, problem.message, details);
  }
  const message =
    typeof problem?.message === 'string'
      ? problem.message
      : `${what} answered ${status} without a coinop error body`;
  const extra: Record<string, unknown> = { ...details };
  if (typeof problem?.code === 'string') extra['code'] = problem.code;
  else if (problem === null && body !== '') extra['body'] = body.slice(0, BODY_EXCERPT_CHARS);
  return new ArcadeApiError(status, codeForStatus(status), message, extra);
}

const BODY_EXCERPT_CHARS = 200;

interface ProblemLike {
  code?: unknown;
  message?: unknown;
  details?: Record<string, unknown>;
}

function parseProblem(body: string): ProblemLike | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { code, message, details } = parsed as Record<string, unknown>;
  const isRecord = typeof details === 'object' && details !== null && !Array.isArray(details);
  return isRecord
    ? { code, message, details: details as Record<string, unknown> }
    : { code, message };
}

function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'validation_failed';
    case 401:
      return 'missing_bearer_token';
    case 404:
      return 'route_not_found';
    case 405:
      return 'method_not_allowed';
    case 413:
      return 'body_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    case 502:
    case 503:
    case 504:
      return 'service_unavailable';
    default:
      return 'internal_error';
  }
}
