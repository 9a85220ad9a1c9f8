import { useEffect, useState } from 'react';
import type { ReviewClient } from './review-client.js';
import { VerifierVerdict } from './verifier-verdict.js';

/**
 * The replay the score (or the refused attempt) came with, as text the reviewer can read, copy or
 * download (the verifier's input: the game's own format, JSON text typically), and the game's
 * verifier re-run on it.
 */
export function ReplayPanel({ client, reviewId }: { client: ReviewClient; reviewId: string }) {
  const [replay, setReplay] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    client.replay(reviewId).then(
      (text) => live && setReplay(text),
      (e: unknown) => live && setStatus(`Could not load the replay: ${(e as Error).message}`),
    );
    return () => {
      live = false;
    };
  }, [client, reviewId]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(replay ?? '');
      setStatus('Replay copied.');
    } catch {
      setStatus('Could not copy: select the text and copy it yourself.');
    }
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([replay ?? ''], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `replay-${reviewId}.txt`;
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <section className="review-replay" aria-label="Replay">
      <h3>Replay</h3>
      {replay === null ? (
        status === null && <p role="status">Loading the replay…</p>
      ) : (
        <>
          <pre tabIndex={0}>{replay}</pre>
          <div className="review-buttons">
            <button type="button" onClick={() => void copy()}>
              Copy
            </button>
            <button type="button" onClick={download}>
              Download replay
            </button>
            <span className="review-muted">{new Blob([replay]).size} bytes</span>
          </div>
          <VerifierVerdict client={client} reviewId={reviewId} />
        </>
      )}
      <p role="status" aria-live="polite" className="review-muted">
        {status}
      </p>
    </section>
  );
}
