import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  newWebForwarding,
  WEB_CLIENT_HEADER,
  WEB_FORWARDING_HEADER,
} from '../../src/listener/client-address.js';
import { buildWeb } from '../../src/web/app.js';
import { testConfig } from '../../src/config.js';
import { storeVariants } from '@coinop/testkit/db';
import {
  buildTestSignin,
  newWallet,
  poll,
  startLogin,
  type TestSignin,
} from '@coinop/testkit/signin';

const WEB_ORIGIN = 'https://arcade.example.com';
/** Config overrides limiting sign-in routes to `perMinute`, the other groups as in tests. */
const signinLimit = (perMinute: number) => ({
  rateLimits: { ...testConfig().rateLimits, signin: perMinute },
});

describe.each(storeVariants())('sign-in rate limits and CORS on %s', (variant) => {
  let s: TestSignin;
  beforeAll(async () => {
    s = await buildTestSignin(variant, { ...signinLimit(3), webOrigins: [WEB_ORIGIN] });
  });
  afterAll(() => s.close());

  it('limits challenges per client, with a problem body and Retry-After', async () => {
    const address = newWallet().address;
    const ask = () =>
      s.auth.inject({ method: 'POST', url: '/wallet/challenge', payload: { address } });
    for (let i = 0; i < 3; i++) expect((await ask()).statusCode).toBe(200);
    const limited = await ask();
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json()).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^too many requests from this address: at most 3 a minute/),
    });
    // Another client address has its own allowance.
    const other = await s.auth.inject({
      method: 'POST',
      url: '/wallet/challenge',
      payload: { address },
      remoteAddress: '127.0.0.2',
    });
    expect(other.statusCode).toBe(200);
  });

  it('limits polling per client and says slow_down in the RFC 8628 error', async () => {
    const start = await startLogin(s.auth);
    for (let i = 0; i < 3; i++) {
      s.clock.advance(5000);
      expect((await poll(s.auth, start.requestorId, start.token)).json().code).toBe(
        'authorization_pending',
      );
    }
    const limited = await poll(s.auth, start.requestorId, start.token);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited', error: 'slow_down' });
  });

  it('answers CORS only for the configured web origins', async () => {
    const preflight = (app: typeof s.auth, url: string, origin: string) =>
      app.inject({
        method: 'OPTIONS',
        url,
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    const allowed = await preflight(s.auth, '/wallet/verify', WEB_ORIGIN);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(WEB_ORIGIN);
    expect(allowed.headers['access-control-allow-headers']).toBe('authorization, content-type');
    const stranger = await preflight(s.auth, '/wallet/verify', 'https://evil.example.com');
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();

    const developer = await preflight(s.api, '/developer/apikey', WEB_ORIGIN);
    expect(developer.headers['access-control-allow-origin']).toBe(WEB_ORIGIN);
    const jwks = await s.auth.inject({
      method: 'GET',
      url: '/.well-known/jwks.json',
      headers: { origin: 'https://evil.example.com' },
    });
    expect(jwks.statusCode).toBe(200);
    expect(jwks.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('without web origins', () => {
  let s: TestSignin;
  beforeAll(async () => {
    s = await buildTestSignin('pglite');
  });
  afterAll(() => s.close());

  it('sends no CORS headers at all', async () => {
    const res = await s.auth.inject({
      method: 'OPTIONS',
      url: '/wallet/verify',
      headers: { origin: WEB_ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('whose address a rate limit counts', () => {
  const challenge = (app: FastifyInstance, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: '/wallet/challenge',
      payload: { address: newWallet().address },
      headers,
    });

  it('ignores X-Forwarded-For by default: a local client rotating it is still one client', async () => {
    const s = await buildTestSignin('pglite', { ...signinLimit(2) });
    try {
      const codes = [];
      for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
        codes.push((await challenge(s.auth, { 'x-forwarded-for': ip })).statusCode);
      }
      expect(codes).toEqual([200, 200, 429]);
      // Nor does a forged web-listener header help without the secret.
      const forged = await challenge(s.auth, {
        [WEB_FORWARDING_HEADER]: 'guess',
        [WEB_CLIENT_HEADER]: '198.51.100.9',
      });
      expect(forged.statusCode).toBe(429);
    } finally {
      await s.close();
    }
  });

  it('believes X-Forwarded-For from the proxies named by --trust-proxy', async () => {
    const s = await buildTestSignin('pglite', {
      ...signinLimit(2),
      trustProxy: 'loopback',
    });
    try {
      const codes = [];
      for (const ip of ['198.51.100.1', '198.51.100.1', '198.51.100.1', '198.51.100.2']) {
        codes.push((await challenge(s.auth, { 'x-forwarded-for': ip })).statusCode);
      }
      expect(codes).toEqual([200, 200, 429, 200]);
    } finally {
      await s.close();
    }
  });

  it('counts each browser apart behind this process’s web listener', async () => {
    const forwarding = newWebForwarding();
    const s = await buildTestSignin('pglite', { ...signinLimit(2) }, { webForwarding: forwarding });
    const authUrl = await s.auth.listen({ host: '127.0.0.1', port: 0 });
    const web = await buildWeb(s.config, { apiUrl: null, authUrl, forwarding });
    try {
      const fromBrowser = async (remoteAddress: string, headers: Record<string, string> = {}) =>
        (
          await web.inject({
            method: 'POST',
            url: '/auth/wallet/challenge',
            payload: { address: newWallet().address },
            remoteAddress,
            headers,
          })
        ).statusCode;
      const first = [];
      for (let i = 0; i < 3; i++) first.push(await fromBrowser('203.0.113.7'));
      expect(first).toEqual([200, 200, 429]);
      // Another browser has its own allowance, and a browser cannot claim to be someone else.
      expect(await fromBrowser('203.0.113.8')).toBe(200);
      expect(
        await fromBrowser('203.0.113.7', {
          [WEB_CLIENT_HEADER]: '192.0.2.1',
          'x-forwarded-for': '192.0.2.1',
        }),
      ).toBe(429);
    } finally {
      await web.close();
      await s.close();
    }
  });
});
