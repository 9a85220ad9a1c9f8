import { describe, expect, it } from 'vitest';
import {
  assertScorable,
  settlementTransfers,
  DEFAULT_SPLIT_RULE,
  type Play,
} from '../../src/index.js';

const play = (over: Partial<Play> = {}): Play => ({
  id: 'play-1',
  arcadeId: 'arcade',
  gameId: 'game',
  developerId: 'dev',
  leaderboardId: 'board',
  playerId: 'player',
  costUnits: 1_000n,
  lockTransferId: 'lock-1',
  leaderPlayerIds: [],
  status: 'open',
  expiresAt: new Date('2026-01-01T01:00:00Z'),
  createdAt: new Date('2026-01-01T00:00:00Z'),
  updatedAt: new Date('2026-01-01T00:00:00Z'),
  ...over,
});

describe('assertScorable', () => {
  const before = new Date('2026-01-01T00:59:59.999Z');
  it('accepts an open play of the same board before it expires', () => {
    expect(() => assertScorable(play(), 'board', before)).not.toThrow();
  });

  it.each<[string, Partial<Play>, string, Date, string, string]>([
    [
      'scored',
      { status: 'scored' },
      'board',
      before,
      'play_already_scored',
      'play play-1 already has a score',
    ],
    [
      'expired by status',
      { status: 'expired' },
      'board',
      before,
      'play_expired',
      'play play-1 expired at 2026-01-01T01:00:00.000Z; its HST was settled without a score',
    ],
    [
      'open but past its expiry (valid becoming invalid)',
      {},
      'board',
      new Date('2026-01-01T01:00:00Z'),
      'play_expired',
      'play play-1 expired at 2026-01-01T01:00:00.000Z; its HST was settled without a score',
    ],
    [
      'another board',
      {},
      'other',
      before,
      'leaderboard_not_in_game',
      'leaderboardId other is not the leaderboard of play play-1 (board)',
    ],
  ])('refuses a play %s', (_name, over, board, now, code, message) => {
    expect(() => assertScorable(play(over), board, now)).toThrow(
      expect.objectContaining({ code, message }),
    );
  });
});

describe('settlementTransfers', () => {
  let n = 0;
  const nextId = () => `t${++n}`;
  const game = { developerAccountId: 'dev-acct', arcadeAccountId: 'arcade-acct' };

  it('posts the lock then pays out from the escrow, summing to the cost', () => {
    const transfers = settlementTransfers(
      play(),
      ['l1', 'l2'],
      'player-acct',
      game,
      DEFAULT_SPLIT_RULE,
      nextId,
    );
    expect(transfers[0]).toMatchObject({
      kind: 'post_pending',
      pendingId: 'lock-1',
      debitAccountId: 'player-acct',
      creditAccountId: 'play-1',
      amount: 1_000n,
    });
    const payouts = transfers.slice(1);
    expect(payouts.map((t) => [t.reason, t.creditAccountId, t.amount])).toEqual([
      ['payout_leader', 'l1', 350n],
      ['payout_leader', 'l2', 350n],
      ['payout_developer', 'dev-acct', 200n],
      ['payout_arcade', 'arcade-acct', 100n],
    ]);
    expect(payouts.every((t) => t.debitAccountId === 'play-1' && t.playId === 'play-1')).toBe(true);
  });

  it('moves nothing for a free play', () => {
    expect(
      settlementTransfers(
        play({ costUnits: 0n, lockTransferId: null }),
        [],
        'p',
        game,
        DEFAULT_SPLIT_RULE,
        nextId,
      ),
    ).toEqual([]);
  });
});
