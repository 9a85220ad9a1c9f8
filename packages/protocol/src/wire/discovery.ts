import type { CatalogGame } from './catalog.js';

/**
 * Discovery (issue 31, docs/concepts/discovery.md): the catalog's sort orders, what a tier pays
 * per play, a developer's public page and a game's screenshots.
 */

/** How `GET /catalog/games?sort=` orders the games; `new` (newest first) when left out. */
export type CatalogSort = 'popular' | 'new' | 'pool';

/**
 * One share of a play's cost: HST in base units (a decimal string) and as text.
 *
 * @example
 * ```ts
 * import type { PayoutShare } from '@coinop/protocol';
 * const share: PayoutShare = { units: '70000000', amount: '0.7' };
 * ```
 */
export interface PayoutShare {
  readonly units: string;
  readonly amount: string;
}

/**
 * What one play on a tier pays, computed by the settlement's own split for the board as it stands
 * now: a play begun now pays the leaders listed, each an equal share of the leaders' part.
 *
 * @example
 * ```ts
 * import type { TierPayout } from '@coinop/protocol';
 * const leaderTotal = (tier: TierPayout) => tier.leaders.length;
 * ```
 */
export interface TierPayout {
  readonly leaderboardId: string;
  readonly name: string;
  readonly cost: PayoutShare;
  /** The most leaders the board pays. */
  readonly leadersMax: number;
  /** The board's current leaders in rank order, with what each gets from a play begun now. */
  readonly leaders: readonly (PayoutShare & { readonly playerId: string })[];
  /** The leaders' part back to the player who pays when nobody leads yet; 0 otherwise. */
  readonly returned: PayoutShare;
  readonly developer: PayoutShare;
  readonly arcade: PayoutShare;
  /** Each leader's share were the board full (`leadersMax` leaders). */
  readonly fullBoardLeaderShare: PayoutShare;
}

/**
 * How a published game's tiers pay (`GET /catalog/games/{gameId}/payouts`).
 *
 * @example
 * ```ts
 * import type { GamePayouts } from '@coinop/protocol';
 * const leadersPercent = (p: GamePayouts) => p.split.leadersPercent;
 * ```
 */
export interface GamePayouts {
  readonly split: {
    readonly leadersPercent: number;
    readonly developerPercent: number;
    readonly arcadePercent: number;
  };
  readonly tiers: readonly TierPayout[];
}

/**
 * A developer's public page (`GET /catalog/developers/{developerId}`): their published games.
 *
 * @example
 * ```ts
 * import type { DeveloperPage } from '@coinop/protocol';
 * const count = (page: DeveloperPage) => page.games.length;
 * ```
 */
export interface DeveloperPage {
  readonly id: string;
  /** The name of the developer's wallet as a player; null when they have none. */
  readonly name: string | null;
  readonly games: readonly CatalogGame[];
}

/**
 * A screenshot on a game's page, in display order.
 *
 * @example
 * ```ts
 * import type { GameScreenshot } from '@coinop/protocol';
 * const img = (s: GameScreenshot) => `<img src="${s.url}" alt="${s.alt}">`;
 * ```
 */
export interface GameScreenshot {
  readonly id: string;
  readonly url: string;
  /** The developer's description of the picture, for screen readers. */
  readonly alt: string;
  readonly width: number;
  readonly height: number;
}

/**
 * A game's screenshots (`GET /catalog/games/{gameId}/screenshots`).
 *
 * @example
 * ```ts
 * import type { GameScreenshotList } from '@coinop/protocol';
 * const first = (list: GameScreenshotList) => list.screenshots[0];
 * ```
 */
export interface GameScreenshotList {
  readonly screenshots: readonly GameScreenshot[];
}
