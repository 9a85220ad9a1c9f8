import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { DeveloperGame, PublishRequest } from '@coinop/protocol';
import { useNotifications } from '../live/live.js';
import { Link } from '../router.js';
import { ErrorAlert, Status, When, errorText, usePortalApi } from './parts.js';
import './publish-section.css';

/** As the server takes it: a few paragraphs. */
const NOTE_MAX = 1000;

/**
 * Calls `arrived` when the operator's decision on one of the game's publish requests reaches the
 * live stream (a `publish_approved` or `publish_declined` notification, issue 31), so the section
 * shows it without a reload.
 */
function useDecisionArrives(gameId: string, arrived: () => void) {
  const { notifications } = useNotifications();
  const latest =
    notifications.find(
      (n) =>
        (n.kind === 'publish_approved' || n.kind === 'publish_declined') && n.gameId === gameId,
    )?.id ?? null;
  const seen = useRef(latest);
  const callback = useRef(arrived);
  callback.current = arrived;
  useEffect(() => {
    if (latest === null || latest === seen.current) return;
    seen.current = latest;
    callback.current();
  }, [latest]);
}

/**
 * Publishing (issue 17): preview the game in the arcade, ask the operator to list it in the
 * catalog, see what they decided (and why, when they declined), or withdraw a waiting request.
 * `onChange` reloads the game when a request finds it published meanwhile.
 */
export function PublishSection({
  game,
  onChange,
}: {
  game: DeveloperGame;
  onChange: () => Promise<void>;
}) {
  const api = usePortalApi();
  const [latest, setLatest] = useState<PublishRequest | null | undefined>(undefined);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const reload = useCallback(async () => {
    const [first] = await api.listPublishRequests(game.id);
    setLatest(first ?? null);
  }, [api, game.id]);
  useEffect(() => {
    reload().catch((e: unknown) =>
      setError(`Could not load the publish requests: ${errorText(e)}`),
    );
  }, [reload]);
  useDecisionArrives(game.id, () => {
    setStatus(null);
    reload().catch(() => undefined);
    onChange().catch(() => undefined);
  });

  const request = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setStatus(null);
    setBusy(true);
    try {
      const sent = await api.requestPublishing(game.id, note.trim());
      setLatest(sent);
      setNote('');
      setStatus('Request sent: the operator will review your game.');
    } catch (e) {
      setError(`Could not send the request: ${errorText(e)}`);
      await onChange().catch(() => undefined);
    } finally {
      setBusy(false);
    }
  };

  const withdraw = async (pending: PublishRequest) => {
    setError(null);
    setStatus(null);
    setBusy(true);
    try {
      setLatest(await api.withdrawPublishRequest(game.id, pending.requestId));
      setStatus('Request withdrawn.');
    } catch (e) {
      setError(`Could not withdraw the request: ${errorText(e)}`);
      await reload().catch(() => undefined);
    } finally {
      setBusy(false);
    }
  };

  const previewHref = `/games/${encodeURIComponent(game.id)}`;
  return (
    <section className="portal-section publish-section" aria-labelledby="publish-heading">
      <h2 id="publish-heading">Publishing</h2>
      {game.published ? (
        <p>
          <span className="badge live">Published</span> The game is in the arcade&apos;s catalog.{' '}
          <Link href={previewHref}>See its page</Link>
        </p>
      ) : (
        <p className="muted">
          Only you and your testers can open it now:{' '}
          <Link href={previewHref}>preview it in the arcade</Link> signed in with this wallet. When
          it is ready, ask the operator to list it in the catalog.
        </p>
      )}
      {latest === undefined && error === null && <p role="status">Loading…</p>}
      {latest && !game.published && <RequestState request={latest} />}
      {latest?.state === 'pending' && !game.published && (
        <div className="form-actions">
          <button type="button" disabled={busy} onClick={() => void withdraw(latest)}>
            Withdraw request
          </button>
        </div>
      )}
      {latest !== undefined && latest?.state !== 'pending' && !game.published && (
        <RequestForm note={note} setNote={setNote} busy={busy} onSubmit={(e) => void request(e)} />
      )}
      <ErrorAlert error={error} />
      <Status text={status} />
    </section>
  );
}

/** Asking the operator to list the game, with an optional note. */
function RequestForm({
  note,
  setNote,
  busy,
  onSubmit,
}: {
  note: string;
  setNote: (note: string) => void;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
}) {
  const noteId = useId();
  const hintId = useId();
  return (
    <form aria-label="Request publishing" onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor={noteId}>Note to the operator (optional)</label>
        <textarea
          id={noteId}
          value={note}
          maxLength={NOTE_MAX}
          rows={3}
          aria-describedby={hintId}
          onChange={(e) => setNote(e.target.value)}
        />
        <p id={hintId} className="hint">
          What the operator should know: what the game is, what changed since a decline.
        </p>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Request publishing
        </button>
      </div>
    </form>
  );
}

function RequestState({ request }: { request: PublishRequest }) {
  switch (request.state) {
    case 'pending':
      return (
        <p className="publish-state" data-state="pending">
          <span className="badge">Waiting for review</span> Requested{' '}
          <When iso={request.requestedAt} />.
        </p>
      );
    case 'declined':
      return (
        <div className="publish-state" data-state="declined">
          <p>
            <span className="badge declined">Declined</span> The operator declined your request of{' '}
            <When iso={request.requestedAt} />:
          </p>
          <blockquote className="decline-reason">{request.declineReason}</blockquote>
          <p className="muted">Address it, then request publishing again.</p>
        </div>
      );
    case 'withdrawn':
      return (
        <p className="publish-state muted" data-state="withdrawn">
          You withdrew your last request.
        </p>
      );
    case 'approved':
      // Approved, then taken off the catalog by the operator: it may be requested again.
      return (
        <p className="publish-state muted" data-state="approved">
          The operator approved a request of <When iso={request.requestedAt} />, then took the game
          off the catalog.
        </p>
      );
  }
}
