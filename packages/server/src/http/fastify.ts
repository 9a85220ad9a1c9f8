import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.js';

/** The Fastify options every coinop listener shares: limits, logging, strict validation. */
export function createFastify(
  config: Config,
  https: { readonly cert: string | Buffer; readonly key: string | Buffer } | undefined,
): FastifyInstance {
  return Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    bodyLimit: config.bodyLimitBytes,
    // Routes are matched exactly as the spec writes them; a trailing slash is the same route.
    routerOptions: { ignoreTrailingSlash: true },
    // Never coerce: a body's "12" is not the number 12, and unknown fields are refused, not dropped.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    // The web listener forwards /api and /auth from loopback with X-Forwarded-For: believe it
    // from there (and from a reverse proxy on the same host), never from anyone else.
    trustProxy: 'loopback',
    ...(https ? { https } : {}),
  }).withTypeProvider<TypeBoxTypeProvider>();
}
