import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testConfig } from '../src/config.js';
import { SecretBox } from '../src/credentials/secret-box.js';
import { warnAboutSecretsKey, type SecretsKey } from '../src/credentials/secrets-key.js';
import {
  createStartLog,
  developmentWarning,
  formatSeconds,
  startStep,
  type StartLog,
} from '../src/start-log.js';

// Issue 28: the first `npm start` was silent for a long while, then opened with three warnings
// (the secrets key, the dev chain, the demo data). A start now says each step it takes, and a
// development arcade warns once about what it turns on.

/** A StartLog that keeps every line as [level, message, fields]. */
function recordingLog(): StartLog & { lines: [string, string, object][] } {
  const lines: [string, string, object][] = [];
  const record =
    (level: string) =>
    (fields: object | string, message?: string): void => {
      if (typeof fields === 'string') lines.push([level, fields, {}]);
      else lines.push([level, message ?? '', fields]);
    };
  return { lines, info: record('info'), warn: record('warn') } as StartLog & {
    lines: [string, string, object][];
  };
}

describe('startStep', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('logs a quick step once it is done, with its duration', async () => {
    const log = recordingLog();
    const result = await startStep(
      log,
      'schema',
      'applying migrations',
      async () => {
        vi.advanceTimersByTime(250);
        return ['001.sql', '002.sql'];
      },
      (applied) => `applied ${applied.length} migrations`,
    );
    expect(result).toEqual(['001.sql', '002.sql']);
    expect(log.lines).toEqual([
      ['info', 'schema: applied 2 migrations (0.3 s)', { startStep: 'schema', durationMs: 250 }],
    ]);
  });

  it('says what a slow step is doing once it has taken a second, then that it is done', async () => {
    const log = recordingLog();
    const step = startStep(
      log,
      'dev chain',
      'starting Anvil, deploying HST and the vault',
      () => new Promise<string>((resolve) => setTimeout(() => resolve('0xvault'), 4_200)),
      (vault) => `deployed ${vault}`,
    );
    await vi.advanceTimersByTimeAsync(999);
    expect(log.lines).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(log.lines).toEqual([
      [
        'info',
        'dev chain: starting Anvil, deploying HST and the vault…',
        { startStep: 'dev chain' },
      ],
    ]);
    await vi.advanceTimersByTimeAsync(3_200);
    await step;
    expect(log.lines.at(-1)).toEqual([
      'info',
      'dev chain: deployed 0xvault (4.2 s)',
      { startStep: 'dev chain', durationMs: 4_200 },
    ]);
    expect(log.lines).toHaveLength(2);
  });

  it('says at once what a step known to be slow is doing', async () => {
    const log = recordingLog();
    const step = startStep(
      log,
      'database',
      'creating the embedded database in /data/pglite (on the first start only)',
      () => new Promise<void>((resolve) => setTimeout(resolve, 3_000)),
      () => 'created the embedded database in /data/pglite',
      { announceNow: true },
    );
    expect(log.lines).toEqual([
      [
        'info',
        'database: creating the embedded database in /data/pglite (on the first start only)…',
        { startStep: 'database' },
      ],
    ]);
    await vi.advanceTimersByTimeAsync(3_000);
    await step;
    expect(log.lines.map(([, message]) => message)).toEqual([
      'database: creating the embedded database in /data/pglite (on the first start only)…',
      'database: created the embedded database in /data/pglite (3.0 s)',
    ]);
  });

  it('logs no line for a step that fails, and rejects with its error', async () => {
    const log = recordingLog();
    const failing = startStep(
      log,
      'database',
      'opening Postgres',
      async () => {
        throw new Error('connection refused');
      },
      () => 'opened',
    );
    await expect(failing).rejects.toThrow('connection refused');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(log.lines).toEqual([]);
  });

  it('formats durations to a tenth of a second, and never as 0.0 s', () => {
    expect([0, 99, 100, 1_049, 1_050, 85_000].map(formatSeconds)).toEqual([
      '< 0.1 s',
      '< 0.1 s',
      '0.1 s',
      '1.0 s',
      '1.1 s',
      '85.0 s',
    ]);
  });
});

