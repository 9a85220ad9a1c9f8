import type { Queryable } from '../store/db.js';
import { notifyLive, type LiveNotice } from '../store/live-notices.js';

/**
 * How long a NOTIFY gathers what the batches touch before it is sent. Each NOTIFY is a statement
 * the API and Postgres both pay for; one per batch cost a busy arcade a fifth of its pairs at 50
 * connections (docs/benchmarks.md, issue 32), and 20 ms is small beside a stream's delivery.
 */
export const LIVE_NOTICE_GATHER_MS = 20;

/**
 * Announces on the live channel what the score path changed, without making it wait: `touched`
 * only adds ids to two sets, and one NOTIFY at most every `LIVE_NOTICE_GATHER_MS` carries all
 * that gathered meanwhile, so a busy arcade sends a few dozen a second whatever its batches, and
 * a score costs what it did (bench in docs/benchmarks.md). Sent after the batch committed, on a
 * connection of the pool, so a listener never reads before the change is visible. A notice that
 * fails is lost, as one sent while a listener is away is: streams catch up on their next notice
 * or reconnect.
 *
 * With `local`, the notice is handed to this process's streams instead: PGlite is one process's
 * database, which no other process listens to, and its one session is the score path's.
 */
export class LiveAnnouncer {
  readonly #db: Queryable;
  readonly #onError: (error: unknown) => void;
  #local: ((notice: LiveNotice) => void) | null = null;
  #boards = new Set<string>();
  #accounts = new Set<string>();
  #sending: Promise<void> | null = null;

  constructor(db: Queryable, onError: (error: unknown) => void = () => undefined) {
    this.#db = db;
    this.#onError = onError;
  }

  /** Hands every notice to `deliver`, in this process, rather than to the database. */
  deliverLocally(deliver: (notice: LiveNotice) => void): void {
    this.#local = deliver;
  }

  /** Says these boards and ledger accounts changed, in a transaction already committed. */
  touched(boards: Iterable<string>, accounts: Iterable<string>): void {
    for (const id of boards) this.#boards.add(id);
    for (const id of accounts) this.#accounts.add(id);
    this.#start();
  }

  #start(): void {
    if (this.#sending !== null || this.#boards.size + this.#accounts.size === 0) return;
    // Touched between the last send and this promise's end, ids would wait for the next score.
    this.#sending = this.#send().finally(() => {
      this.#sending = null;
      this.#start();
    });
  }

  /** Resolves once everything touched so far has been announced (or has failed to be). */
  async settled(): Promise<void> {
    while (this.#sending !== null) await this.#sending;
  }

  async #send(): Promise<void> {
    // What the other batches finishing meanwhile touch goes in the same notice. In this process's
    // own streams a notice costs no statement, so it waits only for this turn's batches.
    const gather = (): Promise<void> =>
      new Promise<void>((resolve) =>
        this.#local === null ? setTimeout(resolve, LIVE_NOTICE_GATHER_MS) : setImmediate(resolve),
      );
    await gather();
    while (this.#boards.size + this.#accounts.size > 0) {
      const notice = { boards: [...this.#boards], accounts: [...this.#accounts] };
      this.#boards = new Set();
      this.#accounts = new Set();
      try {
        if (this.#local !== null) this.#local(notice);
        else await notifyLive(this.#db, notice);
      } catch (error) {
        this.#onError(error);
      }
      if (this.#boards.size + this.#accounts.size > 0) await gather();
    }
  }
}
