import { describe, expect, it } from 'vitest';
import {
  assertRoundOpen,
  assertRoundTakesScore,
  playExpiresAt,
  roundBoardName,
  roundNamed,
  roundStatus,
  type GameRef,
  type Leaderboard,
  type Play,
} from '../../src/index.js';

const at = (iso: string) => new Date(`2026-03-01T${iso}Z`);
const window = { startsAt: at('10:00:00'), endsAt: at('11:00:00') };

describe('roundStatus', () => {
  it.each([
    ['09:59:59.999', false, 'scheduled'],
    ['10:00:00', false, 'open'],
    ['10:59:59.999', false, 'open'],
    ['11:00:00', false, 'closed'],
    ['10:30:00', true, 'closed'],
  ] as const)('at %s (closed: %s) is %s', (time, isClosed, status) => {
    expect(roundStatus(window, isClosed, at(time))).toBe(status);
  });
});

describe('assertRoundOpen', () => {
  it('takes plays while startsAt ≤ now < endsAt', () => {
    expect(() => assertRoundOpen('r', window, false, at('10:00:00'))).not.toThrow();
  });
  it.each([
    [
      '09:59:00',
      false,
      'tournament_not_started',
      'round r opens at 2026-03-01T10:00:00.000Z; nothing was charged',
    ],
    [
      '11:00:00',
      false,
      'tournament_closed',
      'round r ended at 2026-03-01T11:00:00.000Z; it takes no more plays or scores',
    ],
    [
      '10:30:00',
      true,
      'tournament_closed',
      'round r ended at 2026-03-01T11:00:00.000Z; it takes no more plays or scores',
    ],
  ] as const)('refuses at %s (closed: %s) with %s', (time, isClosed, code, message) => {
    expect(() => assertRoundOpen('r', window, isClosed, at(time))).toThrow(
      expect.objectContaining({
        code,
        message,
        details: expect.objectContaining({ field: 'leaderboardId' }),
      }),
    );
  });
});

describe('assertRoundTakesScore', () => {
  const round = { tournamentId: 't', number: 1, ...window, maxEntrants: null, maxAttempts: null };
  const play = (expiresAt: string, status: Play['status'] = 'open') =>
    ({ id: 'p', leaderboardId: 'r', status, expiresAt: at(expiresAt) }) as Play;
  it('takes a score before the end', () => {
    expect(() => assertRoundTakesScore(play('11:30:00'), round, at('10:59:59'))).not.toThrow();
  });
  it('refuses a score at or after the end of a play open at the end', () => {
    expect(() => assertRoundTakesScore(play('11:30:00'), round, at('11:00:00'))).toThrow(
      expect.objectContaining({ code: 'tournament_closed' }),
    );
  });
  it('refuses a score at or after the end of a play whose expiry was clipped to the end', () => {
    // A round play's expiry is its round's end at the latest (playExpiresAt): at the end it is
    // the round that refuses the score, not the play's expiry.
    expect(() => assertRoundTakesScore(play('11:00:00'), round, at('11:00:00'))).toThrow(
      expect.objectContaining({ code: 'tournament_closed' }),
    );
  });
  it('leaves a play that expired within the round, or is not open, to the play rules', () => {
    expect(() => assertRoundTakesScore(play('10:30:00'), round, at('11:10:00'))).not.toThrow();
    expect(() =>
      assertRoundTakesScore(play('11:30:00', 'voided'), round, at('11:10:00')),
    ).not.toThrow();
  });
});

describe('roundNamed', () => {
  const board = (id: string, tournamentId: string, start: string, end: string): Leaderboard => ({
    id,
    gameId: 'g',
    name: id,
    costUnits: 0n,
    leadersMax: 10,
    position: 0,
    round: {
      tournamentId,
      number: 1,
      startsAt: at(start),
      endsAt: at(end),
      maxEntrants: null,
      maxAttempts: null,
    },
  });
  const game = {
    leaderboards: [],
    rounds: [
      board('r2', 't', '11:00:00', '12:00:00'),
      board('r1', 't', '10:00:00', '11:00:00'),
      board('x', 'u', '10:00:00', '11:00:00'),
    ],
  } as unknown as GameRef;
  it('finds a round by its id, and a tournament’s round open now (else its next) by the tournament id', () => {
    expect(roundNamed(game, 'x', at('12:30:00'))?.id).toBe('x');
    expect(roundNamed(game, 't', at('10:30:00'))?.id).toBe('r1');
    expect(roundNamed(game, 't', at('11:00:00'))?.id).toBe('r2');
    expect(roundNamed(game, 't', at('12:30:00'))?.id).toBe('r2');
    expect(roundNamed(game, 'nope', at('10:30:00'))).toBeUndefined();
  });
  it('names a round’s board after its tournament and number', () => {
    expect(roundBoardName('Weekly Cup', 3)).toBe('Weekly Cup #3');
  });
});

describe('playExpiresAt', () => {
  const rules = { tournamentId: 't', number: 1, ...window, maxEntrants: null, maxAttempts: null };
  const ttl = 3600;
  it.each<[string, string | null, string]>([
    // A tier's play: the play TTL from now, whatever the time.
    ['a tier', null, '11:50:00'],
    // A round with more than the TTL left: the TTL.
    ['a round, its end past the TTL', '12:00:00', '11:50:00'],
    // A round ending within the TTL: its end, to the millisecond.
    ['a round with 10 min left', '11:00:00', '11:00:00'],
    ['a round ending exactly at the TTL', '11:50:00', '11:50:00'],
    ['a round with 1 ms left', '10:50:00.001', '10:50:00.001'],
  ])('on %s', (_, endsAt, expected) => {
    const now = at('10:50:00');
    const board = { round: endsAt === null ? undefined : { ...rules, endsAt: at(endsAt) } };
    expect(playExpiresAt(board, now, ttl)).toEqual(at(expected));
  });
});
