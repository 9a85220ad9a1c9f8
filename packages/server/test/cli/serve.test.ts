import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/credentials/secret-box.js';
import { testConfig } from '../../src/config.js';
import { startServer } from '../../src/main.js';
import { createTestDatabase, storeVariants } from '@coinop/testkit/db';
import { freePort } from '@coinop/testkit/net';
import { cleanEnv, demoClient, runCli, serve } from './run-cli.js';

describe('coinop serve', () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-serve-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('serves the demo arcade, answers admin commands, and stops on SIGTERM', async () => {
    const first = await serve([
      '--api-port',
      '0',
      '--auth-port',
      '0',
      '--data-dir',
      dataDir,
      '--demo',
    ]);
    // Issue 28: one warning for what development mode turns on, and a line for each step.
    expect(first.messages.filter((m) => /development|secrets key/.test(m))).toEqual([
      'development mode (--demo): demo players and games, a faucet of test HST, and the ' +
        `secrets key kept beside the database in ${dataDir}; for trying coinop, never for real ` +
        'money (docs/operating/cli.md)',
    ]);
    const steps = (run: typeof first) =>
      run.messages
        .filter((m) => /^(database|schema|demo): .* \((< 0\.1|\d+\.\d) s\)$/.test(m))
        .map((m) => m.replace(/ \([^()]* s\)$/, ''));
    expect(first.messages).toContain(
      `database: creating the embedded database in ${join(dataDir, 'pglite')} (on the first ` +
        'start only)…',
    );
    expect(steps(first)).toEqual([
      `database: created the embedded database in ${join(dataDir, 'pglite')}`,
      expect.stringMatching(/^schema: applied \d+ migrations$/),
      'demo: the demo arcade is seeded',
    ]);
    const banner = first.messages.find((m) => m.startsWith('coinop is ready')) ?? '';
    expect(banner).toContain(`admin token  generated now, in ${join(dataDir, 'admin-token')}`);
    expect(banner).toContain(`API          ${first.url}  (docs ${first.url}/docs)`);
    expect(banner).toContain(
      `the demo game's client id and secret are in ${join(dataDir, 'demo-client.json')}`,
    );
    // The secret is in a file only its owner reads, never in the log.
    const client = await demoClient(dataDir);
    expect(client.clientSecret).toMatch(/^csec_/);
    expect(client.mode).toBe(0o600);
    expect(first.messages.some((m) => m.includes(client.clientSecret))).toBe(false);
    expect(first.messages.some((m) => m.startsWith(`demo: client id ${client.clientId}; `))).toBe(
      true,
    );
    expect(
      first.messages.filter((m) => m.startsWith('demo: player ') && m.endsWith(', 1000 HST')),
    ).toHaveLength(2);

    const audit = await runCli([
      'admin',
      'hst',
      'audit',
      '--server',
      first.url,
      '--data-dir',
      dataDir,
    ]);
    expect(audit.code).toBe(0);
    expect(JSON.parse(audit.stdout)).toMatchObject({ minted: '2000', balanced: true });

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.stderr()).toBe('coinop: SIGTERM: closing listeners, then the database\n');

    // Seeding again finds everything the first start made.
    const second = await serve([
      '--api-port',
      '0',
      '--auth-port',
      '0',
      '--data-dir',
      dataDir,
      '--demo',
    ]);
    expect(second.messages.find((m) => m.startsWith('coinop is ready'))).toContain(
      `admin token  in ${join(dataDir, 'admin-token')}`,
    );
    expect(steps(second)).toEqual([
      `database: opened the embedded database in ${join(dataDir, 'pglite')}`,
      'schema: up to date',
      'demo: the demo arcade is seeded',
    ]);
    expect(second.messages.some((m) => m.startsWith('demo: client already issued'))).toBe(true);
    expect(second.messages.some((m) => m.includes(client.clientSecret))).toBe(false);
    const again = await runCli([
      'admin',
      'hst',
      'audit',
      '--server',
      second.url,
      '--data-dir',
      dataDir,
    ]);
    expect(JSON.parse(again.stdout)).toMatchObject({ minted: '2000', balanced: true });
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    // Two cold starts of the embedded database on disk: slow on a loaded machine.
  });

  it('logs no line per request by default, and one per request with --access-log', async () => {
    const requestsLogged = async (extra: string[], { throughWeb = false } = {}) => {
      const dir = await mkdtemp(join(tmpdir(), 'coinop-access-log-'));
      const run = await serve(['--api-port', '0', '--auth-port', '0', '--data-dir', dir, ...extra]);
      for (let i = 0; i < 3; i++) {
        expect((await fetch(`${run.url}/catalog/games`)).status).toBe(200);
      }
      // The web listener's forwarding logs a line per response unless asked to (an access log).
      if (throughWeb) {
        expect((await fetch(`${run.urls['web']}/api/catalog/games`)).status).toBe(200);
      }
      // Read after the exit: the asynchronous log is flushed by then, whatever was still queued.
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      await rm(dir, { recursive: true, force: true });
      return run.messages.filter((m) =>
        ['incoming request', 'request completed', 'response received'].includes(m),
      );
    };
    expect(await requestsLogged([], { throughWeb: true })).toEqual([]);
    expect(await requestsLogged(['--access-log'])).toEqual([
      'incoming request',
      'request completed',
      'incoming request',
      'request completed',
      'incoming request',
      'request completed',
    ]);
  });

  it('refuses several workers on the embedded database, naming the flag', async () => {
    const run = await runCli(['serve', '--workers', '2', '--data-dir', dataDir]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'coinop: --workers 2 (COINOP_WORKERS) needs --database-url (DATABASE_URL): the embedded database serves one process\n',
    });
  });

  it('exits 2 naming the flag for a bad setting', async () => {
    const run = await runCli(['serve', '--api-port', '99999', '--data-dir', dataDir]);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'coinop: --api-port (COINOP_API_PORT) must be a whole number from 0 to 65535, got 99999\n',
    });
  });

  it('exits 2 with one line, no stack, when the secrets key does not open the database', async () => {
    const dir = join(dataDir, 'sealed');
    const first = await startServer(testConfig({ apiPort: 0, dataDir: dir, adminToken: 't' }));
    await first.close();
    const sealedUnder = new SecretBox(
      Buffer.from((await readFile(join(dir, 'secrets-key'), 'utf8')).trim(), 'hex'),
    ).keyId;
    const wrong = randomBytes(32).toString('hex');
    const args = ['serve', '--data-dir', dir, '--api-port', '0', '--auth-port', '0'];
    const run = await runCli([...args, '--web-port', '0'], cleanEnv({ COINOP_SECRETS_KEY: wrong }));
    // Standard output has the steps taken before the refusal, and nothing about it.
    // Each step's line once done (with its duration); a slow step also says it began.
    const steps = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { startStep?: string; durationMs?: number })
      .filter((line) => line.durationMs !== undefined)
      .map((line) => line.startStep);
    expect(steps).toEqual(['database', 'schema']);
    expect({ ...run, stdout: '' }).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `coinop: the secrets in the database are sealed under key ${sealedUnder}, not under the ` +
        `key in COINOP_SECRETS_KEY (${new SecretBox(Buffer.from(wrong, 'hex')).keyId}): give ` +
        'the key they were sealed with in --secrets-key-file (COINOP_SECRETS_KEY_FILE) or ' +
        'COINOP_SECRETS_KEY (see docs/operating/secrets.md)\n',
    });
    const missing = await runCli([...args, '--secrets-key-file', join(dir, 'nope')]);
    expect({ ...missing, stdout: '' }).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `coinop: --secrets-key-file (COINOP_SECRETS_KEY_FILE) ${join(dir, 'nope')}: cannot ` +
        `read the secrets key: ENOENT: no such file or directory, open '${join(dir, 'nope')}'\n`,
    });
  });

  it('serves HTTPS with --tls-cert and --tls-key', async () => {
    const cert = join(dataDir, 'cert.pem');
    const key = join(dataDir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:P-256',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const server = await startServer(
      testConfig({
        apiPort: 0,
        dataDir: join(dataDir, 'tls'),
        tlsCertPath: cert,
        tlsKeyPath: key,
        adminToken: 't',
      }),
    );
    try {
      expect(server.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const req = request(`${server.url}/admin/hst/audit`, {
          rejectUnauthorized: false,
          headers: { authorization: 'Bearer t' },
        });
        req.on('response', (res) => {
          res.resume();
          resolve(res.statusCode);
        });
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(200);
    } finally {
      await server.close();
    }
  });

  describe.each(storeVariants().filter((v) => v === 'postgres'))('with --workers on %s', () => {
    it('serves from two processes, seeds once, replaces a dead worker and stops them all', async () => {
      const database = await createTestDatabase();
      const dir = await mkdtemp(join(tmpdir(), 'coinop-workers-'));
      const waitFor = async (pattern: RegExp, text: () => string) => {
        for (let waited = 0; !pattern.test(text()); waited += 50) {
          if (waited > 60_000) throw new Error(`no ${pattern} in: ${text()}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return pattern.exec(text()) as RegExpExecArray;
      };
      const metricsPort = await freePort();
      try {
        const run = await serve([
          '--api-port',
          '0',
          '--auth-port',
          '0',
          '--data-dir',
          dir,
          '--database-url',
          database.url,
          '--workers',
          '2',
          '--demo',
          '--metrics-port',
          String(metricsPort),
        ]);
        const [, first, second] = await waitFor(
          /coinop: 2 workers serving \(pids (\d+), (\d+)\)/,
          run.stderr,
        );
        expect(first).not.toBe(second);
        // Only the first worker seeds; both answer on the shared port.
        expect(run.messages.filter((m) => m.startsWith('demo: client id '))).toHaveLength(1);
        // One development warning and one line a step for the cluster, not one a worker.
        expect(run.messages.filter((m) => m.startsWith('development mode'))).toHaveLength(1);
        // The schema step's line once done (a slow one also says it began, first).
        expect(run.messages.filter((m) => /^schema: (up to date|applied)/.test(m))).toHaveLength(1);
        const banners = run.messages.filter((m) => m.startsWith('coinop is ready'));
        expect(banners).toHaveLength(1);
        expect(banners[0]).toContain(`metrics      http://127.0.0.1:${metricsPort}/metrics`);
        const statuses = await Promise.all(
          Array.from({ length: 20 }, () => fetch(`${run.url}/catalog/games`).then((r) => r.status)),
        );
        expect(statuses).toEqual(statuses.map(() => 200));
        // One metrics port for the cluster: the primary sums what every worker counted.
        expect(run.stderr()).toContain(
          `coinop: metrics of every worker at http://127.0.0.1:${metricsPort}/metrics\n`,
        );
        const scrape = async () => (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
        const catalogReads = new RegExp(
          '^coinop_http_request_duration_seconds_count\\{listener="api",route="/catalog/games",' +
            'method="GET",status_class="2xx"\\} (\\d+)$',
          'm',
        );
        // A request is counted as its answer finishes: give the last ones a moment.
        let scraped = await scrape();
        for (let i = 0; i < 20 && Number(catalogReads.exec(scraped)?.[1]) < 20; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          scraped = await scrape();
        }
        expect(Number(catalogReads.exec(scraped)?.[1])).toBe(20);
        // Both workers' pools, summed: two pools of the default 20.
        expect(scraped).toMatch(/^coinop_db_pool_connections\{state="max"\} 40$/m);

        // A worker that dies after its start is replaced.
        // (Only after 5 s: one that dies sooner would die again, and stops the cluster.)
        await new Promise((resolve) => setTimeout(resolve, 5_500));
        process.kill(Number(second), 'SIGKILL');
        await waitFor(new RegExp(`worker ${second} died SIGKILL; starting another`), run.stderr);
        await waitFor(/coinop: worker \d+ serving in its place/, run.stderr);
        expect((await fetch(`${run.url}/catalog/games`)).status).toBe(200);

        run.child.kill('SIGTERM');
        expect(await run.exited).toBe(0);
        expect(run.stderr()).toContain('coinop: SIGTERM: stopping 2 workers\n');
        expect(() => process.kill(Number(first), 0)).toThrow();
      } finally {
        await rm(dir, { recursive: true, force: true });
        await database.drop();
      }
    });
  });
});
