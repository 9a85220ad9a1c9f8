import { CoinopError, type GameRef } from '@coinop/core';
import type { Queryable } from '../store/db.js';
import { loadGameRef, type LoadedGameRef } from '../store/games.js';

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
    return retired ? { ...game, leaderboards: [...game.leaderboards, retired] } : game;
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
    const known = [...game.leaderboards, ...game.retiredLeaderboards];
    if (known.some((b) => b.id === leaderboardId)) return game;
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
