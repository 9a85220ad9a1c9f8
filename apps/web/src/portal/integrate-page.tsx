import { useEffect, useState } from 'react';
import { ApiError } from '../api.js';
import { Link } from '../router.js';
import { useSession } from '../session/session.js';
import { gameSectionHref } from './game-sections.js';
import { GameSectionsNav } from './game-sections-nav.js';
import type { DeveloperGame } from '@coinop/protocol';
import {
  cliSnippet,
  clientSnippets,
  serverSnippets,
  type ArcadeUrls,
} from './integrate-snippets.js';
import { CodeBlock, CopyField, demoAddress, ErrorAlert, errorText, usePortalApi } from './parts.js';
import { useTitle } from '../components/page-title.js';

/** `/developer/games/{id}/integrate`: both integration styles with this game's ids filled in. */
export function IntegratePage({ gameId }: { gameId: string }) {
  useTitle('Integrate your game');
  const api = usePortalApi();
  const { state } = useSession();
  const [game, setGame] = useState<DeveloperGame | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    api.getGame(gameId).then(
      (g) => live && setGame(g),
      (e: unknown) =>
        live &&
        setError(
          e instanceof ApiError && e.status === 404
            ? 'This wallet has no game with that id.'
            : `Could not load the game: ${errorText(e)}`,
        ),
    );
    return () => {
      live = false;
    };
  }, [api, gameId]);

  const gamePage = gameSectionHref(gameId, '');
  const credentialsPage = gameSectionHref(gameId, 'integration');
  // Under the game's Integration view: the same navigation, with Integration marked.
  const head = (
    <>
      <p className="breadcrumb">
        <Link href="/developer">Developer portal</Link> /{' '}
        <Link href={gamePage}>{game?.name ?? 'Game'}</Link>
      </p>
      <h1>Integrate your game</h1>
      <GameSectionsNav gameId={gameId} current="integration" under />
    </>
  );
  if (game === null) {
    return (
      <section className="page portal">
        {head}
        <ErrorAlert error={error} />
        {error === null && <p role="status">Loading…</p>}
      </section>
    );
  }

  const origin = window.location.origin;
  const urls: ArcadeUrls = {
    origin,
    apiUrl: `${origin}/api`,
    authUrl: `${origin}/auth`,
    token: state.status === 'signed-in' ? state.token : null,
  };
  return (
    <section className="page portal integrate">
      {head}
      <p>
        {game.name} can talk to this arcade in two ways. Pick one: a game with its own server keeps
        the score honest on the server; a browser-only game lets the arcade page take the payment
        and the score.
      </p>
      <OnThisPage />

      <IdsSection game={game} urls={urls} credentialsPage={credentialsPage} />
      <ServerSection game={game} urls={urls} />
      <ClientSection game={game} origin={origin} />
      <CliSection authUrl={urls.authUrl} gameId={gameId} />
    </section>
  );
}

