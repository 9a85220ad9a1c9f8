import type { Hash } from 'viem';
import { formatHstUnits } from '../account/hst-amounts.js';

/**
 * How a play locked from the wallet is going, as the game page shows it. Apart from
 * `wallet-play.ts`, so the game page does not load the chain code before a player chooses it.
 */

/** Where a wallet play is, from the signature to the open play (or why it opened none). */
export type WalletPlayProgress =
  | { step: 'signing'; amountUnits: bigint }
  | { step: 'pending'; amountUnits: bigint; hash: Hash }
  | { step: 'confirming'; amountUnits: bigint; hash: Hash; done: number; needed: number }
  | { step: 'opening'; amountUnits: bigint; hash: Hash }
  | { step: 'opened'; amountUnits: bigint; hash: Hash }
  | { step: 'refund'; amountUnits: bigint; hash: Hash; reason: string }
  | { step: 'reverted'; amountUnits: bigint; hash: Hash }
  | { step: 'lost'; amountUnits: bigint; hash: Hash; error: string }
  | { step: 'not-sent'; amountUnits: bigint; error: string };

/** The progress in words: what is happening, and what it means for the player's HST. */
export function walletPlayText(progress: WalletPlayProgress): string {
  const amount = formatHstUnits(progress.amountUnits);
  switch (progress.step) {
    case 'signing':
      return `Locking ${amount} from your wallet: sign in your wallet…`;
    case 'pending':
      return `Lock of ${amount} sent: waiting for it to be included in a block.`;
    case 'confirming': {
      const left = progress.needed - progress.done;
      return (
        `Lock of ${amount} is in a block: waiting for ${left} more ` +
        `${left === 1 ? 'confirmation' : 'confirmations'} (${progress.done} of ${progress.needed}).`
      );
    }
    case 'opening':
      return `Lock of ${amount} confirmed on chain: waiting for the arcade to open the play.`;
    case 'opened':
      return `Locked ${amount} from your wallet: the play is open.`;
    case 'refund':
      return (
        `The lock opened no play: ${progress.reason}. The arcade returns the ${amount} to your ` +
        'wallet with a refund transaction, usually within a minute; only the network fee is spent.'
      );
    case 'reverted':
      return `The lock of ${amount} failed on chain (the transaction reverted): nothing left your wallet but the network fee.`;
    case 'lost':
      return (
        `Could not follow the lock of ${amount}: ${progress.error} If it is confirmed in time the ` +
        'play opens and, unplayed, settles like any play when it expires; otherwise it is refunded to your wallet.'
      );
    case 'not-sent':
      return progress.error;
  }
}
