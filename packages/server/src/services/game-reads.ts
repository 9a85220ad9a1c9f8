import {
  CoinopError,
  availableUnits,
  leaderboardOf,
  lockedUnits,
  type Clock,
  type Leader,
  type Leaderboard,
  type ScoreRules,
} from '@coinop/core';
import type { Db } from '../store/db.js';
import {
  boardAround,
  BOARD_WALK_MAX_AGE_MS,
  boardPage,
  type BoardWalk,
  type RankedBest,
  type StoredBoardAround,
  type StoredBoardPage,
} from '../store/board-pages.js';
import { findCover, type StoredCover } from '../store/cover-uploads.js';
import { findGame, type GameRecord } from '../store/games.js';
import { pendingPayoutsOf, type PendingPayouts } from '../store/payout-holds.js';
import { findAccount } from '../store/ledger.js';
import { standingsOf, topLeaders, topLeadersOfBoards, type LeaderRow } from '../store/leaders.js';
import { findPlay, type StoredPlay } from '../store/plays.js';
import { findPlayer, type PlayerRecord } from '../store/players.js';
import { listPayouts, lockTransferState, type PayoutRow } from '../store/reads.js';
import type { Avatars } from './avatar.js';
import type { GameCache } from './game-cache.js';

/** A walk of a board, continued: where it is, and when its first page was read (server ms). */
export interface ContinuedWalk extends BoardWalk {
  readonly startedAtMs: number;
}

/** 410: a walk too old to continue (its moves may be pruned); a first page starts a new one. */
export function boardWalkExpired(): CoinopError {
  return new CoinopError(
    'cursor_expired',
    'cursor is from a walk of this board that is too old to continue: start again from the ' +
      'first page (no cursor)',
    { details: { field: 'cursor', in: 'querystring' } },
  );
}

export interface GameView {
  readonly game: GameRecord;
  readonly leaderboards: readonly Leaderboard[];
  /** The game's score rules, when it or a tier has any (issue 30); tiers carry overrides. */
  readonly scoreRules?: ScoreRules | undefined;
  readonly leaders: ReadonlyMap<string, readonly Leader[]>;
}

export interface Standing {
  readonly leaderboardId: string;
  readonly score: number | null;
  readonly rank: number | null;
}

/** Everything the game server reads: its game with leaders, plays, payouts, players. */
export class GameReads {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #games: GameCache;
  readonly #ttlMs: number;
  readonly #avatars: Avatars;
  readonly #views = new Map<string, { expiresAt: number; view: Promise<GameView> }>();

  constructor(db: Db, clock: Clock, games: GameCache, ttlMs: number, avatars: Avatars) {
    this.#db = db;
    this.#clock = clock;
    this.#games = games;
    this.#ttlMs = ttlMs;
    this.#avatars = avatars;
  }

