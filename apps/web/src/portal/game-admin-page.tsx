import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { ApiError } from '../api.js';
import { Link } from '../router.js';
import { GameForm } from './game-form.js';
import { TestersSection } from './testers-section.js';
import type { ClientSecret, DeveloperGame, DeveloperTier, GameStats } from '@coinop/protocol';
import {
  ConfirmDialog,
  CopyField,
  ErrorAlert,
  ShownOnce,
  Status,
  When,
  errorText,
  usePortalApi,
  useTitle,
} from './parts.js';

/**
 * `/developer/games/{id}`: edit the game, its tiers, server clients and testers; see its plays.
 */
export function GameAdminPage({ gameId }: { gameId: string }) {
  const api = usePortalApi();
  const [game, setGame] = useState<DeveloperGame | null>(null);
  const [error, setError] = useState<{ notFound: boolean; text: string } | null>(null);
  useTitle(game?.name ?? 'Game');

  const reload = useCallback(async () => {
    try {
      setGame(await api.getGame(gameId));
    } catch (e) {
      const notFound = e instanceof ApiError && e.status === 404;
      setError({ notFound, text: `Could not load the game: ${errorText(e)}` });
    }
  }, [api, gameId]);
  useEffect(() => {
    void reload();
  }, [reload]);

  if (error?.notFound) {
    return (
      <section className="page portal">
        <h1>Game not found</h1>
        <p>
          This wallet has no game with that id. <Link href="/developer">Back to your games</Link>
        </p>
      </section>
    );
  }
  if (game === null) {
    return (
      <section className="page portal">
        <h1>Game</h1>
        <ErrorAlert error={error?.text ?? null} />
        {error === null && <p role="status">Loading…</p>}
      </section>
    );
  }

  const demoUrl = `/demo?game=${encodeURIComponent(game.url)}`;
  return (
    <section className="page portal">
      <p className="breadcrumb">
        <Link href="/developer">Developer portal</Link>
      </p>
      <h1>{game.name}</h1>
      <p>
        <span className={game.published ? 'badge live' : 'badge'}>
          {game.published ? 'Published' : 'Not published'}
        </span>{' '}
        {!game.published && (
          <span className="muted">An operator lists it in the catalog when it is ready.</span>
        )}
      </p>
      <CopyField label="Game id" value={game.id} />
      <ul className="link-list">
        <li>
          <Link href={`/developer/games/${encodeURIComponent(game.id)}/integrate`}>
            Integrate your game
          </Link>
        </li>
        <li>
          <Link href={`/games/${encodeURIComponent(game.id)}`}>Open it in the arcade</Link>
        </li>
        <li>
          {game.url === '' ? (
            <span className="muted">Set the game URL to try it in the demo arcade.</span>
          ) : (
            <>
              <Link href={demoUrl}>Try it in the demo arcade</Link>{' '}
              <span className="muted mono">{demoUrl}</span>
            </>
          )}
        </li>
      </ul>

      <section className="portal-section" aria-labelledby="details-heading">
        <h2 id="details-heading">Details</h2>
        <GameForm
          key={game.id}
          game={game}
          submitLabel="Save changes"
          onSubmit={async (fields) => {
            setGame(await api.updateGame(game.id, fields));
            return 'Changes saved.';
          }}
        />
      </section>
      <TiersSection game={game} onChange={reload} />
      <ClientsSection game={game} onChange={reload} />
      <TestersSection game={game} />
      <StatsSection gameId={game.id} />
    </section>
  );
}

