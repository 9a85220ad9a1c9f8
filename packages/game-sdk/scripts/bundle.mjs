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

// The global is a frozen plain object of the package's runtime exports. esbuild's `globalName`
// would build an ES-module namespace object instead, with ~450 bytes of interop helpers
// (`__export`, `__toCommonJS`, `__esModule`) a <script> tag has no use for. The bundle test checks
// that this list is every runtime export of src/index.ts.
const GLOBAL_EXPORTS = [
  'BridgeNotInitializedError',
  'BridgeRequestError',
  'BridgeTimeoutError',
  'DEFAULT_REPLY_TIMEOUT_MS',
  'GameService',
  'Origin',
  'isGameServiceError',
].join(', ');

await build({
  stdin: {
    contents: `import { ${GLOBAL_EXPORTS} } from './index.js';
globalThis.Coinop = Object.freeze({ ${GLOBAL_EXPORTS} });`,
    resolveDir: `${packageDir}src`,
    sourcefile: 'coinop-global.ts',
    loader: 'ts',
  },
  outfile,
  bundle: true,
  format: 'iife',
  // The sources are ES modules, strict throughout; keep the bundle strict too.
  banner: { js: '"use strict";' },
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
