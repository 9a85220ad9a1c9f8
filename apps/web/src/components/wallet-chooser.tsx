import './wallet-chooser.css';
import type { WalletChoice } from '../session/session.js';
import { useBrowserWallets } from '../session/wallet-discovery.js';
import { arcadeWalletKey } from '../session/wallets.js';

/**
 * The wallets a player can sign in with: every extension that announces itself (EIP-6963), by
 * its own name and icon, or `window.ethereum` when none does; then the arcade wallet. Used by the
 * connect dialog and the CLI-login approval page.
 */
export function WalletChooser({
  busy,
  onChoose,
  onImportKey,
}: {
  busy: boolean;
  onChoose: (choice: WalletChoice) => void;
  /** Offers "Import a private key" when given. */
  onImportKey?: () => void;
}) {
  const wallets = useBrowserWallets();
  const hasArcadeKey = arcadeWalletKey() !== null;
  return (
    <div className="wallet-chooser">
      <ul className="wallet-options" aria-label="Wallets">
        {wallets.map((wallet) => (
          <li key={wallet.id}>
            <button
              type="button"
              className="wallet-option"
              disabled={busy}
              onClick={() => onChoose({ kind: 'browser', wallet })}
            >
              {wallet.icon !== null ? (
                <img className="wallet-icon" src={wallet.icon} alt="" width={32} height={32} />
              ) : (
                <span className="wallet-icon wallet-icon-blank" aria-hidden="true" />
              )}
              <span className="wallet-name">{wallet.name}</span>
            </button>
          </li>
        ))}
        <li>
          <button
            type="button"
            className="wallet-option"
            disabled={busy}
            onClick={() => onChoose({ kind: 'arcade' })}
          >
            <span className="wallet-icon wallet-icon-arcade" aria-hidden="true">
              ◎
            </span>
            <span className="wallet-name">Arcade wallet</span>
          </button>
        </li>
      </ul>
      {wallets.length === 0 && <p className="muted">No wallet extension found in this browser.</p>}
      <p className="muted">
        {hasArcadeKey
          ? 'The arcade wallet is the key kept in this browser. '
          : 'The arcade wallet is a key made for you and kept in this browser only. '}
        Export it to keep it: if this browser&apos;s data is cleared, the key and its HST are gone.
      </p>
      {onImportKey && (
        <button type="button" className="link-button" disabled={busy} onClick={onImportKey}>
          Import a private key
        </button>
      )}
    </div>
  );
}
