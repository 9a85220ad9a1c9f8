import type { Hash } from 'viem';
import { formatHstUnits } from './hst-amounts.js';
import { TxHash } from './tx-hash.js';

/** Where a deposit is, from the signature to the credit in the arcade's ledger. */
export type Progress =
  | { step: 'sending'; amountUnits: bigint }
  | { step: 'pending'; amountUnits: bigint; hash: Hash }
  | { step: 'confirming'; amountUnits: bigint; hash: Hash; done: number; needed: number }
  | { step: 'crediting'; amountUnits: bigint; hash: Hash }
  | { step: 'credited'; amountUnits: bigint; hash: Hash }
  | { step: 'held'; amountUnits: bigint; hash: Hash; reason: string | null }
  | { step: 'reverted'; amountUnits: bigint; hash: Hash }
  | { step: 'lost'; amountUnits: bigint; hash: Hash; error: string };

/** The deposit's step in words, and its transaction. */
export function DepositProgress({ progress }: { progress: Progress }) {
  const amount = formatHstUnits(progress.amountUnits);
  const done = progress.step === 'credited';
  const bad = progress.step === 'reverted' || progress.step === 'lost' || progress.step === 'held';
  return (
    <div
      className={`progress-card${done ? ' done' : ''}${bad ? ' bad' : ''}`}
      data-testid="deposit-progress"
    >
      <p role="status" aria-live="polite" className="progress-step" data-step={progress.step}>
        {stepText(progress, amount)}
      </p>
      {'hash' in progress && (
        <p className="progress-hash">
          Transaction: <TxHash hash={progress.hash} full />
        </p>
      )}
    </div>
  );
}

function stepText(progress: Progress, amount: string): string {
  switch (progress.step) {
    case 'sending':
      return `Depositing ${amount}: sign in your wallet…`;
    case 'pending':
      return `Deposit of ${amount} sent: waiting for it to be included in a block.`;
    case 'confirming': {
      const left = progress.needed - progress.done;
      return (
        `Deposit of ${amount} is in a block: waiting for ${left} more ` +
        `${left === 1 ? 'confirmation' : 'confirmations'} (${progress.done} of ${progress.needed}).`
      );
    }
    case 'crediting':
      return `Deposit of ${amount} confirmed on chain: waiting for the arcade to credit it.`;
    case 'credited':
      return `Credited: ${amount} added to your balance.`;
    case 'held':
      return (
        `The arcade received ${amount} but is holding it (${progress.reason ?? 'no reason given'}). ` +
        'Ask the arcade’s operator: held deposits are never lost.'
      );
    case 'reverted':
      return `The deposit of ${amount} failed on chain (the transaction reverted): nothing left your wallet.`;
    case 'lost':
      return `Could not follow the deposit of ${amount}: ${progress.error} It may still be credited: reload this page to check your balance.`;
  }
}
