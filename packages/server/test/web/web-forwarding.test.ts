import { request as httpRequest } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { buildWeb } from '../../src/web/app.js';
import { GAME_BODY_LIMIT } from '../../src/http/developer/developer-games-schemas.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';

/** A raw HTTP request to the listener, as a client on the network sends it. */
function send(
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: init.method, headers: init.headers ?? {} }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body }),
      );
    });
    req.on('error', reject);
    const expectsContinue = init.headers?.['expect'] === '100-continue';
    if (expectsContinue) req.on('continue', () => req.end(init.body));
    else req.end(init.body);
  });
}

describe('the web listener forwards as a client expects', () => {
  let api: TestApi;
  let web: FastifyInstance;
  let webUrl: string;

  beforeAll(async () => {
    api = await buildTestApi('pglite');
    const apiUrl = await api.app.listen({ host: '127.0.0.1', port: 0 });
    web = await buildWeb(testConfig(), { apiUrl, authUrl: null, distDir: '/nonexistent' });
    webUrl = await web.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await web?.close();
    await api?.close();
  });

  // Issue 12: a body the API refused part-way came back as a 500 in Fastify's own shape.
  it.each([
    ['over the route limit, refused by the API', 200_000, () => api.config.bodyLimitBytes],
    [
      'over any route limit, refused by the web listener',
      4_000_000,
      () => Math.max(GAME_BODY_LIMIT, testConfig().bodyLimitBytes),
    ],
  ])('answers 413 problem+json for a body %s, stating the limit', async (_case, size, limitOf) => {
    const limit = limitOf();
    const res = await send(`${webUrl}/api/oauth/writetoken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'x'.repeat(size), client_secret: 'y' }),
    });
    expect(res.status).toBe(413);
    expect(res.type).toMatch(/^application\/problem\+json/);
    // The 413 said "larger than the limit" without saying which.
    expect(JSON.parse(res.body)).toMatchObject({
      code: 'body_too_large',
      message: `request body is larger than the limit of ${limit} bytes for this route`,
      details: { limitBytes: limit },
    });
  });

  it('forwards a body byte for byte, whatever its type', async () => {
    const res = await send(`${webUrl}/api/oauth/writetoken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ client_id: 'nope', client_secret: 'nope' }),
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'invalid_client_credentials' });
    const text = await send(`${webUrl}/api/oauth/writetoken`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'client_id=a',
    });
    expect(text.status).toBe(415);
    expect(JSON.parse(text.body)).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('handles Expect: 100-continue', async () => {
    const res = await send(`${webUrl}/api/oauth/writetoken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', expect: '100-continue' },
      body: JSON.stringify({ client_id: 'nope', client_secret: 'nope' }),
    });
    expect(res.status).toBe(401);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'invalid_client_credentials' });
  });

  it('answers 502 problem+json when the listener behind is down or elsewhere', async () => {
    const down = await buildWeb(testConfig(), {
      apiUrl: 'http://127.0.0.1:1',
      authUrl: null,
      distDir: '/nonexistent',
    });
    try {
      for (const url of ['/api/catalog/games', '/auth/.well-known/jwks.json']) {
        const res = await down.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(502);
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect(res.json()).toMatchObject({
          code: 'upstream_unavailable',
          details: { listener: url.startsWith('/api') ? 'api' : 'auth' },
        });
      }
    } finally {
      await down.close();
    }
  });

  it('refuses NUL and lone surrogates itself, naming the field', async () => {
    const res = await web.inject({ method: 'GET', url: '/api/catalog/games?search=a%00b' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: { field: 'search', in: 'query' },
    });
  });
});
