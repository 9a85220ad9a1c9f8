import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Clock } from '@coinop/core';
import { PLAYER_TOKEN_ALG, type SigningKeys } from './keys.js';

/** The `iss` of every player token: https://{auth_issuer}/ with the trailing slash (spec 5.3). */
export function issuerUrl(authIssuer: string): string {
  return `https://${authIssuer}/`;
}

/** A custom claim's name: https://{claims_namespace}/{name} (spec 5.3). */
export function claimName(claimsNamespace: string, name: PlayerClaim): string {
  return `https://${claimsNamespace}/${name}`;
}
export type PlayerClaim = 'playerId' | 'displayName' | 'picture';

/** What a player token says about its player. */
export interface PlayerTokenSubject {
  readonly id: string;
  readonly name: string;
  readonly avatarUrl: string | null;
}

export interface PlayerTokenSettings {
  readonly authIssuer: string;
  readonly claimsNamespace: string;
  readonly ttlSeconds: number;
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

  /** A token for the player living `ttlSeconds` (the configured lifetime by default). */
  async issue(
    player: PlayerTokenSubject,
    ttlSeconds = this.#settings.ttlSeconds,
  ): Promise<{ accessToken: string; expiresInSeconds: number }> {
    const { authIssuer, claimsNamespace } = this.#settings;
    const { kid, key } = await this.#keys.signingKey(ttlSeconds);
    const iat = Math.floor(this.#clock.now().getTime() / 1000);
    const claims: Record<string, string> = {
      [claimName(claimsNamespace, 'playerId')]: player.id,
      [claimName(claimsNamespace, 'displayName')]: player.name,
    };
    // A player without an avatar has no picture claim: a generated identicon would double the token.
    if (player.avatarUrl !== null) claims[claimName(claimsNamespace, 'picture')] = player.avatarUrl;
    const accessToken = await new SignJWT(claims)
      .setProtectedHeader({ alg: PLAYER_TOKEN_ALG, kid, typ: 'JWT' })
      .setIssuer(issuerUrl(authIssuer))
      .setSubject(player.id)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .setJti(randomBytes(12).toString('base64url'))
      .sign(key);
    return { accessToken, expiresInSeconds: ttlSeconds };
  }
}
