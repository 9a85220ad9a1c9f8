import {
  CoinopError,
  bestOf,
  bucketChanges,
  leadersAt,
  resettleHeldPlay,
  type BoardScore,
  type Clock,
  type GameRef,
  type Ids,
  type SplitRule,
  type TransferRequest,
} from '@coinop/core';
import type { Db, Queryable } from '../store/db.js';
import { applyTransfers } from '../store/ledger.js';
import { heldPayoutsOf, type StoredHeldPayout } from '../store/payout-holds.js';
import { playerAccounts } from '../store/plays.js';
import { nextBoardVersion } from '../store/score-batch.js';
import { notifyBoardChanged, notifyGameChanged } from '../store/cache-notices.js';
import { closeOpenReviewsOfVoidedScore } from '../store/score-reviews.js';
import { translated, WriteRaced } from '../store/errors.js';
import {
  boardScores,
  bumpBoard,
  currentBest,
  findScoreToVoid,
  lockBestAndBoard,
  lockPlaysLedBy,
  markScoreVoided,
  moveBestBack,
  setLeaderSnapshots,
  type PlayLedBy,
  type ScoreToVoid,
} from '../store/score-voids.js';
import type { GameCache } from './game-cache.js';

/** A void that deadlocks with a score batch runs again, at most this many times in all. */
const VOID_ATTEMPTS = 3;

/** Who voids a score: the operator (admin token) or the game's developer (their API key). */
export type VoidActor = { kind: 'admin' } | { kind: 'developer'; developerId: string };

export interface VoidScoreInput {
  readonly scoreId: string;
  /** 1 to 500 characters; shown to the player in their history. */
  readonly reason: string;
  readonly actor: VoidActor;
  /** Set for a developer: the score must be of this game (their own), else `score_not_found`. */
  readonly gameId?: string | undefined;
  /** Where the void is logged (the request's log): what it did, and the test hook's pause. */
  readonly log?: VoidLog | undefined;
}

/** The part of a pino logger a void writes to. */
export interface VoidLog {
  info(bindings: object, message: string): void;
  warn(bindings: object, message: string): void;
}

/** What a void did: the plays it re-settled and the net change of each account's held payouts. */
export interface VoidOutcome {
  readonly scoreId: string;
  readonly leaderboardId: string;
  readonly voidedAt: Date;
  readonly resettledPlayIds: readonly string[];
  /** Per account, the change of what it is owed by held payouts (base units, may be negative). */
  readonly moved: readonly { accountId: string; units: bigint }[];
  /** The score's reviews that were open and closed as voided by this void, in id order. */
  readonly closedReviewIds: readonly string[];
}

export interface ScoreVoidsDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly games: GameCache;
  readonly splitRule: SplitRule;
  /** This process's copies of the boards a void changed are dropped (`ScoreMemory`). */
  readonly boardChanged: (leaderboardId: string) => void;
  /** Test hook (`COINOP_TEST_VOID_PAUSE_MS`): a pause before each void commits. */
  readonly pauseMs: number;
}

/**
 * Voiding scores (docs/concepts/plays-and-settlement.md#hold-and-void): the score leaves its
 * board and every play whose payouts are still held and rested on it is re-settled as if it had
 * never been made, in one transaction.
 */
export class ScoreVoids {
  readonly #deps: ScoreVoidsDeps;

  constructor(deps: ScoreVoidsDeps) {
    this.#deps = deps;
  }

  /**
   * Voids a score: marks it, moves its player's best back to their best remaining score (or off
   * the board) and re-settles the held plays whose leaders it changed. `score_not_found`,
   * `score_already_voided` (also for a second void racing the first).
   */
  async voidScore(input: VoidScoreInput): Promise<VoidOutcome> {
    // A deadlock with a score batch or a sweep (both lock plays, then the board and accounts)
    // rolls the void back whole; it runs again, as a lost race of the score path does.
    for (let attempt = 1; ; attempt++) {
      try {
        // The game is read before the transaction: on PGlite (one session) a read outside it
        // would wait for it to end.
        const games = await this.#gamesOf(input);
        const outcome = await translated(() =>
          this.#deps.db.transaction((tx) => this.#void(tx, input, games)),
        );
        this.#deps.boardChanged(outcome.leaderboardId);
        input.log?.info(
          { scoreId: outcome.scoreId, resettledPlays: outcome.resettledPlayIds.length },
          `score ${outcome.scoreId} voided by ${actorName(input.actor)}: ${outcome.resettledPlayIds.length} held plays re-settled`,
        );
        return outcome;
      } catch (error) {
        if (!(error instanceof WriteRaced) || attempt >= VOID_ATTEMPTS) throw error;
      }
    }
  }

