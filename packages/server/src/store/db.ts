import type { DatabaseAvailability } from './availability.js';

/** The one SQL surface every store module uses; implemented over PGlite and node-postgres. */
export interface Queryable {
  /**
   * Runs one statement. `name` makes it a prepared statement on Postgres (parsed and planned once
   * per connection); give it only to statements whose text never changes.
   */
  query<Row = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    name?: string,
  ): Promise<Row[]>;
}

/** The handle of one transaction: statements, and scripts run as they are. */
export interface Transaction extends Queryable {
  /**
   * Runs SQL text of any number of statements, without parameters, as a file holds it (a
   * migration): PGlite's `exec`, node-postgres' simple query protocol.
   */
  exec(script: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly dialect: 'pglite' | 'postgres';
  /**
   * Runs `work` in one transaction and commits, or rolls back if it throws. On Postgres a
   * serialization failure or deadlock is retried from the start (`work` must be retry-safe).
   */
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
  /**
   * The same database, for the play path's batch statements outside transactions. On Postgres
   * its session plans each named statement once, without its values (`GENERIC_PLAN_SETTINGS`):
   * those statements cost about as much to plan as to run, and the default planned them afresh
   * on every call. They are written to plan well without values; other statements keep the
   * default, which a generic plan can hurt (a top-10 read planned without its LIMIT scans the
   * board). On PGlite, one session, each named statement sent this way sets them for itself and
   * resets them after. What is given to it runs in the order given, each statement in a
   * transaction of its own. On Postgres its statements share one connection and each is sent
   * without waiting for the answer to the one before (pipelining), so the next batch is on its
   * way while the last commits: one round trip fewer per batch, and no batch waits on another's
   * locks. `depth` says how many batches are worth having in flight on it (1 on PGlite, whose one
   * session runs them in order anyway).
   */
  readonly ordered: Queryable & { readonly depth: number };
  /**
   * Calls `onNotify` with the payload of every `NOTIFY channel` (`pg_notify`) committed by any
   * process on this database, from now until the returned function is called. Notices sent while
   * the listening connection is lost are lost: Postgres connects again (waiting longer after each
   * failure) and then calls `onReconnect`, so the caller can re-read what it follows.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    options?: { readonly onReconnect?: () => void },
  ): Promise<() => Promise<void>>;
  /** The connections' use now, for the metrics; cheap (counters, no query). */
  poolStats(): PoolStats;
  /**
   * Whether the database can be reached now. Every call that fails because it cannot throws
   * `DatabaseUnavailable` (store/errors.ts) and tells this; every call that succeeds tells it too.
   */
  readonly availability: DatabaseAvailability;
  /** Closes the connections; a call after it fails with `DatabaseUnavailable`. */
  close(): Promise<void>;
}

/**
 * A database's connections: how many are open and idle, how many queries wait for one, and the
 * most there may be. PGlite has one session: busy or idle, and the calls queued behind it.
 */
export interface PoolStats {
  readonly total: number;
  readonly idle: number;
  readonly waiting: number;
  readonly max: number;
}

/**
 * The planner settings of `Db.ordered`. Each batch statement touches a few rows per item, found
 * by key. A generic plan is made once, often while the tables are small, and kept: Postgres
 * then scans or hash-joins a whole table (a board's bests, its count-tree buckets) rather than
 * look each row up, and goes on doing so every batch as the board grows. Index lookups in
 * nested loops are right at every size, so these statements get nothing else.
 */
export const GENERIC_PLAN_SETTINGS: Readonly<Record<string, string>> = {
  plan_cache_mode: 'force_generic_plan',
  enable_seqscan: 'off',
  enable_hashjoin: 'off',
  enable_mergejoin: 'off',
};
