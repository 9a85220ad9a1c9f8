import { Cron } from 'croner';

/** When a tournament's rounds run (docs/concepts/tournaments.md, "A tournament and its rounds"). */
export interface RoundSchedule {
  readonly startsAt: Date;
  readonly durationSeconds: number;
  /** Five-field cron expression of the rounds' starts, in UTC; null for a single round. */
  readonly recurrence: string | null;
}

export interface RoundWindow {
  readonly startsAt: Date;
  readonly endsAt: Date;
}

export const MIN_ROUND_SECONDS = 60;
export const MAX_ROUND_SECONDS = 366 * 24 * 3600;

/** A message naming what is wrong with a cron expression, or null when it is valid. */
export function recurrenceProblem(recurrence: string): string | null {
  if (recurrence.trim().split(/\s+/).length !== 5) {
    return 'recurrence must be a cron expression of five fields (minute hour day month weekday), in UTC';
  }
  try {
    const next = cronOf(recurrence).nextRun(new Date(0));
    if (next === null) return 'recurrence never fires';
  } catch (error) {
    return `recurrence is not a valid cron expression: ${(error as Error).message}`;
  }
  return null;
}

/** The first round's window. */
export function firstRound(schedule: RoundSchedule): RoundWindow {
  return windowFrom(schedule.startsAt, schedule.durationSeconds);
}

/**
 * The round after one that ended at `previousEnd`, or null for a single-round tournament: it starts
 * at the first cron time at or after `previousEnd`, and rounds whose window ended by `now` (the
 * arcade was down) are skipped.
 */
export function nextRound(
  schedule: RoundSchedule,
  previousEnd: Date,
  now: Date,
): RoundWindow | null {
  if (schedule.recurrence === null) return null;
  const cron = cronOf(schedule.recurrence);
  let from = previousEnd;
  for (;;) {
    const start = cron.nextRun(new Date(from.getTime() - 1));
    if (start === null) return null;
    const window = windowFrom(start, schedule.durationSeconds);
    if (window.endsAt > now) return window;
    // A missed round: look from the first moment it could have been followed.
    from = new Date(
      Math.max(window.endsAt.getTime(), now.getTime() - schedule.durationSeconds * 1000),
    );
  }
}

function windowFrom(startsAt: Date, durationSeconds: number): RoundWindow {
  return { startsAt, endsAt: new Date(startsAt.getTime() + durationSeconds * 1000) };
}

function cronOf(recurrence: string): Cron {
  return new Cron(recurrence, { timezone: 'UTC', paused: true });
}
