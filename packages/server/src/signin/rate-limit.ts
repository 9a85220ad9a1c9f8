import type { FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import { CoinopError } from '@coinop/core';
import { clientAddress, type WebForwarding } from '../listener/client-address.js';

/**
 * Registers @fastify/rate-limit for routes that ask for it (`config: perClient(n)`), counting per
 * client address in this process: the browser's behind this process's web listener, the peer's
 * otherwise. Refusals are `rate_limited` problems like every other error.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  forwarding: WebForwarding | null,
): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    keyGenerator: (request) => clientAddress(request, forwarding),
    errorResponseBuilder: (_request, context) =>
      new CoinopError(
        'rate_limited',
        `too many requests from this address: at most ${context.max} a minute; retry in ${context.after}`,
        { details: { retryAfterMs: context.ttl } },
      ),
  });
}

/** Route config limiting each client address to `perMinute` requests a minute. */
export function perClient(perMinute: number): { rateLimit: { max: number; timeWindow: number } } {
  return { rateLimit: { max: perMinute, timeWindow: 60_000 } };
}
