#!/usr/bin/env node
// The high-low terminal client: `node client.mjs [--server http://127.0.0.1:8091] [--auth URL]`.
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { playInTerminal } from './src/client.js';

const { values } = parseArgs({ options: { server: { type: 'string' }, auth: { type: 'string' } } });
const rl = createInterface({ input: process.stdin, output: process.stdout });
// The iterator buffers lines, so answers piped in ahead of the questions are not lost.
const lines = rl[Symbol.asyncIterator]();
try {
  await playInTerminal({
    serverUrl: values.server ?? process.env.HIGH_LOW_URL ?? 'http://127.0.0.1:8091',
    ...(values.auth ? { authUrl: values.auth } : {}),
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
  console.error(error instanceof Error ? error.message : String(error));
  process.exitCode = 1;
} finally {
  rl.close();
}
