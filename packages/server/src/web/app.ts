import { healthRoutes } from '../listener/health.js';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import proxy from '@fastify/http-proxy';
import fastifyStatic from '@fastify/static';
import type { Config } from '../config.js';
import { createFastify } from '../listener/fastify.js';
import { problem, renderErrorsAsProblems, sendProblem } from '../listener/error-handler.js';
import { GAME_BODY_LIMIT } from '../http/developer/developer-games-schemas.js';
import {
  forwardingHeaders,
  WEB_CLIENT_HEADER,
  WEB_FORWARDING_HEADER,
  type WebForwarding,
} from '../listener/client-address.js';
import type { ArcadeMetrics } from '../metrics/arcade-metrics.js';

/**
 * The built web app: `npm run build` copies apps/web/dist into this package's web-dist/, which
 * the published package ships. The same relative place from src/web and dist/web.
 */
export const WEB_DIST_DIR = fileURLToPath(new URL('../../web-dist/', import.meta.url));

/**
 * The app's Content-Security-Policy. Its own scripts and styles only (Vite emits files, no
 * inline code); images from anywhere on the web (covers and avatars live on the games' hosts);
 * games framed from any http(s) origin, since the arcade hosts games wherever they are served;
 * requests only to this origin (`/api`, `/auth`) and, in chain mode, to the chain's JSON-RPC
 * origin, which the account page reads balances from and sends deposits through; and nobody may
 * frame the arcade itself, so a page cannot overlay its Approve button.
 */
