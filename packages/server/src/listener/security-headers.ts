import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Security headers on every response of a listener (helmet, docs/operating/security.md):
 * helmet's defaults, with a Content-Security-Policy per listener, Strict-Transport-Security only
 * over TLS (a browser told to use HTTPS for a plain-HTTP arcade could not reach it), and
 * Cross-Origin-Resource-Policy opened where other origins load what the listener serves. A
 * listener that answers JSON and images only (the API) sends the set OWASP's REST Security Cheat
 * Sheet names for APIs, not the headers that protect an HTML document: they would only add bytes
 * and work to every answer.
 */

/** A JSON API's policy: it serves no page, so nothing may run, load or frame it. */
export const API_CSP = [
  "default-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** A year, the common preload value; no includeSubDomains: the operator's other hosts are theirs. */
const HSTS_MAX_AGE_SECONDS = 31_536_000;

export interface SecurityHeaderOptions {
  readonly hsts: boolean;
  /** The policy, or null when the listener sets its own on each response. */
  readonly contentSecurityPolicy: string | null;
  readonly resourcePolicy: 'same-origin' | 'cross-origin';
  readonly referrerPolicy: 'no-referrer' | 'strict-origin-when-cross-origin';
  /** Origin-Agent-Cluster: off where the page embeds games from other origins (see below). */
  readonly originAgentCluster: boolean;
  /** Whether the listener serves HTML pages; without them, only the headers an API needs. */
  readonly pages: boolean;
}

/** The headers of an HTML document that say nothing to a JSON or image response. */
const DOCUMENT_ONLY_HEADERS = {
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const;

/**
 * Adds the listener's headers to every response, from its first hook: call it before any other
 * hook that may refuse a request, so the refusal carries them too.
 */
export function sendSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): void {
  const headers = headersOf({
    // Set whole below rather than through helmet's directives, whose defaults would add
    // upgrade-insecure-requests to a plain-HTTP arcade.
    contentSecurityPolicy: false,
    strictTransportSecurity: options.hsts
      ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false }
      : false,
    crossOriginResourcePolicy: { policy: options.resourcePolicy },
    referrerPolicy: { policy: options.referrerPolicy },
    // The web app's wallet may open a popup (WalletConnect, a hardware wallet's page).
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    originAgentCluster: options.originAgentCluster,
    ...(options.pages ? {} : { ...DOCUMENT_ONLY_HEADERS, xFrameOptions: { action: 'deny' } }),
  });
  const csp = options.contentSecurityPolicy;
  if (csp !== null) headers['content-security-policy'] = csp;
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * The headers helmet sets with these options. They depend on nothing in the request, so they are
 * worked out once per listener: running helmet's middleware on every request (as
 * `@fastify/helmet` does, rebuilding it each time) cost the API's reads a third of their
 * throughput on a 2-core machine (docs/benchmarks.md, issue 14 round 5).
 */
function headersOf(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
    if (error) throw error;
    done = true;
  });
  // Every helmet header without a nonce is set synchronously; anything else would be per request.
  if (!done) throw new Error('helmet did not set its headers synchronously');
  return headers;
}
