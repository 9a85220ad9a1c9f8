import { describe, expect, it } from 'vitest';
import { DEFAULT_SPLIT_RULE, type Play } from '../../src/index.js';
import {
  openPlayAtClose,
  roundPayout,
  type RoundClose,
} from '../../src/tournaments/round-close.js';

function ids() {
  let n = 0;
  return () => `t${++n}`;
}

const base: RoundClose = {
  roundId: 'round',
  pool: 1_840_000_000n,
  guarantee: 1_000_000_000n,
  rankedPlayers: 3,
  standings: [
    { playerId: 'p1', accountId: 'a1', score: 900 },
    { playerId: 'p2', accountId: 'a2', score: 800 },
    { playerId: 'p3', accountId: 'a3', score: 700 },
  ],
  entries: [],
  table: { places: [5000, 3000, 2000] },
  arcadeAccountId: 'arcade',
  funderAccountId: 'funder',
};

const moved = (p: ReturnType<typeof roundPayout>) =>
  p.transfers.map((t) => [t.debitAccountId, t.creditAccountId, t.amount, t.reason]);

describe('roundPayout', () => {
  it('pays the places of the worked example from the pool', () => {
    const payout = roundPayout(base, ids());
    expect(moved(payout)).toEqual([
      ['round', 'a1', 920_000_000n, 'tournament_prize'],
      ['round', 'a2', 552_000_000n, 'tournament_prize'],
      ['round', 'a3', 368_000_000n, 'tournament_prize'],
    ]);
    expect(payout.results.map((r) => [r.place, r.playerId, r.prize])).toEqual([
      [1, 'p1', 920_000_000n],
      [2, 'p2', 552_000_000n],
      [3, 'p3', 368_000_000n],
    ]);
    // Each result names the transfer that paid it.
    expect(payout.results.map((r) => r.transferId)).toEqual(payout.transfers.map((t) => t.id));
  });

  it('sends the remainder to the arcade', () => {
    const payout = roundPayout({ ...base, pool: 1_000_000_001n }, ids());
    expect(moved(payout).at(-1)).toEqual(['round', 'arcade', 1n, 'tournament_remainder']);
    expect(payout.transfers.reduce((a, t) => a + t.amount, 0n)).toBe(1_000_000_001n);
  });

  it("returns the guarantee and each entrant's part of the pool when nobody ranked", () => {
    // Security review finding 3: a developer who voids every score must not be paid the pool.
    const entries = [
      { accountId: 'a1', amount: 700_000_000n },
      { accountId: 'a2', amount: 140_000_000n },
    ];
    const payout = roundPayout({ ...base, rankedPlayers: 0, standings: [], entries }, ids());
    expect(moved(payout)).toEqual([
      ['round', 'funder', 1_000_000_000n, 'tournament_refund'],
      ['round', 'a1', 700_000_000n, 'tournament_returned'],
      ['round', 'a2', 140_000_000n, 'tournament_returned'],
    ]);
    expect(payout.transfers.some((t) => t.creditAccountId === 'dev')).toBe(false);
    expect(payout.results).toEqual([]);
  });

  it('ignores the entries when somebody ranked: the pool goes to the places', () => {
    const entries = [{ accountId: 'a9', amount: 840_000_000n }];
    expect(moved(roundPayout({ ...base, entries }, ids()))).toEqual(
      moved(roundPayout(base, ids())),
    );
  });

  it('sums to the pool when it holds more or less than guarantee and entries say', () => {
    const nobody = { ...base, rankedPlayers: 0, standings: [] };
    const entries = [
      { accountId: 'a1', amount: 30n },
      { accountId: 'a2', amount: 30n },
    ];
    expect(moved(roundPayout({ ...nobody, pool: 150n, guarantee: 100n, entries }, ids()))).toEqual([
      ['round', 'funder', 100n, 'tournament_refund'],
      ['round', 'a1', 30n, 'tournament_returned'],
      ['round', 'a2', 20n, 'tournament_returned'],
    ]);
    expect(moved(roundPayout({ ...nobody, pool: 170n, guarantee: 100n, entries }, ids()))).toEqual([
      ['round', 'funder', 100n, 'tournament_refund'],
      ['round', 'a1', 30n, 'tournament_returned'],
      ['round', 'a2', 30n, 'tournament_returned'],
      ['round', 'arcade', 10n, 'tournament_remainder'],
    ]);
  });

  it('pays nothing for places whose prize rounds to 0, and moves nothing from an empty pool', () => {
    const tiny = roundPayout({ ...base, pool: 3n, guarantee: 0n }, ids());
    expect(moved(tiny)).toEqual([
      ['round', 'a1', 1n, 'tournament_prize'],
      ['round', 'arcade', 2n, 'tournament_remainder'],
    ]);
    expect(tiny.results.map((r) => r.place)).toEqual([1]);
    expect(roundPayout({ ...base, pool: 0n, guarantee: 0n }, ids()).transfers).toEqual([]);
  });

  it('refuses standings shorter than the places it pays', () => {
    expect(() => roundPayout({ ...base, standings: base.standings.slice(0, 2) }, ids())).toThrow(
      /pays 3 places but only 2 standings/,
    );
  });
});

describe('openPlayAtClose', () => {
  const play = (over: Partial<Play> = {}): Play => ({
    id: 'play',
    arcadeId: 'arcade-id',
    gameId: 'game',
    developerId: 'dev-id',
    leaderboardId: 'round',
    playerId: 'player',
    costUnits: 200_000_000n,
    lockTransferId: 'lock',
    vaultAccountId: null,
    leaderPlayerIds: ['leader'],
    status: 'open',
    expiresAt: new Date('2026-03-01T11:00:00Z'),
    createdAt: new Date('2026-03-01T10:30:00Z'),
    updatedAt: new Date('2026-03-01T10:30:00Z'),
    ...over,
  });
  const round = { roundId: 'round', developerAccountId: 'dev', arcadeAccountId: 'arcade' };
  const ended = (p: Play) => {
    const { status, transfers } = openPlayAtClose(
      p,
      'player-acct',
      round,
      DEFAULT_SPLIT_RULE,
      ids(),
    );
    return {
      status,
      moved: transfers.map((t) => [
        t.kind,
        t.debitAccountId,
        t.creditAccountId,
        t.amount,
        t.reason,
      ]),
    };
  };

  it('settles a ledger play as an expired round play: the leaders’ part into the pool', () => {
    // The same split as the expiry sweep's for a round play (settlementTransfers with the pool):
    // 70% to the round's pool (never to the leaders of the moment), 20% developer, 10% arcade.
    expect(ended(play())).toEqual({
      status: 'expired',
      moved: [
        ['post_pending', 'player-acct', 'play', 200_000_000n, 'play_settle'],
        ['posted', 'play', 'round', 140_000_000n, 'tournament_pool'],
        ['posted', 'play', 'dev', 40_000_000n, 'payout_developer'],
        ['posted', 'play', 'arcade', 20_000_000n, 'payout_arcade'],
      ],
    });
  });

  it('expires a free play, which locked nothing, moving nothing', () => {
    expect(ended(play({ costUnits: 0n, lockTransferId: null }))).toEqual({
      status: 'expired',
      moved: [],
    });
  });

  it('voids a play locked on chain (which a round refuses): its payout could not be paid at the close', () => {
    expect(ended(play({ vaultAccountId: 'vault' }))).toEqual({
      status: 'voided',
      moved: [['void_pending', 'vault', 'play', 200_000_000n, 'play_void']],
    });
  });
});
