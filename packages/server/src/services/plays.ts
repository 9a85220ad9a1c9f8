import { createHash } from 'node:crypto';
import {
  CoinopError,
  assertScorable,
  improvesBest,
  isWinner,
  leaderRank,
  leaderboardOf,
  lockTransfer,
  rankKey,
  settlementTransfers,
  type Clock,
  type GameRef,
  type Ids,
  type Play,
  type SplitRule,
  type TransferRequest,
} from '@coinop/core';
import { PgErrorCodes, pgConstraint, pgErrorCode, type Db, type Queryable } from '../store/db.js';
import { applyTransfers, insertAccount } from '../store/ledger.js';
import {
  countAtOrAbove,
  findScoreByPlay,
  insertScore,
  lockBest,
  recordBest,
  type StoredScore,
} from '../store/leaders.js';
import { leaderIds } from '../store/leaders.js';
import {
  findPlayByIdempotencyKey,
  insertPlay,
  lockExpiredPlays,
  lockPlay,
  playerAccounts,
  setPlayStatus,
  type StoredPlay,
} from '../store/plays.js';
import type { GameCache } from './game-cache.js';

export interface PlayPolicy {
  readonly playTtlSeconds: number;
  readonly splitRule: SplitRule;
}

export interface OpenPlayInput {
  readonly gameId: string;
  readonly playerId: string;
  readonly leaderboardId: string;
  readonly idempotencyKey: string | null;
}

export interface SubmitScoreInput {
  readonly gameId: string;
  readonly playId: string;
  readonly leaderboardId: string;
  readonly score: number;
  readonly idempotencyKey: string | null;
}

/** The stored score, and whether this call recorded it or replayed an earlier identical call. */
export interface ScoreOutcome {
  readonly score: StoredScore;
  readonly leaderboardId: string;
  readonly replayed: boolean;
}

/**
 * The play/score path: opening a play locks its cost in escrow; a score (or expiry) settles it
 * and places the player on the board. Each use case is one database transaction.
 */