function TiersSection({ game, onChange }: { game: DeveloperGame; onChange: () => Promise<void> }) {
  const api = usePortalApi();
  const [editing, setEditing] = useState<string | null>(null);
  const [retiring, setRetiring] = useState<DeveloperTier | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const live = game.leaderboards.length;

  return (
    <section className="portal-section" aria-labelledby="tiers-heading">
      <h2 id="tiers-heading">Leaderboard tiers</h2>
      <p className="muted">
        Players choose a tier and lock its cost for each play. A new cost applies to plays opened
        afterwards; open plays settle at the cost they locked.
      </p>
      <Status text={status} />
      <ul className="portal-list">
        {game.leaderboards.map((tier) => (
          <li key={tier.id} className="portal-card tier">
            {editing === tier.id ? (
              <TierForm
                title={`Edit tier ${tier.name}`}
                initial={tier}
                submitLabel="Save tier"
                onCancel={() => setEditing(null)}
                onSubmit={async (body) => {
                  const changed: { name?: string; cost?: number } = {};
                  if (body.name !== tier.name) changed.name = body.name;
                  if (body.cost !== tier.cost) changed.cost = body.cost;
                  if (Object.keys(changed).length > 0) {
                    await api.updateTier(game.id, tier.id, changed);
                  }
                  setEditing(null);
                  setStatus(`Tier ${body.name} saved.`);
                  await onChange();
                }}
              />
            ) : (
              <>
                <h3 className="card-title">{tier.name}</h3>
                <dl className="facts">
                  <dt>Cost</dt>
                  <dd>{tier.formattedCostString} per play</dd>
                  <dt>Leaders kept</dt>
                  <dd>{tier.leadersMax}</dd>
                  <dt>Tier id</dt>
                  <dd className="mono">{tier.id}</dd>
                </dl>
                <div className="row-actions">
                  <button
                    type="button"
                    aria-label={`Edit tier ${tier.name}`}
                    onClick={() => setEditing(tier.id)}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    aria-label={`Retire tier ${tier.name}`}
                    disabled={live <= 1}
                    title={live <= 1 ? 'The last tier of a game cannot be retired' : undefined}
                    onClick={() => setRetiring(tier)}
                  >
                    Retire
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
      <details className="add-tier">
        <summary>Add a tier</summary>
        <TierForm
          title="New tier"
          initial={null}
          submitLabel="Add tier"
          onSubmit={async (body) => {
            await api.addTier(game.id, body);
            setStatus(`Tier ${body.name} added.`);
            await onChange();
          }}
        />
      </details>
      {retiring !== null && (
        <ConfirmDialog
          title={`Retire tier ${retiring.name}?`}
          confirmLabel="Retire tier"
          onDone={() => setRetiring(null)}
          onConfirm={async () => {
            await api.retireTier(game.id, retiring.id);
            setStatus(`Tier ${retiring.name} retired.`);
            await onChange();
          }}
        >
          <p>
            It takes no new plays and leaves the game page. Plays already open still settle, and its
            leaders stay readable. This cannot be undone.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}

function TierForm({
  title,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  title: string;
  initial: DeveloperTier | null;
  submitLabel: string;
  onSubmit: (body: { name: string; cost: number; leadersMax?: number }) => Promise<void>;
  onCancel?: () => void;
}) {
  const id = useId();
  const [name, setName] = useState(initial?.name ?? '');
  const [cost, setCost] = useState(initial === null ? '' : String(initial.cost));
  const [leadersMax, setLeadersMax] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body: { name: string; cost: number; leadersMax?: number } = {
        name: name.trim(),
        cost: Number(cost),
      };
      if (initial === null && leadersMax !== '') body.leadersMax = Number(leadersMax);
      await onSubmit(body);
      if (initial === null) {
        setName('');
        setCost('');
        setLeadersMax('');
      }
    } catch (e) {
      setError(`Could not save the tier: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="tier-form" aria-label={title} onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label htmlFor={`${id}-name`}>Tier name</label>
        <input
          id={`${id}-name`}
          required
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-cost`}>Cost per play (whole HST)</label>
        <input
          id={`${id}-cost`}
          type="number"
          required
          min={0}
          step={1}
          inputMode="numeric"
          value={cost}
          onChange={(e) => setCost(e.target.value)}
        />
      </div>
      {initial === null && (
        <div className="field">
          <label htmlFor={`${id}-leaders`}>Leaders kept (optional)</label>
          <input
            id={`${id}-leaders`}
            type="number"
            min={1}
            max={100}
            step={1}
            inputMode="numeric"
            value={leadersMax}
            onChange={(e) => setLeadersMax(e.target.value)}
          />
        </div>
      )}
      <ErrorAlert error={error} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}

function ClientsSection({
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
            <li key={client.clientId} className="portal-card">
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
                    onClick={() => setConfirming({ action: 'rotate', clientId: client.clientId })}
                  >
                    Rotate secret
                  </button>
                  <button
                    type="button"
                    aria-label={`Revoke client ${client.clientId}`}
                    onClick={() => setConfirming({ action: 'revoke', clientId: client.clientId })}
                  >
                    Revoke
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      {confirming?.action === 'rotate' && (
        <ConfirmDialog
          title="Rotate the client secret?"
          confirmLabel="Rotate secret"
          onDone={() => setConfirming(null)}
          onConfirm={async () => {
            setSecret(await api.rotateClient(game.id, confirming.clientId));
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
          onDone={() => setConfirming(null)}
          onConfirm={async () => {
            await api.revokeClient(game.id, confirming.clientId);
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
    </section>
  );
}

function StatsSection({ gameId }: { gameId: string }) {
  const api = usePortalApi();
  const [stats, setStats] = useState<GameStats | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.stats(gameId).then(
      (s) => live && setStats(s),
      (e: unknown) => live && setError(`Could not load the stats: ${errorText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api, gameId]);

  return (
    <section className="portal-section" aria-labelledby="stats-heading">
      <h2 id="stats-heading">Plays and earnings</h2>
      <ErrorAlert error={error} />
      {stats === null && error === null && <p role="status">Loading…</p>}
      {stats !== null && (
        <>
          <dl className="stats">
            <div>
              <dt>Plays</dt>
              <dd>{stats.plays.total}</dd>
            </div>
            <div>
              <dt>Open</dt>
              <dd>{stats.plays.open}</dd>
            </div>
            <div>
              <dt>Scored</dt>
              <dd>{stats.plays.scored}</dd>
            </div>
            <div>
              <dt>Expired</dt>
              <dd>{stats.plays.expired}</dd>
            </div>
            {stats.plays.voided > 0 && (
              <div>
                <dt>Voided</dt>
                <dd>{stats.plays.voided}</dd>
              </div>
            )}
            <div>
              <dt>Scores</dt>
              <dd>{stats.scores}</dd>
            </div>
            <div>
              <dt>HST earned</dt>
              <dd>{stats.hstEarned} HST</dd>
            </div>
          </dl>
          <h3 id="recent-heading">Recent plays</h3>
          {stats.recentPlays.length === 0 ? (
            <p>No plays yet.</p>
          ) : (
            <div className="table-wrap" tabIndex={0} role="region" aria-labelledby="recent-heading">
              <table>
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Player</th>
                    <th scope="col">Tier</th>
                    <th scope="col">Cost</th>
                    <th scope="col">Status</th>
                    <th scope="col">Score</th>
                  </tr>
                </thead>
                <tbody>
                  {stats.recentPlays.map((play) => (
                    <tr key={play.playId}>
                      <td>
                        <When iso={play.createdAt} />
                      </td>
                      <td>{play.playerName}</td>
                      <td>{play.leaderboardName}</td>
                      <td>{play.cost} HST</td>
                      <td>{play.status}</td>
                      <td>{play.score ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
