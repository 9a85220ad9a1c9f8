import type { Queryable } from '../store/db.js';

/** A notice lost with a connection is caught up within this long. */
const RESYNC_INTERVAL_MS = 5000;

/**
 * The game clients revoked anywhere, known in memory so a write token is checked against them on
 * every request without a query. A revocation is announced on the cache channel (`CacheSync`
 * calls `remember` in every process sharing the database), so a revoked client's write tokens
 * stop working everywhere at once, not when they expire. A periodic re-read catches up anything
 * missed, and `reload` reads them all again after the listening connection was lost.
 */
export class RevokedClients {
  readonly #db: Queryable;
  readonly #ids = new Set<string>();
  #latest: Date | null = null;
  #timer: NodeJS.Timeout | undefined;

  constructor(db: Queryable) {
    this.#db = db;
  }

  async start(): Promise<void> {
    await this.#catchUp();
    this.#timer = setInterval(
      () => void this.#catchUp().catch(() => undefined),
      RESYNC_INTERVAL_MS,
    );
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  has(clientId: string): boolean {
    return this.#ids.has(clientId);
  }

  /** Records a revocation this process made or was told of. */
  remember(clientId: string): void {
    this.#ids.add(clientId);
  }

  /**
   * Reads every revoked client again. The periodic catch-up reads from the latest revocation
   * seen, which another process's clock may have dated earlier; this misses none.
   */
  async reload(): Promise<void> {
    this.#latest = null;
    await this.#catchUp();
  }

  async #catchUp(): Promise<void> {
    const rows = await this.#db.query<{ client_id: string; revoked_at: Date }>(
      `SELECT client_id, revoked_at FROM game_clients
       WHERE revoked_at IS NOT NULL AND revoked_at >= $1 ORDER BY revoked_at`,
      [this.#latest ?? new Date(0)],
    );
    for (const row of rows) {
      this.#ids.add(row.client_id);
      if (this.#latest === null || row.revoked_at > this.#latest) this.#latest = row.revoked_at;
    }
  }
}
