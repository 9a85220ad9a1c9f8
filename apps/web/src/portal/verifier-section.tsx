import { useCallback, useEffect, useId, useState, type ChangeEvent } from 'react';
import type { DeveloperGame } from '@coinop/protocol';
import { ApiError } from '../api.js';
import { ErrorAlert, Status, When, errorText, usePortalApi } from './parts.js';
import type { VerifierVersion } from './portal-api.js';
import { VerifierCheckForm } from './verifier-check-form.js';

/** The largest module the arcade takes (413 verifier_too_large past it). */
const MODULE_MAX_BYTES = 256 * 1024;

/**
 * The game's replay verifier (docs/reference/verifier.md): the current version's facts, a file
 * to upload as the next version, and a bench to try it on a replay as a score would be.
 */
export function VerifierSection({ game }: { game: DeveloperGame }) {
  const api = usePortalApi();
  const inputId = useId();
  // undefined: loading; null: the game has none.
  const [current, setCurrent] = useState<VerifierVersion | null | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setCurrent(await api.getVerifier(game.id));
    } catch (e) {
      if (e instanceof ApiError && e.code === 'verifier_not_found') setCurrent(null);
      else setError(`Could not load the verifier: ${errorText(e)}`);
    }
  }, [api, game.id]);
  // The game says whether it has a verifier: one without is not asked for it (that is a 404).
  const hasVerifier = game.verifierVersion !== null;
  useEffect(() => {
    if (hasVerifier) void reload();
    else setCurrent(null);
  }, [reload, hasVerifier]);

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file === undefined) return;
    setError(null);
    setStatus(null);
    if (file.size > MODULE_MAX_BYTES) {
      setError(`${file.name} is ${file.size} bytes; a verifier is at most 256 KiB.`);
      return;
    }
    setBusy(true);
    try {
      const stored = await api.uploadVerifier(game.id, await file.text());
      setStatus(`${file.name} is version ${stored.version}: it checks this game's replays now.`);
      await reload();
    } catch (e) {
      setError(`Could not upload ${file.name}: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="portal-section" aria-labelledby="verifier-heading">
      <h2 id="verifier-heading">Replay verifier</h2>
      <p className="muted">
        A JavaScript module exporting <code>verify({'{ seed, replay, score }'})</code> that
        recomputes a score from the play&apos;s seed and the replay your game sends with it. A tier
        that requires replays pays only scores it reproduces. See the verifier reference for the
        module&apos;s shape and limits.
      </p>
      {current === undefined ? (
        error === null && <p role="status">Loading…</p>
      ) : current === null ? (
        <p>No verifier yet: upload one before a tier may require replays.</p>
      ) : (
        <VerifierFacts version={current} />
      )}
      <div className="field">
        <label htmlFor={inputId}>
          {current ? 'Upload a new version (.js)' : 'Upload a verifier (.js)'}
        </label>
        <input
          id={inputId}
          type="file"
          accept=".js,.mjs,text/javascript,application/javascript"
          disabled={busy}
          onChange={(e) => void upload(e)}
        />
      </div>
      <ErrorAlert error={error} />
      <Status text={status} />
      {current && <VerifierCheckForm gameId={game.id} />}
    </section>
  );
}

/** The current version: number, size, digest, upload time. */
function VerifierFacts({ version: v }: { version: VerifierVersion }) {
  return (
    <dl className="fixed-facts" aria-label="Current verifier">
      <dt>Version</dt>
      <dd>{v.version}</dd>
      <dt>Size</dt>
      <dd>{v.sizeBytes.toLocaleString()} bytes</dd>
      <dt>SHA-256</dt>
      <dd>
        <code className="digest">{v.sha256}</code>
      </dd>
      <dt>Uploaded</dt>
      <dd>
        <When iso={v.uploadedAt} />
      </dd>
    </dl>
  );
}
