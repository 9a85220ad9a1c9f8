import { describe, expect, it } from 'vitest';
import { leaderPartAccountIds, poolAccountOf } from '../../src/tournaments/prize-pool.js';

const round = {
  tournamentId: 't-1',
  number: 3,
  startsAt: new Date('2026-01-01T00:00:00Z'),
  endsAt: new Date('2026-01-02T00:00:00Z'),
  maxEntrants: null,
  maxAttempts: null,
};

describe('the tournament share rule', () => {
  it("sends a round play's leaders' part to the round's pool, whose id is the round's", () => {
    expect(poolAccountOf({ id: 'round-3', round })).toBe('round-3');
    expect(leaderPartAccountIds(['leader-a', 'leader-b'], 'round-3')).toEqual(['round-3']);
  });

  it("pays a tier play's leaders' part to the leaders of the moment", () => {
    expect(poolAccountOf({ id: 'tier-1', round: undefined })).toBeNull();
    expect(poolAccountOf({ id: 'tier-1' })).toBeNull();
    expect(leaderPartAccountIds(['leader-a', 'leader-b'], null)).toEqual(['leader-a', 'leader-b']);
    expect(leaderPartAccountIds([], null)).toEqual([]);
  });
});
