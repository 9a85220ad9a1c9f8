import { Type } from '@sinclair/typebox';
import type { ArcadeDailyStats, DeveloperDailyStats } from '@coinop/protocol';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { DAILY_STATS_DAYS_DEFAULT, DAILY_STATS_DAYS_MAX } from '../../services/daily-stats.js';
import { Uuid } from './schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

/**
 * The charts' window: the last `days` UTC days, today included. Query values arrive as text and
 * the API never coerces types, so the range 1 to 90 (`DAILY_STATS_DAYS_MAX`) is the pattern.
 */
const days = Type.Optional(
  Type.String({
    ...Patterns.from1To90,
    description:
      `How many UTC days, today included: 1 to ${DAILY_STATS_DAYS_MAX}, ` +
      `default ${DAILY_STATS_DAYS_DEFAULT}.`,
  }),
);

/** The `days` of a query, or the default. */
export const daysOf = (query: { days?: string }): number =>
  query.days === undefined ? DAILY_STATS_DAYS_DEFAULT : Number(query.days);

const Day = Type.String({ format: 'date', description: 'A UTC day, YYYY-MM-DD' });
const Hst = (description: string) =>
  Type.String({ ...Patterns.hstAmount, description: `${description}, exact HST` });

const Window = {
  days: Type.Integer({ description: 'How many UTC days the window holds' }),
  from: Type.String({ format: 'date', description: 'The first UTC day of the window' }),
  to: Type.String({ format: 'date', description: 'The last UTC day of the window (today)' }),
};

export const ArcadeDaysQuery = Type.Object({ days });

export const DeveloperDaysQuery = Type.Object({
  days,
  gameId: Type.Optional(Uuid('Only this game of mine; all of them without it')),
});

export const DeveloperDailyStatsSchema = Type.Object({
  ...Window,
  games: Type.Array(
    Type.Object({
      gameId: Type.String(),
      name: Type.String(),
      days: Type.Array(
        Type.Object({
          day: Day,
          plays: Type.Integer({ description: 'Plays opened on the game that day' }),
          hstEarned: Hst('Credited to the developer by the game that day'),
        }),
        { description: 'Every day of the window, oldest first; zeros on days with nothing' },
      ),
    }),
    { description: 'Each game asked for, by name' },
  ),
});
declare const _developer: SchemaMatches<typeof DeveloperDailyStatsSchema, DeveloperDailyStats>;

export const ArcadeDailyStatsSchema = Type.Object({
  ...Window,
  series: Type.Array(
    Type.Object({
      day: Day,
      plays: Type.Integer({ description: 'Plays opened that day, on every game' }),
      volume: Hst('Locked by the plays opened that day'),
      activePlayers: Type.Integer({ description: 'Distinct players who opened a play that day' }),
      paidOut: Hst('Credited to leaders by settled plays that day'),
    }),
    { description: 'Every day of the window, oldest first; zeros on days with nothing' },
  ),
});
declare const _arcade: SchemaMatches<typeof ArcadeDailyStatsSchema, ArcadeDailyStats>;