  /** The cover a developer uploaded for the game; 404 cover_not_found when there is none. */
  async uploadedCover(gameId: string): Promise<StoredCover> {
    const cover = await findCover(this.#db, gameId);
    if (!cover) {
      throw new CoinopError('cover_not_found', `game ${gameId} has no uploaded cover`, {
        details: { gameId },
      });
    }
    return cover;
  }

  /**
   * The game with every tier and its current leaders (spec 4.3). Served from memory; a score in
   * this process and a change to the game in any process drop the entry at once (`CacheSync`),
   * other processes' scores show within the cache TTL.
   */
  async gameView(gameId: string): Promise<GameView> {
    const now = Date.now();
    const cached = this.#views.get(gameId);
    if (cached && cached.expiresAt > now) return cached.view;
    const view = this.#loadView(gameId);
    this.#views.set(gameId, { expiresAt: now + this.#ttlMs, view });
    view.catch(() => this.#views.delete(gameId));
    return view;
  }

  invalidate(gameId: string): void {
    this.#views.delete(gameId);
  }

  /** Forgets every view, after notices may have been missed. */
  clear(): void {
    this.#views.clear();
  }

  async #loadView(gameId: string): Promise<GameView> {
    this.#games.invalidate(gameId);
    const ref = await this.#games.get(gameId);
    const game = await findGame(this.#db, gameId);
    if (!game) throw notFound('game_not_found', `game ${gameId} does not exist`);
    const rows = await topLeadersOfBoards(this.#db, ref.leaderboards);
    const leaders = new Map<string, Leader[]>();
    for (const [boardId, list] of rows)
      leaders.set(
        boardId,
        list.map((row) => toLeader(row, this.#avatars)),
      );
    return { game, leaderboards: ref.leaderboards, leaders, scoreRules: ref.scoreRules };
  }

  /** The player's best and rank on each tier of the game. */
  async standings(gameId: string, playerId: string): Promise<Standing[]> {
    const ref = await this.#games.get(gameId);
    await this.player(playerId);
    const found = await standingsOf(
      this.#db,
      ref.leaderboards.map((b) => b.id),
      playerId,
    );
    return ref.leaderboards.map((board) => {
      const standing = found.get(board.id);
      return {
        leaderboardId: board.id,
        score: standing?.score ?? null,
        rank: standing?.rank ?? null,
      };
    });
  }

  async leaders(gameId: string, leaderboardId: string): Promise<Leader[]> {
    const ref = await this.#games.getWithLeaderboard(gameId, leaderboardId);
    const board = leaderboardOf(ref, leaderboardId);
    return (await topLeaders(this.#db, board.id, board.leadersMax)).map((row) =>
      toLeader(row, this.#avatars),
    );
  }

  /**
   * A page of a tier's board with exact ranks, as of the walk's first page (`cursor` null starts
   * a walk); 410 `cursor_expired` for a walk older than `BOARD_WALK_MAX_AGE_MS`
   * (docs/reference/boards-and-history.md).
   */
  async boardPage(
    gameId: string,
    leaderboardId: string,
    cursor: ContinuedWalk | null,
    limit: number,
  ): Promise<StoredBoardPage & { readonly startedAtMs: number }> {
    const board = await this.#boardOf(gameId, leaderboardId);
    const now = this.#clock.now().getTime();
    // A walk's moves are pruned once it is older than this: it cannot go on exactly once.
    if (cursor !== null && !(now - cursor.startedAtMs <= BOARD_WALK_MAX_AGE_MS)) {
      throw boardWalkExpired();
    }
    const page = await boardPage(this.#db, board, cursor, limit);
    return { ...page, startedAtMs: cursor?.startedAtMs ?? now };
  }

  /**
   * A player's place on a tier's board with `count` players above and below; `player` null when
   * they have no score there, 404 `player_not_found` when there is no such player.
   */
  async boardAround(
    gameId: string,
    leaderboardId: string,
    playerId: string,
    count: number,
  ): Promise<StoredBoardAround> {
    const board = await this.#boardOf(gameId, leaderboardId);
    const around = await boardAround(this.#db, board, playerId, count);
    if (around.player === null) await this.player(playerId);
    return around;
  }

  avatarOf(best: RankedBest): string {
    return this.#avatars.urlOf(best.playerId, best.avatarUrl);
  }

  async #boardOf(gameId: string, leaderboardId: string): Promise<string> {
    const ref = await this.#games.getWithLeaderboard(gameId, leaderboardId);
    return leaderboardOf(ref, leaderboardId).id;
  }

  /** The leaders a score answers with: those it computed, or read afresh for a replayed score. */
  async leadersAfterScore(
    gameId: string,
    outcome: { leaderboardId: string; leaders: readonly LeaderRow[] | null },
  ): Promise<Leader[]> {
    return outcome.leaders === null
      ? this.leaders(gameId, outcome.leaderboardId)
      : outcome.leaders.map((row) => toLeader(row, this.#avatars));
  }

  async play(gameId: string, playId: string): Promise<StoredPlay> {
    const play = await findPlay(this.#db, gameId, playId);
    if (!play) throw notFound('play_not_found', `play ${playId} does not exist in game ${gameId}`);
    return play;
  }

  async playTransaction(
    gameId: string,
    playId: string,
  ): Promise<{ play: StoredPlay; state: 'pending' | 'posted' | 'voided' | 'free' }> {
    const play = await this.play(gameId, playId);
    if (play.lockTransferId === null) return { play, state: 'free' };
    return { play, state: await lockTransferState(this.#db, play.lockTransferId) };
  }

  async payouts(
    gameId: string,
    playerId: string,
    page: { limit: number; startingAfter: string | null; endingBefore: string | null },
  ): Promise<PayoutRow[]> {
    await this.#games.get(gameId);
    const player = await this.player(playerId);
    return listPayouts(this.#db, gameId, player.accountId, page);
  }

  async player(playerId: string): Promise<PlayerRecord> {
    const player = await findPlayer(this.#db, playerId);
    if (!player) throw notFound('player_not_found', `player ${playerId} does not exist`);
    return player;
  }

  /** A player's profile and spendable and locked HST. */
  async playerDetails(playerId: string): Promise<{
    player: PlayerRecord;
    avatar: string;
    balanceUnits: bigint;
    pendingUnits: bigint;
    pendingPayouts: PendingPayouts;
  }> {
    const player = await this.player(playerId);
    const account = await findAccount(this.#db, player.accountId);
    if (!account) throw new TypeError(`player ${playerId} has no account row`);
    return {
      player,
      avatar: this.#avatars.urlOf(player.id, player.avatarUrl),
      balanceUnits: availableUnits(account),
      pendingUnits: lockedUnits(account),
      // Only a player with held credits has any: one index lookup otherwise skipped.
      pendingPayouts:
        account.creditsPending === 0n
          ? { units: 0n, nextReleaseAt: null }
          : await pendingPayoutsOf(this.#db, player.accountId),
    };
  }

  now(): Date {
    return this.#clock.now();
  }
}

export function toLeader(row: LeaderRow, avatars: Avatars): Leader {
  return {
    playerId: row.playerId,
    score: row.score,
    name: row.name,
    avatar: avatars.urlOf(row.playerId, row.avatarUrl),
  };
}

function notFound(code: 'game_not_found' | 'play_not_found' | 'player_not_found', message: string) {
  return new CoinopError(code, message);
}

/** The records these reads answer with, for the routes that render them. */
export type { GameRecord, StoredPlay };
export type { RankedBest } from '../store/board-pages.js';
