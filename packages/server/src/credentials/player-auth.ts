import type { FastifyRequest } from 'fastify';
import type { Clock } from '@coinop/core';
import { bearerToken } from '../listener/bearer.js';
import type { SigningKeys } from './signing-keys.js';
import { TokenAudiences } from './player-tokens.js';
import { validatePlayerToken, type ValidPlayerToken } from './validate-player-token.js';

/**
 * Checks the web session token of a request to the arcade's own routes (the player's and the
 * developer's, CLI-login approval) against the keys in storage, at the injected clock's time. A
 * game token is refused: what a game server holds opens nothing of the arcade.
 */
export class PlayerAuthenticator {
  readonly #keys: SigningKeys;
  readonly #clock: Clock;
  readonly #settings: { authIssuer: string; claimsNamespace: string; webSessionTtlSeconds: number };

  constructor(
    keys: SigningKeys,
    clock: Clock,
    settings: { authIssuer: string; claimsNamespace: string; webSessionTtlSeconds: number },
  ) {
    this.#keys = keys;
    this.#clock = clock;
    this.#settings = settings;
  }

  /** The player a request's web session token proves; throws as `validatePlayerToken` does. */
  authenticate(request: FastifyRequest): Promise<ValidPlayerToken> {
    return validatePlayerToken(bearerToken(request), {
      keys: this.#keys.keySource(),
      authIssuer: this.#settings.authIssuer,
      claimsNamespace: this.#settings.claimsNamespace,
      now: this.#clock.now(),
      audience: TokenAudiences.web,
      maxLifetimeSeconds: this.#settings.webSessionTtlSeconds,
    });
  }
}
