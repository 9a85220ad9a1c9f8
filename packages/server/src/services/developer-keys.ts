import {
  createDeveloperApiKey,
  listDeveloperApiKeys,
  revokeDeveloperApiKey,
  verifyApiKey,
  type ApiKeyPrincipal,
  type ApiKeySummary,
} from '../credentials/api-keys.js';
import type { ArcadeServices } from './arcade-services.js';

/**
 * A developer's API keys (spec 5.1), managed by the player of the developer's wallet, and the
 * check of a presented key. The credentials module makes and hashes the secrets; this hands it
 * the arcade's storage, time and ids.
 */
export class DeveloperKeys {
  readonly #arcade: ArcadeServices;

  constructor(arcade: ArcadeServices) {
    this.#arcade = arcade;
  }

  get #deps() {
    const { db, clock, ids } = this.#arcade;
    return { db, clock, ids };
  }

  /** Creates the developer of the player's wallet if needed, and a new key (shown only now). */
  async create(playerId: string) {
    return createDeveloperApiKey(this.#deps, playerId);
  }

  /** The keys of the player's wallet's developer; none before the first key is created. */
  async list(playerId: string): Promise<ApiKeySummary[]> {
    return listDeveloperApiKeys(this.#deps, playerId);
  }

  /** Revokes one of the developer's keys by prefix. */
  async revoke(playerId: string, prefix: string): Promise<ApiKeySummary> {
    return revokeDeveloperApiKey(this.#deps, playerId, prefix);
  }

  /** Who an `api-key` header value speaks for; `missing_api_key` or `invalid_api_key` else. */
  async verify(presented: string | string[] | undefined): Promise<ApiKeyPrincipal> {
    return verifyApiKey(this.#arcade.db, presented);
  }
}
