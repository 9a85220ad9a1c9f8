/**
 * Which node-postgres errors mean that the server cannot be reached, as opposed to a statement it
 * refused: the connection was refused, reset or timed out, the server is shutting down or
 * starting, or it has no connection slot left. Everything else (a constraint, a syntax error, a
 * deadlock) is the statement's own outcome and stays as it is.
 */

/** Node's errors for a connection that could not be made or was cut. */
const NETWORK_ERROR_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  // A name that does not resolve now: DNS during a failover, or the database host gone.
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/**
 * SQLSTATEs beyond class 08 (connection exception): admin_shutdown, crash_shutdown,
 * cannot_connect_now (starting up, recovering) and too_many_connections.
 */
const UNREACHABLE_SQLSTATES: ReadonlySet<string> = new Set(['57P01', '57P02', '57P03', '53300']);

/** node-postgres' and pg-pool's own words for a connection lost or never made (their prefixes). */
const LOST_CONNECTION_MESSAGES: readonly string[] = [
  'Connection terminated', // unexpectedly; due to connection timeout; or closed meanwhile
  'timeout expired', // a new connection's own limit
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

/**
 * Why `error` means the server cannot be reached, in a few words for the log (the driver's own
 * message, with the SQLSTATE when it has one); null when it means something else.
 *
 * @example
 * unreachableReason(Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), {
 *   code: 'ECONNREFUSED',
 * })); // 'connect ECONNREFUSED 10.0.0.5:5432'
 */
export function unreachableReason(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof code === 'string') {
    if (NETWORK_ERROR_CODES.has(code) || syscall === 'connect') return error.message || code;
    if (isSqlState(code) && (code.startsWith('08') || UNREACHABLE_SQLSTATES.has(code))) {
      return `${error.message} (SQLSTATE ${code})`;
    }
  }
  if (LOST_CONNECTION_MESSAGES.some((message) => error.message.startsWith(message))) {
    return error.message;
  }
  // Node tries each address of a name in turn and reports all of their failures together.
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const reason = unreachableReason(inner);
      if (reason !== null) return reason;
    }
  }
  return null;
}

/**
 * Why `error` means the server lacks a resource to run the statement (SQLSTATE class 53: disk
 * full, out of memory, a configured limit), with the SQLSTATE; null otherwise. No connection slot
 * left (53300) is an outage instead: `unreachableReason`.
 *
 * @example
 * outOfResourcesReason(Object.assign(new Error('could not extend file'), { code: '53100' }));
 * // 'could not extend file (SQLSTATE 53100)'
 */
export function outOfResourcesReason(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { code } = error as { code?: unknown };
  if (typeof code !== 'string' || !isSqlState(code) || !code.startsWith('53')) return null;
  if (UNREACHABLE_SQLSTATES.has(code)) return null;
  return `${error.message} (SQLSTATE ${code})`;
}

/**
 * SQLSTATEs of a statement the server gave up on before it finished: query_canceled (a
 * statement_timeout expired, or someone cancelled it) and lock_not_available (a lock_timeout).
 */
const CANCELLED_SQLSTATES: ReadonlySet<string> = new Set(['57014', '55P03']);

/**
 * Why `error` means the server cancelled the statement (a timeout set on coinop's connections, or
 * a cancel by hand), with the SQLSTATE; null otherwise. The session lives on; the statement's
 * transaction was rolled back.
 *
 * @example
 * cancelledReason(Object.assign(new Error('canceling statement due to lock timeout'), {
 *   code: '55P03',
 * })); // 'canceling statement due to lock timeout (SQLSTATE 55P03)'
 */
export function cancelledReason(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const { code } = error as { code?: unknown };
  if (typeof code !== 'string' || !CANCELLED_SQLSTATES.has(code)) return null;
  return `${error.message} (SQLSTATE ${code})`;
}

function isSqlState(code: string): boolean {
  return /^[0-9A-Z]{5}$/.test(code);
}

/** Postgres error codes the stores react to. */
export const PgErrorCodes = {
  uniqueViolation: '23505',
  checkViolation: '23514',
  foreignKeyViolation: '23503',
  serializationFailure: '40001',
  deadlockDetected: '40P01',
} as const;

/**
 * The SQLSTATE of a database error, also through the cause of a StoreError that translated one
 * (so a transaction still retries a deadlock that a store function named WriteRaced).
 */
export function pgErrorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  if (error instanceof Error && error.cause !== undefined) return pgErrorCode(error.cause);
  return undefined;
}

export function pgConstraint(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'constraint' in error) {
    const constraint = (error as { constraint: unknown }).constraint;
    return typeof constraint === 'string' ? constraint : undefined;
  }
  return undefined;
}
