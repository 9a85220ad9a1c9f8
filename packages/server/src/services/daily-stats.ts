import { CoinopError, formatHst } from '@coinop/core';
import type { ArcadeDailyStats, DeveloperDailyStats } from '@coinop/protocol';
import type { DeveloperRecord } from '../store/developers.js';
import { findGamesOfDeveloper } from '../store/games.js';
import { arcadeDailyRows, developerDailyRows, type DayWindow } from '../store/daily-stats.js';
import type { ArcadeServices } from './arcade-services.js';

/** The most UTC days a chart may ask for: a quarter, the longest a daily axis stays readable. */
export const DAILY_STATS_DAYS_MAX = 90;
/** What a chart shows when it does not say: a month. */
export const DAILY_STATS_DAYS_DEFAULT = 30;

const DAY_MS = 86_400_000;

/**
 * The last `days` UTC days, today included, as a half-open window and the list of its days
 * (`YYYY-MM-DD`), oldest first.
 */
export function utcDayWindow(now: Date, days: number): DayWindow & { readonly days: string[] } {
  if (!Number.isInteger(days) || days < 1 || days > DAILY_STATS_DAYS_MAX) {
    throw new TypeError(`days must be an integer from 1 to ${DAILY_STATS_DAYS_MAX}: ${days}`);
  }
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const from = tomorrow - days * DAY_MS;
  const list = Array.from({ length: days }, (_, i) =>
    new Date(from + i * DAY_MS).toISOString().slice(0, 10),
  );
  return { from: new Date(from), to: new Date(tomorrow), days: list };
}

/**
 * The developer's plays and earnings per UTC day, per game: all their games (by name), or the
 * one asked for. Another developer's game is not found, as everywhere in the portal.
 */
export async function developerDailyStats(
  arcade: ArcadeServices,
  developer: DeveloperRecord,
  days: number,
  gameId?: string,
): Promise<DeveloperDailyStats> {
  const { db, clock } = arcade;
  const all = await findGamesOfDeveloper(db, developer.id);
  const games = gameId === undefined ? all : all.filter((g) => g.id === gameId);
  if (gameId !== undefined && games.length === 0) {
    throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
      details: { gameId },
    });
  }
  games.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  const window = utcDayWindow(clock.now(), days);
  const rows =
    games.length === 0
      ? []
      : await developerDailyRows(
          db,
          developer.accountId,
          games.map((g) => g.id),
          window,
        );
  const byKey = new Map(rows.map((r) => [`${r.gameId} ${r.day}`, r]));
  return {
    days,
    from: window.days[0] ?? '',
    to: window.days[window.days.length - 1] ?? '',
    games: games.map((game) => ({
      gameId: game.id,
      name: game.name,
      days: window.days.map((day) => {
        const row = byKey.get(`${game.id} ${day}`);
        return { day, plays: row?.plays ?? 0, hstEarned: formatHst(row?.earnedUnits ?? 0n) };
      }),
    })),
  };
}

/** The arcade's plays, volume, active players and payouts per UTC day, for the operator. */
export async function arcadeDailyStats(
  arcade: ArcadeServices,
  days: number,
): Promise<ArcadeDailyStats> {
  const window = utcDayWindow(arcade.clock.now(), days);
  const byDay = new Map((await arcadeDailyRows(arcade.db, window)).map((r) => [r.day, r]));
  return {
    days,
    from: window.days[0] ?? '',
    to: window.days[window.days.length - 1] ?? '',
    series: window.days.map((day) => {
      const row = byDay.get(day);
      return {
        day,
        plays: row?.plays ?? 0,
        volume: formatHst(row?.volumeUnits ?? 0n),
        activePlayers: row?.activePlayers ?? 0,
        paidOut: formatHst(row?.paidOutUnits ?? 0n),
      };
    }),
  };
}
