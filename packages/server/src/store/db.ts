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
  close(): Promise<void>;
}

/**
 * Every session plans statements without their values, once per prepared statement: the play
 * path's batch statements cost as much to plan as to run, and a custom plan was chosen for each
 * call (their arrays' sizes make the generic plan look dearer than it is). Our SQL is written to
 * plan well without values: lookups in LATERAL subqueries with LIMIT 1, partial-index
 * predicates spelled as literals. Measured in docs/benchmarks.md ("Round 3").
 */
export const PLAN_CACHE_MODE = 'force_generic_plan';

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
