import { useId, useState, type FormEvent } from 'react';
import type { ReviewItem } from '@coinop/protocol';
import type { ReviewClient } from './review-client.js';

const REASON_MAX = 500;

/**
 * Approve (the score stands) or void (it leaves its board, held payouts re-settle) an open
 * review, with the reason the player reads in their history: required.
 */
export function ResolveForm({
  client,
  item,
  onResolved,
}: {
  client: ReviewClient;
  item: ReviewItem;
  onResolved: (item: ReviewItem, action: 'approve' | 'void') => void;
}) {
  const ids = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const act = async (event: FormEvent, action: 'approve' | 'void') => {
    event.preventDefault();
    if (reason.trim() === '') {
      setError('Give a reason: the player reads it in their history.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onResolved(await client.resolve(item.id, action, reason.trim()), action);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="review-resolve" onSubmit={(e) => void act(e, 'approve')} noValidate>
      <label htmlFor={`${ids}-reason`}>Reason (the player reads it)</label>
      <textarea
        id={`${ids}-reason`}
        rows={2}
        maxLength={REASON_MAX}
        required
        value={reason}
        aria-invalid={error !== null}
        aria-describedby={error !== null ? `${ids}-error` : undefined}
        onChange={(e) => {
          setReason(e.target.value);
          setError(null);
        }}
      />
      {error !== null && (
        <p id={`${ids}-error`} role="alert" className="review-error">
          {error}
        </p>
      )}
      <div className="review-buttons">
        <button type="submit" className="primary" disabled={busy}>
          Approve: keep the score
        </button>
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={(e) => void act(e, 'void')}
        >
          Void the score
        </button>
      </div>
    </form>
  );
}
