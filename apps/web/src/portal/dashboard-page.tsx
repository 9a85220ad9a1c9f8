import { useCallback, useEffect, useState } from 'react';
import { Link } from '../router.js';
import { EarningsSection } from './earnings-section.js';
import { DailyActivitySection } from './daily-chart-section.js';
import { useSession } from '../session/session.js';
import type { ApiKey, DeveloperGame, NewApiKey } from '@coinop/protocol';
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
import { useTitle } from '../components/page-title.js';
import { Address } from '../components/address.js';

/** `/developer`: the developer's games, earnings (and their withdrawals) and API keys. */
export function DashboardPage() {
  useTitle('Developer portal');
  const { state } = useSession();
  const wallet = state.status === 'signed-in' ? state.player.wallet : null;
  return (
    <section className="page portal">
      <h1>Developer portal</h1>
      <p className="muted">
        Developer account of wallet {wallet === null ? 'unknown' : <Address address={wallet} />}.
      </p>
      <GamesSection />
      <EarningsSection />
      <DailyActivitySection />
      <ApiKeysSection />
    </section>
  );
}

function GamesSection() {
  const api = usePortalApi();
  const [games, setGames] = useState<readonly DeveloperGame[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    api.listGames().then(
      (list) => live && setGames(list),
      (e: unknown) => live && setError(`Could not load your games: ${errorText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api]);

  return (
    <section className="portal-section" aria-labelledby="games-heading">
      <div className="section-head">
        <h2 id="games-heading">Your games</h2>
        <Link href="/developer/games/new" className="button primary">
          Register a game
        </Link>
      </div>
      <ErrorAlert error={error} />
      {games === null && error === null && <p role="status">Loading your games…</p>}
      {games?.length === 0 && <p>No games yet. Register your first one.</p>}
      {games !== null && games.length > 0 && (
        <ul className="portal-list">
          {games.map((game) => (
            <li key={game.id} className="portal-card">
              <Link href={`/developer/games/${encodeURIComponent(game.id)}`} className="card-title">
                {game.name}
              </Link>
              <span className={game.published ? 'badge live' : 'badge'}>
                {game.published ? 'Published' : 'Not published'}
              </span>
              <span className="muted">
                {game.leaderboards.length} {game.leaderboards.length === 1 ? 'tier' : 'tiers'}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The developer's API keys: create one (shown once), list them, revoke one. */
function ApiKeysSection() {
  const api = usePortalApi();
  const [keys, setKeys] = useState<readonly ApiKey[] | null>(null);
  const [created, setCreated] = useState<NewApiKey | null>(null);
  const [revoking, setRevoking] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setKeys(await api.listKeys());
    } catch (e) {
      setError(`Could not load your API keys: ${errorText(e)}`);
    }
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);

  const create = async () => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      setCreated(await api.createKey());
      setStatus('API key created.');
      await load();
    } catch (e) {
      setError(`Could not create an API key: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="portal-section" aria-labelledby="keys-heading">
      <div className="section-head">
        <h2 id="keys-heading">API keys</h2>
        <button type="button" className="primary" disabled={busy} onClick={() => void create()}>
          Create an API key
        </button>
      </div>
      <p className="muted">
        An API key lets your tools register and update games with the <code>api-key</code> header (
        <code>POST /game/create</code>, <code>PATCH /game/update</code>) without a wallet. They take
        the cover as a <code>coverUrl</code> the arcade fetches, from a public address unless the
        operator runs coinop with <code>--allow-private-urls</code>; to upload a cover file instead,
        register the game here.
      </p>
      <ErrorAlert error={error} />
      <Status text={status} />
      {created !== null && (
        <ShownOnce title="Your new API key" onDismiss={() => setCreated(null)}>
          <CopyField label="API key" value={created.apiKey} />
        </ShownOnce>
      )}
      {keys !== null && keys.length === 0 && <p>No API keys yet.</p>}
      {keys !== null && keys.length > 0 && <ApiKeyTable keys={keys} onRevoke={setRevoking} />}
      {revoking !== null && (
        <ConfirmDialog
          title="Revoke this API key?"
          confirmLabel="Revoke key"
          onDone={() => setRevoking(null)}
          onConfirm={async () => {
            await api.revokeKey(revoking);
            setStatus(`Key ${revoking} revoked.`);
            await load();
          }}
        >
          <p>
            Key <span className="mono">{revoking}</span> stops working at once. Tools that use it
            need a new key.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/** The keys by prefix, when created and revoked, with Revoke for a live one. */
function ApiKeyTable({
  keys,
  onRevoke,
}: {
  keys: readonly ApiKey[];
  onRevoke: (prefix: string) => void;
}) {
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-label="Your API keys">
      <table className="stacked-rows">
        <thead>
          <tr>
            <th scope="col">Prefix</th>
            <th scope="col">Created</th>
            <th scope="col">Revoked</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.prefix}>
              <td className="mono key-prefix" data-label="Prefix">
                {key.prefix}
              </td>
              <td data-label="Created">
                <When iso={key.createdAt} />
              </td>
              <td data-label="Revoked">
                {key.revokedAt === null ? '—' : <When iso={key.revokedAt} />}
              </td>
              <td>
                {key.revokedAt === null && (
                  <button
                    type="button"
                    aria-label={`Revoke key ${key.prefix}`}
                    onClick={() => onRevoke(key.prefix)}
                  >
                    Revoke
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
