import { useState } from 'react';
import { countText } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { Outcome, errorText } from './parts.js';

/**
 * The keys that sign players' sessions: rotate them (routine: sessions signed with the retired
 * key stay valid until they expire), or revoke every one after a leak (every session ends).
 */
export function KeysScreen({ api }: { api: AdminApi }) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);

  /** Asks first; then runs the change and says what came of it. */
  const act = async (question: string, change: () => Promise<string>, failed: string) => {
    if (!window.confirm(question)) return;
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome({ text: await change(), tone: 'ok' });
    } catch (e) {
      setOutcome({ text: `${failed}: ${errorText(e)}`, tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  const rotate = () =>
    act(
      'Rotate the sign-in signing key now?',
      async () => {
        const rotated = await api.rotateKeys();
        return (
          `Rotated: new key ${rotated.kid} signs from now on` +
          (rotated.retiredKid === null
            ? '.'
            : `; ${rotated.retiredKid} is retired and stays published until its last session expires.`)
        );
      },
      'Could not rotate the keys',
    );

  const revoke = () =>
    act(
      'Revoke every signing key? Every player is signed out at once and game servers refuse ' +
        'the tokens they hold: do this after a leak only.',
      async () => {
        const revoked = await api.revokeKeys();
        return (
          `Revoked ${countText(revoked.revokedKids.length, 'key')}: new key ${revoked.kid} ` +
          'signs from now on, and every session signed before is refused.'
        );
      },
      'Could not revoke the keys',
    );

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
      <p>
        A rotation does not stop whoever holds a leaked key: its sessions keep working. After a
        leak, revoke every key instead: every player is signed out at once, and game servers refuse
        the tokens they hold once their cached keys expire.
      </p>
      <button type="button" className="danger" disabled={busy} onClick={() => void revoke()}>
        Revoke every signing key
      </button>
      <Outcome text={outcome?.text ?? null} tone={outcome?.tone ?? 'ok'} />
    </section>
  );
}
