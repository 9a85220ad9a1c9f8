import { existsSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderOpenApi } from '../../src/listener/openapi.js';
import { NO_DATABASE_OPERATIONS, OPERATION_PROBLEMS } from '../../src/listener/openapi-errors.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { buildTestSignin, type TestSignin } from '@coinop/testkit/signin';

const REGENERATE = 'npm run openapi';
const COMMITTED = {
  api: new URL('../../../../docs/reference/openapi.json', import.meta.url),
  signin: new URL('../../../../docs/reference/signin-openapi.json', import.meta.url),
};

interface Operation {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: { in: string; name: string; schema?: ParameterSchema }[];
  requestBody?: unknown;
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema: { $ref?: string } }> }
  >;
}
interface Document {
  openapi: string;
  info: { title: string; description: string; license?: unknown };
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
}

interface ParameterSchema {
  type?: string;
  anyOf?: ParameterSchema[];
}

/** Text, or a choice between texts (an enumeration). */
function isText(schema: ParameterSchema | undefined): boolean {
  if (schema === undefined) return false;
  return schema.anyOf ? schema.anyOf.every(isText) : schema.type === 'string';
}

function operationsOf(doc: Document): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method, path, op })),
  );
}

async function documentOf(app: FastifyInstance): Promise<Document> {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  return res.json<Document>();
}

