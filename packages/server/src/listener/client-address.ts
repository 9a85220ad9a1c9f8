import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * How the web listener tells the listeners behind it which browser a forwarded request came
 * from. `X-Forwarded-For` from loopback cannot be believed (anyone on the host could send it),
 * so the web listener also sends a secret only this process knows, and the browser's address in
 * its own header; a request without the secret is counted by its own peer address.
 */
export interface WebForwarding {
  readonly secret: string;
}

export const WEB_FORWARDING_HEADER = 'x-coinop-web-forwarding';
export const WEB_CLIENT_HEADER = 'x-coinop-web-client';

/** A fresh secret for this process's web listener and the listeners it forwards to. */
export function newWebForwarding(): WebForwarding {
  return { secret: randomBytes(24).toString('base64url') };
}

/** The headers the web listener adds to a request it forwards for `clientIp`. */
export function forwardingHeaders(
  forwarding: WebForwarding,
  clientIp: string,
): Record<string, string> {
  return { [WEB_FORWARDING_HEADER]: forwarding.secret, [WEB_CLIENT_HEADER]: clientIp };
}

/**
 * The address to count a request against: the browser's when this process's web listener
 * forwarded it, otherwise the peer's (or, with `--trust-proxy`, the address the trusted proxies
 * name, which Fastify has already put in `request.ip`).
 */
export function clientAddress(request: FastifyRequest, forwarding: WebForwarding | null): string {
  if (forwarding === null) return request.ip;
  const claimed = request.headers[WEB_FORWARDING_HEADER];
  const client = request.headers[WEB_CLIENT_HEADER];
  if (typeof claimed !== 'string' || typeof client !== 'string') return request.ip;
  const given = Buffer.from(claimed);
  const expected = Buffer.from(forwarding.secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return request.ip;
  return client;
}
