import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { COINOP_FAVICON_SVG, COINOP_LOGO_SVG } from './openapi-brand.js';
import { problemResponses, routeProblemCodes, PROBLEM_CODES_KEY } from './openapi-errors.js';

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
  walletSignIn: 'wallet sign-in',
  cliLogin: 'CLI login',
  keys: 'keys',
} as const;

/**
 * Security requirements for route schemas (`schema: { security: Security.writeToken }`), naming
 * the schemes declared in `components.securitySchemes`. `none` marks a public route: every
 * operation says who may call it.
 */
export const Security = {
  writeToken: [{ writeToken: [] }],
  apiKey: [{ apiKey: [] }],
  adminToken: [{ adminToken: [] }],
  playerToken: [{ playerToken: [] }],
  none: [],
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

/** A security scheme as OpenAPI 3.1 writes it. */
type SecurityScheme =
  | { type: 'http'; scheme: 'bearer'; bearerFormat?: string; description: string }
  | { type: 'apiKey'; in: 'header'; name: string; description: string };

/** What differs between the API's document and the sign-in service's. */
export interface OpenApiDocument {
  readonly title: string;
  /** Markdown; names the service's real address (no `{base_url}` placeholder). */
  readonly description: string;
  /** Where clients reach this service: the configured public URL. */
  readonly serverUrl: string;
  readonly tags: readonly { name: string; description: string }[];
  readonly securitySchemes: Readonly<Record<string, SecurityScheme>>;
}

const playerTokenScheme: SecurityScheme = {
  type: 'http',
  scheme: 'bearer',
  bearerFormat: 'JWT',
  description: 'A player access token from the sign-in service (wallet sign-in).',
};

/** The arcade API's document: every route of `buildApi`. */
export function apiDocument(publicUrl: string, signinUrl: string): OpenApiDocument {
  return {
    title: 'coinop arcade API',
    description:
      `The arcade API at ${publicUrl}: write tokens, games and leaderboards, plays and scores ` +
      'for game servers; game registration with a developer API key; operator commands under ' +
      '/admin. Errors are application/problem+json with a stable `code` ' +
      '(docs/reference/errors.md). Players sign in at the sign-in service ' +
      `(${signinUrl}, its own document at ${signinUrl}${DOCS_PATH}).`,
    serverUrl: publicUrl,
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
      playerToken: playerTokenScheme,
      adminToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'The operator token (`<data-dir>/admin-token` unless given).',
      },
    },
  };
}

/** The sign-in service's document: wallet sign-in, the CLI login flow, the public keys. */
export function signinDocument(signinUrl: string, apiUrl: string): OpenApiDocument {
  return {
    title: 'coinop sign-in service',
    description:
      `The player sign-in service at ${signinUrl}: a wallet signs an EIP-4361 message for a ` +
      'player token (spec 5); a command-line tool logs a player in through a browser (RFC 8628 ' +
      'style); game servers verify player tokens with the public keys. Rate limited per client ' +
      'address. Errors are application/problem+json with a stable `code` ' +
      `(docs/reference/errors.md). The arcade API is at ${apiUrl} (${apiUrl}${DOCS_PATH}).`,
    serverUrl: signinUrl,
    tags: [
      {
        name: ApiTags.walletSignIn,
        description: 'Sign in with a wallet (EIP-4361) for a player token or a web session.',
      },
      {
        name: ApiTags.cliLogin,
        description:
          'A command-line tool asks for a login; the player approves it in the browser; the ' +
          'tool polls for its token.',
      },
      { name: ApiTags.keys, description: 'The public keys that verify player tokens (JWKS).' },
      {
        name: ApiTags.operations,
        description: 'Liveness and readiness, for load balancers and orchestrators.',
      },
    ],
    securitySchemes: {
      playerToken: playerTokenScheme,
      pollToken: {
        type: 'http',
        scheme: 'bearer',
        description: 'The poll token POST /cli answered, for polling that login only.',
      },
    },
  };
}

/**
 * The 429 of a rate-limited route (docs/reference/rate-limits.md): `response: { 429:
 * RateLimitedResponse }`.
 */
export const RateLimitedResponse = {
  description:
    '`rate_limited`: too many requests in a minute from one client; the Retry-After header says ' +
    'when to try again.',
  content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } },
} as const;

/** What @fastify/swagger writes for a response whose schema has no description. */
const SWAGGER_PLACEHOLDER = 'Default Response';

/** What /docs sends beyond the API's headers: those that protect an HTML document. */
const DOCS_PAGE_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-permitted-cross-domain-policies': 'none',
} as const;

