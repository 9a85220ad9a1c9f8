import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { testConfig, type Config } from '../../src/config.js';
import { startServer, PGLITE_DIR, type RunningServer } from '../../src/main.js';
import { ManualClock } from '../../src/ids.js';
import { pgliteDb, startPglite } from '../../src/store/pglite.js';
import { createTestDatabase, storeVariants } from '@coinop/testkit/db';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { freePort } from '@coinop/testkit/net';
import { within } from '@coinop/testkit/poll';
import { decide, startLogin, walletSignIn, type CliLoginStart } from '@coinop/testkit/signin';
import { startTcpProxy, type TcpProxy } from '../fixtures/tcp-proxy.js';

/**
 * Issue 27, finding 6: while the database could not be reached, every route that needs it
 * answered 500 `internal_error` and logged a stack per request, so operators' server-error alert
 * fired as if coinop had a bug, and clients and load balancers got no signal to retry. Now a real
 * coinop (API, sign-in and web listeners in one process, metrics on) loses its database while it
 * serves: every kind of route answers 503 `service_unavailable` with Retry-After, the log says so
 * once, the metrics count the refusals apart from 500s, and once the database is back everything
 * serves again with nothing acknowledged lost.
 *
 * On Postgres the database goes away behind a TCP proxy (connections reset, new ones refused)
 * and comes back when the proxy listens again. The embedded database cannot become unreachable
 * while its process lives; it can only stop (closed here underneath the server, as a crash would
 * leave it), and comes back when coinop is restarted on its data.
 */

const RETRY_AFTER_SECONDS = 5;
const OUTAGE_WARNING =
  /^the database cannot be reached \((.+)\): requests that need it are answered 503 service_unavailable until it answers again$/;

interface LogRecord {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A pino destination keeping every JSON line the process logs. */
class LogLines {
  readonly records: LogRecord[] = [];
  write(chunk: string): void {
    for (const line of chunk.split('\n')) {
      if (line.trim() !== '') this.records.push(JSON.parse(line) as LogRecord);
    }
  }
  matching(pattern: RegExp): LogRecord[] {
    return this.records.filter((r) => pattern.test(r.msg));
  }
  /** Error lines (pino level 50 and up): a stack per request or per tick would show here. */
  errors(): LogRecord[] {
    return this.records.filter((r) => r.level >= 50);
  }
}

/** One sample's value in Prometheus' text format, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function call(
  url: string,
  { method = 'GET', token, body, headers = {} }: CallOptions = {},
): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

interface CallOptions {
  method?: string;
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

describe.each(storeVariants())('issue 27: a database that cannot be reached (%s)', (variant) => {
  let dataDir: string;
  let config: Config;
  let server: RunningServer | undefined;
  let logs: LogLines;
  let proxy: TcpProxy | undefined;
  let embedded: PGlite | undefined;
  let dropDatabase: () => Promise<void> = async () => undefined;

  /** Starts coinop on the database; on PGlite, on an instance the test can stop underneath it. */
  const start = async () => {
    logs = new LogLines();
    if (variant === 'pglite') embedded = await startPglite(join(dataDir, PGLITE_DIR));
    server = await startServer(config, {
      seedDemo: false,
      logDestination: logs,
      ...(embedded ? { database: pgliteDb(embedded) } : {}),
    });
  };
  /** The database goes away under the running server. */
  const takeDatabaseAway = async () => {
    if (proxy) await proxy.cut();
    else await embedded?.close();
  };
  /**
   * The database is back: on Postgres the same process finds it again; the embedded one comes
   * back with a restart of coinop on its data.
   */
  const bringDatabaseBack = async () => {
    if (proxy) {
      await proxy.restore();
      return;
    }
    await server?.close();
    await start();
  };

