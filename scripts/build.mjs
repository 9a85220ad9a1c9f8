// Builds what `npm start`, the tests and the packages need, skipping each step whose inputs have
// not changed since it last ran:
//   node scripts/build.mjs [--force]
// TypeScript runs every time (`tsc -b` is incremental and checks itself in about a second); the
// contracts compile, the game SDK bundle and the web app are each hashed over their inputs and
// skipped when the hash matches the stamp their last successful run left and their outputs exist.
// Stamps live in node_modules/.cache/coinop-build/, so a fresh `npm ci` builds everything.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runUnlessUpToDate } from './up-to-date.mjs';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP_DIR = join(ROOT, 'node_modules/.cache/coinop-build');
const force = process.argv.includes('--force');

// Every step depends on the lockfile: a dependency upgrade (solc, esbuild, Vite, React) rebuilds.
const ALWAYS = ['package-lock.json'];

const STEPS = [
  {
    name: 'contracts',
    inputs: ['packages/contracts/contracts', 'packages/contracts/scripts/compile.mjs'],
    outputs: ['packages/contracts/dist/artifacts.js', 'packages/contracts/dist/artifacts.d.ts'],
    run: () => exec('node', ['packages/contracts/scripts/compile.mjs']),
  },
  {
    name: 'typescript',
    // tsc -b keeps its own incremental state: it always runs.
    run: () =>
      exec(process.execPath, [
        require.resolve('typescript/bin/tsc'),
        '-b',
        'packages/server',
        'packages/game-sdk',
        'packages/server-sdk',
      ]),
  },
  {
    name: 'game-sdk bundle',
    inputs: ['packages/game-sdk/src', 'packages/protocol/src', 'packages/game-sdk/scripts'],
    outputs: ['packages/game-sdk/dist/game-sdk.min.js'],
    run: () => exec('npm', ['run', 'bundle', '-w', '@coinop/game-sdk']),
  },
  {
    name: 'web app',
    // Vite bundles the protocol, the core and the contracts from their built dist/ (no `source`
    // condition).
    inputs: [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/tsconfig.json',
      'apps/web/package.json',
      'packages/protocol/dist',
      'packages/core/dist',
      'packages/contracts/dist',
      'packages/game-sdk/dist/game-sdk.min.js',
    ],
    outputs: [
      'apps/web/dist/index.html',
      'packages/server/web-dist/index.html',
      'packages/server/web-dist/game-sdk.min.js',
    ],
    run: () => {
      exec('npm', ['run', 'build', '-w', '@coinop/web']);
      // The server package ships the built app (see packages/server/src/web/app.ts), and the
      // web listener serves the game SDK's bundle beside it at /game-sdk.min.js.
      const target = join(ROOT, 'packages/server/web-dist');
      rmSync(target, { recursive: true, force: true });
      cpSync(join(ROOT, 'apps/web/dist'), target, { recursive: true });
      cpSync(join(ROOT, 'packages/game-sdk/dist/game-sdk.min.js'), join(target, 'game-sdk.min.js'));
    },
  },
];

function exec(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  }
}

const started = performance.now();
for (const step of STEPS) {
  if (!step.inputs) {
    step.run();
    continue;
  }
  const inputs = [...ALWAYS, ...step.inputs];
  const ran = runUnlessUpToDate({
    root: ROOT,
    stampDir: STAMP_DIR,
    step: { ...step, inputs },
    force,
  });
  if (!ran) console.log(`build: ${step.name} is up to date`);
}
console.log(`build: done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
