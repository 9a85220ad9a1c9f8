import { useState } from 'react';
import type { ReviewVerdict } from '@coinop/protocol';
import type { ReviewClient } from './review-client.js';

/** The verdict as a reviewer reads it: what the verifier made of the replay, and which one ran. */
function verdictText(v: ReviewVerdict): string {
  const version = v.verifierVersion === null ? '' : ` (verifier v${v.verifierVersion})`;
  if (v.verdict === 'reproduced') return `Reproduced: ${v.detail}${version}.`;
  if (v.verdict === 'no_verifier') return `Not checked: ${v.detail}.`;
  return `Not reproduced: ${v.detail}${version}.`;
}

/**
 * Re-runs the game's current verifier on the replay, on demand: evidence for the decision, not
 * the decision (docs/reference/review-queue.md#replays). A verifier fixed since the score arrived
 * judges it afresh.
 */
export function VerifierVerdict({ client, reviewId }: { client: ReviewClient; reviewId: string }) {
  const [verdict, setVerdict] = useState<ReviewVerdict | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [running, setRunning] = useState(false);

  const run = async () => {
    setRunning(true);
    setStatus('Running the verifier…');
    try {
      setVerdict(await client.verify(reviewId));
      setStatus(null);
    } catch (e) {
      setStatus(`Could not run the verifier: ${(e as Error).message}`);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className="review-verdict">
      <button type="button" onClick={() => void run()} disabled={running}>
        Re-run verifier
      </button>
      <p
        role="status"
        aria-live="polite"
        className={verdict === null ? 'review-muted' : `review-verdict-${verdict.verdict}`}
      >
        {status ?? (verdict === null ? '' : verdictText(verdict))}
      </p>
    </div>
  );
}