  /** The void in its transaction, taking the locks in the score path's order: plays, best, board. */
  async #void(
    tx: Queryable,
    input: VoidScoreInput,
    games: (gameId: string, leaderboardId: string) => Promise<GameRef>,
  ): Promise<VoidOutcome> {
    const score = await findScoreToVoid(tx, input.scoreId, input.gameId ?? null);
    if (score === null) {
      throw new CoinopError('score_not_found', `no score ${input.scoreId} in this arcade`, {
        details: { field: 'scoreId', scoreId: input.scoreId },
      });
    }
    if (score.voidedAt !== null) throw alreadyVoided(score.id);
    const now = this.#deps.clock.now();
    const plays = await lockPlaysLedBy(tx, score.leaderboardId, score.playerId, now);
    await lockBestAndBoard(tx, score.leaderboardId, score.playerId);
    const marked = await markScoreVoided(tx, score.id, {
      reason: input.reason,
      actor: actorName(input.actor),
      now,
    });
    if (!marked) throw alreadyVoided(score.id);
    const closedReviewIds = await closeOpenReviewsOfVoidedScore(tx, {
      scoreId: score.id,
      reason: input.reason,
      by: actorName(input.actor),
      now,
    });
    await this.#moveBest(tx, score, now);
    const game = await games(score.gameId, score.leaderboardId);
    const resettled = await this.#resettle(tx, score, plays, game, now);
    await notifyBoardChanged(tx, score.leaderboardId);
    await notifyGameChanged(tx, score.gameId);
    if (this.#deps.pauseMs > 0) {
      input.log?.warn(
        { scoreId: score.id },
        `test hook: score ${score.id} voided, pausing ${this.#deps.pauseMs} ms before commit`,
      );
      await new Promise((r) => setTimeout(r, this.#deps.pauseMs));
    }
    return {
      scoreId: score.id,
      leaderboardId: score.leaderboardId,
      voidedAt: now,
      closedReviewIds,
      ...resettled,
    };
  }

  /**
   * The game of the score to void, read before its transaction: the game's own when a developer
   * voids (then checked in it), else found from the score, which is read again under lock.
   */
  async #gamesOf(
    input: VoidScoreInput,
  ): Promise<(gameId: string, leaderboardId: string) => Promise<GameRef>> {
    const score = await findScoreToVoid(this.#deps.db, input.scoreId, input.gameId ?? null);
    const game =
      score === null
        ? null
        : await this.#deps.games.getWithLeaderboard(score.gameId, score.leaderboardId);
    return async (gameId, leaderboardId) => {
      if (game === null || game.id !== gameId) {
        throw new TypeError(`score ${input.scoreId} moved to game ${gameId}/${leaderboardId}`);
      }
      return game;
    };
  }

  /** The player's best falls back to their best remaining score, or they leave the board. */
  async #moveBest(tx: Queryable, score: ScoreToVoid, now: Date): Promise<void> {
    const current = await currentBest(tx, score.leaderboardId, score.playerId);
    if (current === null || current.scoreId !== score.id) {
      // Not their best: the board's order is unchanged, but its copies are refused all the same.
      await bumpBoard(tx, score.leaderboardId, nextBoardVersion());
      return;
    }
    const mine = (await boardScores(tx, score.leaderboardId, score.scoreDisplay, null)).filter(
      (s) => s.playerId === score.playerId,
    );
    const next = bestOf(mine, score.playerId);
    const buckets =
      next === null
        ? bucketChanges(null, current.rankKey).map((b) => ({ ...b, delta: -1 }))
        : bucketChanges(current.rankKey, next.rankKey);
    await moveBestBack(tx, {
      leaderboardId: score.leaderboardId,
      playerId: score.playerId,
      from: current,
      next,
      buckets: buckets.map((b) => ({ leaderboardId: score.leaderboardId, ...b })),
      version: nextBoardVersion(),
      now,
    });
  }

  /**
   * Re-settles every held play whose leaders the voided score changed, and corrects the leaders
   * snapshot of each play it took (the open ones settle to it later): each as the board stood
   * when the play began, without the voided scores.
   */
  async #resettle(
    tx: Queryable,
    score: ScoreToVoid,
    plays: readonly PlayLedBy[],
    game: GameRef,
    now: Date,
  ): Promise<Pick<VoidOutcome, 'resettledPlayIds' | 'moved'>> {
    if (plays.length === 0) return { resettledPlayIds: [], moved: [] };
    const latest = new Date(Math.max(...plays.map((p) => p.createdAt.getTime())));
    const scores = await boardScores(tx, score.leaderboardId, score.scoreDisplay, latest);
    const leadersOf = new Map(
      plays.map((p) => [p.id, leadersAt(scores, p.createdAt, score.leadersMax)]),
    );
    // Held plays get their corrected leaders too: a later void of a leader this void brought in
    // finds them by their snapshot, as it finds the open ones.
    await setLeaderSnapshots(
      tx,
      plays.map((p) => ({
        playId: p.id,
        leaderPlayerIds: (leadersOf.get(p.id) ?? []).map((l) => l.playerId),
      })),
    );
    const heldPlays = plays.filter((p) => p.isHeld);
    if (heldPlays.length === 0) return { resettledPlayIds: [], moved: [] };
    const held = await heldPayoutsOf(
      tx,
      heldPlays.map((p) => p.id),
    );
    // The plays' own players too: a play left with no leader pays its leaders' part back to them.
    const accounts = await playerAccounts(tx, [
      ...new Set([
        ...heldPlays.flatMap((p) => leadersOf.get(p.id) ?? []).map((s) => s.playerId),
        ...heldPlays.map((p) => p.playerId),
      ]),
    ]);
    const transfers: TransferRequest[] = [];
    const resettledPlayIds: string[] = [];
    for (const play of heldPlays) {
      const mine = resettlementOf(play, held, leadersOf.get(play.id) ?? [], accounts, game, {
        rule: this.#deps.splitRule,
        nextId: () => this.#deps.ids.next(),
      });
      if (mine.length === 0) continue;
      transfers.push(...mine);
      resettledPlayIds.push(play.id);
    }
    await applyTransfers(tx, transfers, now);
    return { resettledPlayIds, moved: movedBy(transfers, held) };
  }
}

