import { useEffect, useState } from 'react';
import { ApiError } from '../api.js';
import { Link } from '../router.js';
import { useSession } from '../session/session.js';
import type { DeveloperGame } from '@coinop/protocol';
import {
  CodeBlock,
  CopyField,
  demoAddress,
  ErrorAlert,
  errorText,
  usePortalApi,
  useTitle,
} from './parts.js';

/**
 * Who issues this arcade's player tokens and under which claim namespace, read from the
 * developer's own token: the game server SDK must check the same `iss`, and through the web
 * origin its default (the host of `authUrl`) is not what the sign-in service signs.
 */
function tokenFacts(token: string | null): { issuer: string; namespace: string } | null {
  if (token === null) return null;
  try {
    const part = token.split('.')[1] ?? '';
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(json) as Record<string, unknown>;
    const issuer = typeof claims['iss'] === 'string' ? claims['iss'] : null;
    const claim = Object.keys(claims).find((k) => /^https:\/\/[^/]+\/playerId$/.test(k));
    if (issuer === null || claim === undefined) return null;
    return { issuer, namespace: new URL(claim).host };
  } catch {
    return null;
  }
}

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

  const gamePage = `/developer/games/${encodeURIComponent(gameId)}`;
  const head = (
    <>
      <p className="breadcrumb">
        <Link href="/developer">Developer portal</Link> /{' '}
        <Link href={gamePage}>{game?.name ?? 'Game'}</Link>
      </p>
      <h1>Integrate your game</h1>
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
  const apiUrl = `${origin}/api`;
  const authUrl = `${origin}/auth`;
  const facts = tokenFacts(state.status === 'signed-in' ? state.token : null);
  const client = game.clients.find((c) => c.revokedAt === null);
  const clientId = client?.clientId ?? '<create client credentials on the game page>';
  const tiers = game.leaderboards;
  const firstTier = tiers[0]?.id ?? '<tier id>';

  // The SDK's defaults: iss https://{host of authUrl}/, namespace the issuer's host name.
  const extra: string[] = [];
  if (facts !== null && facts.issuer !== `https://${new URL(authUrl).host}/`) {
    extra.push(`  issuer: '${facts.issuer}', // the iss of this arcade's player tokens`);
  }
  if (facts !== null && facts.namespace !== new URL(facts.issuer).hostname) {
    extra.push(`  claimsNamespace: '${facts.namespace}',`);
  }

  const serverEnv = `COINOP_CLIENT_ID=${clientId}
COINOP_CLIENT_SECRET=<the secret shown once when you created or rotated the credentials>`;
  const serverCode = `import { Arcade, ArcadeApiError, PlayerTokenError } from '@coinop/server-sdk';

// Once, at start: the SDK gets and renews write tokens and reads the game's tiers.
const arcade = await Arcade.build({
  clientId: process.env.COINOP_CLIENT_ID, // ${clientId}
  clientSecret: process.env.COINOP_CLIENT_SECRET,
  baseUrl: '${apiUrl}', // the arcade API
  authUrl: '${authUrl}', // the player sign-in service
${extra.length > 0 ? `${extra.join('\n')}\n` : ''}});
// arcade.game.id === '${game.id}'

// Tiers of ${game.name}:
${tiers.map((t) => `//   '${t.id}'  ${t.name}, ${t.formattedCostString} per play`).join('\n')}

// When a player presses Start on the tier they chose:
export async function startGame(playerToken, leaderboardId = '${firstTier}') {
  try {
    const { playerId } = await arcade.validatePlayerToken(playerToken);
    return await arcade.play(playerId, leaderboardId); // let the player in only now
  } catch (error) {
    if (error instanceof PlayerTokenError) return { status: 401, reason: error.code };
    if (error instanceof ArcadeApiError && error.code === 'insufficient_funds') {
      return { status: 402, reason: error.message };
    }
    throw error;
  }
}

// When the game ends, with the play startGame returned:
// It answers { isWinner, leaderRank, leaders }.
export const endGame = (play, score) => arcade.score(play, score);`;

  const clientModule = `import { GameService } from '@coinop/game-sdk';

const game = new GameService('${game.id}', '${origin}');
window.addEventListener('DOMContentLoaded', () => game.init());

startButton.onclick = async () => {
  const { playId } = await game.play(); // the player approves the cost in the arcade
  if (!playId) return; // no playId: the player did not pay, do not start
  const score = await runTheGame();
  await game.submitScore(playId, score);
  const { leaderboard } = await game.getLeaderboard();
  showLeaders(leaderboard);
};

extraLifeButton.onclick = async () => {
  const { txid } = await game.hstTransfer(0.5); // HST to you, the developer
  if (txid) grantExtraLife(); // no txid: the player said no, provision nothing
};`;

  const clientScript = `<script src="game-sdk.min.js"></script>
<script>
  const game = new Coinop.GameService('${game.id}', '${origin}');
  game.init();
  document.querySelector('#start').onclick = async () => {
    const { playId } = await game.play();
    if (playId) startGame(playId);
  };
</script>`;

  const cliCode = `AUTH_URL=${authUrl}
START=$(curl -s -X POST "$AUTH_URL/cli" -H 'content-type: application/json' \\
  -d "{\\"description\\": \\"$(hostname)\\"}")
echo "open $AUTH_URL$(echo "$START" | jq -r .browserUrl)"
ID=$(echo "$START" | jq -r .requestorId); TOKEN=$(echo "$START" | jq -r .token)
until curl -sf "$AUTH_URL/cli/$ID" -H "authorization: Bearer $TOKEN" > token.json; do sleep 5; done
jq -r .access_token token.json   # the player token: send it to your game server`;

  const demo = game.url === '' ? null : demoAddress(game);

  return (
    <section className="page portal integrate">
      {head}
      <p>
        {game.name} can talk to this arcade in two ways. Pick one: a game with its own server keeps
        the score honest on the server; a browser-only game lets the arcade page take the payment
        and the score.
      </p>

      <section className="portal-section" aria-labelledby="ids-heading">
        <h2 id="ids-heading">Your ids</h2>
        <CopyField label="Game id" value={game.id} />
        {client === undefined ? (
          <p>
            No client credentials yet: <Link href={gamePage}>create them on the game page</Link> (a
            server-to-server game needs them).
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
          credentials on <Link href={gamePage}>the game&apos;s page</Link>; if you lost it, rotate
          it there.
        </p>
      </section>

      <section className="portal-section" aria-labelledby="server-heading">
        <h2 id="server-heading">Server to server: @coinop/server-sdk</h2>
        <p>
          Your game server validates the player&apos;s token, opens the play (locking the
          tier&apos;s cost) when the player starts, and submits the score when the game ends. The
          player never sees your credentials. Install it with{' '}
          <code>npm install @coinop/server-sdk</code> (Node 18 or later).
        </p>
        <CodeBlock label="Environment of your game server" code={serverEnv} />
        <CodeBlock label="Game server (Node)" code={serverCode} />
        <p>
          The player token comes from the player: in the browser from the arcade&apos;s sign-in, in
          a desktop or terminal game from the CLI login below.
        </p>
      </section>

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
          The bundle is <code>@coinop/game-sdk/game-sdk.min.js</code>. While developing, use{' '}
          <code>Origin.DEV</code> (a local coinop&apos;s demo arcade) instead of this arcade&apos;s
          origin.
          {demo !== null && (
            <>
              {' '}
              Try the game in the demo arcade, which logs every message:{' '}
              <Link href={demo}>{demo}</Link>
            </>
          )}
        </p>
      </section>

      <section className="portal-section" aria-labelledby="cli-heading">
        <h2 id="cli-heading">Desktop and terminal games: the CLI login</h2>
        <p>
          A game outside the browser signs its player in through the sign-in service: it starts a
          login, the player approves it in a browser with their wallet, and the game polls until it
          gets the player token, which its server validates as above. The steps, with the answers to
          expect while polling, are in the guide <code>docs/guides/cli-login.md</code>.
        </p>
        <CodeBlock label="CLI login from a shell" code={cliCode} />
      </section>
    </section>
  );
}
