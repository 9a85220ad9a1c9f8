import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SPLIT_RULE,
  createTransfers,
  effectivePayoutHoldSeconds,
  payoutsReleaseAt,
  releaseTransfers,
  settlementSnapshot,
  settlementTransfers,
  type Play,
} from '../../src/index.js';

const now = new Date('2026-01-01T00:00:00Z');
const play: Play = {
  id: 'play',
  arcadeId: 'arcade-x',
  gameId: 'game',
  developerId: 'dev-x',
  leaderboardId: 'board',
  playerId: 'p',
  costUnits: 100_000_000n,
  lockTransferId: 'lock',
  vaultAccountId: null,
  leaderPlayerIds: [],
  status: 'open',
  expiresAt: new Date(now.getTime() + 3_600_000),
  createdAt: now,
  updatedAt: now,
};
const game = { developerAccountId: 'dev', arcadeAccountId: 'arcade' };

function ids() {
  let n = 0;
  return () => `t${++n}`;
}

describe('effectivePayoutHoldSeconds', () => {
  it.each([
    [null, null, 0, 0],
    [null, null, 600, 600],
    [3600, null, 600, 3600],
    [3600, 0, 600, 0],
    [null, 120, 600, 120],
    [undefined, undefined, 30, 30],
  ])('game %s, tier %s, operator %s → %s', (gameHold, tierHold, operator, expected) => {
    expect(
      effectivePayoutHoldSeconds(
        { payoutHoldSeconds: gameHold },
        { payoutHoldSeconds: tierHold },
        operator,
      ),
    ).toBe(expected);
  });
});

describe('payoutsReleaseAt', () => {
  it('is settle time + hold for a paid play from a balance on a tier', () => {
    expect(payoutsReleaseAt(play, null, 90, now)).toEqual(new Date('2026-01-01T00:01:30Z'));
  });
  it('is null without a hold, for a free play, on chain and on a round', () => {
    expect(payoutsReleaseAt(play, null, 0, now)).toBeNull();
    expect(payoutsReleaseAt({ ...play, costUnits: 0n }, null, 90, now)).toBeNull();
    expect(payoutsReleaseAt({ ...play, vaultAccountId: 'vault' }, null, 90, now)).toBeNull();
    expect(payoutsReleaseAt(play, 'round', 90, now)).toBeNull();
  });
});

describe('settlementTransfers with a hold', () => {
  it('makes every share a pending transfer from the escrow, the lock posted as without', () => {
    const posted = settlementTransfers(
      play,
      ['l1', 'l2', 'l3'],
      'pa',
      game,
      DEFAULT_SPLIT_RULE,
      ids(),
    );
    const held = settlementTransfers(
      play,
      ['l1', 'l2', 'l3'],
      'pa',
      game,
      DEFAULT_SPLIT_RULE,
      ids(),
      null,
      true,
    );
    expect(held.map((t) => [t.kind, t.creditAccountId, t.amount, t.reason])).toEqual([
      ['post_pending', 'play', 100_000_000n, 'play_settle'],
      ['pending', 'l1', 23_333_333n, 'payout_leader'],
      ['pending', 'l2', 23_333_333n, 'payout_leader'],
      ['pending', 'l3', 23_333_333n, 'payout_leader'],
      ['pending', 'dev', 20_000_000n, 'payout_developer'],
      ['pending', 'arcade', 10_000_001n, 'payout_arcade'],
    ]);
    // Without a hold: exactly the transfers of before, posted.
    expect(posted.map((t) => t.kind)).toEqual(['post_pending', ...Array(5).fill('posted')]);
    expect(posted.map((t) => [t.creditAccountId, t.amount])).toEqual(
      held.map((t) => [t.creditAccountId, t.amount]),
    );
  });

  it('credits pending only: no payee can spend a held share until it is released', () => {
    const held = settlementTransfers(
      play,
      ['l1'],
      'pa',
      game,
      DEFAULT_SPLIT_RULE,
      ids(),
      null,
      true,
    );
    const outcome = createTransfers(
      held,
      settlementSnapshot([{ play, playerAccountId: 'pa' }], ['l1', 'dev', 'arcade']),
    );
    expect(outcome.ok).toBe(true);
    expect(outcome.deltas.get('l1')).toEqual({
      debitsPending: 0n,
      debitsPosted: 0n,
      creditsPending: 70_000_000n,
      creditsPosted: 0n,
    });
    expect(outcome.deltas.get('play')).toEqual({
      debitsPending: 100_000_000n,
      debitsPosted: 0n,
      creditsPending: -100_000_000n,
      creditsPosted: 100_000_000n,
    });
  });

  it('refuses to hold a play paid on chain or into a round pool (a bug, not a 4xx)', () => {
    const chain = { ...play, vaultAccountId: 'vault' };
    expect(() =>
      settlementTransfers(chain, [], 'pa', game, DEFAULT_SPLIT_RULE, ids(), null, true),
    ).toThrow(TypeError);
    expect(() =>
      settlementTransfers(play, [], 'pa', game, DEFAULT_SPLIT_RULE, ids(), 'round', true),
    ).toThrow(TypeError);
  });
});

describe('releaseTransfers', () => {
  it('posts each held payout in full (amount 0 = the pending amount)', () => {
    expect(
      releaseTransfers(
        [{ id: 'h1', debitAccountId: 'play', creditAccountId: 'l1', playId: 'play' }],
        ids(),
      ),
    ).toEqual([
      {
        id: 't1',
        kind: 'post_pending',
        debitAccountId: 'play',
        creditAccountId: 'l1',
        amount: 0n,
        pendingId: 'h1',
        reason: 'payout_release',
        playId: 'play',
      },
    ]);
  });
});