export class PlayService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #games: GameCache;
  readonly #policy: PlayPolicy;

  constructor(db: Db, clock: Clock, ids: Ids, games: GameCache, policy: PlayPolicy) {
    this.#db = db;
    this.#clock = clock;
    this.#ids = ids;
    this.#games = games;
    this.#policy = policy;
  }

  /**
   * Opens a play: the player must exist and be able to spend the tier's cost, which is locked
   * (a pending transfer) into the play's escrow. With an idempotency key, a retry returns the
   * play the first call opened instead of charging again.
   */
  async open(input: OpenPlayInput): Promise<StoredPlay> {
    const requestHash = digest([input.playerId, input.leaderboardId]);
    if (input.idempotencyKey !== null) {
      const earlier = await findPlayByIdempotencyKey(this.#db, input.gameId, input.idempotencyKey);
      if (earlier) return replayedPlay(earlier, requestHash);
    }
    const game = await this.#games.getWithLeaderboard(input.gameId, input.leaderboardId);
    const board = leaderboardOf(game, input.leaderboardId);
    const now = this.#clock.now();
    const playId = this.#ids.next();
    const lockId = board.costUnits > 0n ? this.#ids.next() : null;

    try {
      return await this.#db.transaction(async (tx) => {
        const accounts = await playerAccounts(tx, [input.playerId]);
        const playerAccountId = accounts.get(input.playerId);
        if (!playerAccountId) {
          throw new CoinopError('player_not_found', `player ${input.playerId} does not exist`, {
            details: { field: 'playerId', playerId: input.playerId },
          });
        }
        const play: StoredPlay = {
          id: playId,
          arcadeId: game.arcadeId,
          gameId: game.id,
          developerId: game.developerId,
          leaderboardId: board.id,
          playerId: input.playerId,
          costUnits: board.costUnits,
          lockTransferId: lockId,
          leaderPlayerIds: await leaderIds(tx, board.id, board.leadersMax),
          status: 'open',
          expiresAt: new Date(now.getTime() + this.#policy.playTtlSeconds * 1000),
          createdAt: now,
          updatedAt: now,
          idempotencyKey: input.idempotencyKey,
          requestHash,
        };
        if (lockId !== null) {
          await insertAccount(tx, playId, 'escrow', now);
          await applyTransfers(
            tx,
            [lockTransfer(lockId, playId, playerAccountId, board.costUnits)],
            now,
          );
        }
        await insertPlay(tx, play, input.idempotencyKey, requestHash);
        return play;
      });
    } catch (error) {
      // Two identical retries raced; the other one opened the play.
      if (
        input.idempotencyKey !== null &&
        pgErrorCode(error) === PgErrorCodes.uniqueViolation &&
        pgConstraint(error) === 'plays_idempotency'
      ) {
        const earlier = await findPlayByIdempotencyKey(
          this.#db,
          input.gameId,
          input.idempotencyKey,
        );
        if (earlier) return replayedPlay(earlier, requestHash);
      }
      throw error;
    }
  }

  /**
   * Scores a play once: settles its escrow by the split rule, records the player's best on the
   * board and ranks the score. A retry with the same idempotency key replays the first result.
   */
  async score(input: SubmitScoreInput): Promise<ScoreOutcome> {
    if (!Number.isFinite(input.score) || input.score < 0) {
      throw new CoinopError(
        'validation_failed',
        `score must be a finite number ≥ 0, got ${input.score}`,
        {
          details: { field: 'score' },
        },
      );
    }
    const game = await this.#games.get(input.gameId);
    const requestHash = digest([input.playId, input.leaderboardId, String(input.score)]);

    return this.#db.transaction(async (tx) => {
      const now = this.#clock.now();
      const play = await lockPlay(tx, input.gameId, input.playId);
      if (!play) {
        throw new CoinopError(
          'play_not_found',
          `play ${input.playId} does not exist in game ${input.gameId}`,
          {
            details: { field: 'playId', playId: input.playId },
          },
        );
      }
      if (play.status === 'scored' && input.idempotencyKey !== null) {
        const earlier = await findScoreByPlay(tx, play.id);
        if (earlier && earlier.idempotencyKey === input.idempotencyKey) {
          if (earlier.requestHash !== requestHash) throw keyReused(input.idempotencyKey);
          return { score: earlier, leaderboardId: play.leaderboardId, replayed: true };
        }
      }
      assertScorable(play, input.leaderboardId, now);
      const fresh = game.leaderboards.some((b) => b.id === play.leaderboardId)
        ? game
        : await this.#games.getWithLeaderboard(input.gameId, play.leaderboardId);
      const board = leaderboardOf(fresh, play.leaderboardId);

      const key = rankKey(input.score, fresh.scoreDisplay);
      const best = await lockBest(tx, board.id, play.playerId);
      const scoreId = this.#ids.next();
      if (improvesBest(best, key)) {
        await recordBest(
          tx,
          {
            leaderboardId: board.id,
            playerId: play.playerId,
            score: input.score,
            rankKey: key,
            scoreId,
            achievedAt: now,
          },
          best,
        );
      }
      const rank = leaderRank(await countAtOrAbove(tx, board.id, key));
      const stored: StoredScore = {
        id: scoreId,
        playId: play.id,
        leaderboardId: board.id,
        score: input.score,
        leaderRank: rank,
        isWinner: isWinner(rank, board.leadersMax),
        idempotencyKey: input.idempotencyKey,
        requestHash,
        createdAt: now,
      };
      await insertScore(tx, { ...stored, playerId: play.playerId });
      await setPlayStatus(tx, play.id, 'scored', now);
      // Settlement last: it locks the developer's and the arcade's accounts, which every score of
      // the game touches, so they are held only for the final statements before commit.
      await this.#settle(tx, [play], fresh, now);
      return { score: stored, leaderboardId: board.id, replayed: false };
    });
  }

  /**
   * Settles up to `limit` open plays whose time ran out: their locked HST is posted and paid out
   * as for a score, and they become `expired`. Returns how many it settled.
   */
  async settleExpired(limit = 500): Promise<number> {
    return this.#db.transaction(async (tx) => {
      const now = this.#clock.now();
      const plays = await lockExpiredPlays(tx, now, limit);
      const byGame = new Map<string, StoredPlay[]>();
      for (const play of plays) byGame.set(play.gameId, [...(byGame.get(play.gameId) ?? []), play]);
      for (const [gameId, gamePlays] of byGame) {
        const game = await this.#games.get(gameId);
        await this.#settle(tx, gamePlays, game, now);
        for (const play of gamePlays) await setPlayStatus(tx, play.id, 'expired', now);
      }
      return plays.length;
    });
  }

  /** Posts each play's locked cost and pays it out, in one linked batch. */
  async #settle(tx: Queryable, plays: readonly Play[], game: GameRef, now: Date): Promise<void> {
    const players = [...new Set(plays.flatMap((p) => [p.playerId, ...p.leaderPlayerIds]))];
    const accounts = await playerAccounts(tx, players);
    const transfers: TransferRequest[] = [];
    for (const play of plays) {
      const playerAccountId = accounts.get(play.playerId);
      if (!playerAccountId)
        throw new TypeError(`player ${play.playerId} of play ${play.id} has no account`);
      const leaderAccountIds = play.leaderPlayerIds
        .map((id) => accounts.get(id))
        .filter((id): id is string => id !== undefined);
      transfers.push(
        ...settlementTransfers(
          play,
          leaderAccountIds,
          playerAccountId,
          game,
          this.#policy.splitRule,
          () => this.#ids.next(),
        ),
      );
    }
    await applyTransfers(tx, transfers, now);
  }
}

function replayedPlay(earlier: StoredPlay, requestHash: string): StoredPlay {
  if (earlier.requestHash !== requestHash) throw keyReused(earlier.idempotencyKey ?? '');
  return earlier;
}

function keyReused(key: string): CoinopError {
  return new CoinopError(
    'idempotency_key_reused',
    `Idempotency-Key ${key} was already used for a different request`,
    { details: { idempotencyKey: key } },
  );
}

function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url');
}
