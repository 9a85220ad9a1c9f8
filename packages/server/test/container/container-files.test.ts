import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { DCLinter } from 'dclint';
import { DockerfileParser, type ImageTemplate, type Instruction } from 'dockerfile-ast';
import { validate } from 'dockerfile-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { freePort } from '@coinop/testkit/net';
import { DEFAULTS, FLAG_ENV, loadConfig } from '../../src/config.js';
import { bannerApiUrl, CLI_PATH, cleanEnv } from '../cli/run-cli.js';

/**
 * The container files at the repository root (Dockerfile, compose.yaml, .dockerignore), checked
 * without a container engine: both linted, their settings held to the code's (ports, variable
 * names, paths), and the image's HEALTHCHECK command run against a real `coinop serve` started
 * the way the image starts it. Building and running the image is scripts/container/smoke.sh's
 * (docs/operating/container.md says what was exercised where).
 */

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const DATA_DIR = '/var/lib/coinop';

const dockerfileText = await readFile(join(ROOT, 'Dockerfile'), 'utf8');
const composeText = await readFile(join(ROOT, 'compose.yaml'), 'utf8');
const dockerfile = DockerfileParser.parse(dockerfileText);

/** Every config variable coinop reads: FLAG_ENV's, plus the secrets key given as a value. */
const KNOWN_ENV = new Set<string>([
  ...Object.values(FLAG_ENV).map(([, env]) => env),
  'COINOP_SECRETS_KEY',
]);

/** The last stage: the image that runs. */
function runtimeStage(): ImageTemplate {
  const froms = dockerfile.getFROMs();
  const stage = dockerfile.getContainingImage(froms[froms.length - 1]!.getRange().start);
  if (stage === null) throw new TypeError('the Dockerfile has no stage');
  return stage;
}

function keyword(name: string): Instruction[] {
  return runtimeStage()
    .getInstructions()
    .filter((i) => i.getKeyword() === name);
}

function argumentsOf(instruction: Instruction): string[] {
  return instruction.getArguments().map((a) => a.getValue());
}

/** A JSON-form (exec form) instruction's list, as the engine reads it. */
function execForm(instruction: Instruction): string[] {
  const text = instruction.getArgumentsContent() ?? '';
  return JSON.parse(text.slice(text.indexOf('['))) as string[];
}

function runtimeEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const instruction of runtimeStage().getENVs()) {
    for (const property of instruction.getProperties()) {
      env[property.getName()] = property.getValue() ?? '';
    }
  }
  return env;
}

function healthcheck(): { flags: Record<string, string>; command: string[] } {
  const [instruction, ...more] = runtimeStage().getHEALTHCHECKs();
  if (instruction === undefined) throw new Error('the image has no HEALTHCHECK');
  expect(more).toEqual([]);
  const flags: Record<string, string> = {};
  for (const flag of instruction.getFlags()) flags[flag.getName()] = flag.getValue() ?? '';
  const text = instruction.getArgumentsContent() ?? '';
  const command = JSON.parse(text.slice(text.indexOf('CMD') + 'CMD'.length)) as string[];
  return { flags, command };
}

