import { arcadeVaultAbi, uuidToBytes16 } from '@coinop/contracts';
import type { ReconciliationLine, Units } from '@coinop/core';
import type { VaultLedgerSnapshot } from '../store/chain-reconciliation.js';
import {
  IS_PAID_CONCURRENCY,
  mapConcurrently,
  PLAY_STATE,
  type VaultAtBlock,
} from './vault-at-block.js';

/**
 * The lines of the chain reconciliation (reconciliation.ts): what each kind of liability and
 * explained difference means, and the lines of the plays locked on chain.
 */

/** What each line means, for the report: the one place a new kind of liability is described. */
const LINES = {
  // Liabilities: what the ledger owes, by whom it is owed.
  players: 'HST players can spend (their balances less what plays and withdrawals reserve)',
  developers: "developers' earnings not withdrawn",
  arcade: "the arcade's own balance (its cut of plays)",
  open_plays: 'HST locked in the escrows of plays not yet scored or expired',
  withdrawals_pending: 'withdrawals reserved (queued or sent) and not yet posted as paid',
  chain_play_locks: 'plays locked on chain: the vault holds their HST until it settles them',
  chain_payouts_pending:
    'shares of plays locked on chain reserved for the vault to pay to wallets, not yet posted',
  // Explained differences: the vault holds more (+) or less (−) than the ledger owes, and why.
  held_deposits: 'deposits held (credited to nobody until an operator does): in the vault',
  unsolicited_surplus:
    'HST sent to the vault without a deposit (a plain transfer): owed to nobody until an ' +
    'operator credits or sweeps it, or uses it to cover a shortfall',
  withdrawals_paid_not_posted:
    'withdrawals the vault paid at or below the block, not yet posted (waiting for confirmations)',
  withdrawals_posted_paid_after:
    'withdrawals posted as paid whose payment is above the block: still in the vault at it',
  other_vaults: 'HST the ledger counts in other vaults of this arcade (not read here)',
  chain_locks_to_refund:
    'locks that opened no play, or whose play was voided, not refunded at the block: in the vault',
  chain_settlements_in_flight:
    'plays locked on chain whose payout the vault made at or below the block and the ledger has ' +
    'not posted (−), or the ledger posted and the vault made above the block (+)',
} as const;

type LineKind = keyof typeof LINES;
export const line = (
  kind: LineKind,
  units: Units,
  count: number | null = null,
): ReconciliationLine => ({
  kind,
  units,
  count,
  description: LINES[kind],
});

/**
 * Plays locked on chain: the liability lines, and the differences in flight between the vault and
 * the ledger. An open lock is a pending transfer from the vault's account to the play's escrow
 * (the vault account's pending debits); a settled play's payees' shares are reserved back to the
 * vault until it pays them (pending credits of the vault account, beside the withdrawals). Each
 * lock that may stand differently on the two sides is asked of the vault at the block.
 */
export async function chainPlayLines(
  snapshot: VaultLedgerSnapshot,
  vault: VaultAtBlock,
): Promise<{ liabilities: ReconciliationLine[]; explained: ReconciliationLine[] }> {
  const states = await mapConcurrently(snapshot.playLocks, IS_PAID_CONCURRENCY, (lock) =>
    vault.client
      .readContract({
        address: vault.vaultAddress,
        abi: arcadeVaultAbi,
        functionName: 'playLock',
        args: [uuidToBytes16(lock.playId)],
        blockNumber: vault.blockNumber,
      })
      .then((onChain) => onChain.state),
  );
  let toRefund = { units: 0n, count: 0 };
  let inFlight = { units: 0n, count: 0 };
  for (const [i, lock] of snapshot.playLocks.entries()) {
    const state = states[i];
    if (!lock.settles) {
      if (state === PLAY_STATE.locked) {
        toRefund = { units: toRefund.units + lock.lockedUnits, count: toRefund.count + 1 };
      }
      continue;
    }
    // A settled play: the ledger counts what it has not posted as paid out; the vault holds the
    // lock until it settles, then what it did not pay to wallets. A play whose lock was reclaimed
    // (or refunded) instead had its settlement reversed: the ledger holds nothing for it, and the
    // vault nothing once the lock is gone.
    const ledgerHolds = lock.undone ? 0n : lock.lockedUnits - lock.payoutsPostedUnits;
    const vaultHolds =
      state === PLAY_STATE.locked
        ? lock.lockedUnits
        : lock.undone
          ? 0n
          : state === PLAY_STATE.settled
            ? lock.lockedUnits - lock.payoutsPostedUnits - lock.payoutsToWalletsUnits
            : null;
    if (vaultHolds === null || vaultHolds === ledgerHolds) continue;
    inFlight = { units: inFlight.units + vaultHolds - ledgerHolds, count: inFlight.count + 1 };
  }
  return {
    liabilities: [
      line('chain_play_locks', snapshot.vault.debitsPending),
      line(
        'chain_payouts_pending',
        snapshot.chainPayoutsPending.units,
        snapshot.chainPayoutsPending.count,
      ),
    ],
    explained: [
      line('chain_locks_to_refund', toRefund.units, toRefund.count),
      line('chain_settlements_in_flight', inFlight.units, inFlight.count),
    ],
  };
}
