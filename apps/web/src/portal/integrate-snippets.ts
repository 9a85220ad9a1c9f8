import type { DeveloperGame } from '@coinop/protocol';

/**
 * The integrate page's code, with this game's ids and this arcade's URLs filled in: the game
 * server's environment and SDK code, the browser SDK as a module and a script tag, the CLI login.
 */

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

/** Where this arcade answers, and what the game server SDK needs to know of its tokens. */
export interface ArcadeUrls {
  origin: string;
  apiUrl: string;
  authUrl: string;
  /** The developer's own player token, to read the issuer and claim namespace from. */
  token: string | null;
}

/** The game server's environment and its @coinop/server-sdk code. */
export function serverSnippets(game: DeveloperGame, urls: ArcadeUrls) {
  const { apiUrl, authUrl } = urls;
  const facts = tokenFacts(urls.token);
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

  return { serverEnv, serverCode };
}

/** The browser game's @coinop/game-sdk code, as a module and with a script tag. */
export function clientSnippets(game: DeveloperGame, origin: string) {
  const clientModule = `import { GameService } from '@coinop/game-sdk';

const game = new GameService('${game.id}', '${origin}');
window.addEventListener('DOMContentLoaded', () => game.init());

startButton.onclick = async () => {
  const { playId, seed } = await game.play(); // the player approves the cost in the arcade
  if (!playId) return; // no playId: the player did not pay, do not start
  const { score, moves } = await runTheGame(seed); // derive the run's randomness from the seed
  await game.submitScore(playId, score, { replay: moves }); // the replay is for your verifier
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

  return { clientModule, clientScript };
}

/** Signing a player in from a shell, through the sign-in service's CLI login. */
export function cliSnippet(authUrl: string, gameId: string): string {
  const cliCode = `AUTH_URL=${authUrl}
START=$(curl -s -X POST "$AUTH_URL/cli" -H 'content-type: application/json' \\
  -d "{\\"description\\": \\"$(hostname)\\", \\"gameId\\": \\"${gameId}\\"}")
echo "open $AUTH_URL$(echo "$START" | jq -r .browserUrl)"
ID=$(echo "$START" | jq -r .requestorId); TOKEN=$(echo "$START" | jq -r .token)
until curl -sf "$AUTH_URL/cli/$ID" -H "authorization: Bearer $TOKEN" > token.json; do sleep 5; done
jq -r .access_token token.json   # the player token: send it to your game server`;

  return cliCode;
}
