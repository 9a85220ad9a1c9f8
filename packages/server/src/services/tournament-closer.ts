import type { Clock, Ids, SplitRule } from '@coinop/core';
import { countText } from '@coinop/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { ArcadeMetrics } from '../metrics/arcade-metrics.js';
import type { Db } from '../store/db.js';
import { databaseUnavailableIn } from '../store/errors.js';
import { logLoopFailure, logLoopSuccess } from '../listener/database-outages.js';
import {
  closeRound,
  dueRounds,
  nextRoundEnd,
  type CloseOutcome,
  type ClosedRound,
} from '../store/tournament-close.js';

/** The closer looks for due rounds at least this often, for rounds another process opened. */
export const CLOSER_POLL_MS = 1_000;
/** Rounds closed per look; the next look follows at once while more are due. */
const DUE_ROUNDS_PER_LOOK = 100;
/**
 * A round whose close failed is tried again after 1 s, then 2 s, 4 s… up to a minute: a close
 * that fails every time (a bug, a broken row) logs once a minute, not every second.
 */
const RETRY_MAX_MS = 60_000;

export interface TournamentCloserDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  /** The arcade's account, known once the arcade has started. */
  readonly arcadeAccountId: () => string;
  /** The split of a play's fee: a round's plays still open at its close are settled by it. */
  readonly splitRule: SplitRule;
  readonly metrics: ArcadeMetrics | null;
  /** Called after a close commits: this process's caches forget the game's rounds. */
  readonly gameChanged: (gameId: string) => void;
  /**
   * Test hook (the crash tests only, `COINOP_TEST_CLOSE_PAUSE_MS`): milliseconds to wait inside
   * each close's transaction before it commits, so that a test can kill the process mid-close.
   */
  readonly closePauseMs: number;
}

/**
 * Closes tournament rounds when their end comes (docs/concepts/tournaments.md, "Closing"). Every
 * API process runs one; the database decides which closes a round (each close takes the round's
 * lock and skips a round another holds), so the closer keeps no state of its own and a restart
 * simply looks again.
 */
export class TournamentCloser {
  readonly #deps: TournamentCloserDeps;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | null = null;
  #stopped = true;
  /** Rounds whose close failed: how often, and not before when to try again. */
  readonly #failures = new Map<string, { count: number; retryAt: number }>();

  constructor(deps: TournamentCloserDeps) {
    this.#deps = deps;
  }

  /**
   * Closes every round due now, each in its own transaction; a close that fails is logged and
   * left for the next look. Answers the rounds closed and whether a due round was left (busy in
   * another process, or failed).
   */
  async closeDue(log: FastifyBaseLogger): Promise<{ closed: ClosedRound[]; leftDue: boolean }> {
    const closed: ClosedRound[] = [];
    let leftDue = false;
    for (;;) {
      const due = await dueRounds(this.#deps.db, this.#deps.clock.now(), DUE_ROUNDS_PER_LOOK);
      let progressed = false;
      for (const roundId of due) {
        const failed = this.#failures.get(roundId);
        if (failed && failed.retryAt > this.#deps.clock.now().getTime()) {
          leftDue = true;
          continue;
        }
        const outcome = await this.#closeOne(roundId, log);
        if (outcome === null || (!outcome.closed && outcome.reason === 'busy')) leftDue = true;
        if (outcome?.closed) {
          closed.push(outcome.round);
          progressed = true;
        }
      }
      if (due.length < DUE_ROUNDS_PER_LOOK || !progressed) return { closed, leftDue };
    }
  }

  /** Starts looking for due rounds until `stop`. */
  start(log: FastifyBaseLogger): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule(0, log);
  }

