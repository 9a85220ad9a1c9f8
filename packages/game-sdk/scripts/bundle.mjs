// Builds the browser bundle: one minified IIFE that sets the global `Coinop` (`Coinop.GameService`,
// `Coinop.Origin`, the error classes), for games that load the SDK with a <script> tag.
//   node scripts/bundle.mjs [--outfile path]   (default dist/game-sdk.min.js)
// Prints the size and fails past the budget, so the bundle stays small.
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/** Minified bytes allowed: room to grow, none for a runtime dependency sneaking in. */
const BUDGET_BYTES = 10 * 1024;

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({ options: { outfile: { type: 'string' } } });
const outfile = values.outfile ?? `${packageDir}dist/game-sdk.min.js`;

await build({
  entryPoints: [`${packageDir}src/index.ts`],
  outfile,
  bundle: true,
  format: 'iife',
  globalName: 'Coinop',
  platform: 'browser',
  // Private class fields and `Object.hasOwn` are native from here on; nothing is polyfilled.
  target: 'es2022',
  // Bundle the sources of @coinop/protocol, as Vitest does, rather than its built dist.
  conditions: ['source'],
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const bytes = await readFile(outfile);
const gzipped = gzipSync(bytes).length;
const shown = relative(process.cwd(), outfile) || outfile;
console.log(`@coinop/game-sdk bundle: ${shown} ${bytes.length} bytes (${gzipped} gzipped)`);
if (bytes.length > BUDGET_BYTES) {
  console.error(`bundle is over its budget of ${BUDGET_BYTES} bytes`);
  process.exitCode = 1;
}
