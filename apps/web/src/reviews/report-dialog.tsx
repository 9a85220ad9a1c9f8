import { useId, useState, type FormEvent } from 'react';
import { ReportReasons, type ReportReason } from '@coinop/protocol';
import { Modal } from '../components/modal.js';
import { useToast } from '../components/toasts.js';
import { errorText } from '../portal/parts.js';
import { useSession } from '../session/session.js';

const REASON_LABELS: Record<ReportReason, string> = {
  impossible: 'Impossible score',
  bot: 'Looks like a bot',
  bug: 'Used a bug in the game',
  other: 'Something else',
};
const NOTE_MAX = 300;

/**
 * Reports another player's best on a board to the arcade's reviewers (docs/reference/
 * review-queue.md): a reason and an optional note, then a toast. Nothing moves; the reviewers
 * decide.
 */
export function ReportDialog({
  leaderboardId,
  player,
  onDone,
}: {
  leaderboardId: string;
  player: { playerId: string; name: string };
  onDone: () => void;
}) {
  const { call } = useSession();
  const toast = useToast();
  const ids = useId();
  const [reason, setReason] = useState<ReportReason>('impossible');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const path = `/player/boards/${leaderboardId}/players/${player.playerId}/report`;
      const answer = await call<{ created: boolean }>(path, {
        reason,
        ...(note.trim() === '' ? {} : { note: note.trim() }),
      });
      toast(
        answer.created
          ? `Thanks: ${player.name}'s score is with the reviewers.`
          : `You reported ${player.name}'s score already; the reviewers have it.`,
      );
      onDone();
    } catch (e) {
      setError(errorText(e));
      setBusy(false);
    }
  };

  return (
    <Modal title={`Report ${player.name}'s score`} onCancel={onDone}>
      <form onSubmit={submit} className="report-form">
        <p>The arcade&apos;s reviewers look at it. Nothing changes on the board until they do.</p>
        <fieldset>
          <legend>Why?</legend>
          {ReportReasons.map((r) => (
            <label key={r} className="report-reason">
              <input
                type="radio"
                name={`${ids}-reason`}
                value={r}
                checked={reason === r}
                onChange={() => setReason(r)}
              />
              {REASON_LABELS[r]}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${ids}-note`}>What did you see? (optional)</label>
        <textarea
          id={`${ids}-note`}
          maxLength={NOTE_MAX}
          rows={3}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
        {error !== null && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button className="primary" type="submit" disabled={busy}>
            Send report
          </button>
          <button type="button" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
