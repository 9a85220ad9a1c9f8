import { useCallback, useId, useState, type FormEvent } from 'react';
import type { QueuedPublishRequest } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { Outcome, When, errorText, usePaged } from './parts.js';
import { checksummed } from '../components/address.js';

/**
 * The publish queue: developers' requests, oldest first, each with what the operator decides on
 * (the game's pitch, where it is hosted, its cover, its developer and tiers). Approving publishes
 * the game; declining needs a reason, which the developer reads in the portal.
 */
export function QueueScreen({ api }: { api: AdminApi }) {
  const [all, setAll] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);
  const load = useCallback((after: string | null) => api.publishQueue({ all, after }), [api, all]);
  const { items, next, error, reload, more } = usePaged(load);

  const decided = async (what: string, action: () => Promise<QueuedPublishRequest>) => {
    setOutcome(null);
    try {
      const request = await action();
      setOutcome({ text: `${request.gameName}: ${what}.`, tone: 'ok' });
    } catch (e) {
      setOutcome({ text: `Could not decide: ${errorText(e)}`, tone: 'error' });
    }
    await reload();
  };

  return (
    <section aria-labelledby="queue-heading">
      <h1 id="queue-heading">Publish queue</h1>
      <p className="admin-muted">
        Developers ask for their games to be listed in the catalog. Until you approve, only the
        developer and their testers can open a game.
      </p>
      <label className="admin-check">
        <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} /> Show
        decided and withdrawn requests too
      </label>
      <Outcome text={outcome?.text ?? null} tone={outcome?.tone ?? 'ok'} />
      {error !== null && <Outcome text={`Could not load the queue: ${error}`} tone="error" />}
      {items === null ? (
        error === null && <p role="status">Loading…</p>
      ) : items.length === 0 ? (
        <p className="admin-empty">No requests waiting. New ones appear here, oldest first.</p>
      ) : (
        <ul className="admin-cards" aria-label="Publish requests">
          {items.map((r) => (
            <RequestCard
              key={r.requestId}
              request={r}
              onApprove={() => decided('approved and published', () => api.approve(r.requestId))}
              onDecline={(reason) => decided('declined', () => api.decline(r.requestId, reason))}
            />
          ))}
        </ul>
      )}
      {next !== null && (
        <button type="button" onClick={() => void more()}>
          More requests
        </button>
      )}
    </section>
  );
}

function RequestCard({
  request,
  onApprove,
  onDecline,
}: {
  request: QueuedPublishRequest;
  onApprove: () => Promise<void>;
  onDecline: (reason: string) => Promise<void>;
}) {
  const headingId = useId();
  const reasonId = useId();
  const [declining, setDeclining] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const { game } = request;
  const pending = request.state === 'pending';

  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  const submitDecline = (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim() === '') {
      setReasonError('Say why: the developer reads it in the portal.');
      return;
    }
    void run(() => onDecline(reason.trim()));
  };

  return (
    <li className="admin-card" aria-labelledby={headingId} data-request={request.requestId}>
      <div className="admin-card-head">
        {game.coverUrl !== '' && <img className="admin-cover" src={game.coverUrl} alt="" />}
        <div>
          <h2 id={headingId}>{request.gameName}</h2>
          {game.tagLine !== '' && <p className="admin-tagline">{game.tagLine}</p>}
          {game.coverUrl === '' && (
            <p className="admin-muted">No cover yet: the catalog shows a tile with its initial.</p>
          )}
          <p>
            <span className={`admin-badge state-${request.state}`}>{request.state}</span>{' '}
            <span className="admin-muted">
              requested <When iso={request.requestedAt} />
            </span>
          </p>
        </div>
      </div>
      <RequestFacts request={request} />
      {pending && (
        <div className="admin-actions">
          <button
            type="button"
            className="primary"
            disabled={busy}
            onClick={() => void run(onApprove)}
          >
            Approve and publish
          </button>
          <button type="button" disabled={busy} onClick={() => setDeclining((d) => !d)}>
            {declining ? 'Keep it' : 'Decline…'}
          </button>
        </div>
      )}
      {pending && declining && (
        <form className="admin-decline" onSubmit={submitDecline} noValidate>
          <div className="field">
            <label htmlFor={reasonId}>Reason for the developer</label>
            <textarea
              id={reasonId}
              rows={3}
              maxLength={1000}
              value={reason}
              onChange={(e) => {
                setReason(e.target.value);
                setReasonError(null);
              }}
            />
          </div>
          {reasonError !== null && (
            <p role="alert" className="admin-error">
              {reasonError}
            </p>
          )}
          <button type="submit" disabled={busy}>
            Decline request
          </button>
        </form>
      )}
    </li>
  );
}

/** What the operator decides on: the game as it is now, and what the developer said. */
function RequestFacts({ request }: { request: QueuedPublishRequest }) {
  const { game } = request;
  return (
    <>
      <dl className="admin-facts">
        <dt>Developer</dt>
        <dd className="admin-mono">{checksummed(game.developerWallet)}</dd>
        <dt>Hosted at</dt>
        <dd className="admin-mono">
          {game.url === '' ? (
            <span className="admin-muted">not set</span>
          ) : (
            <a href={game.url} target="_blank" rel="noreferrer noopener">
              {game.url}
            </a>
          )}
        </dd>
        <dt>Category</dt>
        <dd>{game.category === '' ? <span className="admin-muted">none</span> : game.category}</dd>
        <dt>Tiers</dt>
        <dd>{game.tiers}</dd>
        <dt>Game now</dt>
        <dd>{game.state}</dd>
        <dt>Game id</dt>
        <dd className="admin-mono">{request.gameId}</dd>
      </dl>
      {game.description !== '' && <p className="admin-description">{game.description}</p>}
      {request.note !== '' && (
        <>
          <p className="admin-note-label">The developer&apos;s note:</p>
          <blockquote className="admin-quote">{request.note}</blockquote>
        </>
      )}
      {request.declineReason !== null && (
        <p>
          Declined: <q>{request.declineReason}</q>
        </p>
      )}
    </>
  );
}
