import type { FastifyBaseLogger } from 'fastify';
import { logLoopFailure, logLoopSuccess } from './listener/database-outages.js';
import { repeatEvery } from './repeat-every.js';

/** The API's chores the sweep runs (`ArcadeServices`). */
export interface SweptArcade {
  /** Settles the plays past their expiry; answers how many. */
  settleExpiredPlays(): Promise<number>;
  /** Prunes the board moves no walk can need any more; answers how many. */
  pruneBoardMoves(): Promise<number>;
  /** Flags the new leaders that stand out against their boards (the review queue); how many. */
  flagOutlierScores(): Promise<number>;
}

/**
 * Settles expired plays every `intervalMs`, one sweep at a time (the next is scheduled when the
 * last ends), and prunes the board moves no walk can need any more (the same small periodic
 * chore), then flags the boards' new leaders that stand out (the review queue's outliers).
 * Several processes may sweep one database: the store skips rows another is settling.
 * While the database cannot be reached a sweep fails quietly (the outage is logged once) and the
 * next tries again. Returns a stop function that waits for a sweep in progress.
 */
export function startExpirySweep(
  arcade: SweptArcade,
  log: FastifyBaseLogger,
  intervalMs: number,
): () => Promise<void> {
  return repeatEvery(intervalMs, () =>
    arcade
      .settleExpiredPlays()
      .then(
        (settled) => {
          logLoopSuccess(log);
          if (settled > 0) log.info(`settled ${settled} expired plays`);
        },
        (error: unknown) => logLoopFailure(log, error, 'expiry sweep failed'),
      )
      .then(() => arcade.pruneBoardMoves())
      .then(
        (pruned) => {
          logLoopSuccess(log);
          if (pruned > 0) log.debug(`pruned ${pruned} board moves`);
        },
        (error: unknown) => logLoopFailure(log, error, 'pruning board moves failed'),
      )
      .then(() => arcade.flagOutlierScores())
      .then(
        (flagged) => {
          logLoopSuccess(log);
          if (flagged > 0) log.info(`flagged ${flagged} outlier scores for review`);
        },
        (error: unknown) => logLoopFailure(log, error, 'the outlier check failed'),
      ),
  );
}
