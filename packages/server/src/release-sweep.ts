import type { FastifyBaseLogger } from 'fastify';
import { logLoopFailure, logLoopSuccess } from './listener/database-outages.js';
import { repeatEvery } from './repeat-every.js';

/**
 * Posts held payouts whose hold ended every `intervalMs`, one sweep at a time (the next is
 * scheduled when the last ends), as the expiry sweep settles expired plays. Several processes
 * may sweep one database (`releaseDuePayouts` skips plays another is releasing). Returns a stop
 * function that waits for a sweep in progress.
 */
export function startReleaseSweep(
  arcade: { releaseHeldPayouts(): Promise<number> },
  log: FastifyBaseLogger,
  intervalMs: number,
): () => Promise<void> {
  return repeatEvery(intervalMs, () =>
    arcade.releaseHeldPayouts().then(
      (released) => {
        logLoopSuccess(log);
        if (released > 0) log.info(`released the held payouts of ${released} plays`);
      },
      (error: unknown) => logLoopFailure(log, error, 'payout release sweep failed'),
    ),
  );
}
