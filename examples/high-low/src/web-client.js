// @ts-check
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PAGE_HEADERS, SAFE_HEADERS, escapeHtml } from './http.js';

const WEB_DIR = new URL('../web/', import.meta.url);
const SDK_BUNDLE = createRequire(import.meta.url).resolve('@coinop/game-sdk/game-sdk.min.js');
const WEB_FILES = {
  '/play.js': { file: new URL('play.js', WEB_DIR), type: 'text/javascript; charset=utf-8' },
  '/style.css': { file: new URL('style.css', WEB_DIR), type: 'text/css; charset=utf-8' },
  '/game-sdk.min.js': { file: SDK_BUNDLE, type: 'text/javascript; charset=utf-8' },
};

/**
 * @typedef {object} PageValues
 * @property {string} gameId
 * @property {string} arcade the arcade web app's origin, which embeds the page
 * @property {string} selfUrl this server's address
 * @property {string} name the game's name
 */

/** The web client's page, with `%GAME_ID%`, `%ARCADE%`, `%SELF_URL%` and `%NAME%` to fill in. */
export function readPageTemplate() {
  return readFile(new URL('index.html', WEB_DIR), 'utf8');
}

/**
 * Serves the web client (its page, script, style and the game SDK) and the cover, when `path`
 * names one of them; false for any other request.
 * @param {string} method
 * @param {string} path
 * @param {import('node:http').ServerResponse} res
 * @param {{ page: () => PageValues, pageTemplate: string, cover: Buffer }} web `page` gives
 *   what the page's template is filled in with, as it stands when the page is asked for
 */
export function serveWebClient(method, path, res, { page, pageTemplate, cover }) {
  if (method === 'GET' && (path === '/' || path === '/index.html')) {
    const values = page();
    const html = pageTemplate
      .replaceAll('%GAME_ID%', escapeHtml(values.gameId))
      .replaceAll('%ARCADE%', escapeHtml(values.arcade))
      .replaceAll('%SELF_URL%', escapeHtml(values.selfUrl))
      .replaceAll('%NAME%', escapeHtml(values.name));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...PAGE_HEADERS });
    res.end(html);
    return true;
  }
  const webFile = WEB_FILES[/** @type {keyof typeof WEB_FILES} */ (path)];
  if (method === 'GET' && webFile) {
    readFile(webFile.file).then(
      (content) => {
        res.writeHead(200, { 'content-type': webFile.type, ...PAGE_HEADERS });
        res.end(content);
      },
      (error) => {
        console.error('high-low:', error);
        res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error\n');
      },
    );
    return true;
  }
  if (method === 'GET' && path === '/cover.png') {
    res.writeHead(200, { 'content-type': 'image/png', ...SAFE_HEADERS });
    res.end(cover);
    return true;
  }
  return false;
}
