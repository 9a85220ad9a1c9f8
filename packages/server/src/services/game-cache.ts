import { CoinopError, type GameRef } from '@coinop/core';
import type { Queryable } from '../store/db.js';
import { loadGameRef } from '../store/games.js';

/**
 * Immutable game metadata (owners' accounts, score display, tiers) for the play and score path,
 * read from memory instead of a query. Tiers are never changed once created, only added, so a
 * cached entry can only lack a tier another process added: `leaderboardOrReload` refreshes then.
 */
export class GameCache {
  readonly #db: Queryable;
  readonly #entries = new Map<string, Promise<GameRef | null>>();
  readonly #maxEntries: number;

  constructor(db: Queryable, maxEntries = 10_000) {
    this.#db = db;
    this.#maxEntries = maxEntries;
  }

  /** The game, or a `game_not_found` error naming it. */
  async get(gameId: string): Promise<GameRef> {
    let entry = this.#entries.get(gameId);
    if (!entry) {
      if (this.#entries.size >= this.#maxEntries) this.#entries.clear();
      entry = loadGameRef(this.#db, gameId);
      this.#entries.set(gameId, entry);
      entry.then(
        (game) => game === null && this.#entries.delete(gameId),
        () => this.#entries.delete(gameId),
      );
    }
    const game = await entry;
    if (!game)
      throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
        details: { gameId },
      });
    return game;
  }

  /** The game, reloaded from storage if it does not (yet) list `leaderboardId`. */
  async getWithLeaderboard(gameId: string, leaderboardId: string): Promise<GameRef> {
    const game = await this.get(gameId);
    if (game.leaderboards.some((b) => b.id === leaderboardId)) return game;
    this.invalidate(gameId);
    return this.get(gameId);
  }

  invalidate(gameId: string): void {
    this.#entries.delete(gameId);
  }
}
