import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseAvailability } from '../store/availability.js';
import { databaseUnavailableIn } from '../store/errors.js';

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

/**
 * Logs a background loop's failure in full, unless the database could not be reached: that is
 * the outage's, logged once (above), so each tick says it only at `debug`.
 */
export function logLoopFailure(log: FastifyBaseLogger, error: unknown, message: string): void {
  if (databaseUnavailableIn(error) === null) log.error({ err: error }, message);
  else log.debug(`${message}: the database cannot be reached`);
}