  /** Stops looking; waits for a close in progress to end. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  async #closeOne(roundId: string, log: FastifyBaseLogger): Promise<CloseOutcome | null> {
    const { db, clock, ids, metrics, closePauseMs } = this.#deps;
    const started = performance.now();
    const now = clock.now();
    try {
      const outcome = await db.transaction((tx) =>
        closeRound(tx, roundId, {
          now,
          arcadeAccountId: this.#deps.arcadeAccountId(),
          splitRule: this.#deps.splitRule,
          nextId: () => ids.next(),
          beforeCommit:
            closePauseMs > 0
              ? async (round) => {
                  log.warn(
                    { roundId: round.roundId },
                    `test hook: round ${round.roundId} closed, pausing ${closePauseMs} ms before commit`,
                  );
                  await new Promise((resolve) => setTimeout(resolve, closePauseMs));
                }
              : undefined,
        }),
      );
      if (!outcome.closed && outcome.reason === 'busy') {
        log.debug({ roundId }, `tournament round ${roundId} is being closed by another process`);
      }
      if (outcome.closed) {
        const ms = Math.round(performance.now() - started);
        const round = outcome.round;
        this.#deps.gameChanged(round.gameId);
        metrics?.roundClosed(ms / 1000, round.payoutTransfers);
        log.info(
          {
            roundId: round.roundId,
            tournamentId: round.tournamentId,
            entrants: round.entrants,
            rankedPlayers: round.rankedPlayers,
            poolUnits: round.poolUnits.toString(),
            paidPlaces: round.paidPlaces,
            payoutTransfers: round.payoutTransfers,
            expiredPlays: round.expiredPlays,
            voidedPlays: round.voidedPlays,
            nextRoundId: round.next?.roundId ?? null,
            ms,
          },
          `closed tournament round ${round.roundId} (#${round.number}): ` +
            `${countText(round.entrants, 'entrant')}, ` +
            `${countText(round.expiredPlays, 'unscored play')} settled as expired, ` +
            `pool ${round.poolUnits} units paid to ${countText(round.paidPlaces, 'place')} in ${ms} ms`,
        );
        if (round.next && !round.next.guaranteeFunded) {
          log.warn(
            { roundId: round.next.roundId, tournamentId: round.tournamentId },
            `tournament ${round.tournamentId}: round #${round.next.number} opened without its ` +
              'guarantee (its funder cannot cover it)',
          );
        }
      }
      this.#failures.delete(roundId);
      return outcome;
    } catch (error) {
      metrics?.roundCloseFailed();
      const count = (this.#failures.get(roundId)?.count ?? 0) + 1;
      const retryInMs = Math.min(RETRY_MAX_MS, 1000 * 2 ** (count - 1));
      this.#failures.set(roundId, { count, retryAt: now.getTime() + retryInMs });
      const message = `closing tournament round ${roundId} failed; retrying in ${retryInMs / 1000} s`;
      // An unreachable database is the outage's, logged once; this round is only one of its calls.
      if (databaseUnavailableIn(error) === null) {
        log.error({ err: error, roundId, failures: count }, message);
      } else log.debug({ roundId, failures: count }, `${message}: the database cannot be reached`);
      return null;
    }
  }

  #schedule(delayMs: number, log: FastifyBaseLogger): void {
    this.#timer = setTimeout(() => this.#tick(log), delayMs);
    // The closer alone must not keep the process alive.
    this.#timer.unref();
  }

  #tick(log: FastifyBaseLogger): void {
    this.#running = (async () => {
      let delayMs = CLOSER_POLL_MS;
      try {
        const { leftDue } = await this.closeDue(log);
        logLoopSuccess(log);
        if (!leftDue) {
          // Wake at the next round's end, or look again within the poll interval for rounds
          // another process opens meanwhile.
          const end = await nextRoundEnd(this.#deps.db);
          if (end !== null) {
            const untilEnd = end.getTime() - this.#deps.clock.now().getTime();
            delayMs = Math.max(0, Math.min(CLOSER_POLL_MS, untilEnd));
          }
        }
      } catch (error) {
        // Never down the API: the database may be back at the next look.
        logLoopFailure(log, error, 'tournament closer: looking for due rounds failed');
      }
      if (!this.#stopped) this.#schedule(delayMs, log);
    })().finally(() => {
      this.#running = null;
    });
  }
}
