import { describe, expect, it } from 'vitest';
import {
  CoinopError,
  checkWithdrawalAmount,
  createTransfers,
  mayWithdraw,
  nextWithdrawalBatch,
  oneWithdrawalLimitUnits,
  withdrawalReserveTransfer,
  withdrawalSettleTransfer,
  type Account,
} from '../../src/index.js';

const HST = 100_000_000n;

describe('withdrawal amounts', () => {
  it.each([
    [0n, null, 'invalid_amount', 'amount must be more than 0 HST'],
    [-1n, 10n * HST, 'invalid_amount', 'amount must be more than 0 HST'],
    [
      10n * HST + 1n,
      10n * HST,
      'withdrawal_above_limit',
      'amount 10.00000001 HST is more than the vault pays in one withdrawal (10 HST)',
    ],
  ])('refuses %s units (max %s): %s', (units, max, code, message) => {
    const error = (() => {
      try {
        checkWithdrawalAmount(units, max);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(CoinopError);
    expect(error).toMatchObject({ code, message, details: { field: 'amount' } });
  });

  it.each([
    [1n, null],
    [10n * HST, 10n * HST],
  ])('takes %s units (max %s)', (units, max) => {
    expect(() => checkWithdrawalAmount(units, max)).not.toThrow();
  });

  it.each([
    [1_000n * HST, 10_000n * HST, 1_000n * HST],
    [1_000n * HST, 350n * HST, 350n * HST],
    [350n * HST, 350n * HST, 350n * HST],
  ])(
    'pays at most min(maxWithdrawal %s, daily limit %s) = %s in one withdrawal',
    (max, daily, one) => {
      expect(oneWithdrawalLimitUnits(max, daily)).toBe(one);
    },
  );

  it('lets players and developers withdraw, no other account', () => {
    expect(
      (['player', 'developer', 'arcade', 'escrow', 'mint', 'vault'] as const).map(mayWithdraw),
    ).toEqual([true, true, false, false, false, false]);
  });
});

describe('withdrawal transfers', () => {
  const account = (id: string, kind: Account['kind'], creditsPosted: bigint): Account => ({
    id,
    kind,
    debitsPending: 0n,
    debitsPosted: 0n,
    creditsPending: 0n,
    creditsPosted,
  });
  const player = account('p', 'player', 5n * HST);
  const vault = account('v', 'vault', 0n);
  const reserve = withdrawalReserveTransfer({
    id: 'w',
    accountId: 'p',
    vaultAccountId: 'v',
    amountUnits: 2n * HST,
  });

  it('reserves from the account to the vault, refused beyond the balance', () => {
    expect(reserve).toEqual({
      id: 'w',
      kind: 'pending',
      debitAccountId: 'p',
      creditAccountId: 'v',
      amount: 2n * HST,
      pendingId: null,
      reason: 'withdrawal',
      playId: null,
    });
    const snapshot = {
      accounts: new Map([
        ['p', player],
        ['v', vault],
      ]),
      existing: new Map(),
      pendings: new Map(),
      resolvedPendings: new Map(),
    };
    expect(createTransfers([reserve], snapshot).ok).toBe(true);
    const tooMuch = { ...reserve, amount: 5n * HST + 1n };
    expect(createTransfers([tooMuch], snapshot).results).toEqual(['exceeds_credits']);
  });

  it('posts or voids the whole reservation with the id given', () => {
    expect(withdrawalSettleTransfer(reserve, 'post', 'x')).toMatchObject({
      id: 'x',
      kind: 'post_pending',
      pendingId: 'w',
      amount: 2n * HST,
      debitAccountId: 'p',
      creditAccountId: 'v',
      reason: 'withdrawal',
    });
    expect(withdrawalSettleTransfer(reserve, 'void', 'y')).toMatchObject({
      id: 'y',
      kind: 'void_pending',
      pendingId: 'w',
    });
  });
});

describe('the next batch of queued withdrawals', () => {
  const NOW = new Date('2026-11-29T15:00:00Z');
  const TODAY = new Date('2026-11-29T00:00:00Z');
  const YESTERDAY = new Date('2026-11-28T23:59:59.999Z');
  const queue = (...amounts: bigint[]) =>
    amounts.map((amountUnits, n) => ({ id: `w${n}`, amountUnits, requestedAt: TODAY }));
  const ids = (ws: readonly { id: string }[]) => ws.map((w) => w.id);

  it.each([
    // [amounts, max, budget, batchMax, batch, overMax, held, rest, budget left]
    [[1n, 2n, 3n], 10n, 100n, 10, ['w0', 'w1', 'w2'], [], [], [], 94n],
    [[1n, 2n, 3n], 10n, 100n, 2, ['w0', 'w1'], [], [], ['w2'], 97n],
    [[5n, 20n, 3n], 10n, 100n, 10, ['w0', 'w2'], ['w1'], [], [], 92n],
    // The 6 does not fit what is left after the 5: it waits, the 1 behind it is paid.
    [[5n, 6n, 1n], 10n, 10n, 10, ['w0', 'w2'], [], ['w1'], [], 4n],
    [[11n, 6n], 10n, 5n, 10, [], ['w0'], ['w1'], [], 5n],
    // Held ones do not count toward the batch's size.
    [[9n, 9n, 1n, 1n, 1n], 10n, 3n, 2, ['w2', 'w3'], [], ['w0', 'w1'], ['w4'], 1n],
    [[1n, 2n, 20n], 10n, 100n, 2, ['w0', 'w1'], [], [], ['w2'], 97n],
    [[], 10n, 100n, 10, [], [], [], [], 100n],
  ] as const)(
    'queue %s within max %s, budget %s, %s a batch',
    (amounts, max, budget, batchMax, batch, overMax, held, rest, left) => {
      const plan = nextWithdrawalBatch(queue(...amounts), {
        maxWithdrawalUnits: max,
        budgetUnits: budget,
        batchMax,
        now: NOW,
      });
      expect(ids(plan.batch)).toEqual(batch);
      expect(ids(plan.overMax)).toEqual(overMax);
      expect(ids(plan.held)).toEqual(held);
      expect(ids(plan.rest)).toEqual(rest);
      expect(plan.budgetUnits).toBe(left);
    },
  );

  it('holds everything behind one requested before today that still does not fit', () => {
    // Requested yesterday, 6 against the 5 today leaves: the 1 behind it waits too, so that
    // nothing sent today takes from the day the 6 fits.
    const [old, small] = queue(6n, 1n);
    const plan = nextWithdrawalBatch([{ ...old!, requestedAt: YESTERDAY }, small!], {
      maxWithdrawalUnits: 10n,
      budgetUnits: 5n,
      batchMax: 10,
      now: NOW,
    });
    expect(ids(plan.batch)).toEqual([]);
    expect(ids(plan.held)).toEqual(['w0', 'w1']);
    expect(ids(plan.rest)).toEqual([]);
    expect(plan.budgetUnits).toBe(5n);
    // Requested today at midnight, the same two: the 6 waits alone.
    const today = nextWithdrawalBatch(queue(6n, 1n), {
      maxWithdrawalUnits: 10n,
      budgetUnits: 5n,
      batchMax: 10,
      now: NOW,
    });
    expect(ids(today.batch)).toEqual(['w1']);
    expect(ids(today.held)).toEqual(['w0']);
  });

  it('pays one requested before today that fits, and goes on behind it', () => {
    const [old, small] = queue(4n, 1n);
    const plan = nextWithdrawalBatch([{ ...old!, requestedAt: YESTERDAY }, small!], {
      maxWithdrawalUnits: 10n,
      budgetUnits: 5n,
      batchMax: 10,
      now: NOW,
    });
    expect(ids(plan.batch)).toEqual(['w0', 'w1']);
    expect(plan.budgetUnits).toBe(0n);
  });
});
