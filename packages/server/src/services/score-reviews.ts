import { CoinopError, type BoardHistory } from '@coinop/core';
import {
  findQueueItem,
  listQueue,
  type QueueFilter,
  type QueueItem,
  type QueuePosition,
} from '../store/review-queue.js';
import {
  playerScoresOnBoard,
  refusalsOnBoard,
  replayOfRefusal,
  replayOfScore,
  reportsOfScore,
  type PlayerScore,
  type ScoreReport,
} from '../store/review-evidence.js';
import { boardHistory } from '../store/score-outliers.js';
import {
  bestScoreId,
  findFlaggableScore,
  findReportId,
  insertReport,
  resolveReviewsOfScore,
  type ReportReason,
  type ReviewActor,
} from '../store/score-reviews.js';
import type { ArcadeServices } from './arcade-services.js';
import { rerunVerifier, type ReviewVerdictRecord } from './review-verdicts.js';

export { ReviewKinds, ReviewStates } from '../store/score-reviews.js';
export type { ReportReason, ReviewActor } from '../store/score-reviews.js';
export type { QueueItem, QueuePosition, QueueState } from '../store/review-queue.js';
export type { ReviewVerdictRecord } from './review-verdicts.js';

/** What the review queue needs of the void (i30-hold's `ScoreVoids`): one score, one reason. */
export interface ScoreVoider {
  /** Voids the score (it leaves its board, held payouts re-settle); 409 `score_already_voided`. */
  voidScore(input: { scoreId: string; reason: string; actor: ReviewActor }): Promise<unknown>;
}

/** A queue item with what the reviewer reads beside it. */
export interface ReviewDetail {
  readonly item: QueueItem;
  readonly playerScores: PlayerScore[];
  readonly playerRefusals: number;
  /** The board's bests now (every player's): the count, median, MAD and best. */
  readonly board: BoardHistory;
  readonly reports: ScoreReport[];
}

/** Whose queue a call reads: every game's (the operator) or one game's (its developer). */
export type QueueScope = { readonly gameId: string | null };

/**
 * The review queue (issue 30, docs/reference/review-queue.md): players' reports, the outlier
 * flags and the refused attempts; approving keeps a score, voiding takes it off its board through
 * the `ScoreVoider`. Callers check who asks: the developer routes that the game is theirs.
 */
export class ScoreReviews {
  readonly #arcade: ArcadeServices;
  readonly #voider: ScoreVoider | null;

  /** `voider` may be null where nothing is voided (the players' reports). */
  constructor(arcade: ArcadeServices, voider: ScoreVoider | null) {
    this.#arcade = arcade;
    this.#voider = voider;
  }

  /**
   * Records the reporter's report of a score; reporting again answers the first report
   * (`created: false`). One's own score is 422, an unknown or voided score 404.
   */
  async report(
    reporterId: string,
    scoreId: string,
    report: { reason: ReportReason; note: string | null },
  ): Promise<{ reportId: string; created: boolean }> {
    const { db, clock, ids } = this.#arcade;
    const score = await findFlaggableScore(db, scoreId);
    if (!score || score.voided) throw scoreNotFound(scoreId);
    if (score.playerId === reporterId) {
      throw new CoinopError('own_score_not_reportable', 'a player cannot report their own score', {
        details: { scoreId },
      });
    }
    const created = await insertReport(db, {
      id: ids.next(),
      score,
      reporterId,
      reason: report.reason,
      note: report.note,
      now: clock.now(),
    });
    const reportId = await findReportId(db, scoreId, reporterId);
    if (reportId === null) throw new TypeError(`report of score ${scoreId} has no row`);
    return { reportId, created };
  }

