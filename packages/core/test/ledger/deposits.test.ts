import { describe, expect, it } from 'vitest';
import { MAX_UNITS, decideDeposit, depositTransfer, type AccountKind } from '../../src/index.js';

describe('decideDeposit', () => {
  const kind = (k: AccountKind) => ({ kind: k });

  it.each<[string, bigint, { kind: AccountKind } | null, ReturnType<typeof decideDeposit>]>([
    ['a player', 1n, kind('player'), { credit: true }],
    ['a developer', 5n * 10n ** 8n, kind('developer'), { credit: true }],
    ['the most a balance holds', MAX_UNITS, kind('player'), { credit: true }],
    [
      'one unit more',
      MAX_UNITS + 1n,
      kind('player'),
      { credit: false, reason: 'amount_out_of_range' },
    ],
    [
      'uint256 max',
      2n ** 256n - 1n,
      kind('player'),
      { credit: false, reason: 'amount_out_of_range' },
    ],
    ['zero', 0n, kind('player'), { credit: false, reason: 'amount_out_of_range' }],
    // An amount nothing can credit is reported first: no other account fixes it.
    ['zero to nobody', 0n, null, { credit: false, reason: 'amount_out_of_range' }],
    ['no such account', 1n, null, { credit: false, reason: 'unknown_account' }],
    ['the arcade', 1n, kind('arcade'), { credit: false, reason: 'not_a_deposit_account' }],
    ['an escrow', 1n, kind('escrow'), { credit: false, reason: 'not_a_deposit_account' }],
    ['the mint', 1n, kind('mint'), { credit: false, reason: 'not_a_deposit_account' }],
    ['a vault', 1n, kind('vault'), { credit: false, reason: 'not_a_deposit_account' }],
  ])('%s', (_name, amount, account, expected) => {
    expect(decideDeposit(amount, account)).toEqual(expected);
  });
});

describe('depositTransfer', () => {
  it('is one posted transfer from the vault account, the deposit reason, no play', () => {
    expect(
      depositTransfer({ id: 't', vaultAccountId: 'v', accountId: 'p', amountUnits: 7n }),
    ).toEqual({
      id: 't',
      kind: 'posted',
      debitAccountId: 'v',
      creditAccountId: 'p',
      amount: 7n,
      pendingId: null,
      reason: 'deposit',
      playId: null,
    });
  });
});
