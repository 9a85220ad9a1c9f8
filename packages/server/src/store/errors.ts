import {
  PgErrorCodes,
  cancelledReason,
  outOfResourcesReason,
  pgConstraint,
  pgErrorCode,
} from './postgres-errors.js';

/**
 * What storage tells the services when a write could not be made, translated here at the
 * store's edge: no service names a constraint or an SQLSTATE. Anything else stays as it was.
 */
export abstract class StoreError extends Error {
  constructor(message: string, cause: unknown) {
    super(message, { cause });
    this.name = new.target.name;
  }
}

/** A concurrent identical request took the play's idempotency key first. */
export class IdempotencyKeyTaken extends StoreError {}

/** Another play's spend (or a revocation) took the player's allowance past what this play read. */
export class AllowanceRaced extends StoreError {}

/**
 * The write found that what it was decided on had changed (its own check failed), or it
 * deadlocked with another process's write: decide again, under locks.
 */
export class WriteRaced extends StoreError {}

/** A sum on an account would pass what the ledger's columns can hold. */
export class LedgerSumOutOfRange extends StoreError {}

/**
 * The database cannot be reached: refused or lost connections, a server shutting down or
 * starting, no free connection in time, the embedded database stopped. Not a fault of the
 * request or of coinop; the same call may succeed once the database answers again. Each store
 * classifies its driver's errors (`postgres.ts`, `pglite.ts`) and tells its `DatabaseAvailability`.
 */
export class DatabaseUnavailable extends StoreError {
  /** Why, in a few words safe to log: the driver's reason, never a URL or a password. */
  readonly reason: string;

  constructor(reason: string, cause: unknown) {
    super(`the database cannot be reached: ${reason}`, cause);
    this.reason = reason;
  }
}

/**
 * The database answers but refused a statement for lack of a resource (SQLSTATE class 53: disk
 * full, out of memory, a configured limit): nobody's bug and not the client's, so it is answered
 * 503 like an outage, and logged as an error, since an operator must act.
 */
export class DatabaseOutOfResources extends StoreError {
  /** What the server said, with its SQLSTATE: safe to log. */
  readonly reason: string;

  constructor(reason: string, cause: unknown) {
    super(`the database is out of resources: ${reason}`, cause);
    this.reason = reason;
  }
}

/**
 * The database cancelled a statement before it finished: a statement_timeout or lock_timeout an
 * operator set on coinop's connections expired, or someone cancelled it by hand. Its transaction
 * was rolled back, so nothing of it was written; the same call may succeed once the database is
 * less busy. Answered 503 like an outage, and logged as a warning, since an operator may act.
 */
export class StatementCancelled extends StoreError {
  /** What the server said, with its SQLSTATE: safe to log. */
  readonly reason: string;

  constructor(reason: string, cause: unknown) {
    super(`the database cancelled the statement: ${reason}`, cause);
    this.reason = reason;
  }
}

/**
 * The store error for a statement the database refused for its own state rather than the
 * statement's (out of resources, or cancelled by a timeout), with `clean` applied to the reason;
 * null for any other error. Each store calls it on its driver's errors.
 */
export function databaseRefusalFor(
  error: unknown,
  clean: (reason: string) => string = (reason) => reason,
): DatabaseOutOfResources | StatementCancelled | null {
  const lacking = outOfResourcesReason(error);
  if (lacking !== null) return new DatabaseOutOfResources(clean(lacking), error);
  const cancelled = cancelledReason(error);
  if (cancelled !== null) return new StatementCancelled(clean(cancelled), error);
  return null;
}

/** How deep `databaseUnavailableIn` looks through `cause`s: wrappers are one or two deep. */
const CAUSE_DEPTH_MAX = 5;

/**
 * The DatabaseUnavailable behind an error: the error itself, or one of its causes (a service that
 * wrapped what the store threw). Null for any other error.
 */
export function databaseUnavailableIn(error: unknown): DatabaseUnavailable | null {
  return causeOfKind(error, DatabaseUnavailable);
}

/** The DatabaseOutOfResources behind an error, as `databaseUnavailableIn` finds an outage. */
export function databaseOutOfResourcesIn(error: unknown): DatabaseOutOfResources | null {
  return causeOfKind(error, DatabaseOutOfResources);
}

/** The StatementCancelled behind an error, as `databaseUnavailableIn` finds an outage. */
export function statementCancelledIn(error: unknown): StatementCancelled | null {
  return causeOfKind(error, StatementCancelled);
}

/**
 * Whether the database, not the request, is why `error` happened: unreachable, out of resources,
 * or a statement cancelled by a timeout. Running the request again at once would fail the same way.
 */
export function refusedByDatabase(error: unknown): boolean {
  return (
    databaseUnavailableIn(error) !== null ||
    databaseOutOfResourcesIn(error) !== null ||
    statementCancelledIn(error) !== null
  );
}

function causeOfKind<T extends Error>(
  error: unknown,
  kind: abstract new (...args: never[]) => T,
): T | null {
  let current = error;
  for (let depth = 0; depth <= CAUSE_DEPTH_MAX && current instanceof Error; depth++) {
    if (current instanceof kind) return current;
    current = current.cause;
  }
  return null;
}

const NUMERIC_OUT_OF_RANGE = '22003';

/** The StoreError a database error means, or the error itself. */
export function asStoreError(error: unknown): unknown {
  const code = pgErrorCode(error);
  const constraint = pgConstraint(error);
  if (code === PgErrorCodes.uniqueViolation && constraint === 'plays_idempotency') {
    return new IdempotencyKeyTaken('the idempotency key was taken by another request', error);
  }
  if (code === PgErrorCodes.checkViolation && constraint === 'allowance_within_limit') {
    return new AllowanceRaced('the allowance was spent or revoked meanwhile', error);
  }
  if (code === PgErrorCodes.serializationFailure || code === PgErrorCodes.deadlockDetected) {
    return new WriteRaced('the write raced another process', error);
  }
  if (code === NUMERIC_OUT_OF_RANGE) {
    return new LedgerSumOutOfRange('an account sum is out of range', error);
  }
  return error;
}

/** Runs a store operation, translating what the database says into StoreErrors. */
export async function translated<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    throw asStoreError(error);
  }
}
