import type { Clock, Ids } from '@coinop/core';
import type { ApiDeps } from '../app.js';
import type { Config } from '../config.js';
import type { Db } from '../store/db.js';
import { ensureArcade, type ArcadeRecord } from '../store/parties.js';
import { GameCache } from './game-cache.js';

/**
 * The arcade's application services: what HTTP handlers call. Holds storage, time, ids, config
 * and the caches; each method is one use case, thin over the core and the stores.
 */
export class Arcade {
  readonly config: Config;
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly games: GameCache;
  readonly writeTokenKey: Uint8Array;
  #record: ArcadeRecord | null = null;

  constructor(config: Config, deps: ApiDeps) {
    this.config = config;
    this.db = deps.db;
    this.clock = deps.clock;
    this.ids = deps.ids;
    this.writeTokenKey = deps.writeTokenKey;
    this.games = new GameCache(deps.db);
  }

  /** Finds or creates the installation's arcade; called once before serving. */
  async bootstrap(): Promise<ArcadeRecord> {
    this.#record ??= await ensureArcade(this.db, this.clock, this.ids);
    return this.#record;
  }

  /** The installation's arcade (its id, its account, the mint account). */
  get record(): ArcadeRecord {
    if (!this.#record) throw new TypeError('Arcade.bootstrap() must run before use');
    return this.#record;
  }
}