  const running = () => {
    if (!server) throw new Error('the server is not running');
    return server;
  };
  const testApi = (): TestApi => ({
    app: running().api,
    db: running().api.arcade.db,
    clock: new ManualClock(new Date()),
    config: running().api.config,
    close: async () => undefined,
  });
  const url = (listener: 'api' | 'auth' | 'web' | 'metrics', path = '') => {
    const base = running().urls[listener];
    if (base === undefined) throw new Error(`no ${listener} listener`);
    return `${base}${path}`;
  };
  const scrape = async () => (await fetch(url('metrics'))).text();

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-outage-'));
    let databaseUrl: string | null = null;
    if (variant === 'postgres') {
      const database = await createTestDatabase();
      dropDatabase = database.drop;
      const target = new URL(database.url);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      target.host = `127.0.0.1:${proxy.port}`;
      databaseUrl = target.toString();
    }
    const authPort = await freePort();
    config = testConfig({
      apiPort: 0,
      authPort,
      authIssuer: `127.0.0.1:${authPort}`,
      claimsNamespace: '127.0.0.1',
      services: ['api', 'auth', 'web'],
      metricsPort: 0,
      dataDir,
      databaseUrl,
      databasePoolSize: 5,
      adminToken: TEST_ADMIN_TOKEN,
      logLevel: 'info',
      // Background loops that meet the outage every second: none may log a line per tick.
      expirySweepIntervalSeconds: 1,
    });
    await start();
  });
  afterAll(async () => {
    await server?.close();
    await proxy?.close();
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  });

  let game: GameFixture;
  let writeTokenOfGame: string;
  let player: { playerId: string; accountId: string };
  let session: string;
  let login: CliLoginStart;
  let scoredPlayId: string;
  let openPlayId: string;

  it('answers 503 service_unavailable with Retry-After on every listener and route, logs the outage once, counts it apart from 500s, and serves again once the database is back', async () => {
    const api = testApi();
    game = await gameWithTiers(api, { costs: [1, 10] });
    const [tier] = game.tiers;
    writeTokenOfGame = await writeToken(api, game);
    player = await fundedPlayer(api, 50, 'Outage');
    const gamePath = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const play = (playerId: string, headers: Record<string, string> = {}) =>
      call(url('api', `${gamePath}/play`), {
        method: 'POST',
        token: writeTokenOfGame,
        body: { playerId, leaderboardId: tier!.id },
        headers,
      });
    const score = (playId: string) =>
      call(url('api', `${gamePath}/score`), {
        method: 'POST',
        token: writeTokenOfGame,
        body: { playId, leaderboardId: tier!.id, score: 7 },
      });

    // Acknowledged before the outage: a scored play and an open one.
    const first = await play(player.playerId);
    expect(first.status).toBe(200);
    scoredPlayId = first.body['id'] as string;
    expect((await score(scoredPlayId)).status).toBe(200);
    const second = await play(player.playerId);
    expect(second.status).toBe(200);
    openPlayId = second.body['id'] as string;
    // A web session, and a CLI login approved and not yet collected (its token exchange).
    const wallet = privateKeyToAccount(generatePrivateKey());
    session = (await walletSignIn(running().auth, wallet)).access_token;
    login = await startLogin(running().auth, 'outage test');
    const approved = await decide(
      running().auth,
      'approve',
      login.requestorId,
      login.userCode,
      session,
    );
    expect(approved.statusCode).toBe(200);

    await takeDatabaseAway();

    // Every kind of route, on every listener; the web listener's /api and /auth are forwarded.
    const needsDatabase: [string, () => Promise<Answer>][] = [
      ['api: a play with a write token', () => play(player.playerId)],
      ['api: a score with a write token', () => score(openPlayId)],
      [
        'api: the write-token exchange',
        () =>
          call(url('api', '/oauth/writetoken'), {
            method: 'POST',
            body: { client_id: game.clientId, client_secret: game.clientSecret },
          }),
      ],
      ['api: a public read', () => call(url('api', '/catalog/games'))],
      ['api: an admin route', () => call(url('api', '/admin/games'), { token: TEST_ADMIN_TOKEN })],
      ["api: a player's own route", () => call(url('api', '/player/me'), { token: session })],
      [
        'auth: a wallet sign-in',
        () =>
          call(url('auth', '/wallet/challenge'), {
            method: 'POST',
            body: { address: wallet.address },
          }),
      ],
      [
        "auth: a CLI login's token exchange",
        () => call(url('auth', `/cli/${login.requestorId}`), { token: login.token }),
      ],
      ['auth: the signing keys', () => call(url('auth', '/.well-known/jwks.json'))],
      ['web: the API forwarded', () => call(url('web', '/api/catalog/games'))],
      [
        'web: the sign-in service forwarded',
        () =>
          call(url('web', '/auth/wallet/challenge'), {
            method: 'POST',
            body: { address: wallet.address },
          }),
      ],
    ];
    for (const [what, request] of needsDatabase) {
      const answer = await request();
      expect({ what, status: answer.status }).toEqual({ what, status: 503 });
      expect(answer.headers.get('retry-after'), what).toBe(String(RETRY_AFTER_SECONDS));
      expect(answer.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
      expect(answer.body, what).toEqual({
        type: 'https://coinop.dev/errors/service_unavailable',
        title: 'Service unavailable',
        status: 503,
        detail: `the database cannot be reached; retry in ${RETRY_AFTER_SECONDS} s`,
        code: 'service_unavailable',
        message: `the database cannot be reached; retry in ${RETRY_AFTER_SECONDS} s`,
        details: { retryAfterSeconds: RETRY_AFTER_SECONDS },
      });
    }
    // What needs no database still serves: liveness everywhere, and the web app's own pages.
    for (const listener of ['api', 'auth', 'web'] as const) {
      expect((await call(url(listener, '/healthz'))).status, listener).toBe(200);
    }
    expect((await call(url('web', '/'))).status).toBe(200);
    // The web listener stays in a load balancer's rotation: its pages need no database, and
    // what it forwards answers 503 itself (docs/operating/deploy.md).
    const webReady = await call(url('web', '/readyz'));
    expect(webReady.status).toBe(200);
    expect(webReady.body).toMatchObject({
      checks: { database: expect.stringMatching(/^not checked/) },
    });
    const ready = await call(url('api', '/readyz'));
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      status: 'not_ready',
      checks: { database: expect.stringMatching(/^unreachable: \S/), migrations: 'unknown' },
    });

    // The background loops (the expiry sweep every second, the tournament closer) meet the
    // outage too, for a few ticks.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const warnings = logs.matching(/^the database cannot be reached/);
    expect(warnings.map((w) => w.msg)).toEqual([expect.stringMatching(OUTAGE_WARNING)]);
    expect(warnings[0]?.level).toBe(40);
    expect(logs.errors().map((r) => r.msg)).toEqual([]);

    const during = await scrape();
    // 11 requests refused, each counted once by the listener that answered it: the API's 5 of
    // its own and the web listener's forward of /api, the sign-in service's 3 and the forward
    // of /auth. The web listener forwarded 2 answers that were not its own problems.
    expect(
      sample(during, 'coinop_http_server_errors_total', {
        listener: 'api',
        code: 'service_unavailable',
      }),
    ).toBe(7);
    expect(
      sample(during, 'coinop_http_server_errors_total', {
        listener: 'auth',
        code: 'service_unavailable',
      }),
    ).toBe(4);
    expect(
      sample(during, 'coinop_http_server_errors_total', { listener: 'web', code: 'none' }),
    ).toBe(2);
    expect(sample(during, 'coinop_http_server_errors_total', { code: 'internal_error' })).toBe(
      undefined,
    );
    expect(sample(during, 'coinop_db_unavailable')).toBe(1);

    // Every operation of both documents, each with the credential it asks for and the ids of
    // this arcade: none answers 500, and those that get as far as the database answer 503.
    const ids: Record<string, string> = {
      arcadeId: game.arcadeId,
      gameId: game.gameId,
      leaderboardId: tier!.id,
      playerId: player.playerId,
      player: player.playerId,
      accountId: player.accountId,
      playId: openPlayId,
      requestorId: login.requestorId,
      wallet: wallet.address,
    };
    const credentials: Record<string, string> = {
      adminToken: TEST_ADMIN_TOKEN,
      writeToken: writeTokenOfGame,
      playerToken: session,
      pollToken: login.token,
    };
    let refusedBySweep = 0;
    for (const app of [running().api, running().auth]) {
      const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
        paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
      }>();
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          const scheme = (operation.security ?? [])
            .flatMap((requirement) => Object.keys(requirement))
            .find((name) => credentials[name] !== undefined);
          const url = path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? randomUUID());
          const hasBody = ['post', 'put', 'patch'].includes(method);
          const res = await app.inject({
            method: method.toUpperCase() as 'GET',
            url,
            headers: scheme ? { authorization: `Bearer ${credentials[scheme]}` } : {},
            ...(hasBody ? { payload: {} } : {}),
          });
          const what = `${method.toUpperCase()} ${path}`;
          expect(res.statusCode, `${what}: ${res.body}`).not.toBe(500);
          if (res.statusCode >= 500 && path !== '/readyz') {
            expect({ what, code: res.json<{ code: string }>().code }).toEqual({
              what,
              code: 'service_unavailable',
            });
            refusedBySweep += 1;
          }
        }
      }
    }
    // 83 operations today: every read but the few that read no database; the writes stop at
    // their (empty) body's check first.
    expect(refusedBySweep).toBeGreaterThan(70);
    expect(logs.errors().map((r) => r.msg)).toEqual([]);
    const refused = 11 + refusedBySweep;

    await bringDatabaseBack();

    if (variant === 'postgres') {
      // The same process: it notices within its probe's second, and says so once.
      await within(10_000, async () => logs.matching(/^the database answers again/).length > 0);
      const recovered = logs.matching(/^the database answers again/);
      expect(recovered.map((r) => r.msg)).toEqual([
        expect.stringMatching(
          new RegExp(
            `^the database answers again after \\d+\\.\\d s; ${refused} requests were refused meanwhile$`,
          ),
        ),
      ]);
      expect(recovered[0]).toMatchObject({ level: 30, refusedRequests: refused });
      expect(sample(await scrape(), 'coinop_db_unavailable')).toBe(0);
    }

    // Everything serves again, and what was acknowledged before the outage is still there.
    expect((await call(url('api', '/readyz'))).status).toBe(200);
    const collected = await call(url('auth', `/cli/${login.requestorId}`), {
      token: login.token,
    });
    expect(collected.status).toBe(200);
    expect(collected.body['access_token']).toEqual(expect.any(String));
    expect((await score(openPlayId)).status).toBe(200);
    expect((await play(player.playerId)).status).toBe(200);
    expect((await call(url('api', '/catalog/games'))).status).toBe(200);
    expect((await call(url('web', '/api/catalog/games'))).status).toBe(200);
    expect((await call(url('api', '/player/me'), { token: session })).status).toBe(200);
    const plays = await running().api.arcade.db.query<{ id: string; status: string }>(
      'SELECT id, status FROM plays WHERE player_id = $1',
      [player.playerId],
    );
    expect(plays).toHaveLength(3);
    expect(plays.filter((p) => p.id === scoredPlayId || p.id === openPlayId)).toEqual(
      expect.arrayContaining([
        { id: scoredPlayId, status: 'scored' },
        { id: openPlayId, status: 'scored' },
      ]),
    );
    await expectLedgerBalanced(running().api.arcade.db);
    expect(logs.errors().map((r) => r.msg)).toEqual([]);
  });

  it('loses no acknowledged play when the database goes away mid-flight, and a retry with the same Idempotency-Key never charges twice', async () => {
    const api = testApi();
    const [tier] = game.tiers;
    const payer = await fundedPlayer(api, 100, 'In flight');
    const token = await writeToken(api, game);
    const keys = Array.from({ length: 20 }, (_, i) => `outage-${variant}-${i}`);
    const play = (key: string) =>
      call(url('api', `/arcades/${game.arcadeId}/games/${game.gameId}/play`), {
        method: 'POST',
        token,
        body: { playerId: payer.playerId, leaderboardId: tier!.id },
        headers: { 'idempotency-key': key },
      });

    // Plays of one player commit one batch after another: the database goes away as the first
    // is acknowledged, with the rest queued or in flight.
    const answers = keys.map((key) => play(key));
    await Promise.race(answers);
    await takeDatabaseAway();
    const first = await Promise.all(answers);
    const statuses = first.map((a) => a.status);
    expect(
      statuses.every((s) => s === 200 || s === 503),
      statuses.join(),
    ).toBe(true);
    expect(statuses).toContain(200);
    expect(statuses).toContain(503);

    await bringDatabaseBack();
    await within(10_000, async () => (await call(url('api', '/readyz'))).status === 200);

    // Each play retried with its key: an acknowledged one answers as it did, a refused one opens
    // now unless it had committed before its answer was lost, and nothing opens twice.
    const again = await Promise.all(keys.map((key) => play(key)));
    expect(again.map((a) => a.status)).toEqual(keys.map(() => 200));
    first.forEach((answer, i) => {
      if (answer.status === 200) expect(again[i]?.body['id']).toBe(answer.body['id']);
    });
    const db = running().api.arcade.db;
    const [opened] = await db.query<{ plays: string }>(
      'SELECT count(*)::text AS plays FROM plays WHERE player_id = $1',
      [payer.playerId],
    );
    expect(opened?.plays).toBe('20');
    const [account] = await db.query<{ debits_pending: bigint }>(
      'SELECT debits_pending FROM accounts WHERE id = $1',
      [payer.accountId],
    );
    expect(account?.debits_pending).toBe(20n * 100_000_000n);
    await expectLedgerBalanced(db);
  });
});
