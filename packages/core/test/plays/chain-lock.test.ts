import { describe, expect, it } from 'vitest';
import {
  chainScoreCutoff,
  chainScoreDeadline,
  chainSettlementReversal,
  decidePlayLock,
  SETTLE_BEFORE_RECLAIM_SECONDS,
  type LockRequest,
  type LockTiming,
} from '../../src/index.js';

const lockBy = new Date('2026-01-01T00:30:00Z');
const request = (over: Partial<LockRequest> = {}): LockRequest => ({
  amountUnits: 500n,
  playerWallet: '0xabc0000000000000000000000000000000000001',
  lockBy,
  tierCostUnits: 500n,
  gamePlayable: true,
  ...over,
});
const lock = { lockerAddress: '0xABC0000000000000000000000000000000000001', lockedUnits: 500n };
const before = new Date('2026-01-01T00:29:59Z');
/**
 * The chain's clock runs a year ahead of the server's here: only its own differences count.
 * A day's lock timeout, read a minute after the lock, leaves time for an hour's play.
 */
const chainLockedAt = new Date('2027-01-01T00:00:00Z');
const timing = (over: Partial<LockTiming> = {}): LockTiming => ({
  lockedAt: chainLockedAt,
  lockTimeoutSeconds: 86_400,
  chainNow: new Date(chainLockedAt.getTime() + 60_000),
  playTtlSeconds: 3600,
  ...over,
});

describe('decidePlayLock', () => {
  it('opens the play for exactly what was asked, from the player’s wallet, in time', () => {
    expect(decidePlayLock(request(), lock, before, timing())).toEqual({ open: true });
    expect(decidePlayLock(request(), lock, lockBy, timing())).toEqual({ open: true });
  });

  it('refunds anything else, saying why', () => {
    const cases: [LockRequest | null, typeof lock, Date, string][] = [
      [null, lock, before, 'not_requested'],
      [request(), { ...lock, lockedUnits: 499n }, before, 'wrong_amount'],
      [request(), { ...lock, lockedUnits: 501n }, before, 'wrong_amount'],
      [request(), { ...lock, lockerAddress: '0x' + '1'.repeat(40) }, before, 'wrong_wallet'],
      [request({ playerWallet: null }), lock, before, 'wrong_wallet'],
      [request(), lock, new Date(lockBy.getTime() + 1), 'late'],
      [request({ gamePlayable: false }), lock, before, 'game_not_playable'],
      [request({ tierCostUnits: 600n }), lock, before, 'tier_changed'],
      [request({ tierCostUnits: null }), lock, before, 'tier_changed'],
    ];
    for (const [req, l, at, reason] of cases) {
      expect(decidePlayLock(req, l, at, timing()), reason).toEqual({ open: false, reason });
    }
  });

  it('refunds a lock its player could reclaim before the play and the margin are over', () => {
    const ttl = 3600;
    // The play's whole hour and the margin fit before the lock is reclaimable, to the second.
    const fits = ttl + SETTLE_BEFORE_RECLAIM_SECONDS;
    const exactly = timing({ lockTimeoutSeconds: fits, chainNow: chainLockedAt });
    expect(decidePlayLock(request(), lock, before, exactly)).toEqual({ open: true });
    const cases: [string, LockTiming][] = [
      ['a second short', timing({ lockTimeoutSeconds: fits - 1, chainNow: chainLockedAt })],
      // Seen late (the watcher was down): the chain's time went on since the lock.
      [
        'seen a second too late',
        timing({ lockTimeoutSeconds: fits, chainNow: new Date(chainLockedAt.getTime() + 1000) }),
      ],
      ['a lock timeout of a second', timing({ lockTimeoutSeconds: 1 })],
      ['seen after its timeout', timing({ chainNow: new Date('2027-01-03T00:00:00Z') })],
    ];
    for (const [name, t] of cases) {
      expect(decidePlayLock(request(), lock, before, t), name).toEqual({
        open: false,
        reason: 'reclaimable_too_soon',
      });
    }
    // The checks before it come first: a lock nobody asked for is not_requested whatever its time.
    expect(decidePlayLock(null, lock, before, timing({ lockTimeoutSeconds: 1 }))).toEqual({
      open: false,
      reason: 'not_requested',
    });
  });
});

describe('chainScoreDeadline and chainScoreCutoff', () => {
  it('close a play the margin before its lock is reclaimable, on the chain’s clock', () => {
    expect(chainScoreDeadline(chainLockedAt, 86_400)).toEqual(
      new Date(`2027-01-01T23:${60 - SETTLE_BEFORE_RECLAIM_SECONDS / 60}:00Z`),
    );
    const deadline = chainScoreDeadline(chainLockedAt, 86_400);
    // A lock made at the cutoff of a moment is exactly at its deadline then; one a millisecond
    // later is not yet.
    expect(chainScoreCutoff(deadline, 86_400)).toEqual(chainLockedAt);
    expect(chainScoreCutoff(new Date(deadline.getTime() - 1), 86_400).getTime()).toBe(
      chainLockedAt.getTime() - 1,
    );
  });
});

describe('chainSettlementReversal', () => {
  const ids = {
    voidOf: (reservationId: string) => `void:${reservationId}`,
    reversalOf: (accountId: string) => `reversal:${accountId}`,
  };

  it('voids each payee’s reservations and takes back what the settlement paid them', () => {
    const reversal = chainSettlementReversal(
      'play-1',
      'vault',
      [
        {
          accountId: 'leader',
          paidUnits: 350n,
          reservations: [{ transferId: 'r-leader', amountUnits: 350n }],
        },
        {
          accountId: 'dev',
          paidUnits: 100n,
          reservations: [{ transferId: 'r-dev', amountUnits: 100n }],
        },
        { accountId: 'arcade', paidUnits: 50n, reservations: [] },
        { accountId: 'nobody', paidUnits: 0n, reservations: [] },
      ],
      ids,
    );
    expect(reversal).toEqual([
      {
        accountId: 'leader',
        units: 350n,
        covered: true,
        transfers: [
          {
            id: 'void:r-leader',
            kind: 'void_pending',
            debitAccountId: 'leader',
            creditAccountId: 'vault',
            amount: 350n,
            pendingId: 'r-leader',
            reason: 'chain_payout',
            playId: 'play-1',
          },
          {
            id: 'reversal:leader',
            kind: 'posted',
            debitAccountId: 'leader',
            creditAccountId: 'vault',
            amount: 350n,
            pendingId: null,
            reason: 'chain_reversal',
            playId: 'play-1',
          },
        ],
      },
      expect.objectContaining({ accountId: 'dev', units: 100n, covered: true }),
      {
        accountId: 'arcade',
        units: 50n,
        covered: false,
        transfers: [
          {
            id: 'reversal:arcade',
            kind: 'posted',
            debitAccountId: 'arcade',
            creditAccountId: 'vault',
            amount: 50n,
            pendingId: null,
            reason: 'chain_reversal',
            playId: 'play-1',
          },
        ],
      },
    ]);
  });
});