/** The reference page's HTML and its local assets' text, following the /docs redirect. */
async function docsPage(app: FastifyInstance): Promise<{ html: string; assets: string[] }> {
  let res = await app.inject({ method: 'GET', url: '/docs' });
  for (let hops = 0; hops < 3 && res.statusCode >= 300 && res.statusCode < 400; hops++) {
    res = await app.inject({ method: 'GET', url: String(res.headers.location) });
  }
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('text/html');
  const urls = [...res.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
  // No CDN: the page must load with no internet.
  expect(urls.filter((a) => /^(https?:)?\/\//.test(a))).toEqual([]);
  const assets: string[] = [];
  for (const url of urls) {
    const got = await app.inject({ method: 'GET', url });
    expect({ url, status: got.statusCode }).toEqual({ url, status: 200 });
    assets.push(got.body);
  }
  return { html: res.body, assets };
}

describe('OpenAPI documents and reference pages', () => {
  let api: TestApi;
  let s: TestSignin;
  let docs: { api: Document; signin: Document };
  beforeAll(async () => {
    api = await buildTestApi('pglite');
    s = await buildTestSignin('pglite');
    docs = { api: await documentOf(api.app), signin: await documentOf(s.auth) };
  });
  afterAll(async () => {
    await api.close();
    await s.close();
  });

  it.each(['api', 'signin'] as const)(
    'gives the %s document the license of the repository (issue 28)',
    (which) => {
      const license = readFileSync(new URL('../../../../LICENSE', import.meta.url), 'utf8');
      expect(license.split('\n')[0]).toBe('MIT License');
      expect(docs[which].info.license).toEqual({ name: 'MIT License', identifier: 'MIT' });
    },
  );

  it('serves the API as an OpenAPI 3.1 document at /openapi.json', () => {
    const doc = docs.api;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('coinop arcade API');
    expect(doc.components.securitySchemes).toEqual({
      writeToken: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
      apiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'api-key' }),
      adminToken: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
      playerToken: expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
    });
    expect(doc.components.schemas['Problem']).toMatchObject({
      required: expect.arrayContaining(['code', 'message', 'status']),
    });
    // The document describes the API, not itself, its reference page or its root.
    expect(
      Object.keys(doc.paths).filter(
        (p) => p.startsWith('/docs') || ['/openapi.json', '/'].includes(p),
      ),
    ).toEqual([]);
  });

  it('names the configured public URL as the server, and in the description', async () => {
    const publicUrl = 'https://api.arcade.example.com';
    const configured = await buildTestApi('pglite', {
      publicUrl,
      authIssuer: 'signin.arcade.example.com',
    });
    try {
      const doc = await documentOf(configured.app);
      expect(doc.servers).toEqual([{ url: publicUrl }]);
      expect(doc.info.description).toContain(`The arcade API at ${publicUrl}:`);
      expect(doc.info.description).toContain('https://signin.arcade.example.com/docs');
    } finally {
      await configured.close();
    }
    // No placeholder left for a reader to fill in.
    for (const doc of Object.values(docs)) expect(doc.info.description).not.toMatch(/\{\w+\}/);
    expect(docs.api.servers).toEqual([{ url: api.config.publicUrl }]);
  });

  it('documents the sign-in service at its own /openapi.json: wallet sign-in, CLI login, JWKS', () => {
    const doc = docs.signin;
    expect(doc.info.title).toBe('coinop sign-in service');
    expect(doc.servers).toEqual([{ url: 'http://127.0.0.1:8081' }]);
    expect(doc.info.description).toContain(api.config.publicUrl);
    expect(
      Object.fromEntries(
        operationsOf(doc).map(({ method, path, op }) => [op.operationId, `${method} ${path}`]),
      ),
    ).toMatchObject({
      getJwks: 'get /.well-known/jwks.json',
      createSignInChallenge: 'post /wallet/challenge',
      verifyWalletSignIn: 'post /wallet/verify',
      renewWebSession: 'post /session/renew',
      startCliLogin: 'post /cli',
      pollCliLogin: 'get /cli/{requestorId}',
      getCliLoginInfo: 'get /cli/{requestorId}/info',
      approveCliLogin: 'post /cli/{requestorId}/approve',
      rejectCliLogin: 'post /cli/{requestorId}/reject',
    });
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'playerToken',
      'pollToken',
    ]);
  });

  it.each(['api', 'signin'] as const)(
    'gives every %s operation a unique camelCase operationId and says who may call it',
    (which) => {
      const doc = docs[which];
      const operations = operationsOf(doc);
      expect(operations.length).toBeGreaterThan(which === 'api' ? 70 : 10);
      const missing = operations
        .filter(({ op }) => !op.operationId)
        .map((o) => `${o.method} ${o.path}`);
      expect(missing).toEqual([]);
      const ids = operations.map(({ op }) => op.operationId!);
      expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
      expect(ids.filter((id) => !/^[a-z][a-zA-Z0-9]*$/.test(id))).toEqual([]);
      for (const { method, path, op } of operations) {
        expect(Array.isArray(op.security), `${method} ${path} states its security`).toBe(true);
        for (const requirement of op.security!) {
          for (const scheme of Object.keys(requirement)) {
            expect(doc.components.securitySchemes, `${method} ${path}`).toHaveProperty(scheme);
          }
        }
      }
      // Who may call what, by example: the security matches the route's family.
      const securityOf = (id: string) =>
        operations.find(({ op }) => op.operationId === id)?.op.security;
      if (which === 'api') {
        expect(securityOf('adminListGames')).toEqual([{ adminToken: [] }]);
        expect(securityOf('openPlay')).toEqual([{ writeToken: [] }]);
        expect(securityOf('createGame')).toEqual([{ apiKey: [] }]);
        expect(securityOf('playerGetMe')).toEqual([{ playerToken: [] }]);
        expect(securityOf('developerCreateApiKey')).toEqual([{ playerToken: [] }]);
        expect(securityOf('developerGetBalance')).toEqual([{ playerToken: [] }, { apiKey: [] }]);
        expect(securityOf('listCatalogGames')).toEqual([]);
        expect(securityOf('createWriteToken')).toEqual([]);
      } else {
        expect(securityOf('approveCliLogin')).toEqual([{ playerToken: [] }]);
        expect(securityOf('pollCliLogin')).toEqual([{ pollToken: [] }]);
        expect(securityOf('getJwks')).toEqual([]);
      }
    },
  );

  it.each(['api', 'signin'] as const)(
    'documents each %s error response as problem+json, as its credential and input imply',
    (which) => {
      for (const { method, path, op } of operationsOf(docs[which])) {
        const where = `${method} ${path}`;
        const statuses = Object.keys(op.responses);
        expect(statuses, `${where}: 500`).toContain('500');
        if ((op.security ?? []).length > 0) expect(statuses, `${where}: 401`).toContain('401');
        // Every operation takes a query and headers, checked by the text rule: a 4xx for each,
        // public ones too (issue 28).
        expect(op.responses['400']?.description, `${where}: 400`).toContain('`validation_failed`');
        if (op.requestBody) expect(statuses, `${where}: 415`).toContain('415');
        // Issue 28: a success says what it is, not the generator's placeholder.
        for (const status of statuses.filter((s) => Number(s) < 400)) {
          expect(op.responses[status]!.description, `${where} ${status}`).not.toBe(
            'Default Response',
          );
        }
        for (const status of statuses.filter((s) => Number(s) >= 400)) {
          const response = op.responses[status]!;
          // /readyz describes its own 503; every other error is a problem.
          if (path === '/readyz' && status === '503') continue;
          expect(response.content, `${where} ${status}`).toEqual({
            'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
          });
          expect(response.description, `${where} ${status}`).toMatch(/^`[a-z_0-9]+`: /);
        }
      }
    },
  );

  it('lists the domain refusals where they happen', () => {
    const responses = (id: string) =>
      operationsOf(docs.api).find(({ op }) => op.operationId === id)!.op.responses;
    expect(responses('openPlay')['402']?.description).toBe(
      '`insufficient_funds`: Insufficient funds',
    );
    expect(responses('adminCreatePlayer')['409']?.description).toContain(
      '`wallet_already_registered`',
    );
    expect(responses('adminGetBalance')['409']?.description).toContain('`account_ambiguous`');
    expect(responses('adminGetPlayer')['404']?.description).toContain('`player_not_found`');
    expect(responses('adminAuditHst')['503']?.description).toContain('`chain_not_ready`');
    expect(responses('getAvatar')['404']).toBeUndefined();
    // Issue 27: what reads the database may answer 503 while it cannot be reached.
    // Issue 28: and every route but the health checks may be refused while overloaded.
    expect(responses('openPlay')['503']?.description).toBe(
      '`service_unavailable`: Service unavailable; `overloaded`: Server overloaded',
    );
    expect(responses('adminAuditHst')['503']?.description).toContain('`service_unavailable`');
    expect(responses('getAvatar')['503']?.description).toBe('`overloaded`: Server overloaded');
    expect(responses('checkLiveness')['503']).toBeUndefined();
    // Issue 28: a route with no input of its own still answers 400 to a NUL in its query.
    expect(responses('getArcade')['400']?.description).toBe(
      '`validation_failed`: Request validation failed',
    );
    const signin = (id: string) =>
      operationsOf(docs.signin).find(({ op }) => op.operationId === id)!.op.responses;
    expect(signin('verifyWalletSignIn')['429']?.description).toContain('`rate_limited`');
    expect(signin('pollCliLogin')['429']?.description).toContain('`slow_down`');
    expect(signin('pollCliLogin')['503']?.description).toContain('`service_unavailable`');
    // Every operation the table names exists in one of the documents.
    const ids = new Set(
      [...operationsOf(docs.api), ...operationsOf(docs.signin)].map(({ op }) => op.operationId),
    );
    expect(Object.keys(OPERATION_PROBLEMS).filter((id) => !ids.has(id))).toEqual([]);
    expect([...NO_DATABASE_OPERATIONS].filter((id) => !ids.has(id))).toEqual([]);
  });

  it.each(['api', 'signin'] as const)(
    'answers each %s operation, called with no credential, with a status it documents',
    async (which) => {
      const app = which === 'api' ? api.app : s.auth;
      for (const { method, path, op } of operationsOf(docs[which])) {
        const url = path.replace(/\{(\w+)\}/g, () => randomUUID());
        const res = await app.inject({ method: method.toUpperCase() as 'GET', url });
        expect(Object.keys(op.responses), `${method} ${path}: ${res.body}`).toContain(
          String(res.statusCode),
        );
        // Issue 28: every route reads its query, so every route documents the 400 of a bad one
        // (a NUL, refused before any credential is looked at).
        const bad = await app.inject({
          method: method.toUpperCase() as 'GET',
          url: `${url}?q=%00`,
        });
        expect(bad.statusCode, `${method} ${path}?q=%00: ${bad.body}`).toBe(400);
        expect(op.responses['400']?.description, `${method} ${path}`).toContain(
          '`validation_failed`',
        );
      }
    },
  );

  it.each(['api', 'signin'] as const)(
    "serves the %s reference page at /docs with coinop's name and marks, nothing remote",
    async (which) => {
      const app = which === 'api' ? api.app : s.auth;
      const { html, assets } = await docsPage(app);
      expect(html).toContain('<div id="swagger-ui">');
      expect(html).toContain(
        `<title>${which === 'api' ? 'coinop arcade API' : 'coinop sign-in service'}</title>`,
      );
      // coinop's favicon, not the Fastify/Swagger ones.
      const icon = /<link rel="icon" type="image\/svg\+xml" href="([^"]*\/favicon\.svg)"/.exec(
        html,
      );
      expect(html).not.toContain('favicon-32x32.png');
      const favicon = await app.inject({ method: 'GET', url: icon?.[1] ?? 'no icon link' });
      expect(favicon.headers['content-type']).toContain('image/svg+xml');
      expect(favicon.body).toContain('<svg');
      // The top bar's logo is replaced by coinop's (an inline SVG) in the page's initializer.
      const initializer = assets.find((text) => text.includes('SwaggerUIBundle('));
      expect(initializer).toContain(`img.src = 'data:image/svg+xml;base64,`);
      const logo = /data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/.exec(initializer ?? '')?.[1];
      expect(Buffer.from(logo ?? '', 'base64').toString()).toContain('>coinop</text>');
    },
  );

  // The API never coerces types (listener/fastify.ts), so a query parameter typed as a number
  // refuses every value a client can send: `?limit=20` arrives as the text "20".
  it.each(['api', 'signin'] as const)('types every query parameter of the %s as text', (which) => {
    const notText = operationsOf(docs[which]).flatMap(({ method, path, op }) =>
      (op.parameters ?? [])
        .filter((p) => p.in === 'query' && !isText(p.schema))
        .map((p) => `${method.toUpperCase()} ${path} ?${p.name}: ${JSON.stringify(p.schema)}`),
    );
    expect(notText).toEqual([]);
  });

  it.each(['api', 'signin'] as const)('redirects GET / on the %s to its /docs', async (which) => {
    const app = which === 'api' ? api.app : s.auth;
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('./docs');
    expect(new URL(String(res.headers.location), 'http://arcade.example/').pathname).toBe('/docs');
    // Behind the web app's /api prefix, the same answer stays under it.
    expect(new URL(String(res.headers.location), 'http://arcade.example/api/').pathname).toBe(
      '/api/docs',
    );
  });

  // Other routes land before the documents are first committed: until then, skip and say how.
  for (const which of ['api', 'signin'] as const) {
    const file = COMMITTED[which];
    const name = `docs/reference/${which === 'api' ? 'openapi.json' : 'signin-openapi.json'}`;
    const committed = existsSync(file);
    if (!committed) {
      console.warn(
        `SKIPPED: ${name} is missing, so it was not compared with the generated document. ` +
          `Generate it with \`${REGENERATE}\` and commit it.`,
      );
    }
    it.skipIf(!committed)(`matches the committed ${name}`, () => {
      const app = which === 'api' ? api.app : s.auth;
      expect(
        renderOpenApi(app),
        `${name} is out of date: run \`${REGENERATE}\` and commit it`,
      ).toBe(readFileSync(file, 'utf8'));
    });
  }
});
