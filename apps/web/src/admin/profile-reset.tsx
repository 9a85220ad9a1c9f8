import { useId, useState, type FormEvent } from 'react';
import type { AdminApi } from './admin-api.js';
import { Outcome, errorText } from './parts.js';

/**
 * The player screen's reset of an abusive name and avatar (docs/concepts/profiles.md): the name
 * back to the default, an uploaded avatar removed, the reason kept.
 */
export function ProfileResetForm({
  api,
  player,
  onReset,
}: {
  api: AdminApi;
  player: string;
  onReset: () => void;
}) {
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
