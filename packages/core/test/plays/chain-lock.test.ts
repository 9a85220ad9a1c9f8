import { describe, expect, it } from 'vitest';
import { decidePlayLock, type LockRequest } from '../../src/index.js';

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

describe('decidePlayLock', () => {
  it('opens the play for exactly what was asked, from the player’s wallet, in time', () => {
    expect(decidePlayLock(request(), lock, before)).toEqual({ open: true });
    expect(decidePlayLock(request(), lock, lockBy)).toEqual({ open: true });
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
      expect(decidePlayLock(req, l, at), reason).toEqual({ open: false, reason });
    }
  });
});
