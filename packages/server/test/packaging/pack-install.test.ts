import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, storeVariants, type StoreVariant } from '@coinop/testkit/db';
import { freePort } from '@coinop/testkit/net';

// Issue 16: coinop and its SDKs install from their tarballs into a project outside the workspace,
// with their dependencies from the npm registry, and work there: `npx coinop serve` starts an
// arcade, a game server on the installed @coinop/server-sdk plays and scores on it, and a
// TypeScript consumer type-checks against the installed declarations.

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** Every package the repository publishes, in dependency order. */
const PUBLISHED = [
  '@coinop/protocol',
  '@coinop/core',
  '@coinop/contracts',
  '@coinop/game-sdk',
  '@coinop/server-sdk',
  'coinop',
] as const;
const require = createRequire(import.meta.url);
const TSC = require.resolve('typescript/bin/tsc');
const SERVER_MANIFEST = require('coinop/package.json') as {
  version: string;
  peerDependencies: Record<string, string>;
};
const SERVER_VERSION = SERVER_MANIFEST.version;
const ANVIL_RANGE = SERVER_MANIFEST.peerDependencies['@foundry-rs/anvil'];
/** npm install from the registry (or its cache) of a few hundred packages. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The environment without the workspace's npm settings (`npm test` sets npm_config_* and
 * npm_package_*), COINOP_* or DATABASE_URL: the consumer project sees only its own.
 */
function consumerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|COINOP_|DATABASE_URL$|INIT_CWD$)/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

function run(command: string, args: string[], cwd: string, timeoutMs = 60_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: consumerEnv(), timeout: timeoutMs });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function runOk(command: string, args: string[], cwd: string, timeoutMs?: number) {
  const result = await run(command, args, cwd, timeoutMs);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.code}:\n${result.stderr}`);
  }
  return result;
}

async function waitForReady(url: string, server: ChildProcess, log: () => string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`coinop serve exited early:\n${log()}`);
    const status = await fetch(url).then(
      (res) => res.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} was not ready within a minute:\n${log()}`);
}

// The game server a developer would write: build, check the player token, play, score.
const GAME_SERVER = `import { Arcade } from '@coinop/server-sdk';

const env = process.env;
const arcade = await Arcade.build({
  clientId: env.CLIENT_ID,
  clientSecret: env.CLIENT_SECRET,
  baseUrl: env.API_URL,
  authUrl: env.AUTH_URL,
});
const tier = arcade.game.leaderboards[0];
const { playerId } = await arcade.validatePlayerToken(env.PLAYER_TOKEN);
const play = await arcade.play(playerId, tier.id);
const result = await arcade.score(play, 4242);
console.log(JSON.stringify({ playerId, tier, play, result }));
`;

