import { useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import type { DeveloperGame } from '@coinop/protocol';
import { Modal } from '../components/modal.js';
import { useCopy } from '../components/toasts.js';
import { useSession } from '../session/session.js';
import { portalApi, type PortalApi } from './portal-api.js';

/** Small pieces the portal pages share. */

export function usePortalApi(): PortalApi {
  const { call } = useSession();
  return useMemo(() => portalApi(call), [call]);
}

/** A date and time in the reader's locale; the ISO string stays in `dateTime`. */
export function When({ iso }: { iso: string }) {
  return <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;
}

/** The demo arcade hosting a game, with its board's order and score unit as the game has them. */
export function demoAddress(
  game: Pick<DeveloperGame, 'url' | 'scoreDisplay' | 'scoreUnit'>,
): string {
  const query = new URLSearchParams({ game: game.url });
  if (game.scoreDisplay === 'REVERSE') query.set('scoreDisplay', 'REVERSE');
  if (game.scoreUnit !== '') query.set('scoreUnit', game.scoreUnit);
  return `/demo?${query}`;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function ErrorAlert({ error }: { error: string | null }) {
  if (error === null) return null;
  return (
    <p role="alert" className="error">
      {error}
    </p>
  );
}

/** A polite live region; empty when there is nothing to say. */
export function Status({ text }: { text: string | null }) {
  return (
    <p role="status" aria-live="polite" className="notice">
      {text}
    </p>
  );
}

function CopyButton({ value, label }: { value: string; label: string }) {
  const copy = useCopy();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <button
      type="button"
      className={copied ? 'copied' : undefined}
      onClick={() => void copy(value, label).then(setCopied)}
      aria-label={`Copy ${label}`}
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

/** How long a Copy button reads "Copied". */
const COPIED_MS = 2_000;

/** A read-only, selectable value with a Copy button: ids, keys, secrets. */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input
          id={id}
          readOnly
          value={value}
          spellCheck={false}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={value} label={label} />
      </div>
    </div>
  );
}

/** A code snippet with a Copy button. */
export function CodeBlock({ label, code }: { label: string; code: string }) {
  const id = useId();
  return (
    <figure className="code-block">
      <figcaption id={id}>{label}</figcaption>
      <pre tabIndex={0} aria-labelledby={id}>
        <code>{code}</code>
      </pre>
      <CopyButton value={code} label={label} />
    </figure>
  );
}

/** A secret shown this once, with the warning that says so. */
export function ShownOnce({
  title,
  children,
  onDismiss,
}: {
  title: string;
  children: ReactNode;
  onDismiss: () => void;
}) {
  return (
    <div className="shown-once" role="region" aria-label={title}>
      <h3>{title}</h3>
      <p className="warning">
        Copy it now and keep it somewhere safe: it is shown only this once. The arcade keeps only a
        hash of it and cannot show it again.
      </p>
      {children}
      <button type="button" onClick={onDismiss}>
        I have copied it
      </button>
    </div>
  );
}

/** Asks before a destructive action; `onConfirm` runs the action and closes on success. */
export function ConfirmDialog({
  title,
  confirmLabel,
  children,
  onConfirm,
  onDone,
}: {
  title: string;
  confirmLabel: string;
  children: ReactNode;
  onConfirm: () => Promise<void>;
  onDone: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      onDone();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };
  return (
    <Modal title={title} onCancel={onDone}>
      {children}
      <ErrorAlert error={error} />
      <div className="dialog-actions">
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <button type="button" className="danger" disabled={busy} onClick={() => void confirm()}>
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
