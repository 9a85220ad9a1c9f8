import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, testConfig, type OverloadLimits } from '../../src/config.js';
import { buildWeb } from '../../src/web/app.js';
import { buildTestSignin, type TestSignin } from '@coinop/testkit/signin';

/** Past any real process: every heap is above a megabyte. */
const TINY_HEAP: OverloadLimits = {
  eventLoopDelayMs: 0,
  heapUsedMb: 1,
  rssMb: 0,
  retryAfterSeconds: 7,
};

/** Asks until the listener refuses: its limits are armed a few samples after it is ready. */
async function refused(app: FastifyInstance, url: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const res = await app.inject({ method: 'GET', url });
    if (res.statusCode === 503 || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('overload: 503 overloaded with Retry-After past a limit, on every listener', () => {
  let signin: TestSignin;
  let web: FastifyInstance;

  beforeAll(async () => {
    signin = await buildTestSignin('pglite', { overload: TINY_HEAP });
    web = await buildWeb(testConfig({ overload: TINY_HEAP }), { apiUrl: null, authUrl: null });
    await web.ready();
  });
  afterAll(async () => {
    await web?.close();
    await signin?.close();
  });

  it('refuses with the problem shape, keeps /healthz live, and says /readyz is not', async () => {
    const listeners: [string, FastifyInstance, string][] = [
      ['api', signin.api, '/catalog/games'],
      ['auth', signin.auth, '/.well-known/jwks.json'],
      ['web', web, '/'],
    ];
    for (const [name, app, url] of listeners) {
      const res = await refused(app, url);
      expect({ name, status: res.statusCode }).toEqual({ name, status: 503 });
      expect(res.headers['retry-after']).toBe('7');
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      // Refusals carry the security headers too.
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const body = res.json<{ code: string; status: number; message: string; details: unknown }>();
      expect(body).toMatchObject({
        type: 'https://coinop.dev/errors/overloaded',
        code: 'overloaded',
        status: 503,
        details: { retryAfterSeconds: 7 },
      });
      expect(body.message).toMatch(
        /^the server is overloaded \(heap in use \d+ MB\); retry in 7 s$/,
      );

      // Liveness: a busy process is alive. Readiness: not, until it recovers.
      const live = await app.inject({ method: 'GET', url: '/healthz' });
      expect({ name, status: live.statusCode, body: live.json() }).toEqual({
        name,
        status: 200,
        body: { status: 'ok' },
      });
      const ready = await app.inject({ method: 'GET', url: '/readyz' });
      expect({ name, status: ready.statusCode, body: ready.json() }).toMatchObject({
        name,
        status: 503,
        body: {
          status: 'not_ready',
          checks: { load: expect.stringMatching(/^overloaded: heap in use \d+ MB$/) },
        },
      });
    }
  });
});

describe('overload limits in the config', () => {
  it('defaults to a second of event-loop delay and 90% of the heap, and reads the flags', () => {
    expect(loadConfig({}, {}, false).overload).toEqual({
      eventLoopDelayMs: 1000,
      heapUsedMb: null,
      rssMb: 0,
      retryAfterSeconds: 10,
    });
    const set = loadConfig(
      { overloadEventLoopDelayMs: '250', overloadHeapMb: '0' },
      { COINOP_OVERLOAD_RSS_MB: '900' },
      false,
    ).overload;
    expect(set).toEqual({
      eventLoopDelayMs: 250,
      heapUsedMb: 0,
      rssMb: 900,
      retryAfterSeconds: 10,
    });
    expect(() => loadConfig({ overloadRssMb: '-1' }, {}, false)).toThrow(
      '--overload-rss-mb (COINOP_OVERLOAD_RSS_MB) must be a whole number from 0 to 1048576, got -1',
    );
  });
});
