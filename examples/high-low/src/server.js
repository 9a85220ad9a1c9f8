// @ts-check
import { createServer } from 'node:http';
import { HighLowApi } from './api.js';
import { highLowCover } from './cover.js';
import { orderedDeck, shuffle } from './game.js';
import { problemOf, sendJson } from './http.js';
import { GameSessions } from './sessions.js';
import { readPageTemplate, serveWebClient } from './web-client.js';
import { WebLogins } from './web-logins.js';

/**
 * The authoritative game server (spec 4.1): the player's token is validated before its playerId
 * is trusted, the arcade's play is opened before the first card is dealt, every card is drawn and
 * judged here, and the streak is submitted as the score when the game ends. The client only
 * sends its calls.
 */

export const DEFAULT_PORT = 8091;
export const DEFAULT_HOST = '127.0.0.1';
export { SESSION_IDLE_MS, SESSIONS_MAX } from './sessions.js';
/** The arcade whose page embeds the web client unless told otherwise: the game-sdk's `Origin.DEV`. */
export const DEFAULT_ARCADE = 'http://127.0.0.1:8082';
export { LOGINS_MAX } from './web-logins.js';

/**
 * @typedef {import('@coinop/server-sdk').Arcade} Arcade
 * @typedef {import('./game.js').Card} Card
 */

/**
 * @typedef {object} HighLowServerOptions
 * @property {Arcade} arcade the SDK, built with the game's client credentials
 * @property {string} authUrl the sign-in service the client logs the player in with
 * @property {string} [arcadeOrigin] the arcade web app whose page embeds the web client
 * @property {number} [port]
 * @property {string} [host]
 * @property {() => Card[]} [newDeck] the deck of each new game; default a crypto shuffle
 * @property {() => number} [now] milliseconds, for session idleness
 */

/** @param {HighLowServerOptions} options */
export async function startHighLowServer(options) {
  const { arcade, authUrl } = options;
  const newDeck = options.newDeck ?? (() => shuffle(orderedDeck()));
  const now = options.now ?? Date.now;
  const sessions = new GameSessions(now);
  const cover = highLowCover();
  const arcadeOrigin = (options.arcadeOrigin ?? DEFAULT_ARCADE).replace(/\/+$/, '');
  const pageTemplate = await readPageTemplate();
  const logins = new WebLogins({ arcade, authUrl, now });
  let selfUrl = '';

  const api = new HighLowApi({ arcade, authUrl, sessions, logins, newDeck, now });

  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const page = () => ({
      gameId: arcade.game.id,
      arcade: arcadeOrigin,
      selfUrl,
      name: arcade.game.name,
    });
    if (serveWebClient(method, path, res, { page, pageTemplate, cover })) return;
    api.route(method, path, req).then(
      ({ status, body }) => sendJson(res, status, body),
      (error) => {
        const { status, code, message, grantUrl } = problemOf(error);
        if (status >= 500) console.error('high-low:', error);
        sendJson(res, status, { code, message, ...(grantUrl ? { grantUrl } : {}) });
      },
    );
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_PORT, options.host ?? DEFAULT_HOST, () =>
      resolve(undefined),
    );
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const host = options.host ?? DEFAULT_HOST;
  selfUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  return {
    url: selfUrl,
    /** @returns {Promise<void>} */
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
