import { useState, type Dispatch, type SetStateAction } from 'react';
import type { ClientSecret, DeveloperGame, GameClient } from '@coinop/protocol';
import {
  ConfirmDialog,
  CopyField,
  ErrorAlert,
  ShownOnce,
  Status,
  When,
  errorText,
  usePortalApi,
} from './parts.js';

/**
 * The game server's client credentials: create, rotate, revoke. A secret is shown once, then
 * dropped from memory.
 */
export function CredentialsSection({
  game,
  onChange,
}: {
  game: DeveloperGame;
  onChange: () => Promise<void>;
}) {
  const api = usePortalApi();
  const [secret, setSecret] = useState<ClientSecret | null>(null);
  const [confirming, setConfirming] = useState<{
    action: 'rotate' | 'revoke';
    clientId: string;
  } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const create = async () => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      setSecret(await api.createClient(game.id));
      setStatus('Client credentials created.');
      await onChange();
    } catch (e) {
      setError(`Could not create client credentials: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="portal-section" aria-labelledby="clients-heading">
      <div className="section-head">
        <h2 id="clients-heading">Game server credentials</h2>
        <button type="button" className="primary" disabled={busy} onClick={() => void create()}>
          Create client credentials
        </button>
      </div>
      <p className="muted">
        Your game server exchanges a client id and secret for a write token (
        <code>POST /oauth/writetoken</code>) to open plays and submit scores. Keep the secret on the
        server only, never in the game&apos;s page.
      </p>
      <ErrorAlert error={error} />
      <Status text={status} />
      {secret !== null && (
        <ShownOnce title="Your client secret" onDismiss={() => setSecret(null)}>
          <CopyField label="Client id" value={secret.clientId} />
          <CopyField label="Client secret" value={secret.clientSecret} />
        </ShownOnce>
      )}
      {game.clients.length === 0 ? (
        <p>No client credentials yet.</p>
      ) : (
        <ul className="portal-list">
          {game.clients.map((client) => (
            <ClientCard
              key={client.clientId}
              client={client}
              onConfirm={(action) => setConfirming({ action, clientId: client.clientId })}
            />
          ))}
        </ul>
      )}
      {confirming !== null && (
        <ClientActionDialog
          gameId={game.id}
          confirming={confirming}
          onDone={() => setConfirming(null)}
          setSecret={setSecret}
          setStatus={setStatus}
          onChange={onChange}
        />
      )}
    </section>
  );
}

/** A client: its id and dates, and (while live) rotating its secret or revoking it. */
function ClientCard({
  client,
  onConfirm,
}: {
  client: GameClient;
  onConfirm: (action: 'rotate' | 'revoke') => void;
}) {
  return (
    <li className="portal-card">
      <span className="card-title mono">{client.clientId}</span>
      <span className="muted">
        Created <When iso={client.createdAt} />
        {client.revokedAt !== null && (
          <>
            {', '}revoked <When iso={client.revokedAt} />
          </>
        )}
      </span>
      {client.revokedAt === null && (
        <div className="row-actions">
          <button
            type="button"
            aria-label={`Rotate secret of ${client.clientId}`}
            onClick={() => onConfirm('rotate')}
          >
            Rotate secret
          </button>
          <button
            type="button"
            aria-label={`Revoke client ${client.clientId}`}
            onClick={() => onConfirm('revoke')}
          >
            Revoke
          </button>
        </div>
      )}
    </li>
  );
}

/** Asks before rotating a client's secret (shown once) or revoking the client, then does it. */
function ClientActionDialog({
  gameId,
  confirming,
  onDone,
  setSecret,
  setStatus,
  onChange,
}: {
  gameId: string;
  confirming: { action: 'rotate' | 'revoke'; clientId: string };
  onDone: () => void;
  setSecret: Dispatch<SetStateAction<ClientSecret | null>>;
  setStatus: (status: string) => void;
  onChange: () => Promise<void>;
}) {
  const api = usePortalApi();
  return (
    <>
      {confirming?.action === 'rotate' && (
        <ConfirmDialog
          title="Rotate the client secret?"
          confirmLabel="Rotate secret"
          onDone={onDone}
          onConfirm={async () => {
            setSecret(await api.rotateClient(gameId, confirming.clientId));
            setStatus('New client secret created.');
            await onChange();
          }}
        >
          <p>
            A new secret replaces the old one at once: your game server cannot get new write tokens
            with the old secret (those it already has last until they expire).
          </p>
        </ConfirmDialog>
      )}
      {confirming?.action === 'revoke' && (
        <ConfirmDialog
          title="Revoke these credentials?"
          confirmLabel="Revoke client"
          onDone={onDone}
          onConfirm={async () => {
            await api.revokeClient(gameId, confirming.clientId);
            setSecret((s) => (s?.clientId === confirming.clientId ? null : s));
            setStatus(`Client ${confirming.clientId} revoked.`);
            await onChange();
          }}
        >
          <p>
            Client <span className="mono">{confirming.clientId}</span> stops working at once and
            cannot be used again.
          </p>
        </ConfirmDialog>
      )}
    </>
  );
}
