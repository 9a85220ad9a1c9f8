import { notifyLive } from '../store/live-notices.js';
import type { LiveAnnouncer } from './live-announcer.js';
import {
  effectivePayoutHoldSeconds,
  leaderboardOf,
  payoutsReleaseAt,
  poolAccountOf,
  settlementTransfers,
  type Clock,
  type GameRef,
  type Ids,
  type Play,
  type TransferRequest,
} from '@coinop/core';
import type { Db, Queryable } from '../store/db.js';
import { holdPayouts } from '../store/payout-holds.js';
import { applyTransfers } from '../store/ledger.js';
import type { StoredScore } from '../store/leaders.js';
import {
  expiredPlayBoards,
  lockExpiredPlays,
  playerAccounts,
  setPlayStatus,
  type StoredPlay,
} from '../store/plays.js';
import { CoinopError, unpromptedPayees } from '@coinop/core';
import type { ArcadeMetrics } from '../metrics/arcade-metrics.js';
import type { GameCache } from './game-cache.js';
import { PlayOpening } from './play-opening.js';
import type { OpenPlayInput, PlayPolicy, ScoreOutcome, SubmitScoreInput } from './play-requests.js';
import { ScoreMemory } from './score-memory.js';
import { Scoring } from './scoring.js';
import { ScoreRulesGate, type ScoreVerification } from './score-rules-gate.js';

export type {
  OpenPlayInput,
  PlayPolicy,
  ScoreOutcome,
  SignedApproval,
  SubmitScoreInput,
} from './play-requests.js';

/**
 * The play/score path: opening a play locks its cost in escrow (`PlayOpening`); a score
 * (`Scoring`) or expiry settles it and places the player on the board. Each use case commits
 * atomically: one statement, or one transaction. The two halves share what this process
 * remembers of the plays it opened, so a score is decided without a read.
 */
