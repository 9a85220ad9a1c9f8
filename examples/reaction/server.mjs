#!/usr/bin/env node
// Serves the reaction example: `node server.mjs [--port 8090] [--host 127.0.0.1]
// [--arcade http://127.0.0.1:8082] [--game-id ID]` (or the environment: PORT, HOST, COINOP_ARCADE).
import { serveFromCommandLine } from '../shared/serve-game.js';
import { DEFAULT_PORT, startReactionServer } from './src/server.js';

await serveFromCommandLine('reaction', {
  defaultPort: DEFAULT_PORT,
  start: startReactionServer,
  demoQuery: '&scoreDisplay=REVERSE',
});
