import { useCallback, useState } from 'react';
import type { AdminGame } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { Outcome, When, errorText, usePaged } from './parts.js';
import { checksummed } from '../components/address.js';
import { holdDuration } from '../components/hold-duration.js';
import { GameSettingsPanel } from './game-settings-panel.js';

type Action = 'publish' | 'unpublish' | 'suspend' | 'resume';

/** What each action does, as the confirmation asks it. */
const CONFIRM: Record<Action, string> = {
  publish: 'List it in the catalog for every player?',
  unpublish: 'Take it off the catalog? Only its developer and testers can open it then.',
  suspend: 'Suspend it? Every new play is refused and its open plays are voided (HST returned).',
  resume: 'Lift the suspension? The game takes plays again.',
};

/**
 * Every game with its state and payout hold; publish, unpublish, suspend or resume one, or open
 * its score rules and holds.
 */
export function GamesScreen({ api }: { api: AdminApi }) {
  const load = useCallback((before: string | null) => api.games(before), [api]);
  const { items, next, error, reload, more } = usePaged(load);
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<string | null>(null);

  const act = async (game: AdminGame, action: Action) => {
    if (!window.confirm(`${game.name}: ${CONFIRM[action]}`)) return;
    setBusy(true);
    setOutcome(null);
    try {
      await api.gameAction(game.gameId, action);
      setOutcome({
        text: `${game.name}: ${action === 'resume' ? 'resumed' : `${action}ed`}.`,
        tone: 'ok',
      });
    } catch (e) {
      setOutcome({ text: `Could not ${action} ${game.name}: ${errorText(e)}`, tone: 'error' });
    } finally {
      setBusy(false);
    }
    await reload();
  };

  return (
    <section aria-labelledby="games-heading">
      <h1 id="games-heading">Games</h1>
      <Outcome text={outcome?.text ?? null} tone={outcome?.tone ?? 'ok'} />
      {error !== null && <Outcome text={`Could not load the games: ${error}`} tone="error" />}
      {items === null ? (
        error === null && <p role="status">Loading…</p>
      ) : items.length === 0 ? (
        <p className="admin-empty">No games registered yet.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table stacked-rows">
            <caption className="visually-hidden">Games, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Game</th>
                <th scope="col">State</th>
                <th scope="col">Developer</th>
                <th scope="col">Tiers</th>
                <th scope="col">Published</th>
                <th scope="col">Payout hold</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {items.map((g) => (
                <GameRow
                  key={g.gameId}
                  game={g}
                  busy={busy}
                  act={act}
                  onShowSettings={() => setShown(g.gameId)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown !== null && (
        <GameSettingsPanel api={api} gameId={shown} onClose={() => setShown(null)} />
      )}
      {next !== null && (
        <button type="button" onClick={() => void more()}>
          More games
        </button>
      )}
    </section>
  );
}

/** A game in the table: its state, developer, tiers, when published, and what may be done. */
function GameRow({
  game: g,
  busy,
  act,
  onShowSettings,
}: {
  game: AdminGame;
  busy: boolean;
  act: (game: AdminGame, action: Action) => Promise<void>;
  onShowSettings: () => void;
}) {
  return (
    <tr data-game={g.gameId}>
      <th scope="row">
        {g.name}
        <span className="admin-mono admin-sub">{g.gameId}</span>
      </th>
      <td data-label="State">
        <span className={`admin-badge state-${g.state}`}>{g.state}</span>
      </td>
      <td className="admin-mono" data-label="Developer">
        {checksummed(g.developerWallet)}
      </td>
      <td data-label="Tiers">{g.tiers}</td>
      <td data-label="Published">
        <When iso={g.publishedAt} />
      </td>
      <td data-label="Payout hold">
        {g.payoutHoldSeconds > 0 ? holdDuration(g.payoutHoldSeconds) : 'paid at once'}
      </td>
      <td>
        <div className="admin-actions">
          {g.state === 'suspended' ? (
            <button type="button" disabled={busy} onClick={() => void act(g, 'resume')}>
              Resume <span className="visually-hidden">{g.name}</span>
            </button>
          ) : (
            <button type="button" disabled={busy} onClick={() => void act(g, 'suspend')}>
              Suspend <span className="visually-hidden">{g.name}</span>
            </button>
          )}
          {g.publishedAt === null ? (
            <button type="button" disabled={busy} onClick={() => void act(g, 'publish')}>
              Publish <span className="visually-hidden">{g.name}</span>
            </button>
          ) : (
            <button type="button" disabled={busy} onClick={() => void act(g, 'unpublish')}>
              Unpublish <span className="visually-hidden">{g.name}</span>
            </button>
          )}
          <button type="button" onClick={onShowSettings}>
            Rules and hold <span className="visually-hidden">of {g.name}</span>
          </button>
        </div>
      </td>
    </tr>
  );
}