/** The transfers re-settling one held play to its corrected leaders (none if unchanged). */
function resettlementOf(
  play: PlayLedBy,
  held: readonly StoredHeldPayout[],
  leaders: readonly BoardScore[],
  accounts: ReadonlyMap<string, string>,
  game: GameRef,
  { rule, nextId }: { rule: SplitRule; nextId: () => string },
): TransferRequest[] {
  const accountOf = (playerId: string) => {
    const account = accounts.get(playerId);
    if (account === undefined) throw new TypeError(`player ${playerId} has no account`);
    return account;
  };
  const leaderAccountIds = leaders.map((l) => accountOf(l.playerId));
  return resettleHeldPlay(
    {
      play: { id: play.id, costUnits: play.costUnits },
      held: held.filter((t) => t.playId === play.id),
      leaderAccountIds,
      playerAccountId: accountOf(play.playerId),
      developerAccountId: game.developerAccountId,
      arcadeAccountId: game.arcadeAccountId,
    },
    rule,
    nextId,
  );
}

/** Per account, what the new held payouts add minus what the voided ones took away. */
function movedBy(
  transfers: readonly TransferRequest[],
  held: readonly StoredHeldPayout[],
): { accountId: string; units: bigint }[] {
  const heldById = new Map(held.map((t) => [t.id, t]));
  const net = new Map<string, bigint>();
  const add = (accountId: string, units: bigint) =>
    net.set(accountId, (net.get(accountId) ?? 0n) + units);
  for (const t of transfers) {
    if (t.kind === 'pending') add(t.creditAccountId, t.amount);
    if (t.kind === 'void_pending') {
      const voided = heldById.get(t.pendingId ?? '');
      if (voided === undefined) throw new TypeError(`void of unknown held payout ${t.pendingId}`);
      add(voided.creditAccountId, -voided.amount);
    }
  }
  return [...net]
    .filter(([, units]) => units !== 0n)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([accountId, units]) => ({ accountId, units }));
}

function actorName(actor: VoidActor): string {
  return actor.kind === 'admin' ? 'admin' : `developer:${actor.developerId}`;
}

function alreadyVoided(scoreId: string): CoinopError {
  return new CoinopError('score_already_voided', `score ${scoreId} was voided already`, {
    details: { scoreId },
  });
}