/** compose.yaml with its `${VAR:-default}` and `${VAR:?message}` filled as Compose would. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_m, name: string, op, rest: string) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (op === '-') return rest;
    if (op === '?') throw new Error(`compose.yaml needs ${name}: ${rest}`);
    return ''; // Unset and without a default: empty, as Compose does (with a warning).
  });
}

interface ComposeService {
  build?: string;
  image?: string;
  depends_on?: Record<string, { condition: string }>;
  volumes?: string[];
  secrets?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  healthcheck?: { test: string[]; interval: string; timeout: string; retries: number };
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
  secrets: Record<string, { file: string }>;
}

async function lintCompose(text: string): Promise<string[]> {
  const dir = await mkdtemp(join(tmpdir(), 'coinop-compose-'));
  try {
    await writeFile(join(dir, 'compose.yaml'), text);
    const linter = new DCLinter({ rules: {}, quiet: false, debug: false, exclude: [] });
    const [result] = linter.lintFiles([join(dir, 'compose.yaml')], false);
    return result!.messages.map(
      (m: { rule: string; message: string }) => `${m.rule}: ${m.message}`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('Dockerfile', () => {
  it('passes the Dockerfile linter, which does catch a mistake', () => {
    expect(validate(dockerfileText)).toEqual([]);
    const broken = dockerfileText.replace('HEALTHCHECK --interval', 'HEALTHCHECK --intervall');
    expect(validate(broken).map((d) => d.message)).toEqual(['Unknown flag: intervall']);
  });

  it('builds on Node 24 slim in two stages, the base replaceable by a build argument', () => {
    const initialArgs = dockerfile
      .getInitialARGs()
      .flatMap((arg) => arg.getProperties().map((p) => [p.getName(), p.getValue()]));
    expect(initialArgs).toEqual([['NODE_IMAGE', 'node:24-bookworm-slim']]);
    expect(dockerfile.getFROMs().map((f) => argumentsOf(f).join(' '))).toEqual([
      '${NODE_IMAGE} AS build',
      '${NODE_IMAGE} AS runtime',
    ]);
    // What the other tests read is the runtime stage alone.
    expect(
      runtimeStage()
        .getFROMs()
        .map((f) => f.getBuildStage()),
    ).toEqual(['runtime']);
  });

  it('runs coinop serve under tini as a non-root user with a fixed uid', () => {
    expect(keyword('USER').map(argumentsOf)).toEqual([['coinop:coinop']]);
    const runs = keyword('RUN')
      .map((r) => r.getArgumentsContent())
      .join('\n');
    expect(runs).toMatch(/groupadd --gid 10001 coinop/);
    expect(runs).toMatch(/useradd .*--uid 10001 --gid coinop/);
    expect(runs).toMatch(/chown coinop:coinop \/var\/lib\/coinop/);
    expect(keyword('ENTRYPOINT').map(execForm)).toEqual([['/usr/bin/tini', '--', 'coinop']]);
    expect(keyword('CMD').map(execForm)).toEqual([['serve']]);
  });

  it('configures coinop through its own variables: all listeners, data in the volume', () => {
    const env = runtimeEnv();
    const coinopVariables = Object.keys(env).filter((name) => name.startsWith('COINOP_'));
    expect(coinopVariables.filter((name) => !KNOWN_ENV.has(name))).toEqual([]);
    expect(env).toMatchObject({ COINOP_HOST: '0.0.0.0', COINOP_DATA_DIR: DATA_DIR });
    expect(keyword('VOLUME').map(argumentsOf)).toEqual([[DATA_DIR]]);
    // The ports the image exposes are the ones coinop listens on when none is given.
    const config = loadConfig({}, env);
    expect(keyword('EXPOSE').map(argumentsOf)).toEqual([
      [config.apiPort, config.authPort, config.webPort].map(String),
    ]);
    expect([config.apiPort, config.authPort, config.webPort]).toEqual([
      DEFAULTS.apiPort,
      DEFAULTS.authPort,
      DEFAULTS.webPort,
    ]);
    expect(config.host).toBe('0.0.0.0');
  });

  it('probes readiness with node and fetch, no curl', () => {
    const { flags, command } = healthcheck();
    expect(flags).toEqual({ interval: '10s', timeout: '5s', 'start-period': '60s', retries: '3' });
    expect(command.slice(0, 2)).toEqual(['node', '-e']);
    expect(command[2]).toMatch(/\/readyz'/);
  });
});

describe('.dockerignore', () => {
  it('keeps dependencies, build output, local data and secrets out of the build context', async () => {
    const patterns = (await readFile(join(ROOT, '.dockerignore'), 'utf8'))
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    for (const pattern of [
      '.git',
      '**/node_modules',
      '**/dist',
      '**/.coinop',
      '.env',
      '*.key',
      '*.pem',
      'secrets',
    ]) {
      expect(patterns).toContain(pattern);
    }
  });
});

