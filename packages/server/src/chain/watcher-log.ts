import type { FastifyBaseLogger } from 'fastify';

/**
 * Where the chain code logs: its own module, so the watcher's parts (deposits, lock ends, lock
 * timeouts, the guard) name it without importing the watcher that imports them.
 */
export type WatcherLog = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
