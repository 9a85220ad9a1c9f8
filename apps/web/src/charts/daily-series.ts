import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';

/**
 * What the daily charts draw (issue 31): one row per UTC day, each measure a count (a number) or
 * an amount of HST (the API's exact decimal string). Shared by the chart, which is loaded only
 * where it is shown, and its table, which is not.
 */

/** One UTC day: `day` is `YYYY-MM-DD`; the measures are its other fields. */
export interface DailyRow {
  readonly day: string;
}

export interface DailyMeasure {
  /** The row's field: a number, or an exact decimal string of HST. */
  readonly key: string;
  readonly label: string;
  /** `hst`: the field is an exact decimal string of HST; `count`: a whole number. */
  readonly unit: 'count' | 'hst';
  /** Bars on the left axis, or a line on the right one. */
  readonly mark: 'bar' | 'line';
  /** A colour of the app's palette, as a CSS variable: `var(--accent)`. */
  readonly color: string;
}

/** A measure's value as a person reads it: counts as digits, HST exact, grouped. */
export function measureText(row: DailyRow, measure: DailyMeasure): string {
  const value = valueOf(row, measure);
  return measure.unit === 'hst' ? formatHstUnits(hstUnits(value)) : String(value);
}

/** A measure's field as the API sent it. */
export function valueOf(row: DailyRow, measure: DailyMeasure): string | number {
  const value = (row as unknown as Record<string, unknown>)[measure.key];
  return typeof value === 'number' || typeof value === 'string' ? value : 0;
}

/** "Nov 28": the day as the axis shows it, read in UTC as the API counts days. */
export function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

/** "Sat, Nov 28, 2026": the day as a tooltip or a table says it. */
export function longDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
