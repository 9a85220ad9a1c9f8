// Builds what `npm start`, the tests and the packages need, skipping each step whose inputs have
// not changed since it last ran:
//   node scripts/build.mjs [--force]
// The contracts, the game SDK bundle and the web app are each hashed over their inputs and
// skipped when the hash matches the stamp their last successful run left and their outputs exist.
// Stamps live in node_modules/.cache/coinop-build/, so a fresh `npm ci` builds everything.
// TypeScript runs every time (`tsc -b` is incremental: with nothing to do it takes under a second).
//
// A build is for running: TypeScript emits without type-checking (`--noCheck`) and Vite bundles
// the web app without `tsc`, which halves a fresh install's build. `npm run check` (and so
// `npm test` and CI) type-checks everything; `tsc -b` remembers that the check is still due.
//
// What it prints: each step that runs as it starts (TypeScript only once it has taken a second)
// and how long it took, then one line for the whole build. A step's own output is kept back
// unless it fails; its warnings (standard error) pass through.
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runUnlessUpToDate } from './up-to-date.mjs';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP_DIR = join(ROOT, 'node_modules/.cache/coinop-build');
const force = process.argv.includes('--force');
/** A step that says nothing up front says what it is doing once it has taken this long. */
const ANNOUNCE_AFTER_MS = 1_000;

// Every step depends on the lockfile: a dependency upgrade (solc, esbuild, Vite, React) rebuilds.
const ALWAYS = ['package-lock.json'];

// Vite is the web app's own dependency (apps/web/node_modules when its version is not hoisted).
const viteBin = () =>
  join(
    dirname(createRequire(join(ROOT, 'apps/web/package.json')).resolve('vite/package.json')),
    'bin/vite.js',
  );

const STEPS = [
  {
    name: 'contracts',
    doing: 'compiling the Solidity contracts (solc)',
    inputs: ['packages/contracts/contracts', 'packages/contracts/scripts'],
    outputs: ['packages/contracts/dist/artifacts.js', 'packages/contracts/dist/artifacts.d.ts'],
    run: () => exec(process.execPath, ['packages/contracts/scripts/compile.mjs']),
  },
  {
    name: 'typescript',
    doing: 'compiling the packages (tsc -b; npm run check type-checks them)',
    // tsc -b keeps its own incremental state: it always runs.
    run: () =>
      exec(process.execPath, [
        require.resolve('typescript/bin/tsc'),
        '-b',
        '--noCheck',
        'packages/server',
        'packages/game-sdk',
        'packages/server-sdk',
      ]),
  },
  {
    name: 'game-sdk bundle',
    doing: 'bundling the game SDK for a <script> tag (esbuild)',
    inputs: ['packages/game-sdk/src', 'packages/protocol/src', 'packages/game-sdk/scripts'],
    outputs: ['packages/game-sdk/dist/game-sdk.min.js'],
    run: () => exec(process.execPath, ['packages/game-sdk/scripts/bundle.mjs']),
  },
  {
    name: 'web app',
    doing: 'bundling the web app (Vite)',
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
    run: async () => {
      await exec(process.execPath, [viteBin(), 'build', '--logLevel', 'warn'], 'apps/web');
      // The server package ships the built app (see packages/server/src/web/app.ts), and the
      // web listener serves the game SDK's bundle beside it at /game-sdk.min.js.
      const target = join(ROOT, 'packages/server/web-dist');
      rmSync(target, { recursive: true, force: true });
      cpSync(join(ROOT, 'apps/web/dist'), target, { recursive: true });
      cpSync(join(ROOT, 'packages/game-sdk/dist/game-sdk.min.js'), join(target, 'game-sdk.min.js'));
    },
  },
];

/** Runs a command in the repository (or `dir` in it); its output is shown only if it fails. */
function exec(command, args, dir = '.') {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: join(ROOT, dir),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) return resolve();
      process.stderr.write(output);
      reject(new Error(`exited with ${code ?? signal}: ${[command, ...args].join(' ')}`));
    });
  });
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * Runs a step, saying what it does now (or once it has taken a second) and how long it took.
 * Resolves to whether it said so: a step that did something worth a line.
 */
async function timed(step, { announceNow }) {
  const started = performance.now();
  let announced = false;
  const announce = () => {
    announced = true;
    console.log(`build: ${step.name}: ${step.doing}…`);
  };
  const timer = announceNow ? announce() : setTimeout(announce, ANNOUNCE_AFTER_MS);
  try {
    await step.run();
  } finally {
    clearTimeout(timer);
  }
  if (announced) {
    console.log(`build: ${step.name}: done in ${seconds(performance.now() - started)}`);
  }
  return announced;
}

const started = performance.now();
let built = 0;
let current = null;
try {
  for (const step of STEPS) {
    current = step.name;
    if (!step.inputs) {
      if (await timed(step, { announceNow: false })) built += 1;
      continue;
    }
    const ran = await runUnlessUpToDate({
      root: ROOT,
      stampDir: STAMP_DIR,
      step: {
        ...step,
        inputs: [...ALWAYS, ...step.inputs],
        run: () => timed(step, { announceNow: true }),
      },
      force,
    });
    if (ran) built += 1;
  }
} catch (error) {
  console.error(`build: ${current} failed: ${error.message}`);
  process.exit(1);
}
const total = seconds(performance.now() - started);
console.log(built === 0 ? `build: up to date (${total})` : `build: done in ${total}`);
