/**
 * A source of the current time. The SDK reads it to tell when a write token is due for refresh
 * and whether a player token has expired; tests pass a clock they move by hand.
 *
 * @example
 * ```ts
 * import type { Clock } from '@coinop/server-sdk';
 * const systemClock: Clock = { now: () => new Date() };
 * ```
 */
export interface Clock {
  now(): Date;
}

/**
 * How to reach an arcade and act for one game. Only the first four are needed; every other
 * option has a default fit for production.
 *
 * @example
 * ```ts
 * import type { ArcadeOptions } from '@coinop/server-sdk';
 * const options: ArcadeOptions = {
 *   clientId: process.env.COINOP_CLIENT_ID ?? '',
 *   clientSecret: process.env.COINOP_CLIENT_SECRET ?? '',
 *   baseUrl: 'https://api.arcade.example.com',
 *   authUrl: 'https://auth.arcade.example.com',
 *   fetchTimeoutMs: 5_000,
 * };
 * ```
 */
export interface ArcadeOptions {
  /** The game's server client id, from the developer portal. */
  readonly clientId: string;
  /** The game's server client secret. Keep it on the server. */
  readonly clientSecret: string;
  /** The arcade API, {base_url} of the spec. */
  readonly baseUrl: string | URL;
  /** The player sign-in service, {auth_url} of the spec; its JWKS verifies player tokens. */
  readonly authUrl: string | URL;
  /**
   * Who issues player tokens: the arcade's `--auth-issuer` (`host[:port]`) or the full `iss`
   * (`https://host[:port]/`). Default: the host and port of `authUrl`.
   */
  readonly issuer?: string;
  /**
   * The host that names the player claims (`https://{claimsNamespace}/playerId`), the arcade's
   * `--claims-namespace`. Default: the issuer's host without its port, as the server's default.
   */
  readonly claimsNamespace?: string;
  /** Longest wait for one response, headers and body, in ms. Default 10 000. */
  readonly fetchTimeoutMs?: number;
  /** Attempts in all for a call that is safe to repeat. Default 3. */
  readonly maxAttempts?: number;
  /** Wait before the first retry, in ms; it doubles for each later one. Default 200. */
  readonly retryBaseDelayMs?: number;
  /** The part of a write token's life after which it is replaced, above 0 and at most 1. */
  readonly refreshAtLifeFraction?: number;
  /** Where the time comes from. Default: the system clock. */
  readonly clock?: Clock;
}

/** Every option filled in and checked. */
export interface ResolvedOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly baseUrl: URL;
  readonly authUrl: URL;
  /** The exact `iss` a player token must carry. */
  readonly issuer: string;
  readonly claimsNamespace: string;
  readonly fetchTimeoutMs: number;
  readonly maxAttempts: number;
  readonly retryBaseDelayMs: number;
  readonly refreshAtLifeFraction: number;
  readonly clock: Clock;
}

/** Long enough for a slow database on the far side of the world, short enough to fail a play. */
const DEFAULT_FETCH_TIMEOUT_MS = 10_000;
/** One try and two retries ride out a restart of the arcade without stalling a game long. */
const DEFAULT_MAX_ATTEMPTS = 3;
/** 200 ms then 400 ms: about as long as an arcade behind a load balancer takes to fail over. */
const DEFAULT_RETRY_BASE_DELAY_MS = 200;
/** Replace a token with a fifth of its life left, so a slow refresh never meets an expired one. */
const DEFAULT_REFRESH_AT_LIFE_FRACTION = 0.8;
/** Retries past this hold a game server's request longer than any player waits. */
const MAX_ATTEMPTS_LIMIT = 10;

const systemClock: Clock = { now: () => new Date() };

/** Fills in defaults and rejects misuse with a `TypeError` naming the option. */
export function resolveOptions(options: ArcadeOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('Arcade.build needs an options object');
  }
  const authUrl = httpUrl(options.authUrl, 'authUrl');
  const issuer = resolveIssuer(authUrl, options.issuer);
  const claimsNamespace = options.claimsNamespace ?? new URL(issuer).hostname;
  if (typeof claimsNamespace !== 'string' || !/^[a-z0-9.:-]+$/i.test(claimsNamespace)) {
    throw new TypeError(`claimsNamespace must be a host name such as example.com`);
  }
  return {
    clientId: nonEmpty(options.clientId, 'clientId'),
    clientSecret: nonEmpty(options.clientSecret, 'clientSecret'),
    baseUrl: httpUrl(options.baseUrl, 'baseUrl'),
    authUrl,
    issuer,
    claimsNamespace,
    fetchTimeoutMs: integer(options.fetchTimeoutMs, 'fetchTimeoutMs', DEFAULT_FETCH_TIMEOUT_MS, 1),
    maxAttempts: integer(options.maxAttempts, 'maxAttempts', DEFAULT_MAX_ATTEMPTS, 1),
    retryBaseDelayMs: integer(
      options.retryBaseDelayMs,
      'retryBaseDelayMs',
      DEFAULT_RETRY_BASE_DELAY_MS,
      0,
    ),
    refreshAtLifeFraction: fraction(options.refreshAtLifeFraction),
    clock: options.clock ?? systemClock,
  };
}

/**
 * The `iss` player tokens carry: https://{auth issuer}/ with the trailing slash (spec 5.3). The
 * server's default issuer is the host and port its sign-in service listens on.
 */
export function resolveIssuer(authUrl: URL, issuer: string | undefined): string {
  if (issuer === undefined) return `https://${authUrl.host}/`;
  if (typeof issuer !== 'string' || issuer === '') {
    throw new TypeError('issuer must be host[:port] or https://host[:port]/');
  }
  if (issuer.includes('://')) return issuer;
  if (!URL.canParse(`https://${issuer}/`) || new URL(`https://${issuer}/`).host !== issuer) {
    throw new TypeError(`issuer must be host[:port] or https://host[:port]/, got ${issuer}`);
  }
  return `https://${issuer}/`;
}

function nonEmpty(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${name} must be a non-empty string`);
  }
  return value;
}

function httpUrl(value: unknown, name: string): URL {
  const text = value instanceof URL ? value.href : value;
  if (typeof text !== 'string' || !URL.canParse(text)) {
    throw new TypeError(`${name} must be an http(s) URL, got ${String(value)}`);
  }
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${name} must be an http(s) URL, got ${text}`);
  }
  return url;
}

function integer(value: unknown, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const max = name === 'maxAttempts' ? MAX_ATTEMPTS_LIMIT : Number.MAX_SAFE_INTEGER;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new TypeError(`${name} must be an integer from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

function fraction(value: unknown): number {
  if (value === undefined) return DEFAULT_REFRESH_AT_LIFE_FRACTION;
  if (typeof value !== 'number' || !(value > 0 && value <= 1)) {
    throw new TypeError(
      `refreshAtLifeFraction must be above 0 and at most 1, got ${String(value)}`,
    );
  }
  return value;
}
