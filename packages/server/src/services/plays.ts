import { createHash } from 'node:crypto';
import {
  CoinopError,
  InsufficientFundsError,
  assertScorable,
  availableUnits,
  createTransfers,
  improvesBest,
  isWinner,
  leaderRank,
  leaderboardOf,
  leadersAfter,
  rankKey,
  settlementSnapshot,
  settlementTransfers,
  type Clock,
  type GameRef,
  type Ids,
  type Play,
  type SplitRule,
  type TransferRequest,
} from '@coinop/core';
import { PgErrorCodes, pgConstraint, pgErrorCode, type Db, type Queryable } from '../store/db.js';
import { applyTransfers, findAccount } from '../store/ledger.js';
import { insertApproval } from '../store/approvals.js';
import { findScoreByPlay, type StoredScore } from '../store/leaders.js';
import {
  lockPlayForScore,
  openFreePlay,
  openPaidPlay,
  readStanding,
  writeScore,
  type BoardEntry,
} from '../store/play-path.js';
import {
  findPlayByIdempotencyKey,
  lockExpiredPlays,
  playerAccounts,
  setPlayStatus,
  type StoredPlay,
} from '../store/plays.js';
import type { GameCache } from './game-cache.js';

export interface PlayPolicy {
  readonly playTtlSeconds: number;
  readonly splitRule: SplitRule;
}

/**
 * The player's wallet signature that approved a client-side play or score; recorded in the same
 * transaction as what it approved. The caller has checked the signature.
 */
export interface SignedApproval {
  readonly playerId: string;
  readonly wallet: string;
  readonly nonce: string;
  readonly message: string;
  readonly signature: string;
}

export interface OpenPlayInput {
  readonly gameId: string;
  readonly playerId: string;
  readonly leaderboardId: string;
  readonly idempotencyKey: string | null;
  readonly approval?: SignedApproval;
}

export interface SubmitScoreInput {
  readonly gameId: string;
  readonly playId: string;
  /** The play's leaderboard as the caller knows it; null takes the play's own (client-side). */
  readonly leaderboardId: string | null;
  readonly score: number;
  readonly idempotencyKey: string | null;
  /** Client-side: the score must be for a play of this approval's player. */
  readonly approval?: SignedApproval;
}