/**
 * Serves the OpenAPI 3.1 document generated from the route schemas at `/openapi.json`, and a
 * reference page at `/docs`. Registered before the route plugins so it sees every route. The
 * page's assets ship inside @fastify/swagger-ui: it loads with no internet. Every operation gets
 * the problem responses its credential, its inputs and its path imply (./openapi-errors.ts).
 */
export const openApiPlugin = fp(
  async (app: FastifyInstance, document: OpenApiDocument) => {
    // The route plugins' shared schemas may declare their own Problem; then theirs stands.
    if (app.getSchema(problemSchema.$id) === undefined) app.addSchema(problemSchema);
    const pkg = await packageManifest();
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: document.title,
          version: pkg.version,
          description: document.description,
          // OpenAPI 3.1 names a license by its SPDX identifier: the package's, as in LICENSE.
          license: { name: `${pkg.license} License`, identifier: pkg.license },
        },
        servers: [{ url: document.serverUrl }],
        tags: document.tags.map((t) => ({ ...t })),
        components: { securitySchemes: { ...document.securitySchemes } },
      },
      // 3.1 speaks JSON Schema's `const`; keep TypeBox literals as they are written.
      convertConstToEnum: false,
      // What a route can answer besides success rides on its schema to transformObject below.
      transform: ({ schema, url, route }) => {
        const codes = routeProblemCodes(route, url);
        return { schema: { ...schema, [PROBLEM_CODES_KEY]: codes } as typeof schema, url };
      },
      transformObject: (documentObject) => {
        if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
        const doc = documentObject.openapiObject;
        const used = new Set<string>();
        for (const item of Object.values(doc.paths ?? {})) {
          for (const op of Object.values(item ?? {})) {
            if (!op || typeof op !== 'object' || !('responses' in op)) continue;
            const operation = op as {
              tags?: string[];
              summary?: string;
              responses: Record<string, unknown>;
              [PROBLEM_CODES_KEY]?: string[];
            };
            for (const tag of operation.tags ?? []) used.add(tag);
            // A success whose schema has no description of its own says what the operation does,
            // not @fastify/swagger's placeholder "Default Response".
            for (const response of Object.values(operation.responses) as {
              description?: string;
            }[]) {
              if (response.description === SWAGGER_PLACEHOLDER && operation.summary) {
                response.description = operation.summary;
              }
            }
            const codes = operation[PROBLEM_CODES_KEY] ?? [];
            delete operation[PROBLEM_CODES_KEY];
            operation.responses = { ...problemResponses(codes), ...operation.responses };
            operation.responses = sortedByStatus(operation.responses);
          }
        }
        // A declared tag that no route uses would show as an empty group on the reference page.
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
      logo: { type: 'image/svg+xml', content: Buffer.from(COINOP_LOGO_SVG), href: DOCS_PATH },
      theme: {
        title: document.title,
        favicon: [
          {
            filename: 'favicon.svg',
            rel: 'icon',
            sizes: 'any',
            type: 'image/svg+xml',
            content: Buffer.from(COINOP_FAVICON_SVG),
          },
        ],
      },
      // The page's own policy (its scripts and styles by hash) over the service's, which allows
      // nothing; upgrade-insecure-requests only when clients reach the service over HTTPS.
      staticCSP: true,
      transformStaticCSP: (header: string) =>
        document.serverUrl.startsWith('https:')
          ? header
          : header.replace(/\s*upgrade-insecure-requests;?/, ''),
      // A page on a listener that otherwise answers JSON: the document headers the API leaves
      // out (security-headers.ts). A developer may paste an API key here: no other window
      // keeps a handle on it.
      uiHooks: {
        onRequest: (_request, reply, done) => {
          reply.headers(DOCS_PAGE_HEADERS);
          done();
        },
      },
    });
    app.get(OPENAPI_JSON_PATH, { schema: { hide: true } }, async () => app.swagger());
    // The service's root names nothing else: send a visitor to its reference page. Relative, so
    // it also holds behind the web app's /api and /auth prefixes.
    app.get('/', { schema: { hide: true } }, (_request, reply) => reply.redirect(`.${DOCS_PATH}`));
  },
  { name: 'coinop-openapi' },
);

/**
 * The document as committed in docs/reference/: 2-space JSON, newline at the end. Built with the
 * default settings, its servers entry is the default address (`npm start`); a running arcade
 * serves its own `--public-url` at /openapi.json.
 */
export function renderOpenApi(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}

function sortedByStatus(responses: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

async function packageManifest(): Promise<{ version: string; license: string }> {
  // Same relative place from src/http and dist/http.
  const text = await readFile(new URL('../../package.json', import.meta.url), 'utf8');
  const { version, license } = JSON.parse(text) as { version: string; license: string };
  return { version, license };
}
