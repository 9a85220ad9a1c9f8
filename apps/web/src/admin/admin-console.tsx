import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { ApiError } from '../api.js';
import { Link } from '../router.js';
import { adminApi, storeAdminToken, storedAdminToken, type AdminApi } from './admin-api.js';
import { ChainHaltBanner } from './chain-halt-banner.js';
import { ChainScreen } from './chain-screen.js';
import { GamesScreen } from './games-screen.js';
import { KeysScreen } from './keys-screen.js';
import { ActivityScreen } from './activity-screen.js';
import { LedgerScreen } from './ledger-screen.js';
import { PeopleScreen } from './people-screen.js';
import { PlayerScreen } from './player-screen.js';
import { QueueScreen } from './queue-screen.js';
import { ReviewsScreen } from './reviews-screen.js';
import { TournamentsScreen } from './tournaments-screen.js';
import './admin.css';
import { LogoMark } from '../components/brand.js';
import { RouteAnnouncer } from '../components/route-announcer.js';

/** The console's screens, each at `/admin/<path>` (the queue at `/admin`). */
const SCREENS = [
  { path: '', label: 'Publish queue' },
  { path: 'reviews', label: 'Reviews' },
  { path: 'games', label: 'Games' },
  { path: 'tournaments', label: 'Tournaments' },
  { path: 'players', label: 'Players' },
  { path: 'developers', label: 'Developers' },
  { path: 'ledger', label: 'Ledger' },
  { path: 'activity', label: 'Activity' },
  { path: 'chain', label: 'Chain' },
  { path: 'keys', label: 'Sign-in keys' },
] as const;

/**
 * The operator console at `/admin` (issue 17): the admin API's screens for an operator signed in
 * with the admin token. It has its own header — no player account, no link from player pages —
 * and is loaded only when opened, so the arcade's pages do not carry it.
 */
export function AdminConsole({ path }: { path: string }) {
  const [token, setToken] = useState<string | null>(storedAdminToken);
  const [signedOutWhy, setSignedOutWhy] = useState<string | null>(null);
  const screen = path.replace(/^\/admin\/?/, '').replace(/\/$/, '');
  // One player's screen, /admin/players/<id or wallet>, sits under the Players screen.
  const onePlayer = /^players\/([^/]+)$/.exec(screen)?.[1];
  const current = SCREENS.find((s) => s.path === (onePlayer === undefined ? screen : 'players'));

  useEffect(() => {
    document.title = `${current?.label ?? 'Not found'} · coinop operator console`;
  }, [current]);

  const signOut = (why: string | null) => {
    storeAdminToken(null);
    setToken(null);
    setSignedOutWhy(why);
  };
  const api = useMemo(() => (token === null ? null : guarded(adminApi(token), signOut)), [token]);

  return (
    <div className="admin-console">
      <a className="skip-link" href="#admin-main">
        Skip to content
      </a>
      <header className="admin-header">
        <span className="admin-brand">
          <LogoMark />
          <span>
            coinop <span className="admin-brand-sub">operator console</span>
          </span>
        </span>
        {api !== null && (
          <button type="button" className="admin-sign-out" onClick={() => signOut(null)}>
            Sign out
          </button>
        )}
      </header>
      {api !== null && (
        <nav className="admin-nav" aria-label="Console">
          <ul>
            {SCREENS.map((s) => (
              <li key={s.path}>
                <Link
                  href={s.path === '' ? '/admin' : `/admin/${s.path}`}
                  aria-current={
                    s !== current ? undefined : onePlayer === undefined ? 'page' : 'true'
                  }
                >
                  {s.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      )}
      <main id="admin-main" className="admin-main" tabIndex={-1}>
        {api !== null && <ChainHaltBanner api={api} screen={screen} />}
        {api === null ? (
          <SignIn
            notice={signedOutWhy}
            onSignedIn={(t) => {
              storeAdminToken(t);
              setSignedOutWhy(null);
              setToken(t);
            }}
          />
        ) : current === undefined ? (
          <section>
            <h1>Not found</h1>
            <p>
              No console screen here. <Link href="/admin">Back to the publish queue</Link>
            </p>
          </section>
        ) : onePlayer !== undefined ? (
          <PlayerScreen key={onePlayer} api={api} player={decodeURIComponent(onePlayer)} />
        ) : (
          <Screen path={current.path} api={api} />
        )}
      </main>
      <RouteAnnouncer path={path} suffix=" · coinop operator console" />
    </div>
  );
}

function Screen({ path, api }: { path: (typeof SCREENS)[number]['path']; api: AdminApi }) {
  switch (path) {
    case '':
      return <QueueScreen api={api} />;
    case 'reviews':
      return <ReviewsScreen api={api} />;
    case 'games':
      return <GamesScreen api={api} />;
    case 'tournaments':
      return <TournamentsScreen api={api} />;
    case 'players':
      return <PeopleScreen key="players" api={api} kind="players" />;
    case 'developers':
      return <PeopleScreen key="developers" api={api} kind="developers" />;
    case 'ledger':
      return <LedgerScreen api={api} />;
    case 'activity':
      return <ActivityScreen api={api} />;
    case 'chain':
      return <ChainScreen api={api} />;
    case 'keys':
      return <KeysScreen api={api} />;
  }
}

/** The client, signing out when the API refuses the token (changed or revoked meanwhile). */
function guarded(api: AdminApi, signOut: (why: string) => void): AdminApi {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(api)) {
    wrapped[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          signOut('The arcade refused the admin token: sign in again.');
        }
        throw error;
      }
    };
  }
  return wrapped as AdminApi;
}

function SignIn({
  notice,
  onSignedIn,
}: {
  notice: string | null;
  onSignedIn: (token: string) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const candidate = token.trim();
    if (candidate === '') {
      setError('Paste the admin token.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Any admin read tells whether the token is the admin token.
      await adminApi(candidate).games();
      setToken('');
      onSignedIn(candidate);
    } catch (e) {
      setError(
        e instanceof ApiError && e.status === 401
          ? 'That is not the admin token of this arcade.'
          : `Could not reach the admin API: ${(e as Error).message}`,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="admin-sign-in">
      <h1>Operator sign-in</h1>
      <p>
        Paste the arcade&apos;s admin token: <code>COINOP_ADMIN_TOKEN</code>, or the file{' '}
        <code>admin-token</code> in the data directory. This tab keeps it until you sign out or
        close it; nothing else stores it.
      </p>
      {notice !== null && (
        <p role="status" className="admin-notice">
          {notice}
        </p>
      )}
      <form onSubmit={(e) => void submit(e)} aria-label="Operator sign-in">
        <div className="field">
          <label htmlFor={inputId}>Admin token</label>
          <input
            id={inputId}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={token}
            aria-describedby={hintId}
            onChange={(e) => setToken(e.target.value)}
          />
          <p id={hintId} className="hint">
            Sent only to this arcade&apos;s admin API, as a Bearer token.
          </p>
        </div>
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
      {error !== null && (
        <p role="alert" className="admin-error">
          {error}
        </p>
      )}
    </section>
  );
}
