import {
  CoinopError,
  leaderboardOf,
  roundClosed,
  roundNamed,
  type GameRef,
  type Leaderboard,
} from '@coinop/core';
import type { Queryable } from '../store/db.js';
import { loadGameRef, type LoadedGameRef } from '../store/games.js';
import { findRoundBoard, tournamentOfGameExists } from '../store/tournaments.js';

/**
 * Game metadata (owners' accounts, score display, tiers) for the play and score path, read from
 * memory instead of a query. A change to a game or its tiers, in any process on the database,
 * calls `invalidate` (`CacheSync`); an entry older than `maxAgeMs` is read again in case a notice
 * was lost, and one lacking a tier another process added is refreshed by `getWithLeaderboard`.
 */
export class GameCache {
  readonly #db: Queryable;
  readonly #entries = new Map<string, { loadedAt: number; game: Promise<LoadedGameRef | null> }>();
  readonly #maxAgeMs: number;
  readonly #maxEntries: number;

  constructor(db: Queryable, maxAgeMs: number, maxEntries = 10_000) {
    this.#db = db;
    this.#maxAgeMs = maxAgeMs;
    this.#maxEntries = maxEntries;
  }

  /** The game with its live tiers, or a `game_not_found` error naming it. */
  async get(gameId: string): Promise<LoadedGameRef> {
    const now = Date.now();
    let entry = this.#entries.get(gameId);
    if (!entry || now - entry.loadedAt > this.#maxAgeMs) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
      const loaded = { loadedAt: now, game: loadGameRef(this.#db, gameId) };
      entry = loaded;
      this.#entries.set(gameId, loaded);
      // A missing game is not remembered; nor is a failed read. Only this entry is dropped: an
      // invalidation may have replaced it meanwhile.
      const forget = () => this.#entries.get(gameId) === loaded && this.#entries.delete(gameId);
      loaded.game.then((game) => game === null && forget(), forget);
    }
    const game = await entry.game;
    if (!game)
      throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
        details: { gameId },
      });
    return game;
  }

  /**
   * The game, reloaded from storage if it does not (yet) know `leaderboardId`. A retired tier is
   * listed among the leaderboards of the answer: its open plays still settle, its leaders stay
   * readable.
   */
  async getWithLeaderboard(gameId: string, leaderboardId: string): Promise<GameRef> {
    const game = await this.#knowing(gameId, leaderboardId);
    const retired = game.retiredLeaderboards.find((b) => b.id === leaderboardId);
    if (retired) return { ...game, leaderboards: [...game.leaderboards, retired] };
    if (isKnown(game, leaderboardId)) return game;
    // A closed round is not cached (the play path has no use for it); its standings stay
    // readable, so its board is read for this answer.
    const closed = await findRoundBoard(this.#db, gameId, leaderboardId);
    if (!closed) return game;
    const board: Leaderboard = { ...closed, gameId, position: 0 };
    return { ...game, rounds: [...(game.rounds ?? []), board] };
  }

  /**
   * The game and the board a new play names: a live tier, a round not yet closed, or a
   * tournament's id, which means its round open now (the next round, which may have been opened
   * by another process's close, is read if this process does not know it yet). A tournament with
   * no round to come is refused `tournament_closed`.
   */
  async boardForNewPlay(
    gameId: string,
    leaderboardId: string,
    now: Date,
  ): Promise<{ game: GameRef; board: Leaderboard }> {
    const cached = await this.get(gameId);
    const tier = cached.leaderboards.find((b) => b.id === leaderboardId);
    if (tier) return { game: cached, board: tier };
    const known = roundNamed(cached, leaderboardId, now);
    // A round named by its id is taken as cached: the play's transaction refuses it if it
    // ended. A tournament's id whose known rounds all ended may have a next round by now.
    if (known && (known.id === leaderboardId || (known.round?.endsAt ?? now) > now)) {
      return { game: cached, board: known };
    }
    const game = await this.getForNewPlay(gameId, leaderboardId);
    const round = roundNamed(game, leaderboardId, now);
    if (round) return { game, board: round };
    if (await tournamentOfGameExists(this.#db, gameId, leaderboardId)) {
      throw roundClosed(leaderboardId, null);
    }
    if (!isKnown(game, leaderboardId)) {
      const closed = await findRoundBoard(this.#db, gameId, leaderboardId);
      if (closed) throw roundClosed(leaderboardId, closed.round.endsAt);
    }
    return { game, board: leaderboardOf(game, leaderboardId) };
  }

  /** The game for a new play on `leaderboardId`: 409 `leaderboard_retired` for a retired tier. */
  async getForNewPlay(gameId: string, leaderboardId: string): Promise<GameRef> {
    const game = await this.#knowing(gameId, leaderboardId);
    if (game.retiredLeaderboards.some((b) => b.id === leaderboardId)) {
      throw new CoinopError(
        'leaderboard_retired',
        `leaderboardId ${leaderboardId} is retired and takes no new plays; choose another tier`,
        { details: { field: 'leaderboardId', leaderboardId, gameId } },
      );
    }
    return game;
  }

  async #knowing(gameId: string, leaderboardId: string): Promise<LoadedGameRef> {
    const game = await this.get(gameId);
    if (isKnown(game, leaderboardId)) return game;
    this.invalidate(gameId);
    return this.get(gameId);
  }

  invalidate(gameId: string): void {
    this.#entries.delete(gameId);
  }

  /** Forgets every game, after notices may have been missed. */
  clear(): void {
    this.#entries.clear();
  }
}

/** Whether the game names this board: a tier, live or retired, or a round not yet closed. */
function isKnown(game: LoadedGameRef | GameRef, leaderboardId: string): boolean {
  const retired = 'retiredLeaderboards' in game ? game.retiredLeaderboards : [];
  return [...game.leaderboards, ...retired, ...(game.rounds ?? [])].some(
    (b) => b.id === leaderboardId,
  );
}