export function webCsp(config: Pick<Config, 'chain'>): string {
  const rpcOrigin = config.chain?.publicRpcUrl ? new URL(config.chain.publicRpcUrl).origin : null;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: https: http:",
    rpcOrigin === null ? "connect-src 'self'" : `connect-src 'self' ${rpcOrigin}`,
    'frame-src http: https:',
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Where the web listener forwards: the in-process API and sign-in listeners' URLs. */
export interface WebDeps {
  /** Base URL of the API listener; `/api/*` answers 502 `upstream_unavailable` without it. */
  readonly apiUrl: string | null;
  /** Base URL of the sign-in listener; `/auth/*` answers 502 `upstream_unavailable` without it. */
  readonly authUrl: string | null;
  /** The built app's directory; WEB_DIST_DIR unless a test says otherwise. */
  readonly distDir?: string;
  readonly https?: { readonly cert: string | Buffer; readonly key: string | Buffer } | undefined;
  /** The secret the listeners behind know this listener by; none, and they count it as one client. */
  readonly forwarding?: WebForwarding | null;
  /** The process's metrics; absent, none are recorded. */
  readonly metrics?: ArcadeMetrics | null;
  /** Where to log instead of standard output (JSON lines); see `ListenerOptions`. */
  readonly logDestination?: DestinationStream;
}

/**
 * The web listener: the built app with every unknown GET path falling back to index.html (the
 * app routes in the browser), `/api/*` forwarded to the API and `/auth/*` to the sign-in service,
 * prefixes stripped. The app then talks to one origin, whatever public hostname serves it.
 */
export async function buildWeb(config: Config, deps: WebDeps): Promise<FastifyInstance> {
  const app = createFastify(config, {
    name: 'web',
    https: deps.https,
    metrics: deps.metrics ?? null,
    logDestination: deps.logDestination,
    // Set below with the app's own policy (`webCsp`).
    contentSecurityPolicy: null,
    // Games on other origins load the game SDK bundle and covers from the arcade.
    resourcePolicy: 'cross-origin',
    // Games in the arcade's frames may read which arcade embeds them (document.referrer).
    referrerPolicy: 'strict-origin-when-cross-origin',
    // With it, headless Chromium lost the click that opens the connect dialog (security.md).
    originAgentCluster: false,
    pages: true,
  });
  renderErrorsAsProblems(app);
  await healthRoutes(app, null);
  const distDir = deps.distDir ?? WEB_DIST_DIR;

  for (const [prefix, upstream, bodyLimit] of [
    ['/api', deps.apiUrl, Math.max(GAME_BODY_LIMIT, config.bodyLimitBytes)],
    ['/auth', deps.authUrl, config.bodyLimitBytes],
  ] as const) {
    const listener = prefix.slice(1);
    if (upstream === null) {
      app.all(`${prefix}/*`, async (_request, reply) =>
        sendProblem(
          reply,
          unavailable(listener, `the ${listener} listener does not run in this process`),
        ),
      );
      continue;
    }
    await forwardPrefix(app, config, deps, { prefix, listener, upstream, bodyLimit });
  }

  const csp = webCsp(config);
  // nosniff and the referrer policy come from the listener's security headers.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('content-security-policy', csp);
  });

  if (!(await isFile(`${distDir}/index.html`))) {
    app.log.warn(`the web app is not built (${distDir} has no index.html): run npm run build`);
    app.get('/*', async (_request, reply) =>
      reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><html lang="en"><title>coinop</title>' +
            '<p>The web app is not built: run <code>npm run build</code>, then restart.</p></html>',
        ),
    );
    return app;
  }

  await app.register(fastifyStatic, {
    root: distDir,
    cacheControl: false, // Set below, per file.
    // Vite names assets by content hash, so they never change; index.html always revalidates.
    setHeaders: (res, path) => {
      res.setHeader(
        'cache-control',
        path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  app.setNotFoundHandler(async (request, reply) => {
    const wantsPage = request.method === 'GET' || request.method === 'HEAD';
    if (!wantsPage || request.url.startsWith('/assets/')) {
      return reply.code(404).type('text/plain').send('not found\n');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
  return app;
}

/**
 * Forwards `prefix` to the listener behind it at `upstream`, the prefix stripped: bodies read
 * whole first (an oversized one is refused here), the browser's address passed on by the
 * forwarding secret, and a listener that does not answer reported as a problem (502).
 */
async function forwardPrefix(
  app: FastifyInstance,
  config: Config,
  deps: WebDeps,
  {
    prefix,
    listener,
    upstream,
    bodyLimit,
  }: { prefix: string; listener: string; upstream: string; bodyLimit: number },
): Promise<void> {
  // The upstream is this process listening on loopback: its certificate names the public host.
  const loopbackTls = upstream.startsWith('https:')
    ? { undici: { connect: { rejectUnauthorized: false } } }
    : {};
  await app.register(
    async (scope) => {
      // Bodies are read whole before they are forwarded, so one over the limit is refused here
      // with a problem (413), and the listener behind never answers part-way through one.
      // The routes' own limit too, so a 413 states the limit that applied.
      scope.addHook('onRoute', (route) => {
        route.bodyLimit = bodyLimit;
      });
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
        done(null, Readable.from([body])),
      );
      await scope.register(proxy, {
        upstream,
        prefix,
        proxyPayloads: false,
        ...loopbackTls,
        replyOptions: {
          // A 503 from the listener behind (its database unreachable, or overloaded) goes to
          // the browser as it is, Retry-After and all. @fastify/reply-from would ask again up
          // to ten times at once (it reads Retry-After's seconds as milliseconds), multiplying
          // the load on a listener that is refusing it.
          retryDelay: () => null,
          // The listeners behind know the browser's address by the forwarding secret, so their
          // rate limits count each browser apart; a browser's own copies of those headers go.
          rewriteRequestHeaders: (request, headers) => {
            // Node has already told the client to continue; the body is read.
            const {
              expect: _continue,
              [WEB_FORWARDING_HEADER]: _secret,
              [WEB_CLIENT_HEADER]: _client,
              ...forwarded
            } = headers;
            return {
              ...forwarded,
              ...(deps.forwarding ? forwardingHeaders(deps.forwarding, request.ip) : {}),
              'x-forwarded-for': request.ip,
              'x-forwarded-proto': request.protocol,
              'x-forwarded-host': request.host,
            };
          },
          onError: (reply, { error }) => {
            reply.log.warn({ err: error }, `forwarding to the ${listener} listener failed`);
            const body = unavailable(
              listener,
              `the ${listener} listener did not answer; retry shortly`,
            );
            reply.problemCode = body.code;
            reply.code(body.status).type('application/problem+json').send(body);
          },
        },
      });
    },
    // The proxy logs each forwarded response at info: an access log, so only when asked for.
    config.accessLog ? {} : { logLevel: 'warn' as const },
  );
}

function unavailable(listener: string, message: string) {
  return problem('upstream_unavailable', message, { listener });
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
