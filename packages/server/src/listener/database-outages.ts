import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseAvailability } from '../store/availability.js';
import {
  databaseOutOfResourcesIn,
  databaseUnavailableIn,
  statementCancelledIn,
} from '../store/errors.js';

/**
 * Logs each database outage of the process twice: one `warn` line when the database stops
 * answering, one `info` line when it answers again, saying how long it lasted and how many
 * requests were refused meanwhile. Nothing per request or per failed call: the listeners answer
 * them 503 `service_unavailable` without a line, and the background loops stay quiet while the
 * outage lasts. The reason is the driver's own message (never the URL or its password). Returns
 * the function that stops logging.
 */
export function logDatabaseOutages(
  availability: DatabaseAvailability,
  log: FastifyBaseLogger,
): () => void {
  return availability.watch({
    unavailable: (reason) =>
      log.warn(
        { reason },
        `the database cannot be reached (${reason}): requests that need it are answered 503 ` +
          'service_unavailable until it answers again',
      ),
    available: ({ reason, seconds, refusedRequests }) =>
      log.info(
        { reason, outageSeconds: Number(seconds.toFixed(1)), refusedRequests },
        `the database answers again after ${seconds.toFixed(1)} s; ${refusedRequests} ` +
          `${refusedRequests === 1 ? 'request was' : 'requests were'} refused meanwhile`,
      ),
  });
}

/** A database refusing statements (timeouts, out of resources) is logged at most this often. */
const REFUSAL_LOG_INTERVAL_MS = 60_000;

/**
 * A process's loops meeting refused statements: since when (null once a round got through), how
 * many rounds failed, whether this spell was logged, and when a refusal was last logged.
 */
interface Refusals {
  since: number | null;
  failures: number;
  warned: boolean;
  loggedAt: number;
}

// Per logger, so each process (its API's logger, which every loop is handed) counts its own
// refusals; the loops are given only the logger, and this keeps their signatures as they were.
const refusalsByLog = new WeakMap<FastifyBaseLogger, Refusals>();

/**
 * Logs a background loop's failure in full, unless the database is why: unreachable (the
 * outage's, logged once, above), or refusing statements (a lock_timeout or statement_timeout, out
 * of disk or memory). Those say one `warn` a minute at most, as deploy.md promises, and
 * `logLoopSuccess` one `info` when a round gets through again; each other tick only `debug`.
 */
export function logLoopFailure(log: FastifyBaseLogger, error: unknown, message: string): void {
  if (databaseUnavailableIn(error) !== null) {
    log.debug(`${message}: the database cannot be reached`);
    return;
  }
  const reason = refusalReason(error);
  if (reason === null) {
    log.error({ err: error }, message);
    return;
  }
  const now = Date.now();
  const refusals = refusalsByLog.get(log) ?? {
    since: null,
    failures: 0,
    warned: false,
    loggedAt: -Infinity,
  };
  refusalsByLog.set(log, refusals);
  refusals.since ??= now;
  refusals.failures += 1;
  if (now - refusals.loggedAt < REFUSAL_LOG_INTERVAL_MS) {
    log.debug({ reason }, `${message}: ${reason}`);
    return;
  }
  refusals.loggedAt = now;
  refusals.warned = true;
  log.warn(
    { reason },
    `${message}: ${reason}; the background work (sweeps, closer) tries again each round, ` +
      'logged once a minute at most until it gets through',
  );
}

/**
 * A loop's round got through: after refusals `logLoopFailure` warned about, one `info` line. A
 * spell it did not warn about (rate-limited) ends quietly, so loops that fail and succeed in turn
 * still log once a minute at most.
 */
export function logLoopSuccess(log: FastifyBaseLogger): void {
  const refusals = refusalsByLog.get(log);
  if (refusals === undefined || refusals.since === null) return;
  const seconds = (Date.now() - refusals.since) / 1000;
  if (refusals.warned) {
    log.info(
      { refusedSeconds: Number(seconds.toFixed(1)), failedRounds: refusals.failures },
      `the background work gets through again after ${seconds.toFixed(1)} s; ` +
        `${refusals.failures} ${refusals.failures === 1 ? 'round' : 'rounds'} failed meanwhile`,
    );
  }
  refusals.since = null;
  refusals.failures = 0;
  refusals.warned = false;
}

/** Why the database refused a statement (cancelled, out of resources), for the log; or null. */
function refusalReason(error: unknown): string | null {
  const cancelled = statementCancelledIn(error);
  if (cancelled !== null) return `the database cancelled a statement (${cancelled.reason})`;
  const lacking = databaseOutOfResourcesIn(error);
  if (lacking !== null) return `the database is out of resources (${lacking.reason})`;
  return null;
}