  /**
   * Reports the player's current best on the board: the row a board shows, which names the
   * player, not the score. 404 `score_not_found` when the player has no best there.
   */
  async reportBest(
    reporterId: string,
    best: { leaderboardId: string; playerId: string },
    report: { reason: ReportReason; note: string | null },
  ): Promise<{ reportId: string; scoreId: string; created: boolean }> {
    const scoreId = await bestScoreId(this.#arcade.db, best.leaderboardId, best.playerId);
    if (scoreId === null) {
      throw new CoinopError(
        'score_not_found',
        `player ${best.playerId} has no score on board ${best.leaderboardId}`,
        { details: best },
      );
    }
    return { ...(await this.report(reporterId, scoreId, report)), scoreId };
  }

  /** A page of the queue, newest first, in the scope's games. */
  async queue(
    scope: QueueScope,
    filter: Omit<QueueFilter, 'gameId'> & { gameId?: string | null },
    cursor: QueuePosition | null,
    limit: number,
  ): Promise<{ items: QueueItem[]; more: boolean }> {
    const asked = filter.gameId ?? null;
    if (scope.gameId !== null && asked !== null && asked !== scope.gameId) {
      return { items: [], more: false };
    }
    const gameId = scope.gameId ?? filter.gameId ?? null;
    return listQueue(this.#arcade.db, { ...filter, gameId }, cursor, limit);
  }

  /** One item with its evidence; 404 `review_not_found` outside the scope. */
  async detail(scope: QueueScope, id: string): Promise<ReviewDetail> {
    const { db } = this.#arcade;
    const item = await this.#item(scope, id);
    const game = await this.#arcade.games.get(item.gameId);
    const [playerScores, playerRefusals, board, reports] = await Promise.all([
      playerScoresOnBoard(db, item.playerId, item.leaderboardId),
      refusalsOnBoard(db, item.playerId, item.leaderboardId),
      boardHistory(db, item.leaderboardId, game.scoreDisplay, null),
      item.scoreId === null ? [] : reportsOfScore(db, item.scoreId),
    ]);
    return { item, playerScores, playerRefusals, board, reports };
  }

  /**
   * The replay the item's score came with, or its refused attempt carried; 404
   * `replay_not_found` when it came without one.
   */
  async replay(scope: QueueScope, id: string): Promise<string> {
    return (await this.#replayOf(scope, id)).replay;
  }

  /**
   * Re-runs the game's current verifier on the item's replay (`rerunVerifier`); writes nothing.
   * 404 `replay_not_found` when the item came without a replay.
   */
  async verify(scope: QueueScope, id: string): Promise<ReviewVerdictRecord> {
    const { item, replay } = await this.#replayOf(scope, id);
    return rerunVerifier(this.#arcade, item, replay);
  }

  async #replayOf(scope: QueueScope, id: string): Promise<{ item: QueueItem; replay: string }> {
    const item = await this.#item(scope, id);
    const { db } = this.#arcade;
    const replay = !item.hasReplay
      ? null
      : item.scoreId === null
        ? await replayOfRefusal(db, id)
        : await replayOfScore(db, item.scoreId);
    if (replay === null) {
      const what = item.scoreId === null ? 'this refused attempt' : `score ${item.scoreId}`;
      throw new CoinopError('replay_not_found', `${what} came without a replay`, {
        details: { id, scoreId: item.scoreId },
      });
    }
    return { item, replay };
  }

  /** Keeps the score: closes every open review of it; it is not flagged again. */
  async approve(
    scope: QueueScope,
    id: string,
    reason: string,
    actor: ReviewActor,
  ): Promise<QueueItem> {
    const { scoreId, item } = await this.#reviewable(scope, id);
    if (item.state === 'approved') return item;
    if (item.state === 'voided') throw reviewClosed(item);
    const { db, clock } = this.#arcade;
    const closed = await resolveReviewsOfScore(db, {
      scoreId,
      state: 'approved',
      reason,
      actor,
      now: clock.now(),
    });
    if (closed === -1) {
      throw new CoinopError(
        'score_already_voided',
        `score ${scoreId} was voided: void review ${id} to close it`,
        { details: { id, scoreId } },
      );
    }
    return this.#resolved(scope, id, 'approved');
  }

  /** Voids the score (off its board, held payouts re-settled) and closes its open reviews. */
  async void(
    scope: QueueScope,
    id: string,
    reason: string,
    actor: ReviewActor,
  ): Promise<QueueItem> {
    const { scoreId, item } = await this.#reviewable(scope, id);
    if (item.state === 'voided') return item;
    // A kept score is voided, if new evidence says so, with the score's own void route.
    if (item.state === 'approved') throw reviewClosed(item);
    if (this.#voider === null) throw new TypeError('ScoreReviews made without a voider voids');
    try {
      await this.#voider.voidScore({ scoreId, reason, actor });
    } catch (error) {
      // Voided already (by another reviewer, or a void before a crash): close the reviews.
      if (!(error instanceof CoinopError && error.code === 'score_already_voided')) throw error;
    }
    const { db, clock } = this.#arcade;
    await resolveReviewsOfScore(db, { scoreId, state: 'voided', reason, actor, now: clock.now() });
    return this.#resolved(scope, id, 'voided');
  }

  async #item(scope: QueueScope, id: string): Promise<QueueItem> {
    const item = await findQueueItem(this.#arcade.db, id);
    if (!item || (scope.gameId !== null && item.gameId !== scope.gameId)) {
      throw new CoinopError('review_not_found', `review ${id} does not exist`, {
        details: { id },
      });
    }
    return item;
  }

  /** The score of an open (or already so resolved) review; 409 for a refusal. */
  async #reviewable(scope: QueueScope, id: string): Promise<{ scoreId: string; item: QueueItem }> {
    const item = await this.#item(scope, id);
    if (item.scoreId === null) {
      throw new CoinopError(
        'refusal_not_reviewable',
        `${id} is a refused attempt: it made no score and moved no HST, so there is nothing ` +
          'to approve or void',
        { details: { id, kind: item.kind } },
      );
    }
    return { scoreId: item.scoreId, item };
  }

  /** The item after a resolution: as asked, or 409 `review_closed` when it was closed otherwise. */
  async #resolved(scope: QueueScope, id: string, state: 'approved' | 'voided'): Promise<QueueItem> {
    const item = await this.#item(scope, id);
    if (item.state !== state) throw reviewClosed(item);
    return item;
  }
}

/** The developer's scope of one game's queue; another developer's game is 404 game_not_found. */
export async function developerReviewScope(
  arcade: ArcadeServices,
  developerId: string,
  gameId: string,
): Promise<QueueScope> {
  const game = await arcade.games.get(gameId);
  if (game.developerId !== developerId) {
    throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
      details: { gameId },
    });
  }
  return { gameId: game.id };
}

export function scoreNotFound(scoreId: string): CoinopError {
  return new CoinopError('score_not_found', `score ${scoreId} does not exist`, {
    details: { scoreId },
  });
}

function reviewClosed(item: QueueItem): CoinopError {
  return new CoinopError('review_closed', `review ${item.id} was ${item.state} already`, {
    details: { id: item.id, state: item.state },
  });
}
