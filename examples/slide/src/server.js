// @ts-check
import { script, startStaticGameServer, stylesheet } from '../../shared/static-game-server.js';
import { slideCover } from './cover.js';

/**
 * The slide game's static server: the page, its scripts, the game client library's browser
 * bundle and the cover (examples/shared/static-game-server.js serves them).
 */

export { DEFAULT_ARCADE, DEFAULT_HOST } from '../../shared/static-game-server.js';
export const DEFAULT_PORT = 8092;

const WEB_DIR = new URL('../web/', import.meta.url);

/**
 * Starts the server; resolves once it listens.
 * @param {import('../../shared/static-game-server.js').StaticGameServerOptions} [options]
 */
export function startSlideServer(options = {}) {
  const files = {
    '/game.js': script(WEB_DIR, 'game.js'),
    // The engine, which is also the verifier the arcade runs: the same file, byte for byte.
    '/slide.js': script(WEB_DIR, 'slide.js'),
    '/input.js': script(WEB_DIR, 'input.js'),
    '/view.js': script(WEB_DIR, 'view.js'),
    '/style.css': stylesheet(WEB_DIR, 'style.css'),
  };
  const game = { webDir: WEB_DIR, files, cover: slideCover(), defaultPort: DEFAULT_PORT };
  return startStaticGameServer(game, options);
}
