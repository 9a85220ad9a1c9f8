import { randomBytes } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../src/app.js';
import { ConfigError, loadConfig, testConfig } from '../../src/config.js';
import { uuidIds, ManualClock } from '../../src/ids.js';
import type { Db } from '../../src/store/db.js';
import { openTestDb } from '@coinop/testkit/db';
import { testSecretBox } from '@coinop/testkit/secrets';
import { cleanEnv, runCli } from '../cli/run-cli.js';

/**
 * Operator review, finding 3: the admin token (it mints HST) could be `abc`, and 150 wrong
 * guesses got 150 × 401 with no log line. A short token is refused at start; each failed admin
 * authentication is a `warn` naming the client address (never the token); an address that failed
 * `admin-failures` times in a minute gets 429 with Retry-After, without its token being tried.
 */

const ADMIN_TOKEN = randomBytes(24).toString('base64url');
const FAILURES_PER_MINUTE = 3;

interface LogRecord {
  level: number;
  msg: string;
  [field: string]: unknown;
}

describe('the admin token', () => {
  it.each(['abc', 'x'.repeat(31)])('refuses a token of %s characters at start', (token) => {
    expect(() => loadConfig({ adminToken: token }, {})).toThrow(ConfigError);
    expect(() => loadConfig({}, { COINOP_ADMIN_TOKEN: token })).toThrow(
      `--admin-token (COINOP_ADMIN_TOKEN) must be at least 32 characters (it can mint HST), got ` +
        `${token.length}: make one with openssl rand -hex 32, or leave it out to have coinop ` +
        'generate one into <data-dir>/admin-token',
    );
    expect(loadConfig({ adminToken: `${token}${'y'.repeat(32)}` }, {}).adminToken).toHaveLength(
      token.length + 32,
    );
  });

  it('coinop serve --admin-token abc exits 2 naming the rule', async () => {
    // Every port free and the data directory a fresh one, should it ever start; killed if so.
    const dataDir = join(tmpdir(), `coinop-admin-token-${randomBytes(6).toString('hex')}`);
    const ports = ['--api-port', '0', '--auth-port', '0', '--web-port', '0'];
    const args = ['serve', '--admin-token', 'abc', ...ports, '--data-dir', dataDir];
    const run = await runCli(args, cleanEnv(), undefined, 30_000);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'coinop: --admin-token (COINOP_ADMIN_TOKEN) must be at least 32 characters (it can mint ' +
        'HST), got 3: make one with openssl rand -hex 32, or leave it out to have coinop ' +
        'generate one into <data-dir>/admin-token\n',
    );
  });

  // Operator review: a short token hand-written into <data-dir>/admin-token was used as given.
  it('coinop serve with a short token in <data-dir>/admin-token exits 2 naming the file', async () => {
    const dataDir = join(tmpdir(), `coinop-admin-token-${randomBytes(6).toString('hex')}`);
    await mkdir(dataDir, { recursive: true });
    const file = join(dataDir, 'admin-token');
    await writeFile(file, 'abc\n', { mode: 0o600 });
    const ports = ['--api-port', '0', '--auth-port', '0', '--web-port', '0'];
    const run = await runCli(
      ['serve', ...ports, '--data-dir', dataDir],
      cleanEnv(),
      undefined,
      30_000,
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `coinop: ${file} holds an admin token of 3 characters: it must be at least 32 (it can ` +
        'mint HST): write one made with openssl rand -hex 32 into it, or delete the file to have ' +
        'coinop generate one\n',
    );
    // Refused before anything is created: no secrets key or database left behind, abandoned.
    expect(await readdir(dataDir)).toEqual(['admin-token']);
  });

  describe('failed admin authentications', () => {
    const records: LogRecord[] = [];
    let db: Db;
    let app: FastifyInstance;

    beforeAll(async () => {
      db = await openTestDb('pglite');
      const config = testConfig({ logLevel: 'info' });
      app = await buildApi(
        { ...config, rateLimits: { ...config.rateLimits, 'admin-failures': FAILURES_PER_MINUTE } },
        {
          db,
          clock: new ManualClock(new Date()),
          ids: uuidIds,
          writeTokenKey: randomBytes(32),
          secrets: testSecretBox(),
          adminToken: ADMIN_TOKEN,
          logDestination: {
            write: (line: string) => void records.push(JSON.parse(line) as LogRecord),
          },
        },
      );
      await app.ready();
    });
    afterAll(async () => {
      await app?.close();
      await db?.close();
    });

    const games = (token: string, remoteAddress: string) =>
      app.inject({
        method: 'GET',
        url: '/admin/games',
        remoteAddress,
        headers: { authorization: `Bearer ${token}` },
      });

    it('logs each failure with the address, then answers 429 without trying the token', async () => {
      const guesser = '203.0.113.7';
      const statuses: number[] = [];
      for (let guess = 0; guess < FAILURES_PER_MINUTE; guess++) {
        statuses.push((await games(`guess-${guess}`, guesser)).statusCode);
      }
      expect(statuses).toEqual([401, 401, 401]);
      const warnings = records.filter((r) => r.level === 40);
      expect(warnings.map((r) => [r.msg, r['clientAddress'], r['failuresThisMinute']])).toEqual(
        [1, 2, 3].map((count) => [
          'failed admin authentication from 203.0.113.7: the bearer token is not the admin token',
          guesser,
          count,
        ]),
      );
      expect(JSON.stringify(records)).not.toContain('guess-');

      // Over the limit: refused before the token is compared, even the right one.
      const refused = await games(ADMIN_TOKEN, guesser);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(refused.json()).toMatchObject({
        code: 'rate_limited',
        message: expect.stringMatching(
          /^too many failed admin authentications from this address: at most 3 a minute; retry in \d+ s$/,
        ),
      });
      expect(records.filter((r) => r.level === 40)).toHaveLength(3);

      // Another address, and the operator's right token, are not held up.
      expect((await games(ADMIN_TOKEN, '198.51.100.2')).statusCode).toBe(200);
      expect((await games('wrong', '198.51.100.2')).statusCode).toBe(401);
    });
  });
});
