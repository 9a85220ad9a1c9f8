import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Security headers on every response of a listener (`@fastify/helmet`, docs/operating/security.md):
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

export const securityHeaders = fp<SecurityHeaderOptions>(
  async (app: FastifyInstance, options) => {
    await app.register(helmet, {
      global: true,
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
    if (csp !== null) {
      app.addHook('onRequest', async (_request, reply) => {
        reply.header('content-security-policy', csp);
      });
    }
  },
  { name: 'coinop-security-headers' },
);
