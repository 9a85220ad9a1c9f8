import { useState } from 'react';
import type { AdminApi } from './admin-api.js';
import { Outcome, errorText } from './parts.js';

/**
 * The keys that sign players' sessions: rotate them (a suspected leak, or routine). Sessions
 * signed with the retired key stay valid until they expire; new ones use the new key.
 */
export function KeysScreen({ api }: { api: AdminApi }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);

  const rotate = async () => {
    if (!window.confirm('Rotate the sign-in signing key now?')) return;
    setBusy(true);
    setOutcome(null);
    try {
      const rotated = await api.rotateKeys();
      setOutcome({
        text:
          `Rotated: new key ${rotated.kid} signs from now on` +
          (rotated.retiredKid === null
            ? '.'
            : `; ${rotated.retiredKid} is retired and stays published until its last session expires.`),
        tone: 'ok',
      });
    } catch (e) {
      setOutcome({ text: `Could not rotate the keys: ${errorText(e)}`, tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="keys-heading">
      <h1 id="keys-heading">Sign-in keys</h1>
      <p>
        The sign-in service signs players&apos; sessions with one key at a time. Rotating retires
        it: sessions it signed keep working until they expire (the JWKS keeps publishing it until
        then), and every new session is signed with a new key.
      </p>
      <button type="button" className="primary" disabled={busy} onClick={() => void rotate()}>
        Rotate the signing key
      </button>
      <Outcome text={outcome?.text ?? null} tone={outcome?.tone ?? 'ok'} />
    </section>
  );
}
