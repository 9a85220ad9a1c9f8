import './account-menu.css';
import { Avatar } from './avatar.js';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { Link, useLocation } from '../router.js';
import { useSession } from '../session/session.js';
import type { WalletChoice } from '../session/session.js';
import { arcadeWalletKey, WalletError } from '../session/wallets.js';
import { Hst } from './hst.js';
import { Modal } from './modal.js';
import { useCopy } from './toasts.js';
import { useFaucet } from './faucet.js';
import { WalletChooser } from './wallet-chooser.js';
import { useInvitations } from '../testing/testing-api.js';

// Pasting a key needs secp256k1 (viem's accounts): its dialog is loaded when it opens.
const LazyImportKeyDialog = lazy(() =>
  import('./import-key-dialog.js').then((m) => ({ default: m.ImportKeyDialog })),
);

function ImportKeyDialog({ onDone }: { onDone: () => void }) {
  return (
    <Suspense
      fallback={
        <p role="status" className="visually-hidden">
          Loading…
        </p>
      }
    >
      <LazyImportKeyDialog onDone={onDone} />
    </Suspense>
  );
}

/**
 * The header's account corner: a Connect button, or one chip with the player's avatar and
 * balance that opens their menu (account, allowances, testing, the test faucet, key export, sign
 * out). Invitations to test waiting for the player's answer show as a count on the chip and in the
 * menu. The menu is a native popover: the browser closes it on Escape or a click outside.
 */
export function AccountMenu() {
  const session = useSession();
  const [connecting, setConnecting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [importing, setImporting] = useState(false);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const { state } = session;
  const waiting = useInvitations()?.filter((i) => i.state === 'invited').length ?? 0;

  if (state.status === 'loading') return <span className="account muted">…</span>;
  if (state.status === 'signed-out') {
    return (
      <div className="account">
        <button type="button" className="primary" onClick={() => setConnecting(true)}>
          Connect<span className="wide-only"> wallet</span>
        </button>
        {connecting && <ConnectDialog onDone={() => setConnecting(false)} />}
      </div>
    );
  }

  const { player } = state;
  const close = () => menu.current?.hidePopover();
  const balance = (
    <span className="balance" data-testid="balance">
      <Hst hst={player.balance} rounded />
    </span>
  );
  return (
    <div className="account">
      <button type="button" className="account-chip" popoverTarget={menuId}>
        <Avatar src={player.avatar} playerId={player.playerId} size={32} />
        <span className="visually-hidden">Account menu: {player.name}, balance</span>
        {balance}
        {waiting > 0 && (
          <span className="count-badge" data-testid="invitation-count">
            {waiting}
            <span className="visually-hidden">
              {waiting === 1 ? ' invitation' : ' invitations'} to test waiting
            </span>
          </span>
        )}
        <svg className="chevron" viewBox="0 0 12 12" aria-hidden="true" focusable="false">
          <path d="M2 4.5 6 8.5 10 4.5" stroke="currentColor" strokeWidth="1.6" fill="none" />
        </svg>
      </button>
      <div id={menuId} ref={menu} popover="auto" className="account-menu">
        <p className="account-who">
          <Avatar src={player.avatar} playerId={player.playerId} size={32} />
          <span>
            <span className="account-name">{player.name}</span>
            <span className="balance" data-testid="menu-balance">
              <Hst hst={player.balance} />
            </span>
          </span>
        </p>
        <MenuItems
          waiting={waiting}
          close={close}
          arcadeKey={state.kind === 'arcade'}
          disconnected={state.wallet === null}
          onExport={() => setExporting(true)}
          onImport={() => setImporting(true)}
          onReconnect={() => setConnecting(true)}
        />
        <hr />
        <button
          type="button"
          onClick={() => {
            close();
            session.signOut();
          }}
        >
          Sign out
        </button>
      </div>
      {connecting && <ConnectDialog onDone={() => setConnecting(false)} />}
      {exporting && <ExportKeyDialog onDone={() => setExporting(false)} />}
      {importing && <ImportKeyDialog onDone={() => setImporting(false)} />}
    </div>
  );
}

/**
 * The menu's links and actions: account, allowances, testing (with the invitations waiting), the
 * test faucet, key export (arcade wallets) and import, and reconnecting a browser wallet.
 */
function MenuItems({
  waiting,
  close,
  arcadeKey,
  disconnected,
  onExport,
  onImport,
  onReconnect,
}: {
  waiting: number;
  close: () => void;
  arcadeKey: boolean;
  disconnected: boolean;
  onExport: () => void;
  onImport: () => void;
  onReconnect: () => void;
}) {
  const faucet = useFaucet();
  return (
    <ul>
      <li>
        <Link href="/account" onClick={close}>
          Account
        </Link>
      </li>
      <li>
        <Link href="/account/allowances" onClick={close}>
          Allowances
        </Link>
      </li>
      <li>
        <Link href="/account/testing" onClick={close}>
          Testing
          {waiting > 0 && (
            <span className="count-badge">
              {waiting}
              <span className="visually-hidden"> waiting</span>
            </span>
          )}
        </Link>
      </li>
      {faucet !== null && (
        <li>
          <button
            type="button"
            className="faucet"
            disabled={faucet.busy}
            onClick={() => {
              close();
              void faucet.take('menu');
            }}
          >
            Get {faucet.amount} test HST
            <span className="menu-note">
              {faucet.destination === 'wallet' ? 'to your wallet' : 'to your balance'}
            </span>
          </button>
        </li>
      )}
      {arcadeKey && (
        <li>
          <button
            type="button"
            onClick={() => {
              close();
              onExport();
            }}
          >
            Export key
          </button>
        </li>
      )}
      <li>
        <button
          type="button"
          onClick={() => {
            close();
            onImport();
          }}
        >
          Import key
        </button>
      </li>
      {disconnected && (
        <li>
          <button
            type="button"
            onClick={() => {
              close();
              onReconnect();
            }}
          >
            Reconnect wallet
          </button>
        </li>
      )}
    </ul>
  );
}

/** Choose a wallet and sign in with it; also opened by pages that need a signed-in player. */
export function ConnectDialog({ onDone }: { onDone: () => void }) {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [importing, setImporting] = useState(false);
  const { path } = useLocation();

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
      <p>{signInPurpose(path)} Signing in is free and sends no transaction.</p>
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

/** What signing in is for on the page at `path`: a developer comes to the portal to work. */
function signInPurpose(path: string): string {
  return path === '/developer' || path.startsWith('/developer/')
    ? 'Sign in with a wallet to register and manage your games: the wallet is your developer account.'
    : 'Sign in with a wallet to play for HST.';
}

function ExportKeyDialog({ onDone }: { onDone: () => void }) {
  const key = arcadeWalletKey();
  const copy = useCopy();
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
          onClick={() => void copy(key ?? '', 'Private key')}
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
