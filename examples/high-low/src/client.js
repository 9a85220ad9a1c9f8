// @ts-check
import { LoginError, login } from './login.js';

/**
 * The terminal client: it signs the player in, then relays their calls to the game server,
 * which deals and judges every card. It holds no game state of its own.
 */

/**
 * @typedef {object} Terminal
 * @property {(line: string) => void} print
 * @property {(question: string) => Promise<string>} ask
 */

/**
 * A small JSON client of the game server.
 * @param {string} serverUrl
 * @param {string | null} token
 */
export function gameServer(serverUrl, token) {
  const base = serverUrl.replace(/\/+$/, '');
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   * @returns {Promise<any>}
   */
  return async function call(method, path, body) {
    /** @type {Record<string, string>} */
    const headers = {};
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (error) {
      // fetch says only "fetch failed"; its cause names the refusal or the timeout.
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      throw new Error(
        `cannot reach the High-Low server at ${base} (${cause instanceof Error ? cause.message : String(cause)}); ` +
          'is it running? Start the arcade with npm start, or pass --server',
        { cause: error },
      );
    }
    /** @type {any} */
    const answer = await response.json().catch(() => ({}));
    if (answer.code === 'consent_required' && typeof answer.grantUrl === 'string') {
      throw new Error(
        "you have not allowed this game to charge you, or today's allowance is spent. " +
          `Allow it at ${answer.grantUrl} and play again`,
      );
    }
    if (!response.ok) {
      throw new Error(
        `${answer.message ?? response.statusText} (${answer.code ?? response.status})`,
      );
    }
    return answer;
  };
}

/**
 * Plays one game from sign-in to score.
 * @param {{ serverUrl: string, authUrl?: string, terminal: Terminal,
 *   sleep?: (ms: number) => Promise<unknown> }} options
 */
export async function playInTerminal({ serverUrl, authUrl, terminal, sleep }) {
  const { print, ask } = terminal;
  const info = await gameServer(serverUrl, null)('GET', '/api/game');
  print(`${info.name}: call the next card higher (h) or lower (l). Your streak is your score.`);
  const token = await login({
    authUrl: authUrl ?? info.authUrl,
    gameId: info.gameId,
    ...(sleep ? { sleep } : {}),
    onPrompt: ({ url, userCode }) => {
      print('');
      print(`To sign in, open ${url}`);
      print(`and check that it shows the code ${userCode}; approve it there.`);
      print('Waiting for the approval…');
    },
  }).catch((error) => {
    if (error instanceof LoginError) throw new Error(`Not signed in: ${error.message}.`);
    throw error;
  });
  print('Signed in.');
  const call = gameServer(serverUrl, token);

  /** @type {{ id: string, name: string, cost: string }[]} */
  const tiers = info.tiers;
  tiers.forEach((tier, i) => print(`  ${i + 1}. ${tier.name}: ${tier.cost} per play`));
  let tier;
  while (!tier) {
    const answer = (await ask(`Tier (1-${tiers.length}): `)).trim();
    tier = tiers[Number(answer) - 1];
  }
  let state = await call('POST', '/api/games', { leaderboardId: tier.id });
  print(`Play ${state.playId} opened (${tier.cost} locked). The first card is ${state.card}.`);
  while (!state.over) {
    const answer = (await ask(`${state.card}: higher or lower? [h/l] `)).trim().toLowerCase();
    const guess = answer.startsWith('h') ? 'higher' : answer.startsWith('l') ? 'lower' : null;
    if (guess === null) continue;
    state = await call('POST', `/api/games/${state.gameId}/guess`, { guess });
    const verdicts = { right: 'right', wrong: 'wrong', push: 'the same rank: a push' };
    print(
      `${state.card}: ${verdicts[/** @type {'right'} */ (state.outcome)]}. Streak ${state.streak}.`,
    );
  }
  const rank = state.score?.isWinner
    ? ` You are number ${state.score.leaderRank} on the board.`
    : '';
  print(`Game over. Score ${state.streak} submitted.${rank}`);
  return state;
}
