import { describe, expect, it } from 'vitest';
import { DAILY_STATS_DAYS_MAX, utcDayWindow } from '../../src/services/daily-stats.js';

/** Issue 31, charts: the window is the last `days` UTC days, today included, whatever the hour. */
describe('utcDayWindow', () => {
  it.each([
    ['2026-11-28T00:00:00.000Z', 1, '2026-11-28', ['2026-11-28']],
    ['2026-11-28T23:59:59.999Z', 1, '2026-11-28', ['2026-11-28']],
    ['2026-11-28T12:00:00.000Z', 3, '2026-11-26', ['2026-11-26', '2026-11-27', '2026-11-28']],
    ['2026-03-01T05:00:00.000Z', 2, '2026-02-28', ['2026-02-28', '2026-03-01']],
    ['2027-01-01T00:00:00.000Z', 2, '2026-12-31', ['2026-12-31', '2027-01-01']],
  ])('at %s, %i days start on %s', (now, days, first, list) => {
    const window = utcDayWindow(new Date(now), days);
    expect(window.days).toEqual(list);
    expect(window.from.toISOString()).toBe(`${first}T00:00:00.000Z`);
    const last = list[list.length - 1]!;
    expect(window.to.getTime() - new Date(`${last}T00:00:00.000Z`).getTime()).toBe(86_400_000);
  });

  it('lists 90 days at most, and refuses what the route never passes', () => {
    expect(utcDayWindow(new Date('2026-11-28T10:00:00Z'), DAILY_STATS_DAYS_MAX).days).toHaveLength(
      90,
    );
    for (const bad of [0, 91, 1.5, Number.NaN]) {
      expect(() => utcDayWindow(new Date(), bad)).toThrow(TypeError);
    }
  });
});
