import pino from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat } from '../config.js';

/**
 * Where every listener of the process logs: standard output, written asynchronously (a log line
 * never blocks a request on the terminal or the pipe; pino flushes it when the process exits).
 * JSON lines for a collector, or readable lines for a person at a terminal (`pino-pretty`, in
 * this thread: a terminal's few lines a second do not need a worker).
 */
const destinations = new Map<LogFormat, pino.DestinationStream>();

export function logDestination(format: LogFormat): pino.DestinationStream {
  let destination = destinations.get(format);
  if (destination === undefined) {
    destination =
      format === 'json'
        ? pino.destination({ dest: 1, sync: false })
        : pretty({
            destination: pino.destination({ dest: 1, sync: false }),
            colorize: process.stdout.isTTY === true,
            translateTime: 'SYS:HH:MM:ss',
            // A start step's name and duration are in its message already (start-log.ts).
            ignore: 'pid,hostname,startStep,durationMs',
            singleLine: false,
          });
    destinations.set(format, destination);
  }
  return destination;
}

/**
 * Log paths that could hold a credential: request and response headers (bearer tokens, API
 * keys, cookies, the web listener's forwarding secret), wherever a line carries them.
 */
export const LOG_REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["api-key"]',
  'req.headers["x-coinop-web-forwarding"]',
  'headers.authorization',
  'headers.cookie',
  'res.headers["set-cookie"]',
  'err.config.headers.authorization',
] as const;
