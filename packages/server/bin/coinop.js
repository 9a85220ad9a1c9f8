#!/usr/bin/env node
// The `coinop` command. A committed file rather than dist/cli/main.js itself: npm links a
// workspace's bins before the install's own build makes dist/, and a bin whose file is missing
// then is never linked, so `npx coinop` in a fresh clone would be "not found".
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli/main.js', import.meta.url);

try {
  await import(cli.href);
} catch (error) {
  const missing = fileURLToPath(cli);
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes(missing)) {
    process.stderr.write(
      `coinop: the CLI is not built (${missing} is missing): run npm run build at the ` +
        "repository's root\n",
    );
    process.exit(1);
  }
  throw error;
}
