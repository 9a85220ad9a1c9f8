#!/usr/bin/env node
// The high-low terminal client; `node client.mjs --help` says how to use it.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { playInTerminal } from './src/client.js';

const DEFAULT_SERVER = 'http://127.0.0.1:8091';
const USAGE = `Usage: node client.mjs [--server URL] [--auth URL]

Plays High-Low in this terminal. The client signs you in to the arcade (it prints a link and a
code: open the link, check the code and approve with your wallet), lets you pick a tier, then
sends your calls to the High-Low server, which deals and counts every card.

Options:
  --server URL  the High-Low game server (default: $HIGH_LOW_URL, else ${DEFAULT_SERVER})
  --auth URL    the arcade's sign-in service (default: the one the game server names)
  -h, --help    show this help and exit

With the arcade running (npm start), from the repository root:
  npm run play -w @coinop/example-high-low`;

/**
 * @param {string} message
 * @returns {never}
 */
function usageError(message) {
  console.error(`high-low: ${message}\nRun "node client.mjs --help" for usage.`);
  process.exit(2);
}

/**
 * @param {string} flag
 * @param {string} value
 */
function httpUrl(flag, value) {
  let url;
  try {
    url = new URL(value);
  } catch {
    return usageError(`${flag} must be an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return usageError(`${flag} must be an http(s) URL, got "${value}"`);
  }
  return url.href;
}

let values;
try {
  ({ values } = parseArgs({
    options: {
      server: { type: 'string' },
      auth: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  usageError(error instanceof Error ? error.message : String(error));
}
if (values?.help) {
  console.log(USAGE);
  process.exit(0);
}
const serverUrl = httpUrl(
  values?.server ? '--server' : 'HIGH_LOW_URL',
  values?.server ?? process.env.HIGH_LOW_URL ?? DEFAULT_SERVER,
);
const authUrl = values?.auth ? httpUrl('--auth', values.auth) : undefined;

const rl = createInterface({ input: process.stdin, output: process.stdout });
// The iterator buffers lines, so answers piped in ahead of the questions are not lost.
const lines = rl[Symbol.asyncIterator]();
try {
  await playInTerminal({
    serverUrl,
    ...(authUrl ? { authUrl } : {}),
    terminal: {
      print: (line) => console.log(line),
      ask: async (question) => {
        process.stdout.write(question);
        const line = await lines.next();
        if (line.done) throw new Error('stdin closed before the game ended');
        return line.value;
      },
    },
  });
} catch (error) {
  console.error(`high-low: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  rl.close();
}
