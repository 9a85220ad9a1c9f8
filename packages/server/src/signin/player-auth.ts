import type { FastifyRequest } from 'fastify';
import type { Clock } from '@coinop/core';
import type { SigningKeys } from './keys.js';
import { validatePlayerToken, type ValidPlayerToken } from './validate-player-token.js';

/** The bearer token of a request, or null when there is no `Authorization: Bearer` header. */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** Checks requests' player tokens against the keys in storage, at the injected clock's time. */
export class PlayerAuthenticator {
  readonly #keys: SigningKeys;
  readonly #clock: Clock;
  readonly #settings: { authIssuer: string; claimsNamespace: string };

  constructor(
    keys: SigningKeys,
    clock: Clock,
    settings: { authIssuer: string; claimsNamespace: string },
  ) {
    this.#keys = keys;
    this.#clock = clock;
    this.#settings = settings;
  }

  /** The player a request's bearer token proves; throws as `validatePlayerToken` does. */
  authenticate(request: FastifyRequest): Promise<ValidPlayerToken> {
    return validatePlayerToken(bearerToken(request), {
      keys: this.#keys.keySource(),
      authIssuer: this.#settings.authIssuer,
      claimsNamespace: this.#settings.claimsNamespace,
      now: this.#clock.now(),
    });
  }
}
