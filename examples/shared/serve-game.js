// @ts-check
import { parseArgs } from 'node:util';
import { DEFAULT_ARCADE, DEFAULT_HOST } from './static-game-server.js';

/**
 * @typedef {object} ServedGame
 * @property {number} defaultPort
 * @property {(options: import('./static-game-server.js').StaticGameServerOptions) =>
 *   Promise<{ url: string, close: () => Promise<void> }>} start
 * @property {string} demoQuery what the demo arcade's link adds after the game's URL
 * @property {(url: string) => string[]} [notes] more lines to print once it serves
 */

/**
 * Runs a client-side example's server from its command line (`--port`, `--host`, `--arcade`,
 * `--game-id`, or PORT, HOST, COINOP_ARCADE), says where it serves and how to try it in the demo
 * arcade, and stops on SIGINT or SIGTERM.
 * @param {string} name
 * @param {ServedGame} game
 */
export async function serveFromCommandLine(name, game) {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      arcade: { type: 'string' },
      'game-id': { type: 'string' },
    },
  });
  const port = Number(values.port ?? process.env.PORT ?? game.defaultPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`${name}: --port must be a port number, got ${values.port ?? process.env.PORT}`);
    process.exit(2);
  }
  const arcade = values.arcade ?? process.env.COINOP_ARCADE ?? DEFAULT_ARCADE;
  const server = await game.start({
    port,
    host: values.host ?? process.env.HOST ?? DEFAULT_HOST,
    arcade,
    ...(values['game-id'] ? { gameId: values['game-id'] } : {}),
  });
  console.log(`${name}: serving the game at ${server.url} for the arcade ${arcade}`);
  console.log(
    `${name}: try it in the demo arcade: ${arcade}/demo?game=${encodeURIComponent(server.url)}` +
      game.demoQuery,
  );
  for (const line of game.notes?.(server.url) ?? []) console.log(`${name}: ${line}`);
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => void server.close().then(() => process.exit(0)));
  }
}
