import type { DatabaseUnavailable } from './errors.js';

/**
 * Whether this process can reach its database, as its own calls find it: unavailable from the
 * first call that fails with `DatabaseUnavailable` until the first that succeeds (a request's, a
 * background loop's, or the probe this runs meanwhile). Each `Db` keeps one, shared by every
 * listener and loop of the process, so an outage is one transition however many calls fail; the
 * watchers (the log, the metrics) are told of transitions, never of each failed call.
 */

/** What an outage was, told when it ends. */
export interface OutageSummary {
  /** Why the first failed call failed. */
  readonly reason: string;
  /** From the first failed call to the first that succeeded. */
  readonly seconds: number;
  /** Requests answered `service_unavailable` meanwhile (`refused`). */
  readonly refusedRequests: number;
}

export interface AvailabilityWatcher {
  /** The database stopped answering, for `reason`. */
  unavailable(reason: string): void;
  /** It answers again. */
  available(outage: OutageSummary): void;
}

/**
 * How often the probe asks a database that stopped answering: the end of an outage is noticed
 * (and logged) within a second even when nothing else asks.
 */
export const PROBE_INTERVAL_MS = 1_000;

interface Outage {
  readonly reason: string;
  readonly startedAt: number;
  refusedRequests: number;
}

export class DatabaseAvailability {
  readonly #probe: () => Promise<unknown>;
  readonly #probeIntervalMs: number;
  readonly #watchers = new Set<AvailabilityWatcher>();
  #outage: Outage | null = null;
  #probeTimer: NodeJS.Timeout | undefined;
  #closed = false;

  /** `probe` is one cheap call to the database (`SELECT 1`) that succeeds once it answers. */
  constructor(probe: () => Promise<unknown>, probeIntervalMs = PROBE_INTERVAL_MS) {
    this.#probe = probe;
    this.#probeIntervalMs = probeIntervalMs;
  }

  /** Whether the last call to the database found it unreachable. */
  get isUnavailable(): boolean {
    return this.#outage !== null;
  }

  /** A call failed because the database cannot be reached. */
  failed(error: DatabaseUnavailable): void {
    // Closed by its own Db (the process stopping): a call that meets it is no outage to report.
    if (this.#outage !== null || this.#closed) return;
    this.#outage = { reason: error.reason, startedAt: performance.now(), refusedRequests: 0 };
    for (const watcher of this.#watchers) watcher.unavailable(error.reason);
    this.#scheduleProbe();
  }

  /** A call succeeded. On the play path: one comparison unless an outage is ending. */
  succeeded(): void {
    if (this.#outage !== null) this.#end(this.#outage);
  }

  /** A request was answered `service_unavailable` because of the outage. */
  refused(): void {
    if (this.#outage !== null) this.#outage.refusedRequests += 1;
  }

  /**
   * Tells `watcher` of every transition from now on (and at once, if the database is unreachable
   * now); returns the function that stops telling it.
   */
  watch(watcher: AvailabilityWatcher): () => void {
    this.#watchers.add(watcher);
    if (this.#outage !== null) watcher.unavailable(this.#outage.reason);
    return () => this.#watchers.delete(watcher);
  }

  /** The Db is closing: no more probes, and nothing more to report. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#probeTimer);
    this.#watchers.clear();
  }

  #end(outage: Outage): void {
    this.#outage = null;
    clearTimeout(this.#probeTimer);
    const seconds = (performance.now() - outage.startedAt) / 1000;
    const summary = { reason: outage.reason, seconds, refusedRequests: outage.refusedRequests };
    for (const watcher of this.#watchers) watcher.available(summary);
  }

  /** One probe at a time, each outage its own: the next is scheduled when the last has failed. */
  #scheduleProbe(): void {
    const outage = this.#outage;
    this.#probeTimer = setTimeout(() => {
      void this.#probe().then(
        () => this.succeeded(),
        () => {
          if (this.#outage === outage && !this.#closed) this.#scheduleProbe();
        },
      );
    }, this.#probeIntervalMs);
    // The probe alone must not keep the process alive.
    this.#probeTimer.unref();
  }
}
