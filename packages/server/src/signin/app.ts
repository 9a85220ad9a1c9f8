import { healthRoutes } from '../listener/health.js';
import type { FastifyInstance } from 'fastify';
import { createFastify } from '../listener/fastify.js';
import cors from '@fastify/cors';
import type { Clock, Ids } from '@coinop/core';
import type { DestinationStream } from 'pino';
import type { SecretBox } from '../credentials/secret-box.js';
import { signinPublicUrl, webAppUrl, type Config } from '../config.js';
import { openApiPlugin, signinDocument } from '../listener/openapi.js';
import type { Db } from '../store/db.js';
import { ensureServerSecret } from '../credentials/sealed-secrets.js';
import { errorHandlerPlugin } from '../listener/error-handler.js';
import { cliRoutes } from './cli-routes.js';
import { jwksRoutes } from './jwks-routes.js';
import { cliLoginPagePlugin } from './pages/cli-login.js';
import { registerRateLimit } from '../listener/rate-limit.js';
import type { Redis } from 'ioredis';
import type { WebForwarding } from '../listener/client-address.js';
import { playerTokenServices } from '../credentials/player-token-services.js';
import { walletVerifier, type WalletVerifier } from '../credentials/wallet-signature.js';
import { walletRoutes } from './wallet-routes.js';
import { API_CSP } from '../listener/security-headers.js';
import type { ArcadeMetrics } from '../metrics/arcade-metrics.js';
import { observeSignIns } from '../metrics/signin-metrics.js';

/** What the sign-in service needs from outside: the API's storage, time, ids and secrets key. */
export interface AuthDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  /** Seals and opens the signing keys and the poll-token key in storage. */
  readonly secrets: SecretBox;
  /** Certificate and key (PEM) to serve HTTPS; plain HTTP when absent. */
  readonly https?: { readonly cert: string | Buffer; readonly key: string | Buffer } | undefined;
  /** Replaces the wallet signature check built from config (EOA recovery, or EIP-1271). */
  readonly wallets?: WalletVerifier;
  /** This process's web listener's forwarding secret: rate limits then count each browser. */
  readonly webForwarding?: WebForwarding | null;
  /** Where the rate limits' counts are shared with other processes (`--redis-url`). */
  readonly redis?: Redis | null;
  /** The process's metrics; absent, none are recorded. */
  readonly metrics?: ArcadeMetrics | null;
  /** Where to log instead of standard output (JSON lines); see `ListenerOptions`. */
  readonly logDestination?: DestinationStream;
}

const POLL_TOKEN_KEY_NAME = 'cli_poll_token_key';
const POLL_TOKEN_KEY_BYTES = 32; // HMAC-SHA256 key: as long as the hash.

/**
 * Builds the player sign-in service ({auth_url}) as a Fastify instance: wallet sign-in, the CLI
 * login flow and its approval page, and the JWKS. Listens nowhere. Creates the first signing key
 * if storage has none.
 */
export async function buildAuth(config: Config, deps: AuthDeps): Promise<FastifyInstance> {
  const app = createFastify(config, {
    name: 'auth',
    https: deps.https,
    metrics: deps.metrics ?? null,
    logDestination: deps.logDestination,
    // The CLI login page sets its own (`CLI_LOGIN_CSP`).
    contentSecurityPolicy: API_CSP,
    resourcePolicy: 'same-origin',
    pages: true,
  });

  const { keys, tokens, players } = playerTokenServices(config, deps);
  await keys.ensureActive();
  const pollTokenKey = await ensureServerSecret(
    deps.db,
    POLL_TOKEN_KEY_NAME,
    POLL_TOKEN_KEY_BYTES,
    deps.secrets,
  );
  const rateLimitPerMinute = config.rateLimits.signin;

  await app.register(errorHandlerPlugin, {
    availability: deps.db.availability,
    retryAfterSeconds: config.databaseRetryAfterSeconds,
  });
  await app.register(openApiPlugin, signinDocument(signinPublicUrl(config), config.publicUrl));
  if (deps.metrics) observeSignIns(app, deps.metrics);
  await healthRoutes(app, deps.db);
  await registerRateLimit(app, {
    forwarding: deps.webForwarding ?? null,
    redis: deps.redis ?? null,
  });
  // Only the configured web origins may call from a browser; the approval page is same-origin.
  if (config.webOrigins.length > 0) {
    await app.register(cors, {
      origin: [...config.webOrigins],
      methods: ['GET', 'POST'],
      allowedHeaders: ['authorization', 'content-type'],
      maxAge: 600,
    });
  }
  await app.register(jwksRoutes, { keys });
  await app.register(walletRoutes, {
    rateLimitPerMinute,
    players,
    deps: {
      db: deps.db,
      clock: deps.clock,
      ids: deps.ids,
      tokens,
      wallets: deps.wallets ?? walletVerifier(config),
      authIssuer: config.authIssuer,
      webOrigins: signInPageOrigins(config),
      challengeTtlSeconds: config.siweChallengeTtlSeconds,
      webSessionMaxAgeSeconds: config.webSessionMaxAgeSeconds,
    },
  });
  await app.register(cliRoutes, {
    rateLimitPerMinute,
    players,
    deps: {
      db: deps.db,
      clock: deps.clock,
      ids: deps.ids,
      tokens,
      pollTokenKey,
      loginTtlSeconds: config.cliLoginTtlSeconds,
      pollIntervalSeconds: config.cliPollIntervalSeconds,
    },
  });
  await app.register(cliLoginPagePlugin, { webApprovalPageUrl: webApprovalPageUrl(config) });
  return app;
}

/**
 * Where players approve CLI logins: the web app's `/cli-login`, when this installation serves the
 * web app (`--web-origin` names it, or this process runs it on a known port); otherwise null,
 * and the sign-in listener serves its own page.
 */
export function webApprovalPageUrl(config: Config): string | null {
  const servesWebApp =
    config.webOrigins.length > 0 || (config.services.includes('web') && config.webPort !== 0);
  return servesWebApp ? `${webAppUrl(config)}/cli-login` : null;
}

/**
 * Web pages whose sign-in messages may name their own host: the `--web-origin`s, or without
 * any, the web listener's own address (what `npm start` serves), so a wallet extension sees the
 * site it is on.
 */
export function signInPageOrigins(config: Config): readonly string[] {
  return config.webOrigins.length > 0 ? config.webOrigins : [webAppUrl(config)];
}
