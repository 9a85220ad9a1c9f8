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

export interface Db extends Queryable {
  readonly dialect: 'pglite' | 'postgres';
  /**
   * Runs `work` in one transaction and commits, or rolls back if it throws. On Postgres a
   * serialization failure or deadlock is retried from the start (`work` must be retry-safe).
   */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * The same database, for the play path's batch statements outside transactions. On Postgres
   * its sessions plan each named statement once, without its values (`plan_cache_mode =
   * force_generic_plan`): those statements cost about as much to plan as to run, and the
   * default planned them afresh on every call. They are written to plan well without values;
   * other statements keep the default, which a generic plan can hurt (a top-10 read planned
   * without its LIMIT scans the board). On PGlite, one session, each named statement sent this
   * way sets the mode for itself and resets it after.
   */
  readonly generic: Queryable;
  close(): Promise<void>;
}

/** Postgres error codes the stores react to. */
export const PgErrorCodes = {
  uniqueViolation: '23505',
  checkViolation: '23514',
  foreignKeyViolation: '23503',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
} as const;

export function pgErrorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

export function pgConstraint(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'constraint' in error) {
    const constraint = (error as { constraint: unknown }).constraint;
    return typeof constraint === 'string' ? constraint : undefined;
  }
  return undefined;
}
