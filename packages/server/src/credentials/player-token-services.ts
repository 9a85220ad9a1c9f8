import type { Clock } from '@coinop/core';
import type { SecretBox } from './secret-box.js';
import type { Config } from '../config.js';
import type { Db } from '../store/db.js';
import { SigningKeys } from './signing-keys.js';
import { PlayerAuthenticator } from './player-auth.js';
import { PlayerTokens } from './player-tokens.js';

/**
 * The token side of sign-in, built the same way wherever it is needed: the sign-in listener, and
 * the API (developer endpoints validate player tokens; `coinop admin` mints them and rotates the
 * keys). Every instance works from the keys in storage, so all agree.
 */
export interface PlayerTokenServices {
  readonly keys: SigningKeys;
  readonly tokens: PlayerTokens;
  readonly players: PlayerAuthenticator;
}

export function playerTokenServices(
  config: Config,
  deps: { db: Db; clock: Clock; secrets: SecretBox },
): PlayerTokenServices {
  const keys = new SigningKeys(deps.db, deps.clock, deps.secrets, {
    rotationDays: config.keyRotationDays,
    tokenTtlSeconds: config.playerTokenTtlSeconds,
  });
  const settings = {
    authIssuer: config.authIssuer,
    claimsNamespace: config.claimsNamespace,
    webSessionTtlSeconds: config.webSessionTtlSeconds,
  };
  return {
    keys,
    tokens: new PlayerTokens(keys, deps.clock, {
      ...settings,
      ttlSeconds: config.playerTokenTtlSeconds,
      webSessionMaxAgeSeconds: config.webSessionMaxAgeSeconds,
    }),
    players: new PlayerAuthenticator(keys, deps.clock, settings),
  };
}
