import './import-key-dialog.css';
import { useState, type FormEvent } from 'react';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { useSession } from '../session/session.js';
import { InvalidKeyError, parsePrivateKey } from '../session/arcade-wallet.js';
import { arcadeWalletKey, importArcadeKey, replacedArcadeKeys } from '../session/wallets.js';
import { Modal } from './modal.js';

/**
 * Pastes a private key into the arcade wallet and signs in with it. A key that would replace the
 * arcade wallet already here is confirmed first; the replaced key stays in this browser and is
 * listed here, so switching back is one click.
 */
export function ImportKeyDialog({ onDone }: { onDone: () => void }) {
  const session = useSession();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The key waiting for the player to confirm replacing the current arcade wallet. */
  const [pending, setPending] = useState<{ key: Hex; address: string } | null>(null);
  const current = arcadeWalletKey();
  const currentAddress = current === null ? null : privateKeyToAccount(current).address;
  const earlier = replacedArcadeKeys()
    .filter((key) => key !== current)
    .map((key) => ({ key, address: privateKeyToAccount(key).address }));

  const useKey = async (key: Hex) => {
    setBusy(true);
    setError(null);
    try {
      importArcadeKey(key);
      await session.connect({ kind: 'arcade' });
      onDone();
    } catch (e) {
      setError(`The key was saved, but signing in failed: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    let parsed;
    try {
      parsed = parsePrivateKey(typed);
    } catch (e) {
      if (!(e instanceof InvalidKeyError)) throw e;
      setError(e.message);
      return;
    }
    if (current !== null && current !== parsed.key) setPending(parsed);
    else void useKey(parsed.key);
  };

  return (
    <Modal title="Import a private key" onCancel={onDone}>
      {pending === null ? (
        <form onSubmit={submit} noValidate className="import-key">
          <p>
            Use a wallet you already have as this browser&apos;s arcade wallet. Anyone who has its
            private key controls its HST: paste it only on this arcade&apos;s own address. The key
            is kept in this browser&apos;s storage, as the arcade wallet&apos;s key always is.
          </p>
          {currentAddress !== null && (
            <p className="import-key-warning">
              It replaces the arcade wallet <code>{currentAddress}</code> in this browser. That
              wallet&apos;s key stays saved here, and you can switch back to it below.
            </p>
          )}
          <label htmlFor="import-key-input">Private key (64 hexadecimal characters)</label>
          <input
            id="import-key-input"
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={typed}
            aria-invalid={error !== null}
            aria-describedby={error !== null ? 'import-key-error' : undefined}
            onChange={(event) => setTyped(event.target.value)}
          />
          {error !== null && (
            <p id="import-key-error" role="alert" className="error">
              {error}
            </p>
          )}
          {earlier.length > 0 && (
            <EarlierWallets earlier={earlier} busy={busy} onSwitch={(key) => void useKey(key)} />
          )}
          <div className="dialog-actions">
            <button className="primary" type="submit" disabled={busy}>
              Import and sign in
            </button>
            <button type="button" onClick={onDone}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <ReplaceConfirm
          currentAddress={currentAddress}
          pending={pending}
          error={error}
          busy={busy}
          onReplace={() => void useKey(pending.key)}
          onBack={() => setPending(null)}
        />
      )}
    </Modal>
  );
}

/** The arcade wallets this browser had before, each one click from being used again. */
function EarlierWallets({
  earlier,
  busy,
  onSwitch,
}: {
  earlier: readonly { key: Hex; address: string }[];
  busy: boolean;
  onSwitch: (key: Hex) => void;
}) {
  return (
    <section aria-labelledby="earlier-heading" className="import-key-earlier">
      <h3 id="earlier-heading">Earlier arcade wallets in this browser</h3>
      <ul>
        {earlier.map(({ key, address }) => (
          <li key={key}>
            <code>{address}</code>
            <button type="button" disabled={busy} onClick={() => onSwitch(key)}>
              Switch back
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Asks before a pasted key replaces the arcade wallet already in this browser. */
function ReplaceConfirm({
  currentAddress,
  pending,
  error,
  busy,
  onReplace,
  onBack,
}: {
  currentAddress: string | null;
  pending: { key: Hex; address: string };
  error: string | null;
  busy: boolean;
  onReplace: () => void;
  onBack: () => void;
}) {
  return (
    <div className="import-key">
      <p className="import-key-warning" role="alert">
        Replace the arcade wallet <code>{currentAddress}</code> with <code>{pending.address}</code>?
      </p>
      <p>
        If the current wallet holds HST, export its key first or keep it here: its key stays saved
        in this browser and this dialog can switch back to it.
      </p>
      {error !== null && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      <div className="dialog-actions">
        <button className="primary" type="button" disabled={busy} onClick={onReplace}>
          Replace and sign in
        </button>
        <button type="button" disabled={busy} onClick={onBack}>
          Back
        </button>
      </div>
    </div>
  );
}
