// The stylesheets of the pages loaded when opened stay in the first stylesheet, in the order they
// always had, all before styles.css: their rules were written with styles.css winning ties, and
// loaded with their pages (after it) they would change how those pages look.
import './allowances/allowances.css';
import './components/money.css';
import './reviews/reviews.css';
import './boards/boards.css';
import './profiles/profiles.css';
import './cli-login/cli-login.css';
import './components/import-key-dialog.css';
import './components/wallet-chooser.css';
import './components/discovery.css';
import './tournaments/tournaments.css';
import './pages/demo-page.css';
import './preview/preview-banner.css';
import './components/account-menu.css';
import './live/notifications.css';
import './testing/testing.css';
import { lazy, Suspense, type ReactNode } from 'react';
import { ArcadeSettingsProvider } from './arcade-settings.js';
import { CatalogPage } from './pages/catalog-page.js';
import { DevelopmentNotice } from './components/development-notice.js';
import { AccountMenu } from './components/account-menu.js';
import { LogoMark } from './components/brand.js';
import { RouteAnnouncer } from './components/route-announcer.js';
import { ToastProvider } from './components/toasts.js';
import { LiveProvider } from './live/live.js';
import { NotificationsMenu } from './live/notifications-menu.js';
import { Link, useLocation } from './router.js';
import { SessionProvider } from './session/session.js';
import { useTitle } from './components/page-title.js';

// The account page carries the chain code (viem's wallet client, the contracts' ABIs): loaded
// when it is opened, so the catalog and game pages do not wait for it.
const AccountPage = lazy(() =>
  import('./account/account-page.js').then((m) => ({ default: m.AccountPage })),
);

// The developer portal is loaded when a developer opens it: players never download it.
const PortalPage = lazy(() =>
  import('./portal/portal-page.js').then((m) => ({ default: m.PortalPage })),
);

// The operator console is its own shell, loaded only at /admin: players never download it.
const AdminConsole = lazy(() =>
  import('./admin/admin-console.js').then((m) => ({ default: m.AdminConsole })),
);

// Every page but the catalog is loaded when it is opened: the catalog at `/` is what most
// players see first, so the entry chunk carries it alone (the bundle budget test keeps it so).
const GamePage = lazy(() => import('./pages/game-page.js').then((m) => ({ default: m.GamePage })));
const DemoPage = lazy(() => import('./pages/demo-page.js').then((m) => ({ default: m.DemoPage })));
const DeveloperPage = lazy(() =>
  import('./pages/developer-page.js').then((m) => ({ default: m.DeveloperPage })),
);
const BoardPage = lazy(() =>
  import('./boards/board-page.js').then((m) => ({ default: m.BoardPage })),
);
const TournamentPage = lazy(() =>
  import('./tournaments/tournament-page.js').then((m) => ({ default: m.TournamentPage })),
);
const PlayerPage = lazy(() =>
  import('./profiles/player-page.js').then((m) => ({ default: m.PlayerPage })),
);
const CliLoginPage = lazy(() =>
  import('./cli-login/cli-login-page.js').then((m) => ({ default: m.CliLoginPage })),
);
const AllowancesPage = lazy(() =>
  import('./allowances/allowances-page.js').then((m) => ({ default: m.AllowancesPage })),
);
const TestingPage = lazy(() =>
  import('./testing/testing-page.js').then((m) => ({ default: m.TestingPage })),
);

/** A page whose code is loaded when it is opened, saying so meanwhile. */
function LazyPage({ loading, children }: { loading: string; children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <section className="page">
          <p role="status">{loading}</p>
        </section>
      }
    >
      {children}
    </Suspense>
  );
}

export function App() {
  const { path, search } = useLocation();
  if (path === '/admin' || path.startsWith('/admin/')) {
    return (
      <Suspense fallback={<p role="status">Loading the operator console…</p>}>
        <AdminConsole path={path} />
      </Suspense>
    );
  }
  const gameMatch = /^\/games\/([^/]+)\/?$/.exec(path);
  // The tournaments list is the catalog's Tournaments section.
  const isTournaments = path === '/tournaments' || path === '/tournaments/';
  const tournamentMatch = /^\/tournaments\/([^/]+)\/?$/.exec(path);
  const developerMatch = /^\/developers\/([^/]+)\/?$/.exec(path);
  const section =
    path === '/' || isTournaments || gameMatch || tournamentMatch || developerMatch
      ? 'games'
      : path.startsWith('/developer')
        ? 'developers'
        : null;
  const boardMatch = /^\/games\/([^/]+)\/boards\/([^/]+)\/?$/.exec(path);
  const playerMatch = /^\/players\/([^/]+)\/?$/.exec(path);
  let page;
  if (path === '/') page = <CatalogPage />;
  else if (isTournaments) page = <CatalogPage tournaments />;
  else if (path === '/demo') page = <DemoPage />;
  else if (path === '/cli-login') page = <CliLoginPage search={search} />;
  else if (path === '/account' || path === '/account/') page = <AccountPage />;
  else if (path === '/account/allowances' || path === '/account/allowances/')
    page = <AllowancesPage />;
  else if (path === '/account/testing' || path === '/account/testing/') page = <TestingPage />;
  else if (path === '/developer' || path.startsWith('/developer/'))
    page = (
      <LazyPage loading="Loading the developer portal…">
        <PortalPage path={path} />
      </LazyPage>
    );
  else if (boardMatch?.[1] && boardMatch[2])
    page = (
      <BoardPage
        gameId={decodeURIComponent(boardMatch[1])}
        leaderboardId={decodeURIComponent(boardMatch[2])}
      />
    );
  else if (tournamentMatch?.[1])
    page = <TournamentPage tournamentId={decodeURIComponent(tournamentMatch[1])} />;
  else if (gameMatch?.[1]) page = <GamePage gameId={decodeURIComponent(gameMatch[1])} />;
  else if (developerMatch?.[1])
    page = <DeveloperPage developerId={decodeURIComponent(developerMatch[1])} />;
  else if (playerMatch?.[1]) page = <PlayerPage playerId={decodeURIComponent(playerMatch[1])} />;
  else page = <NotFound />;
  return (
    <ArcadeSettingsProvider>
      <SessionProvider>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <ToastProvider>
          <LiveProvider>
            {/* The demo arcade asks the arcade for nothing, and says it is a demo itself. */}
            {path === '/demo' ? null : <DevelopmentNotice />}
            <header className="site-header">
              <Link href="/" className="brand">
                <LogoMark />
                <span className="brand-name">
                  coinop <span className="brand-sub">arcade</span>
                </span>
              </Link>
              <nav className="site-nav" aria-label="Main">
                <Link href="/" aria-current={section === 'games' ? 'page' : undefined}>
                  Games
                </Link>
                <Link
                  href="/developer"
                  aria-current={section === 'developers' ? 'page' : undefined}
                >
                  Developers
                </Link>
              </nav>
              <NotificationsMenu />
              <AccountMenu />
            </header>
            <main id="main" tabIndex={-1}>
              <LazyPage loading="Loading…">{page}</LazyPage>
            </main>
            <RouteAnnouncer path={path} suffix=" · coinop arcade" />
          </LiveProvider>
        </ToastProvider>
      </SessionProvider>
    </ArcadeSettingsProvider>
  );
}

function NotFound() {
  useTitle('Page not found');
  return (
    <section className="page">
      <h1>Page not found</h1>
      <p>
        <Link href="/">Back to the games</Link>
      </p>
    </section>
  );
}
