import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPLIT_RULE,
  assertScorable,
  createTransfers,
  settlementSnapshot,
  settlementTransfers,
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
  vaultAccountId: null,
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
      'voided',
      { status: 'voided' },
      'board',
      before,
      'play_not_open',
      'play play-1 was voided (its game was suspended, or its tournament round closed) and its ' +
        'HST returned; it takes no score',
    ],
    [
      'locked on chain and voided (its lock reclaimed: issue 27)',
      { status: 'voided', vaultAccountId: 'vault-acct' },
      'board',
      before,
      'play_not_open',
      'play play-1 was voided (its game was suspended, or its lock on chain ended or neared the ' +
        "vault's lock timeout) and its HST returned; it takes no score",
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

  it("pays a round play's leaders' part into the round's pool, ignoring the leaders", () => {
    const transfers = settlementTransfers(
      play({ costUnits: 999n }),
      ['l1', 'l2'],
      'player-acct',
      game,
      DEFAULT_SPLIT_RULE,
      nextId,
      'round-1',
    );
    expect(transfers.slice(1).map((t) => [t.reason, t.creditAccountId, t.amount])).toEqual([
      ['tournament_pool', 'round-1', 699n],
      ['payout_developer', 'dev-acct', 199n],
      ['payout_arcade', 'arcade-acct', 101n],
    ]);
  });

  it('draws a play locked on chain on the vault and reserves the payees’ shares for the chain', () => {
    const chainPlay = play({ vaultAccountId: 'vault-acct' });
    const transfers = settlementTransfers(
      chainPlay,
      ['l1'],
      'player-acct',
      game,
      DEFAULT_SPLIT_RULE,
      nextId,
    );
    expect(
      transfers.map((t) => [t.kind, t.reason, t.debitAccountId, t.creditAccountId, t.amount]),
    ).toEqual([
      ['post_pending', 'play_settle', 'vault-acct', 'play-1', 1_000n],
      ['posted', 'payout_leader', 'play-1', 'l1', 700n],
      ['pending', 'chain_payout', 'l1', 'vault-acct', 700n],
      ['posted', 'payout_developer', 'play-1', 'dev-acct', 200n],
      ['pending', 'chain_payout', 'dev-acct', 'vault-acct', 200n],
      ['posted', 'payout_arcade', 'play-1', 'arcade-acct', 100n],
    ]);
    // The core accepts it from the play alone: the payees' reservations are covered by their
    // shares, credited just before in the same batch.
    const outcome = createTransfers(
      transfers,
      settlementSnapshot(
        [{ play: chainPlay, playerAccountId: 'player-acct' }],
        ['l1', 'dev-acct', 'arcade-acct'],
      ),
    );
    expect(outcome.results.every((r) => r === 'created')).toBe(true);
    expect(outcome.deltas.get('vault-acct')).toEqual({
      debitsPending: -1_000n,
      debitsPosted: 1_000n,
      creditsPending: 900n,
      creditsPosted: 0n,
    });
    expect(outcome.deltas.has('player-acct')).toBe(false);
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

describe('settlementSnapshot', () => {
  const game = { developerAccountId: 'dev-acct', arcadeAccountId: 'arcade-acct' };

  it('lets the core validate a settlement without reading any account', () => {
    let n = 0;
    const transfers = settlementTransfers(
      play(),
      ['l1'],
      'player-acct',
      game,
      DEFAULT_SPLIT_RULE,
      () => `s${++n}`,
    );
    const snapshot = settlementSnapshot(
      [{ play: play(), playerAccountId: 'player-acct' }],
      ['l1', 'dev-acct', 'arcade-acct'],
    );
    const outcome = createTransfers(transfers, snapshot);
    expect(outcome.results).toEqual(['created', 'created', 'created', 'created']);
    expect(outcome.deltas.get('play-1')).toEqual({
      debitsPending: 0n,
      debitsPosted: 1_000n,
      creditsPending: -1_000n,
      creditsPosted: 1_000n,
    });
    expect(outcome.deltas.get('player-acct')).toEqual({
      debitsPending: -1_000n,
      debitsPosted: 1_000n,
      creditsPending: 0n,
      creditsPosted: 0n,
    });
  });

  it('catches a payout larger than the escrow', () => {
    const transfers = settlementTransfers(
      play(),
      [],
      'player-acct',
      game,
      DEFAULT_SPLIT_RULE,
      () => 'x',
    );
    const greedy = [
      ...transfers.map((t, i) => ({ ...t, id: `g${i}` })),
      { ...transfers[1]!, id: 'extra' },
    ];
    const outcome = createTransfers(
      greedy,
      settlementSnapshot(
        [{ play: play(), playerAccountId: 'player-acct' }],
        ['dev-acct', 'arcade-acct'],
      ),
    );
    expect(outcome.results.at(-1)).toBe('exceeds_credits');
  });

  it('refuses to describe a play that is not open', () => {
    expect(() =>
      settlementSnapshot([{ play: play({ status: 'scored' }), playerAccountId: 'p' }], []),
    ).toThrow(new TypeError('play play-1 is scored, not open'));
  });
});
