import { useId, useState, type FormEvent } from 'react';
import { groupedNumber } from '@coinop/protocol';
import { msText } from '../components/score.js';
import { ErrorAlert, errorText, usePortalApi } from './parts.js';
import type { VerifierCheck } from './portal-api.js';

const SEED = /^[0-9a-f]{64}$/;

/**
 * Runs the game's current verifier on a pasted replay, in the arcade's sandbox with its limits:
 * what a score with that replay would get.
 */
export function VerifierCheckForm({ gameId }: { gameId: string }) {
  const api = usePortalApi();
  const ids = { replay: useId(), score: useId(), seed: useId() };
  const [replay, setReplay] = useState('');
  const [score, setScore] = useState('');
  const [seed, setSeed] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<VerifierCheck | null>(null);

  const run = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setResult(null);
    const claimed = Number(score);
    if (score.trim() === '' || !Number.isFinite(claimed)) {
      setError('The score is a number, as your game would submit it.');
      return;
    }
    if (seed !== '' && !SEED.test(seed)) {
      setError("The seed is 64 lowercase hexadecimal digits, as a play's answer carries it.");
      return;
    }
    setBusy(true);
    try {
      const body = { replay, score: claimed, ...(seed === '' ? {} : { seed }) };
      setResult(await api.checkVerifier(gameId, body));
    } catch (e) {
      setError(`Could not run the check: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="verifier-check" aria-label="Check a replay" noValidate onSubmit={run}>
      <h3>Check a replay</h3>
      <div className="field">
        <label htmlFor={ids.replay}>Replay</label>
        <textarea
          id={ids.replay}
          rows={4}
          value={replay}
          spellCheck={false}
          onChange={(e) => setReplay(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.score}>Claimed score</label>
        <input
          id={ids.score}
          inputMode="decimal"
          value={score}
          onChange={(e) => setScore(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.seed}>Seed (optional: a random one otherwise)</label>
        <input
          id={ids.seed}
          value={seed}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setSeed(e.target.value.trim())}
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Checking…' : 'Run the verifier'}
        </button>
      </div>
      <ErrorAlert error={error} />
      {result && <CheckResult result={result} />}
    </form>
  );
}

/** The outcome as a score would meet it. */
function CheckResult({ result: r }: { result: VerifierCheck }) {
  return (
    <p role="status" className={r.ok ? 'notice' : 'error'}>
      {r.ok
        ? `Accepted: the replay earns ${groupedNumber(r.computed ?? '')}.`
        : `Refused (${r.reason}): ${r.detail}.`}{' '}
      <span className="muted">
        Version {r.version}, seed {r.seed.slice(0, 12)}…, {msText(r.durationMs)}.
      </span>
    </p>
  );
}
