import type { Leaderboard } from './game-server.js';

/**
 * The public catalog (`/catalog/games`): published games as any visitor of the arcade sees them.
 * One game's page is a `Game`, with its tiers' leaders.
 */

/**
 * A tier as the catalog lists it: what a play costs, without the leaders.
 *
 * @example
 * ```ts
 * import type { CatalogTier } from '@coinop/protocol';
 * const tier: CatalogTier = { id: 't-1', name: 'Practice', cost: 1, currency: 'HST',
 *   formattedCostString: '1 HST' };
 * ```
 */
export type CatalogTier = Pick<
  Leaderboard,
  'id' | 'name' | 'cost' | 'currency' | 'formattedCostString'
>;

/**
 * A published game as the catalog lists it.
 *
 * @example
 * ```ts
 * import type { CatalogGame } from '@coinop/protocol';
 * const cheapest = (game: CatalogGame) => Math.min(...game.leaderboards.map((t) => t.cost));
 * ```
 */
export interface CatalogGame {
  readonly id: string;
  readonly name: string;
  /** One-line pitch; empty when unset. */
  readonly tagLine: string;
  /** Catalog category; empty when unset. */
  readonly category: string;
  /** Cover image URL (a 1920x1080 image). */
  readonly coverUrl: string;
  /** Where the game is hosted; empty until set. */
  readonly url: string;
  /** Tiers, in display order. */
  readonly leaderboards: readonly CatalogTier[];
  /** The developer's id: their page is `/catalog/developers/{developerId}`. */
  readonly developerId: string;
  /** When the game was listed (ISO 8601). */
  readonly publishedAt: string;
  /** Plays begun in the last 7 days (docs/concepts/discovery.md). */
  readonly playsThisWeek: number;
  /** HST those plays paid into the game's boards, as text: its pool this week. */
  readonly poolThisWeek: string;
  /** The same in base units, a decimal string. */
  readonly poolThisWeekUnits: string;
}

/**
 * Published games, newest first (`GET /catalog/games`).
 *
 * @example
 * ```ts
 * import type { CatalogGameList } from '@coinop/protocol';
 * const names = (list: CatalogGameList) => list.games.map((game) => game.name);
 * ```
 */
export interface CatalogGameList {
  readonly games: readonly CatalogGame[];
}