export class PlayService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #games: GameCache;
  readonly #policy: PlayPolicy;
  readonly #opening: PlayOpening;
  readonly #scoring: Scoring;
  readonly #metrics: ArcadeMetrics | null;
  readonly #memory: ScoreMemory;

  constructor(
    db: Db,
    clock: Clock,
    ids: Ids,
    games: GameCache,
    policy: PlayPolicy,
    metrics: ArcadeMetrics | null = null,
    verification: ScoreVerification | null = null,
    live: LiveAnnouncer | null = null,
  ) {
    this.#db = db;
    this.#clock = clock;
    this.#ids = ids;
    this.#games = games;
    this.#policy = policy;
    this.#metrics = metrics;
    const memory = new ScoreMemory(db.ordered, clock);
    this.#memory = memory;
    const gate = new ScoreRulesGate({
      db,
      clock,
      ids,
      games,
      memory,
      verification,
      replayMaxBytes: policy.replayMaxBytes,
    });
    const deps = { db, clock, ids, games, policy, memory, gate, metrics, live };
    this.#opening = new PlayOpening(deps);
    this.#scoring = new Scoring(deps);
  }

  /** See `PlayOpening.open`. */
  async open(input: OpenPlayInput): Promise<StoredPlay> {
    try {
      const play = await this.#opening.open(input);
      this.#metrics?.playOpened('opened');
      return play;
    } catch (error) {
      this.#metrics?.playOpened(outcomeOf(error));
      throw error;
    }
  }

  /**
   * Drops this process's copy of a board changed outside the score path (a void), and the plays
   * it remembers on it, so their next scores read the corrected leaders.
   */
  forgetBoard(leaderboardId: string): void {
    this.#memory.forgetBoardAndPlays(leaderboardId);
  }

  /** See `Scoring.score`. */
  async score(input: SubmitScoreInput): Promise<ScoreOutcome> {
    try {
      const outcome = await this.#scoring.score(input);
      this.#metrics?.scoreRecorded(outcome.replayed ? 'replayed' : 'recorded');
      return outcome;
    } catch (error) {
      this.#metrics?.scoreRecorded(outcomeOf(error));
      throw error;
    }
  }

  /**
   * Settles up to `limit` open plays whose time ran out: their locked HST is posted and paid out
   * as for a score, and they become `expired`. Returns how many it settled.
   */
  async settleExpired(limit = 500): Promise<number> {
    const now = this.#clock.now();
    // The boards' games are read before the transaction: on PGlite (one session) a read outside
    // it, as a cold cache makes, would wait for it to end. A play that expired in between, on a
    // board not read, is left to the next sweep.
    const boards = await this.#boardsOf(await expiredPlayBoards(this.#db, now, limit));
    return this.#db.transaction(async (tx) => {
      const locked = await lockExpiredPlays(tx, now, limit);
      const plays = locked.filter((play) => boards.has(boardKey(play)));
      const byGame = new Map<string, StoredPlay[]>();
      for (const play of plays) byGame.set(play.gameId, [...(byGame.get(play.gameId) ?? []), play]);
      for (const gamePlays of byGame.values()) {
        await this.#settle(tx, gamePlays, boards, now);
        for (const play of gamePlays) await setPlayStatus(tx, play.id, 'expired', now);
      }
      return plays.length;
    });
  }

  /** Each board's game as the cache has it (a retired tier or a closed round included). */
  async #boardsOf(
    boards: readonly { gameId: string; leaderboardId: string }[],
  ): Promise<Map<string, GameRef>> {
    const read = boards.map(async (b) => {
      const game = await this.#games.getWithLeaderboard(b.gameId, b.leaderboardId);
      return [boardKey(b), game] as const;
    });
    return new Map(await Promise.all(read));
  }

  /** Posts each play's locked cost and pays it out, in one linked batch. */
  async #settle(
    tx: Queryable,
    plays: readonly Play[],
    boards: ReadonlyMap<string, GameRef>,
    now: Date,
  ): Promise<void> {
    const players = [...new Set(plays.flatMap((p) => [p.playerId, ...p.leaderPlayerIds]))];
    const accounts = await playerAccounts(tx, players);
    const transfers: TransferRequest[] = [];
    const held: { playId: string; releaseAt: Date }[] = [];
    for (const play of plays) {
      const playerAccountId = accounts.get(play.playerId);
      if (!playerAccountId)
        throw new TypeError(`player ${play.playerId} of play ${play.id} has no account`);
      const leaderAccountIds = play.leaderPlayerIds
        .map((id) => accounts.get(id))
        .filter((id): id is string => id !== undefined);
      const game = boards.get(boardKey(play));
      if (!game) throw new TypeError(`the board of play ${play.id} was not read before settling`);
      const { poolAccountId, holdSeconds } = this.#boardTerms(game, play);
      const releaseAt = payoutsReleaseAt(play, poolAccountId, holdSeconds, now);
      if (releaseAt !== null) held.push({ playId: play.id, releaseAt });
      transfers.push(
        ...settlementTransfers(
          play,
          leaderAccountIds,
          playerAccountId,
          game,
          this.#policy.splitRule,
          () => this.#ids.next(),
          poolAccountId,
          releaseAt !== null,
        ),
      );
    }
    await applyTransfers(tx, transfers, now);
    await holdPayouts(tx, held);
    // Delivered at commit: the leaders and developers paid by expired plays, and the players
    // paid back the leaders' part of a play nobody led, see it live.
    await notifyLive(tx, { boards: [], accounts: unpromptedPayees(transfers) });
  }

  /**
   * The pool the play's leaders' part goes to when it is on a tournament round (`poolAccountOf`;
   * null on a tier), and the payout hold of its board.
   */
  #boardTerms(game: GameRef, play: Play): { poolAccountId: string | null; holdSeconds: number } {
    const board = leaderboardOf(game, play.leaderboardId);
    return {
      poolAccountId: poolAccountOf(board),
      holdSeconds: effectivePayoutHoldSeconds(game, board, this.#policy.payoutHoldSeconds),
    };
  }
}

const boardKey = (b: { gameId: string; leaderboardId: string }) => `${b.gameId}/${b.leaderboardId}`;

/** A refusal's code as a metric label; anything else is a failure (`error`). */
function outcomeOf(error: unknown): string {
  return error instanceof CoinopError ? error.code : 'error';
}

export type { StoredPlay, StoredScore };
