import { TxHash } from '../account/tx-hash.js';
import { walletPlayText, type WalletPlayProgress } from '../bridge/wallet-play-progress.js';

/** How a play locked from the wallet is going: the step in words and the lock's transaction. */
export function WalletPlayCard({ progress }: { progress: WalletPlayProgress }) {
  const done = progress.step === 'opened';
  const bad =
    progress.step === 'refund' ||
    progress.step === 'reverted' ||
    progress.step === 'lost' ||
    progress.step === 'not-sent';
  return (
    <div
      className={`progress-card${done ? ' done' : ''}${bad ? ' bad' : ''}`}
      data-testid="wallet-play-progress"
    >
      <p role="status" aria-live="polite" className="progress-step" data-step={progress.step}>
        {walletPlayText(progress)}
      </p>
      {'hash' in progress && (
        <p className="progress-hash">
          Transaction: <TxHash hash={progress.hash} />
        </p>
      )}
    </div>
  );
}