// A TypeScript consumer of the three libraries; the @ts-expect-error lines fail the check if
// the packages' types resolve to nothing (any).
const CONSUMER_TS = `import { Arcade, ArcadeApiError, type Play } from '@coinop/server-sdk';
import { GameService, Origin } from '@coinop/game-sdk';
import { isErrorCode } from '@coinop/protocol';

export async function finish(arcade: Arcade, play: Play): Promise<number | null> {
  try {
    const { leaderRank } = await arcade.score(play, 10);
    return leaderRank;
  } catch (error) {
    if (error instanceof ArcadeApiError && error.code === 'insufficient_funds') return null;
    throw error;
  }
}

export const service = new GameService('my-game', Origin.DEV);
export const known: boolean = isErrorCode('insufficient_funds');

// @ts-expect-error a score is a number
export const wrong = (arcade: Arcade, play: Play) => arcade.score(play, 'high');
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM'],
    types: ['node'],
    strict: true,
    noEmit: true,
    skipLibCheck: false,
  },
  files: ['consumer.ts'],
};

describe('coinop from its packages, installed outside the workspace', () => {
  let workDir: string;
  let project: string;
  let install: Run;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'coinop-pack-'));
    const tarballs = join(workDir, 'tarballs');
    project = join(workDir, 'project');
    await mkdir(tarballs);
    await mkdir(project);

    // The build (npm install's prepare) made dist/, web-dist/ and the contracts' artifacts.
    const packed = await runOk(
      'npm',
      [
        'pack',
        '--json',
        '--ignore-scripts',
        '--pack-destination',
        tarballs,
        ...PUBLISHED.flatMap((name) => ['-w', name]),
      ],
      REPO_ROOT,
    );
    const files = (JSON.parse(packed.stdout) as { filename: string }[]).map((p) =>
      join(tarballs, p.filename),
    );
    expect(files).toHaveLength(PUBLISHED.length);

    await writeFile(
      join(project, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    install = await runOk(
      'npm',
      // --prefer-offline: the workspace's own install filled the npm cache with these versions.
      ['install', '--no-audit', '--no-fund', '--prefer-offline', '@types/node@^20.19', ...files],
      project,
      INSTALL_TIMEOUT_MS,
    );
  }, INSTALL_TIMEOUT_MS + 60_000);

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('installs with no engine warning on this Node', () => {
    expect(install.stderr).not.toMatch(/EBADENGINE/);
  });

  // Issue 28: the server package dragged the dev chain's Anvil (43 MB) into every install.
  it('installs no Anvil: the dev chain is an optional peer dependency', async () => {
    const installed = JSON.parse(
      await readFile(join(project, 'node_modules/coinop/package.json'), 'utf8'),
    ) as Record<string, Record<string, unknown> | undefined>;
    expect(installed['dependencies']).not.toHaveProperty(['@foundry-rs/anvil']);
    expect(installed['peerDependencies']).toEqual({ '@foundry-rs/anvil': expect.any(String) });
    expect(installed['peerDependenciesMeta']).toEqual({ '@foundry-rs/anvil': { optional: true } });
    expect(existsSync(join(project, 'node_modules/@foundry-rs'))).toBe(false);
  });

  it('says how to add Anvil when --dev-chain finds none, before it opens anything', async () => {
    const dataDir = join(workDir, 'data-no-anvil');
    const refused = await run(
      'npx',
      ['--no-install', 'coinop', 'serve', '--dev-chain', '--demo', '--data-dir', dataDir],
      project,
    );
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'coinop: --dev-chain: the dev chain needs Anvil (the npm package @foundry-rs/anvil), ' +
        'which an install of coinop leaves out: add it with `npm install ' +
        `@foundry-rs/anvil@${ANVIL_RANGE}\` beside coinop (with -g for a global coinop) ` +
        '(docs/operating/dev-chain.md)\n',
    });
    expect(existsSync(dataDir)).toBe(false);
  });

  it('reports its version from the installed package.json', async () => {
    const version = await runOk('npx', ['--no-install', 'coinop', '--version'], project);
    expect(version.stdout.trim()).toBe(SERVER_VERSION);
  });

  it('type-checks a TypeScript consumer against the installed declarations', async () => {
    await writeFile(join(project, 'consumer.ts'), CONSUMER_TS);
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const check = await run(process.execPath, [TSC, '-p', 'tsconfig.json'], project);
    expect(check.stdout + check.stderr).toBe('');
    expect(check.code).toBe(0);
  });

  describe.each(storeVariants())('npx coinop serve on %s', (variant: StoreVariant) => {
    let server: ChildProcess;
    let log = '';
    let apiUrl: string;
    let authUrl: string;
    let dataDir: string;
    let dropDatabase: (() => Promise<void>) | undefined;

    const coinop = async (...args: string[]) => {
      const result = await runOk(
        'npx',
        ['--no-install', 'coinop', ...args, '--server', apiUrl, '--data-dir', dataDir],
        project,
      );
      return JSON.parse(result.stdout) as Record<string, unknown>;
    };

    beforeAll(async () => {
      dataDir = join(workDir, `data-${variant}`);
      const [apiPort, authPort, webPort] = [await freePort(), await freePort(), await freePort()];
      apiUrl = `http://127.0.0.1:${apiPort}`;
      authUrl = `http://127.0.0.1:${authPort}`;
      const database: string[] = [];
      if (variant === 'postgres') {
        const created = await createTestDatabase();
        dropDatabase = created.drop;
        database.push('--database-url', created.url);
      }
      // detached: npx runs coinop as its child, and the whole group is stopped at the end.
      server = spawn(
        'npx',
        [
          '--no-install',
          'coinop',
          'serve',
          '--demo',
          '--data-dir',
          dataDir,
          '--api-port',
          String(apiPort),
          '--auth-port',
          String(authPort),
          '--web-port',
          String(webPort),
          ...database,
        ],
        { cwd: project, env: consumerEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      server.stdout?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
      server.stderr?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
      await waitForReady(`${apiUrl}/readyz`, server, () => log);
      await waitForReady(`http://127.0.0.1:${webPort}/readyz`, server, () => log);
      // The web listener serves the app the package ships.
      const page = await fetch(`http://127.0.0.1:${webPort}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toMatch(/<div id="root">/);
      // ...and the game SDK's browser bundle, for games that load it from the arcade.
      const bundle = await fetch(`http://127.0.0.1:${webPort}/game-sdk.min.js`);
      expect(bundle.headers.get('content-type')).toMatch(/javascript/);
      expect(await bundle.text()).toMatch(/\bglobalThis\.Coinop=Object\.freeze\(/);
    });

    afterAll(async () => {
      if (server?.pid !== undefined && server.exitCode === null) {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        process.kill(-server.pid, 'SIGTERM');
        await exited;
      }
      await dropDatabase?.();
    });

    it('describes its API at the installed package version', async () => {
      const openapi = (await (await fetch(`${apiUrl}/openapi.json`)).json()) as {
        info: { version: string };
      };
      expect(openapi.info.version).toBe(SERVER_VERSION);
    });

    it('plays and scores through the installed server SDK', async () => {
      const catalog = (await (await fetch(`${apiUrl}/catalog/games`)).json()) as {
        games: { id: string; name: string }[];
      };
      const game = catalog.games.find((g) => g.name === 'Demo Reaction');
      expect(game).toBeDefined();
      const client = await coinop('admin', 'client', 'create', '--game', game!.id);
      const { playerId } = await coinop(
        'admin',
        'player',
        'create',
        '--wallet',
        `0x${'5e'.repeat(20)}`,
      );
      await coinop('admin', 'hst', 'mint', '--account', String(playerId), '--amount', '20');
      const token = await coinop(
        'admin',
        'player',
        'token',
        '--player',
        String(playerId),
        '--game',
        game!.id,
      );

      await writeFile(join(project, 'game-server.mjs'), GAME_SERVER);
      const gameServer = spawn(process.execPath, ['game-server.mjs'], {
        cwd: project,
        env: consumerEnv({
          CLIENT_ID: String(client['clientId']),
          CLIENT_SECRET: String(client['clientSecret']),
          API_URL: apiUrl,
          AUTH_URL: authUrl,
          PLAYER_TOKEN: String(token['access_token']),
        }),
      });
      let out = '';
      let err = '';
      gameServer.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      gameServer.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
      const code = await new Promise((resolve) => gameServer.on('close', resolve));
      expect(err).toBe('');
      expect(code).toBe(0);
      const { tier, play, result } = JSON.parse(out) as {
        tier: { id: string; cost: number };
        play: { id: string; leaderboardId: string };
        result: {
          score: number;
          isWinner: boolean;
          leaders: { playerId: string; score: number }[];
        };
      };
      expect(play.leaderboardId).toBe(tier.id);
      expect(result).toMatchObject({ score: 4242, isWinner: true });
      expect(result.leaders).toContainEqual(expect.objectContaining({ playerId, score: 4242 }));

      // The play cost the tier exactly (1 HST), less its leaders' 0.7 HST back (nobody led the
      // board before it), and nothing is left locked.
      expect(tier.cost).toBe(1);
      const balance = await coinop('admin', 'hst', 'balance', '--account', String(playerId));
      expect(balance).toMatchObject({ balance: '19.7', pending: '0' });
      const audit = await coinop('admin', 'hst', 'audit');
      expect(audit).toMatchObject({ balanced: true });
    });
  });
});
