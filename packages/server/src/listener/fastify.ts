import Fastify, { LogController, type FastifyInstance, type FastifySchema } from 'fastify';
import type { DestinationStream } from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import type { ArcadeMetrics } from '../metrics/arcade-metrics.js';
import { observeRequests } from '../metrics/request-metrics.js';
import { problem, sendProblem } from './error-handler.js';
import { refuseRoundedNumbers } from './json-numbers.js';
import { logDestination, LOG_REDACT } from './log-destination.js';
import { refuseOnOverload } from './overload.js';
import { sendSecurityHeaders } from './security-headers.js';
import { PATTERN_TEXT_KEY } from './string-patterns.js';
import { refuseUnstorableText } from './text-rule.js';

/** Which listener an app is, and what it shares with the process's other listeners. */
export interface ListenerOptions {
  readonly name: 'api' | 'auth' | 'web';
  /** Certificate and key (PEM) to serve HTTPS; plain HTTP when absent. */
  readonly https: { readonly cert: string | Buffer; readonly key: string | Buffer } | undefined;
  /** The process's metrics; null records none (tests that build one listener). */
  readonly metrics: ArcadeMetrics | null;
  /**
   * The Content-Security-Policy of every response; null when the listener sets its own (the
   * web app). Pages with needs of their own (the CLI login page, /docs) set theirs over it.
   */
  readonly contentSecurityPolicy: string | null;
  /** Cross-Origin-Resource-Policy: `cross-origin` where other sites embed what it serves. */
  readonly resourcePolicy: 'same-origin' | 'cross-origin';
  /** Referrer-Policy; helmet's `no-referrer` unless the listener serves pages that need more. */
  readonly referrerPolicy?: 'no-referrer' | 'strict-origin-when-cross-origin';
  /** Origin-Agent-Cluster (helmet's default, on) unless the listener's pages frame games. */
  readonly originAgentCluster?: boolean;
  /**
   * Whether the listener serves HTML pages (the web app, the CLI login page), which get helmet's
   * document headers too; the API answers JSON and images and gets an API's (security-headers.ts).
   */
  readonly pages: boolean;
  /**
   * Where the listener logs instead of standard output (`--log-format`'s): JSON lines, for an
   * embedder's own log or a test that reads them.
   */
  readonly logDestination?: DestinationStream | undefined;
}

/**
 * The Fastify options every coinop listener shares: limits, logging, strict validation, the
 * rules on text and numbers (`refuseUnstorableText`, `refuseRoundedNumbers`), security headers,
 * refusal under overload and request metrics.
 */
export function createFastify(config: Config, listener: ListenerOptions): FastifyInstance {
  const { https } = listener;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            stream: listener.logDestination ?? logDestination(config.logFormat),
            // Fastify's request serializer logs no headers; these keep a custom log line or an
            // error's request from carrying a credential if one ever does (docs/operating/deploy.md).
            redact: { paths: [...LOG_REDACT], censor: '[redacted]' },
          },
    // No line per request unless the operator asks for an access log: at the default level a
    // request costs no log write (errors and warnings are still logged).
    logController: new LogController({ disableRequestLogging: !config.accessLog }),
    bodyLimit: config.bodyLimitBytes,
    // Routes are matched exactly as the spec writes them; a trailing slash is the same route.
    routerOptions: { ignoreTrailingSlash: true },
    // Never coerce: a body's "12" is not the number 12, and unknown fields are refused, not dropped.
    // `verbose` gives a failure its schema, which says in words what its pattern wants (or whose
    // description does: listener/validation-messages.ts); it costs nothing until a request fails.
    // The words are an annotation Ajv's strict mode is told of, so it checks nothing.
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: false,
        allErrors: false,
        verbose: true,
        keywords: [PATTERN_TEXT_KEY],
      },
    },
    // Whose X-Forwarded-For to believe is the operator's call (nobody's by default): anyone on
    // this host could otherwise claim any address. The web listener's own forwarding is told
    // apart by a secret header instead (`clientAddress`).
    trustProxy:
      typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // A path whose percent-encoding is not UTF-8 (a lone surrogate's bytes, say) never routes.
    frameworkErrors: (error, _request, reply) =>
      sendProblem(
        reply,
        problem('validation_failed', `the request path is not valid: ${error.message}`, {
          in: 'path',
        }),
      ),
    ...(https ? { https } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Set by `sendProblem`; declared here so every reply has the same shape.
  app.decorateReply('problemCode', null);
  // Headers first, so every refusal (the text rule's 400, an overload's 503) carries them too.
  sendSecurityHeaders(app, {
    hsts: https !== undefined,
    contentSecurityPolicy: listener.contentSecurityPolicy,
    resourcePolicy: listener.resourcePolicy,
    referrerPolicy: listener.referrerPolicy ?? 'no-referrer',
    originAgentCluster: listener.originAgentCluster ?? true,
    pages: listener.pages,
  });
  refuseUnstorableText(app);
  refuseRoundedNumbers(app);
  void app.register(refuseOnOverload, { limits: config.overload });
  if (listener.metrics) observeRequests(app, listener.name, listener.metrics);
  const routes: ListedRoute[] = [];
  listed.set(app, routes);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      routes.push({ method, url: route.url, schema: route.schema ?? {} });
    }
  });
  return app;
}

/**
 * Trusts the `hops` proxies nearest to this listener, whoever they are: the operator's statement
 * that nothing reaches coinop but through them.
 */
function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

/** A route as registered: its method, its URL pattern (`/cli/:requestorId`) and its schema. */
export interface ListedRoute {
  readonly method: string;
  readonly url: string;
  readonly schema: FastifySchema;
}

const listed = new WeakMap<FastifyInstance, ListedRoute[]>();

/** Every route of a listener made by `createFastify`, for checks that walk them all. */
export function routesOf(app: FastifyInstance): readonly ListedRoute[] {
  return listed.get(app) ?? [];
}
