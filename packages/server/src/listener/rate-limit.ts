import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit, { type RateLimitOptions } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { CoinopError } from '@coinop/core';
import { clientAddress, type WebForwarding } from './client-address.js';
import { sharedCountStore } from './shared-counts.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Whose requests a route's rate limit counts, for the refusal's message ("this player"). */
    rateLimitSubject?: string;
  }
}

/** What a listener's rate limits count with. */
export interface RateLimitDeps {
  /** This process's web listener's forwarding secret: limits then count each browser. */
  readonly forwarding: WebForwarding | null;
  /** Where the counts are kept for every process (`--redis-url`); null: in this process only. */
  readonly redis: Redis | null;
}

/** The route config of a rate-limited route, or of one whose limit is off. */
export interface RouteRateLimit {
  readonly rateLimit: RateLimitOptions | false;
  readonly rateLimitSubject?: string;
}

const MINUTE_MS = 60_000;

/**
 * Registers @fastify/rate-limit for the routes that ask for it (`config: perClientAddress(n)` or
 * `perKey(...)`). Counts are kept in Redis when one is given, so they hold across processes, and
 * in this process while it cannot be reached; otherwise in this process. Refusals are
 * `rate_limited` problems with Retry-After, like every other error.
 */
export async function registerRateLimit(app: FastifyInstance, deps: RateLimitDeps): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => clientAddress(request, deps.forwarding),
    ...(deps.redis ? { store: sharedCountStore(deps.redis, app.log) } : {}),
    errorResponseBuilder: (request, context) =>
      new CoinopError(
        'rate_limited',
        `too many requests from ${request.routeOptions.config.rateLimitSubject ?? 'this address'}: ` +
          `at most ${context.max} a minute; retry in ${context.after}`,
        { details: { retryAfterMs: context.ttl } },
      ),
  });
}

/**
 * `authenticate` answering once per request: a route limited per player authenticates in its
 * limit's hook (`perKey`), and its handler then gets the same answer without verifying again.
 */
export function oncePerRequest<T>(
  authenticate: (request: FastifyRequest) => Promise<T>,
): (request: FastifyRequest) => Promise<T> {
  const answers = new WeakMap<FastifyRequest, Promise<T>>();
  return (request) => {
    let answer = answers.get(request);
    if (!answer) {
      answer = authenticate(request);
      answers.set(request, answer);
    }
    return answer;
  };
}

/** Limits each client address to `perMinute` requests a minute; 0 turns the limit off. */
export function perClientAddress(perMinute: number): RouteRateLimit {
  if (perMinute === 0) return { rateLimit: false };
  return { rateLimit: { max: perMinute, timeWindow: MINUTE_MS } };
}

/**
 * Limits each `subject` (a game client, a player, an API key) to `perMinute` requests a minute;
 * 0 turns the limit off. Counted once the request is authenticated (the preHandler stage), so
 * `keyOf` may read what authentication found; a request it cannot name is refused by it.
 */
export function perKey(
  perMinute: number,
  subject: string,
  keyOf: (request: FastifyRequest) => string | Promise<string>,
): RouteRateLimit {
  if (perMinute === 0) return { rateLimit: false };
  return {
    rateLimit: { max: perMinute, timeWindow: MINUTE_MS, hook: 'preHandler', keyGenerator: keyOf },
    rateLimitSubject: subject,
  };
}

/** What `perClientFailures` counts with: a refusal to throw before trying, and a failure. */
export interface FailureLimit {
  /** The 429 `rate_limited` to throw (Retry-After set) once the address failed too often; null otherwise. */
  refusal(request: FastifyRequest, reply: FastifyReply): Promise<CoinopError | null>;
  /** Counts one failure of the request's client address; answers that address and the count. */
  failed(request: FastifyRequest): Promise<{ address: string; count: number }>;
}

/**
 * Limits each client address to `perMinute` failures a minute (failed admin authentications),
 * with the listener's @fastify/rate-limit store (Redis when given): successes are never counted,
 * and a refused request is not tried at all, so a guesser gets `perMinute` guesses a minute.
 * 0 turns the limit off (failures are still counted, for the log).
 */
export function perClientFailures(
  app: FastifyInstance,
  perMinute: number,
  what: string,
): FailureLimit {
  // With the limit off, the count still says how many failures the log has seen.
  const max = perMinute === 0 ? Number.MAX_SAFE_INTEGER : perMinute;
  const limiter = app.createRateLimit({ max, timeWindow: MINUTE_MS });
  return {
    async refusal(request, reply) {
      if (perMinute === 0) return null;
      const limit = await limiter(request, { increment: false });
      if (limit.isAllowed || limit.remaining > 0) return null;
      reply.header('retry-after', limit.ttlInSeconds);
      return new CoinopError(
        'rate_limited',
        `too many ${what} from this address: at most ${perMinute} a minute; retry in ` +
          `${limit.ttlInSeconds} s`,
        { details: { retryAfterMs: limit.ttl } },
      );
    },
    async failed(request) {
      const limit = await limiter(request);
      return { address: limit.key, count: limit.isAllowed ? 0 : max - limit.remaining };
    },
  };
}
