#!/usr/bin/env node
// Serves the slide example: `node server.mjs [--port 8092] [--host 127.0.0.1]
// [--arcade http://127.0.0.1:8082] [--game-id ID]` (or the environment: PORT, HOST, COINOP_ARCADE).
import { serveFromCommandLine } from '../shared/serve-game.js';
import { DEFAULT_PORT, startSlideServer } from './src/server.js';

await serveFromCommandLine('slide', {
  defaultPort: DEFAULT_PORT,
  start: startSlideServer,
  demoQuery: '&scoreUnit=points',
  notes: (url) => [`its verifier, to upload for your own game: ${url}slide.js`],
});
