import { useState } from 'react';
import { ConnectDialog } from '../components/account-menu.js';
import { Link } from '../router.js';
import { useSession } from '../session/session.js';
import { DashboardPage } from './dashboard-page.js';
import { GameAdminPage } from './game-admin-page.js';
import { gameSectionAt } from './game-sections.js';
import { IntegratePage } from './integrate-page.js';
import { NewGamePage } from './new-game-page.js';
import { useTitle } from '../components/page-title.js';

/**
 * The developer portal under `/developer`: the signed-in wallet is the developer account (the
 * arcade creates it on the first API key or game), so a signed-out visitor is asked to connect.
 */
export function PortalPage({ path }: { path: string }) {
  const { state } = useSession();
  if (state.status === 'loading') {
    return (
      <section className="page portal">
        <h1>Developer portal</h1>
        <p role="status">Loading…</p>
      </section>
    );
  }
  if (state.status === 'signed-out') return <SignedOut />;

  const rest = path.replace(/^\/developer\/?/, '').replace(/\/$/, '');
  if (rest === '') return <DashboardPage />;
  if (rest === 'games/new') return <NewGamePage />;
  // A game's views: `games/{id}` (its overview), `games/{id}/{section}`, `games/{id}/integrate`.
  const game = /^games\/([^/]+)(?:\/([^/]+))?$/.exec(rest);
  const gameId = game?.[1] === undefined ? undefined : decodeURIComponent(game[1]);
  const section = gameSectionAt(game?.[2] ?? '');
  if (gameId !== undefined && game?.[2] === 'integrate') {
    return <IntegratePage key={gameId} gameId={gameId} />;
  }
  if (gameId !== undefined && section !== undefined) {
    // Keyed by the game alone: moving between its sections keeps the loaded game.
    return <GameAdminPage key={gameId} gameId={gameId} section={section.path} />;
  }
  return (
    <section className="page portal">
      <h1>Page not found</h1>
      <p>
        <Link href="/developer">Back to the developer portal</Link>
      </p>
    </section>
  );
}

function SignedOut() {
  useTitle('Developer portal');
  const [connecting, setConnecting] = useState(false);
  return (
    <section className="page portal">
      <h1>Developer portal</h1>
      <p>
        Register your games on this arcade, set their leaderboard tiers and costs, and get the
        credentials their servers use. Your wallet is your developer account: connect it to start.
        Signing in is free and sends no transaction.
      </p>
      <button type="button" className="primary" onClick={() => setConnecting(true)}>
        Connect wallet
      </button>
      {connecting && <ConnectDialog onDone={() => setConnecting(false)} />}
    </section>
  );
}
