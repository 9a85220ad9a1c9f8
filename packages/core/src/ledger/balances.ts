import type { Units } from '../money.js';
import type { Account } from './types.js';

/** What an account can spend now: posted credits less posted and pending debits. */
export function availableUnits(account: Account): Units {
  return account.creditsPosted - account.debitsPosted - account.debitsPending;
}

/** HST locked by pending debits (unsettled plays). */
export function lockedUnits(account: Account): Units {
  return account.debitsPending;
}

/**
 * Whether the account may carry a negative balance: the mint, which issues HST, and a vault
 * account, whose balance is minus the HST deposited into its chain vault.
 */
export function mayGoNegative(account: Account): boolean {
  return account.kind === 'mint' || account.kind === 'vault';
}
