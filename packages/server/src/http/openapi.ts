import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/** Where the generated document and the reference page are served. */
export const OPENAPI_JSON_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

/** Tags that group operations in the document; route schemas use these names. */
export const ApiTags = {
  writeToken: 'write token',
  gameServer: 'game server',
  registration: 'registration',
  players: 'players',
  admin: 'admin',
  catalog: 'catalog',
  player: 'signed-in player',
  operations: 'operations',
} as const;

/**
 * Security requirements for route schemas (`schema: { security: Security.writeToken }`), naming
 * the schemes declared in `components.securitySchemes`.
 */
export const Security = {
  writeToken: [{ writeToken: [] }],
  apiKey: [{ apiKey: [] }],
  adminToken: [{ adminToken: [] }],
  playerToken: [{ playerToken: [] }],
} as const;

/** The problem+json body every error response carries; routes may `$ref: 'Problem#'` it. */
const problemSchema = {
  $id: 'Problem',
  type: 'object',
  description: 'RFC 9457 problem details plus a stable `code` and a `message`.',
  required: ['type', 'title', 'status', 'detail', 'code', 'message'],
  properties: {
    type: { type: 'string', description: 'https://coinop.dev/errors/{code}' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string', description: 'See docs/reference/errors.md' },
    message: { type: 'string', description: 'Same as detail; the field the SDKs read.' },
    details: { type: 'object', additionalProperties: true },
  },
} as const;

/**
 * Serves the OpenAPI 3.1 document generated from the route schemas at `/openapi.json`, and a
 * reference page at `/docs`. Registered before the route plugins so it sees every route. The
 * page's assets ship inside @fastify/swagger-ui: it loads with no internet.
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance) => {
    // The route plugins' shared schemas may declare their own Problem; then theirs stands.
    if (app.getSchema(problemSchema.$id) === undefined) app.addSchema(problemSchema);
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'coinop arcade API',
          version: await packageVersion(),
          description:
            'The arcade API ({base_url}): write tokens, games and leaderboards, plays and scores ' +
            'for game servers; game registration with a developer API key; operator commands ' +
            'under /admin. Errors are application/problem+json with a stable `code`.',
        },
        tags: [
          { name: ApiTags.writeToken, description: 'Exchange client credentials for a token.' },
          {
            name: ApiTags.gameServer,
            description: 'Calls a game server makes with its write token (spec 4.3–4.5).',
          },
          {
            name: ApiTags.registration,
            description: 'Register and update games with a developer API key (spec 4.8, 4.9).',
          },
          { name: ApiTags.players, description: 'Player profiles and balances.' },
          { name: ApiTags.admin, description: 'Operator API behind `coinop admin`.' },
          { name: ApiTags.catalog, description: 'The public catalog the web app shows.' },
          {
            name: ApiTags.player,
            description:
              'What the arcade web app does for the signed-in player: balance, faucet, and ' +
              'client-side plays, scores and payments approved by wallet signatures.',
          },
          {
            name: ApiTags.operations,
            description: 'Liveness and readiness, for load balancers and orchestrators.',
          },
        ],
        components: {
          securitySchemes: {
            writeToken: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'JWT',
              description: 'Write token from POST /oauth/writetoken.',
            },
            apiKey: {
              type: 'apiKey',
              in: 'header',
              name: 'api-key',
              description: "The developer's API key, shown once when it is created.",
            },
            playerToken: {
              type: 'http',
              scheme: 'bearer',
              bearerFormat: 'JWT',
              description: 'A player access token from the sign-in service (wallet sign-in).',
            },
            adminToken: {
              type: 'http',
              scheme: 'bearer',
              description: 'The operator token (`<data-dir>/admin-token` unless given).',
            },
          },
        },
      },
      // 3.1 speaks JSON Schema's `const`; keep TypeBox literals as they are written.
      convertConstToEnum: false,
      // A declared tag that no route uses would show as an empty group on the reference page.
      transformObject: (document) => {
        if (!('openapiObject' in document)) return document.swaggerObject;
        const doc = document.openapiObject;
        const used = new Set<string>();
        for (const item of Object.values(doc.paths ?? {})) {
          for (const op of Object.values(item ?? {})) {
            if (op && typeof op === 'object' && 'tags' in op && Array.isArray(op.tags)) {
              for (const tag of op.tags as string[]) used.add(tag);
            }
          }
        }
        return { ...doc, tags: (doc.tags ?? []).filter((t) => used.has(t.name)) };
      },
      // Shared schemas keep their own names in components.schemas (`Problem`, not `def-0`).
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) =>
          typeof json['$id'] === 'string' ? json['$id'] : `def-${i}`,
      },
    });
    await app.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      uiConfig: { deepLinking: true, docExpansion: 'list' },
      theme: { title: 'coinop arcade API' },
      // The page's own policy (its scripts and styles by hash) over the API's, which allows
      // nothing; upgrade-insecure-requests only when the API itself is served over TLS.
      staticCSP: true,
      transformStaticCSP: (header: string) =>
        app.config.tlsCertPath === null
          ? header.replace(/\s*upgrade-insecure-requests;?/, '')
          : header,
    });
    app.get(OPENAPI_JSON_PATH, { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'coinop-openapi' },
);

/** The document as committed in docs/reference/openapi.json: 2-space JSON, newline at the end. */
export function renderOpenApi(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}

async function packageVersion(): Promise<string> {
  // Same relative place from src/http and dist/http.
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  const { version } = JSON.parse(text) as { version: string };
  return version;
}
