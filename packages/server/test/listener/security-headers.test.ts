import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { buildWeb, webCsp } from '../../src/web/app.js';
import { API_CSP } from '../../src/listener/security-headers.js';
import { CLI_LOGIN_CSP } from '../../src/signin/pages/cli-login.js';
import { buildTestApi } from '@coinop/testkit/app';
import { buildTestSignin, type TestSignin } from '@coinop/testkit/signin';
import { makeCa } from '../fixtures/tls.js';

describe('security headers (helmet) on every listener', () => {
  let signin: TestSignin;
  let web: FastifyInstance;

  beforeAll(async () => {
    signin = await buildTestSignin('pglite');
    web = await buildWeb(testConfig(), { apiUrl: null, authUrl: null });
  });
  afterAll(async () => {
    await web?.close();
    await signin?.close();
  });

  it('sends an API’s headers on the API, a document’s on the listeners with pages, and no HSTS without TLS', async () => {
    // Helmet's headers of an HTML document, on the listeners that serve pages.
    const documentHeaders = {
      opener: 'same-origin-allow-popups',
      frame: 'SAMEORIGIN',
      dnsPrefetch: 'off',
      download: 'noopen',
      crossDomain: 'none',
      xss: '0',
    };
    const expected = {
      // JSON and images: the headers OWASP names for an API, no document's (security.md).
      api: {
        csp: API_CSP,
        resources: 'cross-origin',
        referrer: 'no-referrer',
        cluster: undefined,
        opener: undefined,
        frame: 'DENY',
        dnsPrefetch: undefined,
        download: undefined,
        crossDomain: undefined,
        xss: undefined,
      },
      auth: {
        csp: API_CSP,
        resources: 'same-origin',
        referrer: 'no-referrer',
        cluster: '?1',
        ...documentHeaders,
      },
      // The arcade's page, which frames games, goes without Origin-Agent-Cluster (security.md).
      web: {
        csp: webCsp({ chain: null }),
        resources: 'cross-origin',
        referrer: 'strict-origin-when-cross-origin',
        cluster: undefined,
        ...documentHeaders,
      },
    };
    const apps = { api: signin.api, auth: signin.auth, web };
    for (const [name, app] of Object.entries(apps)) {
      const res = await app.inject({ method: 'GET', url: '/healthz' });
      const want = expected[name as keyof typeof expected];
      expect({
        name,
        csp: res.headers['content-security-policy'],
        resources: res.headers['cross-origin-resource-policy'],
        referrer: res.headers['referrer-policy'],
        cluster: res.headers['origin-agent-cluster'],
        opener: res.headers['cross-origin-opener-policy'],
        nosniff: res.headers['x-content-type-options'],
        frame: res.headers['x-frame-options'],
        dnsPrefetch: res.headers['x-dns-prefetch-control'],
        download: res.headers['x-download-options'],
        crossDomain: res.headers['x-permitted-cross-domain-policies'],
        xss: res.headers['x-xss-protection'],
        hsts: res.headers['strict-transport-security'],
        poweredBy: res.headers['x-powered-by'],
      }).toEqual({
        name,
        ...want,
        nosniff: 'nosniff',
        hsts: undefined,
        poweredBy: undefined,
      });
    }
  });

  it('sends them on a request the text rule refuses before any route runs', async () => {
    const res = await signin.api.inject({ method: 'GET', url: '/healthz?note=%00' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    expect({
      csp: res.headers['content-security-policy'],
      nosniff: res.headers['x-content-type-options'],
      frame: res.headers['x-frame-options'],
    }).toEqual({ csp: API_CSP, nosniff: 'nosniff', frame: 'DENY' });
  });

  it('keeps the CLI login page’s own policy and gives /docs one that lets Swagger UI run', async () => {
    const page = await signin.auth.inject({ method: 'GET', url: '/cli/login' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toBe(CLI_LOGIN_CSP);
    expect(page.headers['x-frame-options']).toBe('DENY');

    const docs = await signin.api.inject({ method: 'GET', url: '/docs' });
    expect(docs.statusCode).toBe(200);
    const csp = String(docs.headers['content-security-policy']);
    // Swagger UI's own files, no inline code; nothing framing it from elsewhere.
    expect(csp).toMatch(/script-src 'self'/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("default-src 'self'");
    // Served over plain HTTP: nothing to upgrade to.
    expect(csp).not.toContain('upgrade-insecure-requests');
    // A page on the API's listener: the document headers the API's JSON goes without.
    expect({
      opener: docs.headers['cross-origin-opener-policy'],
      cluster: docs.headers['origin-agent-cluster'],
      frame: docs.headers['x-frame-options'],
      nosniff: docs.headers['x-content-type-options'],
    }).toEqual({ opener: 'same-origin', cluster: '?1', frame: 'DENY', nosniff: 'nosniff' });
  });
});

describe('security headers over TLS', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coinop-helmet-tls-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('adds Strict-Transport-Security for a year, without includeSubDomains', async () => {
    const { cert, key } = await makeCa(dir);
    const signin = await buildTestSignin('pglite', {}, { https: { cert, key } });
    const web = await buildWeb(testConfig(), {
      apiUrl: null,
      authUrl: null,
      https: { cert, key },
    });
    const api = await buildTestApi('pglite', {
      tlsCertPath: join(dir, 'server.pem'),
      tlsKeyPath: join(dir, 'server.key'),
      publicUrl: 'https://api.arcade.example',
    });
    try {
      for (const app of [signin.auth, web]) {
        const res = await app.inject({ method: 'GET', url: '/healthz' });
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
      }
      // Reached over HTTPS, the API's /docs page may upgrade its requests.
      const docs = await api.app.inject({ method: 'GET', url: '/docs' });
      expect(String(docs.headers['content-security-policy'])).toContain(
        'upgrade-insecure-requests',
      );
    } finally {
      await Promise.all([signin.close(), web.close(), api.close()]);
    }
  });
});