/** Jumps to the page's parts: it is long on a phone, and a reader wants one of the two ways. */
function OnThisPage() {
  const parts = [
    ['ids-heading', 'Your ids'],
    ['server-heading', 'Server to server'],
    ['client-heading', 'Client side'],
    ['cli-heading', 'Desktop and terminal games'],
  ] as const;
  return (
    <nav className="on-this-page" aria-label="On this page">
      <ul className="link-list">
        {parts.map(([id, label]) => (
          <li key={id}>
            <a href={`#${id}`}>{label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The game's ids and the arcade's URLs to copy; the secret is never shown here. */
function IdsSection({
  game,
  urls,
  credentialsPage,
}: {
  game: DeveloperGame;
  urls: ArcadeUrls;
  credentialsPage: string;
}) {
  const { apiUrl, authUrl } = urls;
  const client = game.clients.find((c) => c.revokedAt === null);
  const tiers = game.leaderboards;
  return (
    <section className="portal-section" aria-labelledby="ids-heading">
      <h2 id="ids-heading">Your ids</h2>
      <CopyField label="Game id" value={game.id} />
      {client === undefined ? (
        <p>
          No client credentials yet: <Link href={credentialsPage}>create them in Integration</Link>{' '}
          (a server-to-server game needs them).
        </p>
      ) : (
        <CopyField label="Client id" value={client.clientId} />
      )}
      <CopyField label="Arcade API base URL" value={apiUrl} />
      <CopyField label="Sign-in service URL" value={authUrl} />
      <h3>Tier ids</h3>
      <ul className="plain-list">
        {tiers.map((t) => (
          <li key={t.id}>
            {t.name} ({t.formattedCostString}): <span className="mono">{t.id}</span>
          </li>
        ))}
      </ul>
      <p className="warning">
        The client secret is never shown here. It is shown once, when you create or rotate the
        credentials on <Link href={credentialsPage}>the game&apos;s Integration section</Link>; if
        you lost it, rotate it there.
      </p>
    </section>
  );
}

/** Server to server: the game server opens plays and submits scores with its credentials. */
function ServerSection({ game, urls }: { game: DeveloperGame; urls: ArcadeUrls }) {
  const { serverEnv, serverCode } = serverSnippets(game, urls);
  return (
    <section className="portal-section" aria-labelledby="server-heading">
      <h2 id="server-heading">Server to server: @coinop/server-sdk</h2>
      <p>
        Your game server validates the player&apos;s token, opens the play (locking the tier&apos;s
        cost) when the player starts, and submits the score when the game ends. The player never
        sees your credentials.
      </p>
      <p>
        Install it with <code>npm install @coinop/server-sdk</code> (Node 20.19 or later). Until
        coinop&apos;s first release it is not on the npm registry: in a checkout of the coinop
        repository, after <code>npm install</code>, run{' '}
        <code>
          npm pack -w @coinop/protocol -w @coinop/server-sdk --pack-destination
          /path/to/your-game-server
        </code>
        , then in your game server{' '}
        <code>npm install ./coinop-protocol-*.tgz ./coinop-server-sdk-*.tgz</code> (the SDK needs
        both). The code below is an ES module with top-level <code>await</code>: put{' '}
        <code>&quot;type&quot;: &quot;module&quot;</code> in your game server&apos;s{' '}
        <code>package.json</code>, or name the file <code>.mjs</code>.
      </p>
      <CodeBlock label="Environment of your game server" code={serverEnv} />
      <CodeBlock label="Game server (Node)" code={serverCode} />
      <p>
        The player token is a game token (audience <code>coinop:game</code>) from a CLI login that
        names this game. For a game page in this arcade&apos;s frame, your server starts the login
        with <code>POST {urls.authUrl}/cli</code> (body <code>description</code> and{' '}
        <code>gameId</code>), the page passes the answer&apos;s <code>requestorId</code> and{' '}
        <code>userCode</code> to <code>approveLogin()</code> of @coinop/game-sdk, the arcade asks
        the player, and your server&apos;s next poll gets the token. A desktop or terminal game runs
        the CLI login below and sends the token to your server. The arcade&apos;s own sign-in
        session is not a game token: <code>validatePlayerToken</code> refuses it with{' '}
        <code>player_token_invalid_claims</code>.
      </p>
    </section>
  );
}

/** Client side: the game in the arcade's frame asks the arcade page. */
function ClientSection({ game, origin }: { game: DeveloperGame; origin: string }) {
  const { clientModule, clientScript } = clientSnippets(game, origin);
  const demo = game.url === '' ? null : demoAddress(game);
  return (
    <section className="portal-section" aria-labelledby="client-heading">
      <h2 id="client-heading">Client side: @coinop/game-sdk</h2>
      <p>
        No server needed: the game runs in the arcade&apos;s frame and asks the arcade page, which
        shows the player an approval for every play and payment. Start gameplay only once{' '}
        <code>play()</code> gives a <code>playId</code>, and provision a purchase only when{' '}
        <code>hstTransfer()</code> gives a <code>txid</code>.
      </p>
      <CodeBlock label="As a module" code={clientModule} />
      <CodeBlock label="With a script tag (global Coinop)" code={clientScript} />
      <p>
        The second argument is the web origin of the arcade that frames the game, here{' '}
        <code>{origin}</code>: the browser delivers the game&apos;s messages only to that origin, so
        with any other the game&apos;s calls time out. <code>Origin.DEV</code> is{' '}
        <code>http://127.0.0.1:8082</code>, the web app of a local coinop on its default port; for
        an arcade anywhere else, pass its origin.
        {demo !== null && (
          <>
            {' '}
            Try the game in the demo arcade, which logs every message:{' '}
            <Link href={demo}>{demo}</Link>
          </>
        )}
      </p>
      <p>
        Install it with <code>npm install @coinop/game-sdk</code>. Until coinop&apos;s first
        release, pack it from a checkout as above with{' '}
        <code>npm pack -w @coinop/protocol -w @coinop/game-sdk</code> and install both tarballs.
        Without installing anything, load the bundle this arcade serves:{' '}
        <code>&lt;script src=&quot;{origin}/game-sdk.min.js&quot;&gt;&lt;/script&gt;</code>; the
        package&apos;s copy is <code>@coinop/game-sdk/game-sdk.min.js</code>.
      </p>
    </section>
  );
}

/** Desktop and terminal games: the CLI login. */
function CliSection({ authUrl, gameId }: { authUrl: string; gameId: string }) {
  const cliCode = cliSnippet(authUrl, gameId);
  return (
    <section className="portal-section" aria-labelledby="cli-heading">
      <h2 id="cli-heading">Desktop and terminal games: the CLI login</h2>
      <p>
        A game outside the browser signs its player in through the sign-in service: it starts a
        login, the player approves it in a browser with their wallet, and the game polls until it
        gets the player token, which its server validates as above. The login names this game, so
        the token is for this game&apos;s server only: the SDK refuses a token of another game or of
        a login that named none. The steps, with the answers to expect while polling and a check of
        the token without the SDK, are in the guide <code>docs/guides/cli-login.md</code> of the
        coinop repository.
      </p>
      <CodeBlock label="CLI login from a shell" code={cliCode} />
    </section>
  );
}