/** The stored score, and whether this call recorded it or replayed an earlier identical call. */
export interface ScoreOutcome {
  readonly score: StoredScore;
  readonly leaderboardId: string;
  /** The board's leaders after this score; null on a replay (read them afresh). */
  readonly leaders: readonly BoardEntry[] | null;
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
    const game = await this.#games.getForNewPlay(input.gameId, input.leaderboardId);
    const board = leaderboardOf(game, input.leaderboardId);
    const now = this.#clock.now();
    const play: StoredPlay = {
      id: this.#ids.next(),
      arcadeId: game.arcadeId,
      gameId: game.id,
      developerId: game.developerId,
      leaderboardId: board.id,
      playerId: input.playerId,
      costUnits: board.costUnits,
      lockTransferId: board.costUnits > 0n ? this.#ids.next() : null,
      leaderPlayerIds: [],
      status: 'open',
      expiresAt: new Date(now.getTime() + this.#policy.playTtlSeconds * 1000),
      createdAt: now,
      updatedAt: now,
      idempotencyKey: input.idempotencyKey,
      requestHash,
    };

    const openIn = async (q: Queryable) =>
      play.lockTransferId === null
        ? openFreePlay(q, play, board.leadersMax)
        : openPaidPlay(q, play, board.leadersMax);
    const { approval } = input;
    let opened;
    try {
      // Server-to-server plays stay one statement; an approved play records its signature with it.
      opened =
        approval === undefined
          ? await openIn(this.#db)
          : await this.#db.transaction(async (tx) => {
              const result = await openIn(tx);
              if (result.leaderPlayerIds !== null) {
                await recordApproval(tx, approval, 'play', play.id, now, this.#ids.next());
              }
              return result;
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
    if (opened.playerAccountId === null) {
      throw new CoinopError('player_not_found', `player ${input.playerId} does not exist`, {
        details: { field: 'playerId', playerId: input.playerId },
      });
    }
    if (opened.leaderPlayerIds === null) {
      // Nothing was written: the conditional debit found less than the cost to spend.
      const account = await findAccount(this.#db, opened.playerAccountId);
      throw new InsufficientFundsError(
        opened.playerAccountId,
        account ? availableUnits(account) : 0n,
        board.costUnits,
      );
    }
    return { ...play, leaderPlayerIds: opened.leaderPlayerIds };
  }

  /**
   * Scores a play once: records the player's best on the board, ranks the score, and settles the
   * play's escrow by the split rule. A retry with the same idempotency key replays the first
   * result. Three statements in one transaction: lock, read, write.
   */
  async score(input: SubmitScoreInput): Promise<ScoreOutcome> {
    if (!Number.isFinite(input.score) || input.score < 0) {
      throw new CoinopError(
        'validation_failed',
        `score must be a finite number ≥ 0, got ${input.score}`,
        { details: { field: 'score' } },
      );
    }
    const game = await this.#games.get(input.gameId);
    const requestHash = digest([input.playId, input.leaderboardId ?? '', String(input.score)]);

    return this.#db.transaction(async (tx) => {
      const now = this.#clock.now();
      const locked = await lockPlayForScore(tx, input.gameId, input.playId);
      if (!locked) {
        throw new CoinopError(
          'play_not_found',
          `play ${input.playId} does not exist in game ${input.gameId}`,
          { details: { field: 'playId', playId: input.playId } },
        );
      }
      const { play } = locked;
      if (input.approval !== undefined && input.approval.playerId !== play.playerId) {
        throw new CoinopError(
          'play_of_another_player',
          `play ${play.id} belongs to another player; a player scores only their own plays`,
          { details: { field: 'playId', playId: play.id } },
        );
      }
      if (play.status === 'scored' && input.idempotencyKey !== null) {
        const earlier = await findScoreByPlay(tx, play.id);
        if (earlier && earlier.idempotencyKey === input.idempotencyKey) {
          if (earlier.requestHash !== requestHash) throw keyReused(input.idempotencyKey);
          return {
            score: earlier,
            leaderboardId: play.leaderboardId,
            leaders: null,
            replayed: true,
          };
        }
      }
      assertScorable(play, input.leaderboardId ?? play.leaderboardId, now);
      const fresh = game.leaderboards.some((b) => b.id === play.leaderboardId)
        ? game
        : await this.#games.getWithLeaderboard(input.gameId, play.leaderboardId);
      const board = leaderboardOf(fresh, play.leaderboardId);

      const key = rankKey(input.score, fresh.scoreDisplay);
      const standing = await readStanding(tx, board.id, play.playerId, key, board.leadersMax + 1);
      const improves = improvesBest(standing.best, key);
      // The count was read before this score: an improved best adds the player at `key`; an
      // unimproved one already counts them (their best is at or above `key`).
      const rank = leaderRank(standing.atOrAbove + (improves ? 1 : 0));
      const scoreId = this.#ids.next();
      const leaders = improves
        ? leadersAfter(
            standing.top,
            {
              playerId: play.playerId,
              score: input.score,
              rankKey: key,
              achievedAt: now,
              name: locked.playerName,
              avatarUrl: locked.playerAvatarUrl,
            },
            board.leadersMax,
          )
        : standing.top.slice(0, board.leadersMax);

      const transfers = settlementTransfers(
        play,
        locked.leaderAccountIds,
        locked.playerAccountId,
        fresh,
        this.#policy.splitRule,
        () => this.#ids.next(),
      );
      const outcome = createTransfers(
        transfers,
        settlementSnapshot(
          [{ play, playerAccountId: locked.playerAccountId }],
          [...locked.leaderAccountIds, fresh.developerAccountId, fresh.arcadeAccountId],
        ),
      );
      if (!outcome.ok)
        throw new TypeError(`settlement of play ${play.id}: ${outcome.results.join(', ')}`);

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
      await writeScore(tx, {
        scoreId,
        playId: play.id,
        leaderboardId: board.id,
        playerId: play.playerId,
        score: input.score,
        rankKey: key,
        leaderRank: rank,
        isWinner: stored.isWinner,
        idempotencyKey: input.idempotencyKey,
        requestHash,
        now,
        replacesBest: improves ? standing.best : undefined,
        transfers: outcome.toInsert,
        deltas: outcome.deltas,
      });
      if (input.approval !== undefined) {
        await recordApproval(tx, input.approval, 'score', play.id, now, this.#ids.next());
      }
      return { score: stored, leaderboardId: board.id, leaders, replayed: false };
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

async function recordApproval(
  tx: Queryable,
  approval: SignedApproval,
  kind: 'play' | 'score',
  subjectId: string,
  now: Date,
  id: string,
): Promise<void> {
  const recorded = await insertApproval(tx, { ...approval, id, kind, subjectId, createdAt: now });
  if (!recorded) {
    // The nonce doubles as the idempotency key, so a true retry was answered before this point.
    throw new CoinopError(
      'idempotency_key_reused',
      `approval nonce ${approval.nonce} was already used for another ${kind}`,
      { details: { field: 'nonce' } },
    );
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
