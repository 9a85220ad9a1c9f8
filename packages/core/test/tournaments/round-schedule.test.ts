import { describe, expect, it } from 'vitest';
import { firstRound, nextRound, recurrenceProblem } from '../../src/tournaments/round-schedule.js';

const at = (iso: string) => new Date(iso);
const weekly = {
  startsAt: at('2026-11-30T00:00:00Z'),
  durationSeconds: 7 * 24 * 3600,
  recurrence: '0 0 * * 1',
};

describe('round schedule', () => {
  it('runs the first round from its start for its duration', () => {
    expect(firstRound(weekly)).toEqual({
      startsAt: at('2026-11-30T00:00:00Z'),
      endsAt: at('2026-12-07T00:00:00Z'),
    });
  });

  it('starts the next round at the first cron time at or after the previous end', () => {
    expect(nextRound(weekly, at('2026-12-07T00:00:00Z'), at('2026-12-07T00:00:01Z'))).toEqual({
      startsAt: at('2026-12-07T00:00:00Z'),
      endsAt: at('2026-12-14T00:00:00Z'),
    });
    const evenings = { ...weekly, durationSeconds: 3600, recurrence: '0 20 * * *' };
    expect(nextRound(evenings, at('2026-12-01T21:00:00Z'), at('2026-12-01T21:00:00Z'))).toEqual({
      startsAt: at('2026-12-02T20:00:00Z'),
      endsAt: at('2026-12-02T21:00:00Z'),
    });
  });

  it('skips the rounds whose window ended while the arcade was down', () => {
    const next = nextRound(weekly, at('2026-12-07T00:00:00Z'), at('2026-12-25T12:00:00Z'));
    expect(next).toEqual({
      startsAt: at('2026-12-21T00:00:00Z'),
      endsAt: at('2026-12-28T00:00:00Z'),
    });
  });

  it('has no next round without a recurrence', () => {
    expect(
      nextRound(
        { ...weekly, recurrence: null },
        at('2026-12-07T00:00:00Z'),
        at('2026-12-07T00:00:00Z'),
      ),
    ).toBeNull();
  });

  it('names what is wrong with a recurrence', () => {
    expect(recurrenceProblem('0 0 * * 1')).toBeNull();
    expect(recurrenceProblem('0 0 0 * * 1')).toContain('five fields');
    expect(recurrenceProblem('weekly')).toContain('five fields');
    expect(recurrenceProblem('61 0 * * 1')).toContain('not a valid cron expression');
  });
});