describe('compose.yaml', () => {
  const operatorEnv = {
    POSTGRES_PASSWORD: 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6',
    COINOP_ADMIN_TOKEN: 'f'.repeat(64),
  };
  const compose = parseYaml(interpolate(composeText, operatorEnv)) as Compose;
  const coinop = compose.services['coinop']!;
  const postgres = compose.services['postgres']!;

  it('passes the Compose linter (schema and practices), which does catch a mistake', async () => {
    expect(await lintCompose(composeText)).toEqual([]);
    const broken = composeText.replace('stop_grace_period:', 'stop_grace:');
    expect(await lintCompose(broken)).toEqual([
      expect.stringMatching(/^invalid-schema: .*\/services\/coinop.*additional properties/),
    ]);
  });

  it('refuses to start without the password and the admin token the operator chooses', () => {
    expect(() => interpolate(composeText, {})).toThrow(
      'compose.yaml needs COINOP_ADMIN_TOKEN: set COINOP_ADMIN_TOKEN in .env',
    );
    expect(() => interpolate(composeText, { COINOP_ADMIN_TOKEN: 'x' })).toThrow(
      'compose.yaml needs POSTGRES_PASSWORD: set POSTGRES_PASSWORD in .env',
    );
  });

  it('runs coinop from this Dockerfile on an official Postgres, once Postgres is healthy', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['coinop', 'postgres']);
    expect(coinop.build).toBe('.');
    expect(postgres.image).toMatch(/^postgres:1[67](-|$)/);
    expect(coinop.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(postgres.healthcheck?.test).toEqual([
      'CMD',
      'pg_isready',
      '--host=127.0.0.1',
      '--username=coinop',
      '--dbname=coinop',
    ]);
  });

  it('keeps each service’s data in its own named volume', () => {
    expect(Object.keys(compose.volumes).sort()).toEqual(['coinop-data', 'postgres-data']);
    expect(coinop.volumes).toEqual([`coinop-data:${DATA_DIR}`]);
    expect(postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
  });

  it('gives coinop a config it accepts, the secrets key as a file secret', () => {
    const env = coinop.environment!;
    expect(Object.keys(env).filter((name) => !KNOWN_ENV.has(name))).toEqual([]);
    expect(env['COINOP_SECRETS_KEY_FILE']).toBe('/run/secrets/coinop_secrets_key');
    expect(coinop.secrets).toEqual(['coinop_secrets_key']);
    expect(compose.secrets['coinop_secrets_key']).toEqual({ file: './secrets/secrets-key' });
    const config = loadConfig({}, { ...runtimeEnv(), ...env });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      dataDir: DATA_DIR,
      databaseUrl: `postgres://coinop:${operatorEnv.POSTGRES_PASSWORD}@postgres:5432/coinop`,
      publicUrl: 'http://localhost:8080',
      authIssuer: 'localhost:8081',
      webOrigins: ['http://localhost:8082'],
    });
    expect(coinop.ports).toEqual([
      `127.0.0.1:${config.apiPort}:${config.apiPort}`,
      `127.0.0.1:${config.authPort}:${config.authPort}`,
      `127.0.0.1:${config.webPort}:${config.webPort}`,
    ]);
  });

  it('repeats the image’s healthcheck command exactly', () => {
    expect(coinop.healthcheck?.test).toEqual(['CMD', ...healthcheck().command]);
  });
});

describe('the HEALTHCHECK command against coinop serve started as the image starts it', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-healthcheck-'));
    // The image's environment, with a data directory of this test's own and ports the system
    // picks (a port probed free can be taken by another test before coinop binds it).
    env = cleanEnv({
      ...runtimeEnv(),
      PATH: process.env['PATH'] ?? '',
      COINOP_DATA_DIR: dataDir,
      COINOP_API_PORT: '0',
      COINOP_AUTH_PORT: '0',
      COINOP_WEB_PORT: '0',
    });
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  /**
   * Runs the HEALTHCHECK's command as the engine would, with the container's environment and
   * the API port coinop listens on.
   */
  function probe(apiPort: number): Promise<number | null> {
    const [program, ...args] = healthcheck().command;
    expect(program).toBe('node');
    const child = spawn(process.execPath, args, {
      env: { ...env, COINOP_API_PORT: String(apiPort) },
      stdio: 'ignore',
    });
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
  }

  it('is healthy while coinop is ready, and unhealthy once it has stopped', async () => {
    // Nothing listens yet: unhealthy.
    expect(await probe(await freePort())).toBe(1);

    const [command] = keyword('CMD').map(execForm);
    const server = spawn(process.execPath, [CLI_PATH, ...command!], { env, stdio: 'pipe' });
    let stderr = '';
    server.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
    let apiPort = 0;
    try {
      // The start banner comes once every listener listens, and names the API's address.
      const apiUrl = await new Promise<string>((resolve, reject) => {
        createInterface({ input: server.stdout }).on('line', (line) => {
          const url = bannerApiUrl(JSON.parse(line) as { msg: string });
          if (url) resolve(url);
        });
        void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      apiPort = Number(new URL(apiUrl).port);
      const readiness = await fetch(`http://127.0.0.1:${apiPort}/readyz`);
      expect(readiness.status).toBe(200);
      expect(await probe(apiPort)).toBe(0);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stderr).toBe('coinop: SIGTERM: closing listeners, then the database\n');
    expect(await probe(apiPort)).toBe(1);
  });
});
