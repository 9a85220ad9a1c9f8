import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { ManualClock } from '../../src/ids.js';
import { createTestDatabase, storeVariants } from '@coinop/testkit/db';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, writeToken } from '@coinop/testkit/arcade';
import { freePort } from '@coinop/testkit/net';

/** One sample's value in Prometheus' text format, or undefined when it is not there. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
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

const HST = 100_000_000;

describe.each(storeVariants())('metrics on --metrics-port (%s)', (variant) => {
  let dataDir: string;
  let server: RunningServer;
  let dropDatabase: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-metrics-'));
    let databaseUrl: string | null = null;
    if (variant === 'postgres') {
      const database = await createTestDatabase();
      databaseUrl = database.url;
      dropDatabase = database.drop;
    }
    const authPort = await freePort();
    server = await startServer(
      testConfig({
        apiPort: 0,
        authPort,
        authIssuer: `127.0.0.1:${authPort}`,
        claimsNamespace: '127.0.0.1',
        services: ['api', 'auth'],
        metricsPort: 0,
        dataDir,
        databaseUrl,
        databasePoolSize: 7,
        adminToken: TEST_ADMIN_TOKEN,
      }),
      { seedDemo: false },
    );
  });
  afterAll(async () => {
    await server?.close();
    await dropDatabase();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('counts plays, scores, batches, requests and sign-ins, and reads the ledger and the pool', async () => {
    const api: TestApi = {
      app: server.api,
      db: server.api.arcade.db,
      clock: new ManualClock(new Date()),
      config: server.api.config,
      close: async () => undefined,
    };
    const game = await gameWithTiers(api, { costs: [1, 10] });
    const [cheap, dear] = game.tiers;
    const player = await fundedPlayer(api, 15);
    const token = await writeToken(api, game);
    const call = (path: string, body: unknown) =>
      fetch(`${server.url}/arcades/${game.arcadeId}/games/${game.gameId}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const played = await call('/play', { playerId: player.playerId, leaderboardId: cheap!.id });
    expect(played.status).toBe(200);
    const { id: playId } = (await played.json()) as { id: string };
    const scored = await call('/score', { playId, leaderboardId: cheap!.id, score: 42 });
    expect(scored.status).toBe(200);
    // Left open: its 10 HST stay pending. The next one finds 4 HST where 10 are needed.
    expect(
      (await call('/play', { playerId: player.playerId, leaderboardId: dear!.id })).status,
    ).toBe(200);
    expect(
      (await call('/play', { playerId: player.playerId, leaderboardId: dear!.id })).status,
    ).toBe(402);

    // Sign-in steps: a wallet signs in; a CLI login starts and is polled before approval.
    const wallet = privateKeyToAccount(generatePrivateKey());
    const auth = server.urls['auth']!;
    const post = (url: string, body: unknown) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const { message } = (await (
      await post(`${auth}/wallet/challenge`, { address: wallet.address })
    ).json()) as {
      message: string;
    };
    const signature = await wallet.signMessage({ message });
    const verified = await post(`${auth}/wallet/verify`, { message, signature });
    expect(verified.status, await verified.clone().text()).toBe(200);
    const login = (await (await post(`${auth}/cli`, { description: 'metrics test' })).json()) as {
      requestorId: string;
      token: string;
    };
    const pending = await fetch(`${auth}/cli/${login.requestorId}`, {
      headers: { authorization: `Bearer ${login.token}` },
    });
    expect(pending.status).toBe(400);

    const scrape = await fetch(server.urls['metrics']!);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await scrape.text();

    expect(sample(text, 'coinop_plays_opened_total', { outcome: 'opened' })).toBe(2);
    expect(sample(text, 'coinop_plays_opened_total', { outcome: 'insufficient_funds' })).toBe(1);
    expect(sample(text, 'coinop_scores_recorded_total', { outcome: 'recorded' })).toBe(1);
    // Plays of one player never share a batch: three paid plays asked (the refused one too: the
    // batch's statement refuses it), three batches of one.
    expect(sample(text, 'coinop_group_commit_batch_size_count', { queue: 'plays' })).toBe(3);
    expect(sample(text, 'coinop_group_commit_batch_size_sum', { queue: 'plays' })).toBe(3);
    expect(sample(text, 'coinop_group_commit_batch_size_count', { queue: 'scores' })).toBe(1);
    expect(sample(text, 'coinop_group_commit_queue_depth', { queue: 'scores' })).toBe(0);

    const playRoute = {
      listener: 'api',
      route: '/arcades/:arcadeId/games/:gameId/play',
      method: 'POST',
    };
    expect(
      sample(text, 'coinop_http_request_duration_seconds_count', {
        ...playRoute,
        status_class: '2xx',
      }),
    ).toBe(2);
    expect(
      sample(text, 'coinop_http_request_duration_seconds_count', {
        ...playRoute,
        status_class: '4xx',
      }),
    ).toBe(1);
    expect(
      sample(text, 'coinop_http_request_duration_seconds_bucket', {
        ...playRoute,
        status_class: '2xx',
        le: '+Inf',
      }),
    ).toBe(2);
    // Ids in paths never become labels.
    expect(text).not.toContain(game.gameId);

    expect(sample(text, 'coinop_signins_total', { flow: 'wallet', outcome: 'challenged' })).toBe(1);
    expect(sample(text, 'coinop_signins_total', { flow: 'wallet', outcome: 'signed_in' })).toBe(1);
    expect(sample(text, 'coinop_signins_total', { flow: 'cli_login', outcome: 'started' })).toBe(1);
    expect(
      sample(text, 'coinop_signins_total', { flow: 'cli_login', outcome: 'authorization_pending' }),
    ).toBe(1);

    expect(sample(text, 'coinop_ledger_minted_units')).toBe(15 * HST);
    expect(sample(text, 'coinop_ledger_pending_units')).toBe(10 * HST);
    expect(sample(text, 'coinop_db_pool_connections', { state: 'max' })).toBe(
      variant === 'postgres' ? 7 : 1,
    );
    expect(sample(text, 'coinop_db_pool_waiting')).toBe(0);
    // Node's own metrics come along.
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);

    // It takes no input: other paths and methods are 404, a query string is ignored.
    const metricsUrl = server.urls['metrics']!;
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
    expect((await fetch(`${metricsUrl}/`)).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'DELETE' })).status).toBe(404);
    expect((await fetch(`${metricsUrl}?name[]=%ff%00`)).status).toBe(200);
    expect((await fetch(metricsUrl, { method: 'HEAD' })).status).toBe(200);
  });
});
