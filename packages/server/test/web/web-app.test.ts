import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULTS, testConfig, type ChainConfig } from '../../src/config.js';
import { buildWeb, webCsp } from '../../src/web/app.js';
import {
  newWebForwarding,
  WEB_CLIENT_HEADER,
  WEB_FORWARDING_HEADER,
} from '../../src/listener/client-address.js';

const FORWARDING = newWebForwarding();

function chainConfig(rpcUrl: string): ChainConfig {
  return {
    rpcUrl,
    vaultAddress: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
    confirmations: DEFAULTS.chainConfirmations,
    startBlock: DEFAULTS.chainStartBlock,
    pollIntervalMs: DEFAULTS.chainPollMs,
    logRangeBlocksMax: DEFAULTS.chainLogRangeBlocksMax,
    rpcTimeoutMs: DEFAULTS.chainRpcTimeoutMs,
    retryMaxMs: DEFAULTS.chainRetryMaxMs,
    operatorKeyFile: null,
    withdrawalBatchMax: DEFAULTS.chainWithdrawalBatchMax,
    reconcileIntervalMs: DEFAULTS.chainReconcileIntervalMs,
    publicRpcUrl: null,
    devChainMinter: null,
  };
}

/** An upstream that echoes which listener answered and the path it saw. */
async function echo(name: string): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.all('/*', async (request) => ({
    listener: name,
    url: request.url,
    method: request.method,
    forwardedFor: request.headers['x-forwarded-for'],
    forwarding: request.headers[WEB_FORWARDING_HEADER],
    client: request.headers[WEB_CLIENT_HEADER],
  }));
  return { app, url: await app.listen({ host: '127.0.0.1', port: 0 }) };
}

describe('the web listener', () => {
  let dir: string;
  let api: { app: FastifyInstance; url: string };
  let auth: { app: FastifyInstance; url: string };
  let web: FastifyInstance;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coinop-web-dist-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>app</title>');
    await writeFile(join(dir, 'assets', 'index-abc.js'), 'console.log(1)');
    api = await echo('api');
    auth = await echo('auth');
    web = await buildWeb(testConfig(), {
      apiUrl: api.url,
      authUrl: auth.url,
      distDir: dir,
      forwarding: FORWARDING,
    });
  });
  afterAll(async () => {
    await web?.close();
    await api?.app.close();
    await auth?.app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('forwards /api and /auth with the prefix stripped and the query kept', async () => {
    const a = await web.inject({ method: 'GET', url: '/api/catalog/games?search=x' });
    expect(a.json()).toEqual({
      listener: 'api',
      url: '/catalog/games?search=x',
      method: 'GET',
      forwardedFor: '127.0.0.1',
      forwarding: FORWARDING.secret,
      client: '127.0.0.1',
    });
    const b = await web.inject({
      method: 'POST',
      url: '/auth/wallet/challenge',
      payload: { address: '0x1' },
    });
    // The sign-in listener rate-limits by client: it must see the browser's address, not ours.
    const c = await web.inject({
      method: 'POST',
      url: '/auth/wallet/challenge',
      remoteAddress: '203.0.113.7',
      headers: {
        'x-forwarded-for': '198.51.100.1',
        [WEB_FORWARDING_HEADER]: 'forged',
        [WEB_CLIENT_HEADER]: '198.51.100.1',
      },
      payload: { address: '0x1' },
    });
    expect(b.json()).toMatchObject({ listener: 'auth', url: '/wallet/challenge', method: 'POST' });
    expect(c.json()).toMatchObject({
      forwardedFor: '203.0.113.7',
      forwarding: FORWARDING.secret,
      client: '203.0.113.7',
    });
  });

  it('serves files, and index.html for any other page path', async () => {
    const asset = await web.inject({ method: 'GET', url: '/assets/index-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/games/123', '/demo?game=x']) {
      const page = await web.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toBe('<!doctype html><title>app</title>');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['x-content-type-options']).toBe('nosniff');
      expect(page.headers['content-security-policy']).toContain("script-src 'self'");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    expect((await web.inject({ method: 'GET', url: '/assets/gone.js' })).statusCode).toBe(404);
  });

  it('sends one referrer policy and one nosniff over the wire, not two side by side', async () => {
    const url = await web.listen({ host: '127.0.0.1', port: 0 });
    // fetch joins repeated headers with ", ": one value means one header.
    const page = await fetch(`${url}/`, { method: 'HEAD' });
    expect(page.status).toBe(200);
    expect(page.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await web.inject({ method: 'POST', url: '/games/123' })).statusCode).toBe(404);
  });

  it("lets the page reach the chain's public JSON-RPC origin in chain mode, and no other", () => {
    const connectSrc = (csp: string) => csp.split('; ').find((d) => d.startsWith('connect-src'));
    expect(connectSrc(webCsp({ chain: null }))).toBe("connect-src 'self'");
    // The server's own URL is never handed to browsers: without a public one, no chain origin.
    const chain = chainConfig('https://rpc.example.com:8545/v3/PROVIDER-KEY');
    expect(connectSrc(webCsp({ chain }))).toBe("connect-src 'self'");
    const published = { ...chain, publicRpcUrl: 'https://public.example.org:8545/rpc' };
    // The origin only.
    expect(connectSrc(webCsp({ chain: published }))).toBe(
      "connect-src 'self' https://public.example.org:8545",
    );
  });

  it('says to build the app when it is not built, and 502 for a listener elsewhere', async () => {
    const bare = await buildWeb(testConfig(), {
      apiUrl: null,
      authUrl: null,
      distDir: join(dir, 'missing'),
    });
    try {
      const page = await bare.inject({ method: 'GET', url: '/games/1' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('The web app is not built: run <code>npm run build</code>');
      const proxied = await bare.inject({ method: 'GET', url: '/api/catalog/games' });
      expect(proxied.statusCode).toBe(502);
      expect(proxied.json()).toMatchObject({
        code: 'upstream_unavailable',
        message: 'the api listener does not run in this process',
      });
    } finally {
      await bare.close();
    }
  });
});
