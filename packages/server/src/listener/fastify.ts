import Fastify, { LogController, type FastifyInstance, type FastifySchema } from 'fastify';
import pino from 'pino';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';
import { problem, sendProblem } from './error-handler.js';
import { refuseRoundedNumbers } from './json-numbers.js';
import { refuseUnstorableText } from './text-rule.js';

/**
 * The Fastify options every coinop listener shares: limits, logging, strict validation, and the
 * rules on text and numbers (`refuseUnstorableText`, `refuseRoundedNumbers`).
 */
export function createFastify(
  config: Config,
  https: { readonly cert: string | Buffer; readonly key: string | Buffer } | undefined,
): FastifyInstance {
  const app = Fastify({
    logger:
      config.logLevel === 'silent' ? false : { level: config.logLevel, stream: logDestination() },
    // No line per request unless the operator asks for an access log: at the default level a
    // request costs no log write (errors and warnings are still logged).
    logController: new LogController({ disableRequestLogging: !config.accessLog }),
    bodyLimit: config.bodyLimitBytes,
    // Routes are matched exactly as the spec writes them; a trailing slash is the same route.
    routerOptions: { ignoreTrailingSlash: true },
    // Never coerce: a body's "12" is not the number 12, and unknown fields are refused, not dropped.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
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
  refuseUnstorableText(app);
  refuseRoundedNumbers(app);
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
 * Standard output, written asynchronously and shared by every listener of the process: a log
 * line never blocks a request on the terminal or the pipe. pino flushes it when the process
 * exits.
 */
let destination: pino.DestinationStream | undefined;
function logDestination(): pino.DestinationStream {
  destination ??= pino.destination({ dest: 1, sync: false });
  return destination;
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
