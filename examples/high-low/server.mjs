#!/usr/bin/env node
// The high-low game server: `node server.mjs [--port 8091] [--host 127.0.0.1]
// [--arcade http://127.0.0.1:8082]`. Credentials and arcade from the environment:
// COINOP_CLIENT_ID, COINOP_CLIENT_SECRET, COINOP_API_URL, COINOP_AUTH_URL, COINOP_GAME_ID,
// COINOP_ARCADE (the web app embedding the game's page; see examples/README.md).
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Arcade, ArcadeNetworkError } from '@coinop/server-sdk';
import { ARCADE_WAIT_MS, resolveCredentials, retry } from './src/credentials.js';
import { DEFAULT_ARCADE, DEFAULT_HOST, DEFAULT_PORT, startHighLowServer } from './src/server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string' },
    arcade: { type: 'string' },
    'data-dir': { type: 'string' },
  },
});
const env = process.env;
const port = Number(values.port ?? env.PORT ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`high-low: --port must be a port number, got ${values.port ?? env.PORT}`);
  process.exit(2);
}
const apiUrl = env.COINOP_API_URL || 'http://127.0.0.1:8080';
const authUrl = env.COINOP_AUTH_URL || 'http://127.0.0.1:8081';
// npm runs workspace scripts in the workspace; INIT_CWD is where `npm start` was typed.
const dataDir = resolve(
  env.INIT_CWD ?? process.cwd(),
  values['data-dir'] ?? env.COINOP_DATA_DIR ?? './.coinop',
);
const log = (/** @type {string} */ line) => console.log(`high-low: ${line}`);

const credentials = await resolveCredentials({
  apiUrl,
  clientId: env.COINOP_CLIENT_ID,
  clientSecret: env.COINOP_CLIENT_SECRET,
  gameId: env.COINOP_GAME_ID,
  adminToken: env.COINOP_ADMIN_TOKEN,
  dataDir,
  log,
});
const arcade = await retry(ARCADE_WAIT_MS, `the arcade API at ${apiUrl}`, async () => {
  try {
    return await Arcade.build({ ...credentials, baseUrl: apiUrl, authUrl });
  } catch (error) {
    // Only an arcade that is not up yet is worth waiting for; bad credentials are final.
    if (error instanceof ArcadeNetworkError) throw error;
    console.error(`high-low: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
});
const server = await startHighLowServer({
  arcade,
  authUrl,
  arcadeOrigin: values.arcade ?? env.COINOP_ARCADE ?? DEFAULT_ARCADE,
  port,
  host: values.host ?? env.HOST ?? DEFAULT_HOST,
});
log(`game "${arcade.game.name}" ${arcade.game.id} on ${apiUrl}; serving ${server.url}`);
log(`play it in the arcade's catalog, or in a terminal: npm run play -w @coinop/example-high-low`);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => void server.close().then(() => process.exit(0)));
}
