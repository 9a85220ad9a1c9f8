// @ts-check
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

/**
 * The static server of a client-side example game (reaction, Slide): its page, its scripts, the
 * game client library's browser bundle and its cover. No game server: the arcade does everything
 * through the client library. Each game names its files, cover and port.
 */

export const DEFAULT_HOST = '127.0.0.1';
/** The arcade the page talks to unless told otherwise: the game-sdk's `Origin.DEV`. */
export const DEFAULT_ARCADE = 'http://127.0.0.1:8082';
/** How long a look-up of our gameId in the arcade's catalog may take. */
const CATALOG_TIMEOUT_MS = 2000;

const SDK_BUNDLE = createRequire(import.meta.url).resolve('@coinop/game-sdk/game-sdk.min.js');

/**
 * The game's own files beside its page: each served path, its file and content type.
 * @typedef {Record<string, { file: URL | string, type: string }>} GameFiles
 */

/**
 * What a game gives the server.
 * @typedef {object} StaticGame
 * @property {URL} webDir the folder of its index.html (with %GAME_ID% and %ARCADE% in it)
 * @property {GameFiles} files its scripts and styles, by path
 * @property {Buffer} cover its cover.png
 * @property {number} defaultPort
 */

/** @param {URL} webDir @param {string} name */
export const script = (webDir, name) => ({
  file: new URL(name, webDir),
  type: 'text/javascript; charset=utf-8',
});
/** @param {URL} webDir @param {string} name */
export const stylesheet = (webDir, name) => ({
  file: new URL(name, webDir),
  type: 'text/css; charset=utf-8',
});

const HEADERS = {
  'x-content-type-options': 'nosniff',
  // Everything comes from this origin: no CDN, no inline script.
  'content-security-policy':
    "default-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'",
  'cache-control': 'no-cache',
};

/**
 * @typedef {object} StaticGameServerOptions
 * @property {number} [port]
 * @property {string} [host]
 * @property {string} [arcade] the arcade origin the page talks to
 * @property {string} [gameId] the game's id in that arcade; looked up when absent
 */

/**
 * Starts a game's server; resolves once it listens.
 * @param {StaticGame} game
 * @param {StaticGameServerOptions} [options]
 */
export async function startStaticGameServer(game, options = {}) {
  const host = options.host ?? DEFAULT_HOST;
  const arcade = (options.arcade ?? DEFAULT_ARCADE).replace(/\/+$/, '');
  const { cover } = game;
  /** @type {GameFiles} */
  const files = {
    ...game.files,
    '/game-sdk.min.js': { file: SDK_BUNDLE, type: 'text/javascript; charset=utf-8' },
  };
  const pageTemplate = await readFile(new URL('index.html', game.webDir), 'utf8');
  /** @type {string | null} */
  let gameId = options.gameId ?? null;
  let selfUrl = '';

  // The arcade may start after us (npm start runs both at once), so look again until found.
  async function resolveGameId() {
    if (gameId !== null) return gameId;
    try {
      const response = await fetch(`${arcade}/api/catalog/games`, {
        signal: AbortSignal.timeout(CATALOG_TIMEOUT_MS),
      });
      if (!response.ok) return '';
      const { games } = /** @type {{ games: { id: string, url: string }[] }} */ (
        await response.json()
      );
      const mine = games.find((g) => g.url === selfUrl);
      if (mine) gameId = mine.id;
    } catch {
      // Not up yet, or not a coinop arcade: the page falls back to the demo gameId.
    }
    return gameId ?? '';
  }

  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { ...HEADERS, allow: 'GET, HEAD' }).end();
      return;
    }
    void (async () => {
      if (path === '/' || path === '/index.html') {
        const page = pageTemplate
          .replace('%GAME_ID%', escapeAttribute(await resolveGameId()))
          .replace('%ARCADE%', escapeAttribute(arcade));
        res.writeHead(200, { ...HEADERS, 'content-type': 'text/html; charset=utf-8' });
        res.end(page);
        return;
      }
      if (path === '/cover.png') {
        res.writeHead(200, { ...HEADERS, 'content-type': 'image/png' });
        res.end(cover);
        return;
      }
      const entry = files[path];
      if (!entry) {
        res.writeHead(404, { ...HEADERS, 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      res.writeHead(200, { ...HEADERS, 'content-type': entry.type });
      res.end(await readFile(entry.file));
    })().catch((error) => {
      console.error(error);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error\n');
    });
  });

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? game.defaultPort, host, () => resolve(undefined));
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
  selfUrl = url;
  return {
    url,
    /** @returns {Promise<void>} */
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** @param {string} value */
function escapeAttribute(value) {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
