// @ts-check
import { script, startStaticGameServer, stylesheet } from '../../shared/static-game-server.js';
import { reactionCover } from './cover.js';

/**
 * The reaction game's static server: the page, its scripts, the game client library's browser
 * bundle and the cover (examples/shared/static-game-server.js serves them).
 */

export { DEFAULT_ARCADE, DEFAULT_HOST } from '../../shared/static-game-server.js';
export const DEFAULT_PORT = 8090;

const WEB_DIR = new URL('../web/', import.meta.url);

/**
 * Starts the server; resolves once it listens.
 * @param {import('../../shared/static-game-server.js').StaticGameServerOptions} [options]
 */
export function startReactionServer(options = {}) {
  const files = {
    '/game.js': script(WEB_DIR, 'game.js'),
    '/reaction.js': script(WEB_DIR, 'reaction.js'),
    '/style.css': stylesheet(WEB_DIR, 'style.css'),
  };
  const game = { webDir: WEB_DIR, files, cover: reactionCover(), defaultPort: DEFAULT_PORT };
  return startStaticGameServer(game, options);
}
