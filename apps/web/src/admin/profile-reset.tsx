import { useEffect, useId, useState, type FormEvent } from 'react';
import type { PublicPlayerProfile } from '@coinop/protocol';
import { Avatar } from '../components/avatar.js';
import { getPublicProfile } from '../profiles/profiles-api.js';
import type { AdminApi } from './admin-api.js';
import { Outcome, errorText } from './parts.js';

/**
 * The player screen's reset of an abusive name and avatar (docs/concepts/profiles.md): the name
 * back to the default, an uploaded avatar removed, the reason kept.
 */
export function ProfileResetForm({
  api,
  player,
  playerId,
  reloadKey,
  onReset,
}: {
  api: AdminApi;
  player: string;
  playerId: string;
  /** Changes when the screen reads the player again (after a reset). */
  reloadKey: number;
  onReset: () => void;
}) {
  const shown = usePublicFace(playerId, reloadKey);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);
  const reasonId = useId();
  const hintId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setOutcome(null);
    try {
      const reset = await api.resetProfile(player, reason.trim());
      setOutcome({
        text: `Reset: ${reset.previousName} is ${reset.name} again, with the generated picture.`,
        tone: 'ok',
      });
      setReason('');
      onReset();
    } catch (e) {
      setOutcome({ text: `Could not reset the profile: ${errorText(e)}`, tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby={`${reasonId}-h`} className="admin-panel">
      <h2 id={`${reasonId}-h`}>Reset profile</h2>
      {shown !== null && (
        <p className="admin-profile-face">
          <Avatar src={shown.avatar} playerId={shown.playerId} size={32} />
          <span>
            {shown.name}: {shown.nameChosen ? 'a name they chose' : 'the default name'},{' '}
            {shown.avatarUploaded ? 'a picture they uploaded' : 'the generated picture'}.
          </span>
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label htmlFor={reasonId}>Reason</label>
          <input
            id={reasonId}
            value={reason}
            maxLength={500}
            autoComplete="off"
            aria-describedby={hintId}
            onChange={(e) => setReason(e.target.value)}
          />
          <p id={hintId} className="hint">
            The name goes back to the short wallet form and an uploaded picture is removed. The
            reason is kept with the old name; the player may choose again.
          </p>
        </div>
        <button type="submit" className="danger" disabled={busy || reason.trim().length < 3}>
          Reset name and picture
        </button>
      </form>
      {outcome !== null && <Outcome text={outcome.text} tone={outcome.tone} />}
    </section>
  );
}

/** The name and picture everyone sees, read again whenever the player screen reloads. */
function usePublicFace(playerId: string, reloadKey: unknown): PublicPlayerProfile | null {
  const [shown, setShown] = useState<PublicPlayerProfile | null>(null);
  useEffect(() => {
    const abort = new AbortController();
    getPublicProfile(playerId, abort.signal).then(setShown, () => setShown(null));
    return () => abort.abort();
  }, [playerId, reloadKey]);
  return shown;
}
