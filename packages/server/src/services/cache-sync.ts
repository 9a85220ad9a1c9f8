import type { RevokedClients } from '../credentials/revoked-clients.js';
import { CACHE_CHANNEL, parseCacheNotice } from '../store/cache-notices.js';
import type { Db } from '../store/db.js';
import type { GameCache } from './game-cache.js';
import type { GameReads } from './game-reads.js';

/** The caches of one API process that other processes' changes can make stale. */
export interface SyncedCaches {
  readonly games: GameCache;
  readonly reads: GameReads;
  readonly revokedClients: RevokedClients;
  /** The score path's copies of boards and the plays it remembers on them (`ScoreMemory`). */
  readonly boards?: { forgetBoard(leaderboardId: string): void } | undefined;
}

/**
 * Keeps this process's caches in step with every process on the database: LISTENs on
 * `CACHE_CHANNEL` (a connection of its own) and drops what each notice names, at once. Notices
 * sent while the connection was down are lost, so on reconnecting it drops every cache. The
 * caches' own expiry stays as a safety net.
 */
export class CacheSync {
  readonly #db: Db;
  readonly #caches: SyncedCaches;
  #stop: (() => Promise<void>) | null = null;

  constructor(db: Db, caches: SyncedCaches) {
    this.#db = db;
    this.#caches = caches;
  }

  async start(): Promise<void> {
    this.#stop = await this.#db.listen(CACHE_CHANNEL, (payload) => this.#apply(payload), {
      onReconnect: () => this.#dropAll(),
    });
  }

  async stop(): Promise<void> {
    await this.#stop?.();
    this.#stop = null;
  }

  #apply(payload: string): void {
    const notice = parseCacheNotice(payload);
    if (notice === null) {
      // A newer coinop on the same database announces something this one does not cache.
      this.#dropAll();
      return;
    }
    if (notice.kind === 'game') {
      this.#caches.games.invalidate(notice.gameId);
      this.#caches.reads.invalidate(notice.gameId);
    } else if (notice.kind === 'board') {
      this.#caches.boards?.forgetBoard(notice.leaderboardId);
    } else {
      this.#caches.revokedClients.remember(notice.clientId);
    }
  }

  #dropAll(): void {
    this.#caches.games.clear();
    this.#caches.reads.clear();
    // A failed read is tried again by the periodic catch-up, which then reads them all.
    this.#caches.revokedClients.reload().catch(() => undefined);
  }
}
