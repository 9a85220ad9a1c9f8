#!/usr/bin/env node
// Serves the slide example: `node server.mjs [--port 8092] [--host 127.0.0.1]
// [--arcade http://127.0.0.1:8082] [--game-id ID]` (or the environment: PORT, HOST, COINOP_ARCADE).
import { parseArgs } from 'node:util';
import { DEFAULT_ARCADE, DEFAULT_HOST, DEFAULT_PORT, startSlideServer } from './src/server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    arcade: { type: 'string' },
    'game-id': { type: 'string' },
  },
});
const port = Number(values.port ?? process.env.PORT ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`slide: --port must be a port number, got ${values.port ?? process.env.PORT}`);
  process.exit(2);
}
const arcade = values.arcade ?? process.env.COINOP_ARCADE ?? DEFAULT_ARCADE;
const server = await startSlideServer({
  port,
  host: values.host ?? process.env.HOST ?? DEFAULT_HOST,
  arcade,
  ...(values['game-id'] ? { gameId: values['game-id'] } : {}),
});
console.log(`slide: serving the game at ${server.url} for the arcade ${arcade}`);
console.log(
  `slide: try it in the demo arcade: ${arcade}/demo?game=${encodeURIComponent(server.url)}` +
    '&scoreUnit=points',
);
console.log(`slide: its verifier, to upload for your own game: ${server.url}slide.js`);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
