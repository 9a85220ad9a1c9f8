import { describe, expect, it } from 'vitest';
import { TransferReasons, unpromptedPayees, type TransferReason } from '../../src/index.js';

const credit = (reason: TransferReason) => ({ reason, creditAccountId: `acct-${reason}` });

describe('unpromptedPayees', () => {
  it('names the payees of payouts, prizes and returned shares, in order, and no one else', () => {
    const all = TransferReasons.map(credit);
    expect(unpromptedPayees(all)).toEqual([
      'acct-payout_leader',
      'acct-payout_developer',
      'acct-tournament_prize',
      'acct-payout_returned',
      'acct-tournament_returned',
    ]);
  });

  it('keeps a payee paid twice twice, and answers nothing for a play lock or a deposit', () => {
    const twice = [credit('payout_leader'), credit('payout_leader')];
    expect(unpromptedPayees(twice)).toEqual(['acct-payout_leader', 'acct-payout_leader']);
    expect(unpromptedPayees([credit('play_lock'), credit('deposit'), credit('mint')])).toEqual([]);
  });
});
