import type { Db, Queryable } from '../store/db.js';

/** The channel on which a process announces each game client it revoked. */
export const CLIENT_REVOKED_CHANNEL = 'coinop_client_revoked';
/** A notice lost with a connection is caught up within this long. */
const RESYNC_INTERVAL_MS = 5000;

/**
 * The game clients revoked anywhere, known in memory so a write token is checked against them on
 * every request without a query. Revoking announces the client id on `CLIENT_REVOKED_CHANNEL`,
 * which every API process sharing the database listens to: a revoked client's write tokens stop
 * working everywhere at once, not when they expire. A periodic re-read catches any notice missed
 * while a connection was down.
 */
export class RevokedClients {
  readonly #db: Db;
  readonly #ids = new Set<string>();
  #latest: Date | null = null;
  #stopListening: (() => Promise<void>) | null = null;
  #timer: NodeJS.Timeout | undefined;

  constructor(db: Db) {
    this.#db = db;
  }

  async start(): Promise<void> {
    this.#stopListening = await this.#db.listen(CLIENT_REVOKED_CHANNEL, (clientId) =>
      this.#ids.add(clientId),
    );
    await this.#catchUp();
    this.#timer = setInterval(
      () => void this.#catchUp().catch(() => undefined),
      RESYNC_INTERVAL_MS,
    );
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#stopListening?.();
    this.#stopListening = null;
  }

  has(clientId: string): boolean {
    return this.#ids.has(clientId);
  }

  /** Tells every process (this one at once) that the client was revoked. Call after the commit. */
  async announce(q: Queryable, clientId: string): Promise<void> {
    this.#ids.add(clientId);
    await q.query('SELECT pg_notify($1, $2)', [CLIENT_REVOKED_CHANNEL, clientId]);
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
