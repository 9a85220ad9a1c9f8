import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The rules file is the architecture (issue 29): `npm test` must fail on an upward import, a
// circle or a web import of the core. These cruise small trees made to break each rule, with the
// real rules file, and check each break is reported by its rule and nothing else is.

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** What `npm run lint:deps` cruises. */
const CRUISED = ['packages/*/src', 'apps/web/src', 'examples/*/src'];

interface Violation {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

let options: ICruiseOptions;

async function violationsIn(baseDir: string, paths: string[]): Promise<Violation[]> {
  const { output } = await cruise(paths, { ...options, baseDir, validate: true });
  const result = output as ICruiseResult;
  return (result.summary.violations ?? [])
    .map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }))
    .sort((a, b) => `${a.rule} ${a.from}`.localeCompare(`${b.rule} ${b.from}`));
}

/** Writes `files` (path → source) under `root`. */
async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

/** A workspace package as npm links it: its package.json exports its sources. */
async function workspacePackage(root: string, name: string, dir: string): Promise<void> {
  await writeTree(root, {
    [`${dir}/package.json`]: JSON.stringify({
      name,
      type: 'module',
      exports: { '.': { source: './src/index.ts', default: './dist/index.js' } },
    }),
  });
  await mkdir(join(root, 'node_modules/@coinop'), { recursive: true });
  await symlink(join(root, dir), join(root, 'node_modules', name), 'dir');
}

beforeAll(async () => {
  options = await extractDepcruiseOptions(join(repoRoot, '.dependency-cruiser.mjs'));
});

describe('the dependency rules on trees made to break them', () => {
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'coinop-dependency-rules-'));
    await writeTree(root, {
      'package.json': JSON.stringify({ name: 'fixture', private: true, type: 'module' }),
      // Imports that point down, each layer to the one under it: none is reported.
      'packages/server/src/cli/main.ts': "import './../main.js';\n",
      'packages/server/src/main.ts': "import './app.js';\n",
      'packages/server/src/app.ts': "import './http/plays.js';\n",
      'packages/server/src/http/plays.ts':
        "import '../services/plays.js';\nimport '../signin/signin.js';\n",
      'packages/server/src/signin/signin.ts': "import '../credentials/tokens.js';\n",
      'packages/server/src/services/plays.ts':
        "import '../chain/watcher.js';\nimport '../store/plays.js';\nimport '@coinop/core';\n",
      'packages/server/src/chain/watcher.ts': "import '../credentials/tokens.js';\n",
      'packages/server/src/credentials/tokens.ts':
        "import { randomBytes } from 'node:crypto';\nimport '../listener/bearer.js';\nimport '../store/players.js';\nexport const secret = randomBytes(32);\n",
      'packages/server/src/listener/bearer.ts':
        "import '../config.js';\nimport '../store/db.js';\n",
      'packages/server/src/config.ts': "import '@coinop/core';\n",
      'packages/server/src/store/plays.ts': "import './db.js';\nimport '@coinop/core';\n",
      'packages/server/src/store/players.ts':
        "import type { Db } from './db.js';\nexport type P = Db;\n",
      'packages/server/src/store/db.ts': 'export interface Db { readonly id: string }\n',
      // The migrations' checksum hashes no secret.
      'packages/server/src/store/migrate.ts': "import { createHash } from 'node:crypto';\n",
      'packages/core/src/index.ts': "import './ledger.js';\nimport '@coinop/protocol';\n",
      'packages/core/src/ledger.ts': 'export const ledger = 1;\n',
      'packages/protocol/src/index.ts': "import './errors.js';\n",
      'packages/protocol/src/errors.ts': 'export const codes = {};\n',
      'apps/web/src/main.tsx': "import '@coinop/protocol';\nimport './page.js';\n",
      'apps/web/src/page.tsx': 'export const page = 1;\n',

      // Upward: a use case importing a route, the store importing a credential.
      'packages/server/src/services/upward.ts': "import '../http/plays.js';\n",
      'packages/server/src/store/upward.ts': "import '../credentials/tokens.js';\n",
      // A building block importing a route (as listener/health.ts did http/openapi.ts).
      'packages/server/src/listener/upward.ts': "import type {} from '../http/plays.js';\n",
      // A route reading the store, even for a type only.
      'packages/server/src/http/reads-store.ts': "import type { Db } from '../store/db.js';\n",
      // The store making a secret.
      'packages/server/src/store/api-keys.ts': "import { randomBytes } from 'node:crypto';\n",
      // The core doing I/O; the protocol importing the core.
      'packages/core/src/io.ts': "import { readFile } from 'node:fs/promises';\n",
      'packages/protocol/src/upward.ts': "import '@coinop/core';\n",
      // The web app importing the core.
      'apps/web/src/payout.tsx': "import { dividePool } from '@coinop/core';\n",
      // A circle, closed by a type-only import.
      'apps/web/src/bridge/handlers.ts': "export const load = () => import('./play.js');\n",
      'apps/web/src/bridge/play.ts': "import type { load } from './handlers.js';\n",
      // An import nothing resolves.
      'packages/server/src/services/missing.ts': "import './not-there.js';\n",
    });
    await workspacePackage(root, '@coinop/core', 'packages/core');
    await workspacePackage(root, '@coinop/protocol', 'packages/protocol');
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('reports each break by its rule, and nothing that points down', async () => {
    const server = 'packages/server/src';
    expect(await violationsIn(root, ['packages', 'apps'])).toEqual([
      { rule: 'core-is-pure', from: 'packages/core/src/io.ts', to: 'fs/promises' },
      { rule: 'imports-resolve', from: `${server}/services/missing.ts`, to: './not-there.js' },
      {
        rule: 'layer-listener',
        from: `${server}/listener/upward.ts`,
        to: `${server}/http/plays.ts`,
      },
      {
        rule: 'layer-services',
        from: `${server}/services/upward.ts`,
        to: `${server}/http/plays.ts`,
      },
      {
        rule: 'layer-store',
        from: `${server}/store/upward.ts`,
        to: `${server}/credentials/tokens.ts`,
      },
      {
        rule: 'no-circular',
        from: 'apps/web/src/bridge/handlers.ts',
        to: 'apps/web/src/bridge/play.ts',
      },
      {
        rule: 'protocol-imports-nothing',
        from: 'packages/protocol/src/upward.ts',
        to: 'packages/core/src/index.ts',
      },
      {
        rule: 'routes-never-import-the-store',
        from: `${server}/http/reads-store.ts`,
        to: `${server}/store/db.ts`,
      },
      {
        rule: 'store-never-creates-or-hashes-secrets',
        from: `${server}/store/api-keys.ts`,
        to: 'crypto',
      },
      {
        rule: 'web-uses-protocol-only',
        from: 'apps/web/src/payout.tsx',
        to: 'packages/core/src/index.ts',
      },
    ]);
  });
});

describe('the repository', () => {
  it('keeps every rule', async () => {
    expect(await violationsIn(repoRoot, CRUISED)).toEqual([]);
  });
});
