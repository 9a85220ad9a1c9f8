import { getHeapStatistics } from 'node:v8';
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Problem } from '@coinop/protocol';
import fp from 'fastify-plugin';
import type { OverloadLimits } from '../config.js';
import { problem } from './error-handler.js';

/**
 * Refuses requests with 503 `overloaded` and Retry-After while the process is past a limit
 * (`@fastify/under-pressure`, sampled every second): the event loop's mean delay, the V8 heap or
 * resident memory. Refusing at once keeps the requests it does take fast, and tells a load
 * balancer or a client to go elsewhere or come back. `/healthz` always answers: a busy process is
 * alive, and restarting it would only lose its work. `/readyz` answers 503 `not_ready` naming the
 * limit passed (`checks.load`), so a balancer stops sending it work until it recovers.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** Which overload limit the process is past now, described; null when none. */
    overload(): string | null;
  }
}

/**
 * Routes that answer however loaded the process is: liveness, and readiness (which reports the
 * overload itself).
 */
export const OVERLOAD_EXEMPT_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

/** The heap in use past which a process spends its time collecting garbage. */
const HEAP_LIMIT_SHARE = 0.9;
const MB = 1024 * 1024;
/** Two of under-pressure's one-second samples: the first may still cover the start. */
const ARMING_DELAY_MS = 2_000;

export const refuseOnOverload = fp<{ limits: OverloadLimits }>(
  async (app: FastifyInstance, { limits }) => {
    const heapMb =
      limits.heapUsedMb ??
      Math.floor((getHeapStatistics().heap_size_limit * HEAP_LIMIT_SHARE) / MB);
    // Delays measured while the process starts (migrations, the embedded database's start, the
    // demo seed) are its start's, not load: refusals begin a few samples after it is ready.
    let armed = false;
    app.addHook('onReady', async () => {
      setTimeout(() => (armed = true), ARMING_DELAY_MS).unref();
    });
    const heapBytes = heapMb * MB;
    const rssBytes = limits.rssMb * MB;
    app.decorate('overload', (): string | null => {
      if (!armed) return null;
      const now = app.memoryUsage();
      const delay = now.eventLoopDelay;
      if (limits.eventLoopDelayMs > 0 && delay > limits.eventLoopDelayMs && delay !== Infinity) {
        return describe('eventLoopDelay', delay);
      }
      if (heapBytes > 0 && now.heapUsed > heapBytes) return describe('heapUsedBytes', now.heapUsed);
      if (rssBytes > 0 && now.rssBytes > rssBytes) return describe('rssBytes', now.rssBytes);
      return null;
    });
    await app.register(underPressure, {
      maxEventLoopDelay: limits.eventLoopDelayMs,
      maxHeapUsedBytes: heapBytes,
      maxRssBytes: rssBytes,
      retryAfter: limits.retryAfterSeconds,
      // A handler's return value is sent as the reply (and nothing, lets the request through);
      // the plugin's types say void only.
      pressureHandler: ((request, reply, type, value) => {
        const route = request.routeOptions.url;
        if (!armed || OVERLOAD_EXEMPT_ROUTES.has(route ?? '')) return undefined;
        // No delay measured in the last interval (the loop was busy since the monitor began,
        // as in a start-up that blocks): unknown, not overloaded. A busy loop in steady state
        // is still measured, as the delay it had.
        if (value === Infinity) return undefined;
        return refuse(reply, limits.retryAfterSeconds, type, value);
      }) as PressureHandler as () => void,
    });
  },
  { name: 'coinop-overload' },
);

type PressureHandler = (
  request: FastifyRequest,
  reply: FastifyReply,
  type: string,
  value: number | undefined,
) => Problem | undefined;

function refuse(reply: FastifyReply, retryAfterSeconds: number, type: string, value?: number) {
  const body = problem(
    'overloaded',
    `the server is overloaded (${describe(type, value)}); retry in ${retryAfterSeconds} s`,
    { retryAfterSeconds },
  );
  reply.code(body.status).header('retry-after', retryAfterSeconds).type('application/problem+json');
  reply.problemCode = body.code;
  return body;
}

function describe(type: string, value: number | undefined): string {
  const amount = value === undefined ? '' : ` ${Math.round(value)}`;
  switch (type) {
    case 'eventLoopDelay':
      return `event loop delay${amount} ms`;
    case 'heapUsedBytes':
      return `heap in use${value === undefined ? '' : ` ${Math.round(value / MB)} MB`}`;
    case 'rssBytes':
      return `resident memory${value === undefined ? '' : ` ${Math.round(value / MB)} MB`}`;
    default:
      return type;
  }
}
