import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Clock } from '@coinop/core';
import { PLAYER_TOKEN_ALG, type SigningKeys } from './signing-keys.js';

/** The `iss` of every player token: https://{auth_issuer}/ with the trailing slash (spec 5.3). */
export function issuerUrl(authIssuer: string): string {
  return `https://${authIssuer}/`;
}

/** A custom claim's name: https://{claims_namespace}/{name} (spec 5.3). */
export function claimName(claimsNamespace: string, name: PlayerClaim): string {
  return `https://${claimsNamespace}/${name}`;
}
export type PlayerClaim = 'playerId' | 'displayName' | 'picture' | 'gameId';

/**
 * Who a player token is for (`aud`), so each token does one job. A *game* token is what a
 * desktop or server-side game gets from the CLI login and hands to its game server (spec 5.3);
 * it opens nothing of the arcade's own. A *web* token is the arcade web app's session: it opens
 * the player's and developer's routes, and is short-lived and renewed.
 */
export const TokenAudiences = { game: 'coinop:game', web: 'coinop:web' } as const;
export type TokenAudience = (typeof TokenAudiences)[keyof typeof TokenAudiences];

/** What a player token says about its player. */
export interface PlayerTokenSubject {
  readonly id: string;
  readonly name: string;
  readonly avatarUrl: string | null;
}

export interface PlayerTokenSettings {
  readonly authIssuer: string;
  readonly claimsNamespace: string;
  /** Lifetime of a game token. */
  readonly ttlSeconds: number;
  /** Lifetime of a web session token; renewed up to `webSessionMaxAgeSeconds`. */
  readonly webSessionTtlSeconds: number;
  /** How long after the wallet's signature a web session can be renewed. */
  readonly webSessionMaxAgeSeconds: number;
}

/** A web session: a token, and when the wallet signature it rests on was made. */
export interface WebSession {
  readonly accessToken: string;
  readonly expiresInSeconds: number;
  /** When the wallet signed in; renewals never take a session past max age from it. */
  readonly authTime: Date;
}

/** Signs player tokens (RS256 JWTs) with the active key. */
export class PlayerTokens {
  readonly #keys: SigningKeys;
  readonly #clock: Clock;
  readonly #settings: PlayerTokenSettings;

  constructor(keys: SigningKeys, clock: Clock, settings: PlayerTokenSettings) {
    this.#keys = keys;
    this.#clock = clock;
    this.#settings = settings;
  }

  get ttlSeconds(): number {
    return this.#settings.ttlSeconds;
  }

  /**
   * A game token for the player living `ttlSeconds` (the configured lifetime by default), bound
   * to `gameId` when the login named its game: a game server checks that claim, so a token the
   * player gave one game cannot be replayed at another game's server to spend what the player
   * allowed that other game.
   */
  async issue(
    player: PlayerTokenSubject,
    ttlSeconds = this.#settings.ttlSeconds,
    gameId: string | null = null,
  ): Promise<{ accessToken: string; expiresInSeconds: number }> {
    const game =
      gameId === null ? {} : { [claimName(this.#settings.claimsNamespace, 'gameId')]: gameId };
    const accessToken = await this.#sign(player, TokenAudiences.game, ttlSeconds, game);
    return { accessToken, expiresInSeconds: ttlSeconds };
  }

  /**
   * A web session token for the player, whose wallet signed in at `authTime` (now, for a fresh
   * sign-in). It lives the session lifetime, but never past max age from `authTime`.
   */
  async issueWebSession(
    player: PlayerTokenSubject,
    authTime = this.#clock.now(),
  ): Promise<WebSession> {
    const { webSessionTtlSeconds, webSessionMaxAgeSeconds } = this.#settings;
    const now = Math.floor(this.#clock.now().getTime() / 1000);
    const ends = Math.floor(authTime.getTime() / 1000) + webSessionMaxAgeSeconds;
    const ttlSeconds = Math.min(webSessionTtlSeconds, ends - now);
    if (ttlSeconds <= 0) throw new TypeError('a web session past its max age cannot be renewed');
    const accessToken = await this.#sign(player, TokenAudiences.web, ttlSeconds, {
      auth_time: Math.floor(authTime.getTime() / 1000),
    });
    return { accessToken, expiresInSeconds: ttlSeconds, authTime };
  }

  async #sign(
    player: PlayerTokenSubject,
    audience: TokenAudience,
    ttlSeconds: number,
    extra: Record<string, string | number>,
  ): Promise<string> {
    const { authIssuer, claimsNamespace } = this.#settings;
    const { kid, key } = await this.#keys.signingKey(ttlSeconds);
    const iat = Math.floor(this.#clock.now().getTime() / 1000);
    const claims: Record<string, string | number> = {
      ...extra,
      [claimName(claimsNamespace, 'playerId')]: player.id,
      [claimName(claimsNamespace, 'displayName')]: player.name,
    };
    // A player without an avatar has no picture claim: a generated identicon would double the token.
    if (player.avatarUrl !== null) claims[claimName(claimsNamespace, 'picture')] = player.avatarUrl;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: PLAYER_TOKEN_ALG, kid, typ: 'JWT' })
      .setIssuer(issuerUrl(authIssuer))
      .setAudience(audience)
      .setSubject(player.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .setJti(randomBytes(12).toString('base64url'))
      .sign(key);
  }
}
