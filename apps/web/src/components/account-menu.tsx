import { Avatar } from './avatar.js';
import { useState } from 'react';
import { Link } from '../router.js';
import { useSession } from '../session/session.js';
import type { WalletChoice } from '../session/session.js';
import { arcadeWalletKey, WalletError } from '../session/wallets.js';
import { ImportKeyDialog } from './import-key-dialog.js';
import { Modal } from './modal.js';
import { WalletChooser } from './wallet-chooser.js';

/**
 * The header's account corner: connect a wallet, or the player's name, avatar, balance and
 * links to their account (deposits, withdrawals) and allowances.
 */
export function AccountMenu() {
  const session = useSession();
  const [connecting, setConnecting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const { state } = session;

  if (state.status === 'loading') return <span className="account muted">…</span>;
  if (state.status === 'signed-out') {
    return (
      <div className="account">
        <button type="button" onClick={() => setConnecting(true)}>
          Connect wallet
        </button>
        {connecting && <ConnectDialog onDone={() => setConnecting(false)} />}
      </div>
    );
  }

  const { player } = state;
  const takeFaucet = async () => {
    setNotice(null);
    try {
      await session.call('/player/faucet', {});
      await session.refresh();
      setNotice(`Added ${player.faucet.amount} test HST`);
    } catch (error) {
      setNotice((error as Error).message);
    }
  };
  return (
    <div className="account">
      <Avatar src={player.avatar} size={32} />
      <span className="account-name">{player.name}</span>
      <span className="balance" data-testid="balance">
        {player.balance} HST
      </span>
      <Link href="/account">Account</Link>
      <Link href="/account/allowances">Allowances</Link>
      {player.faucet.amount > 0 && (
        <button type="button" onClick={() => void takeFaucet()}>
          Get {player.faucet.amount} test HST
        </button>
      )}
      {state.kind === 'arcade' && (
        <button type="button" onClick={() => setExporting(true)}>
          Export key
        </button>
      )}
      <button type="button" onClick={() => setImporting(true)}>
        Import key
      </button>
      {state.wallet === null && (
        <button type="button" onClick={() => setConnecting(true)}>
          Reconnect wallet
        </button>
      )}
      <button type="button" onClick={session.signOut}>
        Sign out
      </button>
      <span className="visually-hidden" role="status">
        {notice}
      </span>
      {connecting && <ConnectDialog onDone={() => setConnecting(false)} />}
      {exporting && <ExportKeyDialog onDone={() => setExporting(false)} />}
      {importing && <ImportKeyDialog onDone={() => setImporting(false)} />}
    </div>
  );
}

/** Choose a wallet and sign in with it; also opened by pages that need a signed-in player. */
export function ConnectDialog({ onDone }: { onDone: () => void }) {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);

  const connect = async (choice: WalletChoice) => {
    setBusy(true);
    setError(null);
    try {
      await session.connect(choice);
      onDone();
    } catch (e) {
      setError(
        e instanceof WalletError && e.rejected
          ? 'The wallet request was declined.'
          : `Could not connect: ${(e as Error).message}`,
      );
    } finally {
      setBusy(false);
    }
  };

  if (importing) return <ImportKeyDialog onDone={onDone} />;
  return (
    <Modal title="Connect a wallet" onCancel={onDone}>
      <p>Sign in with a wallet to play for HST. Signing in is free and sends no transaction.</p>
      <WalletChooser
        busy={busy}
        onChoose={(choice) => void connect(choice)}
        onImportKey={() => setImporting(true)}
      />
      {error !== null && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

function ExportKeyDialog({ onDone }: { onDone: () => void }) {
  const key = arcadeWalletKey();
  return (
    <Modal title="Export the arcade wallet" onCancel={onDone}>
      <p>
        This is the private key of your arcade wallet. Anyone who has it controls the wallet: keep
        it secret. Import it into any Ethereum wallet to use the same account there.
      </p>
      <label htmlFor="arcade-key">Private key</label>
      <textarea
        id="arcade-key"
        readOnly
        rows={2}
        value={key ?? 'No arcade wallet in this browser'}
      />
      <div className="dialog-actions">
        <button
          type="button"
          disabled={key === null}
          onClick={() => void navigator.clipboard?.writeText(key ?? '')}
        >
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Close
        </button>
      </div>
    </Modal>
  );
}