describe('createStartLog', () => {
  const linesOf = (quiet: boolean, logLevel = 'info') => {
    const written: { level: number; msg: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
        done();
      },
    });
    const log = createStartLog(testConfig({ logLevel }), sink, { quiet });
    log.info('schema: up to date (0.2 s)');
    log.warn('development mode (--demo): …');
    return written.map((line) => line.msg);
  };

  it("logs at the config's level, and only warnings for a cluster's quiet workers", () => {
    expect(linesOf(false)).toEqual(['schema: up to date (0.2 s)', 'development mode (--demo): …']);
    expect(linesOf(true)).toEqual(['development mode (--demo): …']);
    expect(linesOf(false, 'silent')).toEqual([]);
    expect(linesOf(true, 'error')).toEqual([]);
  });
});

describe('the development warning', () => {
  const dataDir = '/home/me/coinop/.coinop';
  const devChain = {
    dir: `${dataDir}/dev-chain`,
    host: '127.0.0.1',
    port: 8545,
    stateIntervalSeconds: 1,
    confirmations: 0,
    pollIntervalMs: 250,
  };

  it('is one line for npm start, naming each convenience it turns on', () => {
    expect(
      developmentWarning(
        { ...testConfig({ dataDir }), demo: true, devChain, faucetHst: 100 },
        true,
      ),
    ).toBe(
      'development mode (--demo --dev-chain): demo players and games, a faucet of test HST, a ' +
        "local test chain on Anvil's accounts, whose keys are public, and the secrets key kept " +
        'beside the database in /home/me/coinop/.coinop; for trying coinop, never for real money ' +
        '(docs/operating/dev-chain.md)',
    );
  });

  it('names only what is on, and is absent without a development flag', () => {
    const config = testConfig({ dataDir });
    expect(developmentWarning({ ...config, faucetHst: 25 }, false)).toBe(
      'development mode (--faucet-hst): a faucet of test HST; for trying coinop, never for real ' +
        'money (docs/operating/cli.md)',
    );
    expect(developmentWarning({ ...config, demo: true, faucetHst: 0 }, false)).toBe(
      'development mode (--demo): demo players and games; for trying coinop, never for real ' +
        'money (docs/operating/cli.md)',
    );
    expect(developmentWarning({ ...config, faucetHst: 0 }, true)).toBeNull();
  });
});

describe("the secrets key's warning", () => {
  const key = (source: SecretsKey['source'], mode = 0o600): SecretsKey => ({
    box: new SecretBox(randomBytes(32)),
    source,
    path: '/data/secrets-key',
    mode,
  });
  const warnings = (secrets: SecretsKey, development: boolean) => {
    const log = recordingLog();
    warnAboutSecretsKey(log, secrets, { development });
    return log.lines.map(([level, message]) => `${level}: ${message}`);
  };

  it('says a key kept beside the database should be backed up apart, outside development', () => {
    expect(warnings(key('generated'), false)).toEqual([
      'warn: generated a new secrets key in /data/secrets-key; it encrypts the token signing ' +
        'keys in the database: back it up apart from the database, or give --secrets-key-file ' +
        '(COINOP_SECRETS_KEY_FILE) or COINOP_SECRETS_KEY',
    ]);
    expect(warnings(key('file'), false)).toEqual([]);
  });

  it('leaves that to the development warning, but still says a file others can read', () => {
    expect(warnings(key('data-dir'), true)).toEqual([]);
    expect(warnings(key('data-dir', 0o644), true)).toEqual([
      'warn: the secrets key file /data/secrets-key is (readable by others: mode 644; chmod 600 it)',
    ]);
  });
});
