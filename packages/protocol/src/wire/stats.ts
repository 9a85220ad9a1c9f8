/**
 * Activity per UTC day for the portal's and the console's charts (issue 31):
 * `GET /developer/stats/daily` and `GET /admin/stats/daily`. Every day of the window is listed,
 * oldest first, with zeros on days with nothing, so a chart's axis is continuous. Amounts are
 * exact decimal strings of HST.
 */

/**
 * One of the developer's games on one UTC day.
 *
 * @example
 * ```ts
 * import type { DeveloperGameDay } from '@coinop/protocol';
 * const day: DeveloperGameDay = { day: '2026-11-28', plays: 3, hstEarned: '0.3' };
 * ```
 */
export interface DeveloperGameDay {
  /** The UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  /** Plays opened on the game that day (free plays included). */
  readonly plays: number;
  /** HST credited to the developer by the game that day (a held share: when released). */
  readonly hstEarned: string;
}

/**
 * The developer's plays and earnings per UTC day, per game.
 *
 * @example
 * ```ts
 * import type { DeveloperDailyStats } from '@coinop/protocol';
 * const stats: DeveloperDailyStats = { days: 1, from: '2026-11-28', to: '2026-11-28',
 *   games: [{ gameId: 'g-1', name: 'Reaction', days: [{ day: '2026-11-28', plays: 0, hstEarned: '0' }] }] };
 * ```
 */
export interface DeveloperDailyStats {
  /** How many UTC days the window holds (today included). */
  readonly days: number;
  /** The window's first and last UTC day, `YYYY-MM-DD`. */
  readonly from: string;
  readonly to: string;
  /** One entry per game asked for (all of the developer's games, by name), every day listed. */
  readonly games: {
    readonly gameId: string;
    readonly name: string;
    readonly days: DeveloperGameDay[];
  }[];
}

/**
 * The arcade on one UTC day.
 *
 * @example
 * ```ts
 * import type { ArcadeDay } from '@coinop/protocol';
 * const day: ArcadeDay = { day: '2026-11-28', plays: 2, volume: '2', activePlayers: 1, paidOut: '1.4' };
 * ```
 */
export interface ArcadeDay {
  /** The UTC day, `YYYY-MM-DD`. */
  readonly day: string;
  /** Plays opened that day, on every game (free plays included). */
  readonly plays: number;
  /** HST the plays opened that day locked (their costs). */
  readonly volume: string;
  /** Distinct players who opened a play that day. */
  readonly activePlayers: number;
  /** HST credited to leaders by settled plays that day (a held payout: when released). */
  readonly paidOut: string;
}

/**
 * The arcade's activity per UTC day, for the operator's console.
 *
 * @example
 * ```ts
 * import type { ArcadeDailyStats } from '@coinop/protocol';
 * const busiest = (s: ArcadeDailyStats) => Math.max(0, ...s.series.map((d) => d.plays));
 * ```
 */
export interface ArcadeDailyStats {
  readonly days: number;
  readonly from: string;
  readonly to: string;
  readonly series: ArcadeDay[];
}
