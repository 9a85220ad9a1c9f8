import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { DestinationStream } from 'pino';
import { loadAdminToken, warnAboutAdminToken, type AdminToken } from './admin-token.js';
import { buildApi } from './app.js';
import { redactRpcUrl } from './chain/rpc.js';
import type { Config } from './config.js';
import {
  discardGeneratedKey,
  isSecretsKeyBesideData,
  loadSecretsKey,
  refusal,
  warnAboutSecretsKey,
  type SecretsKey,
} from './credentials/secrets-key.js';
import { startExpirySweep } from './expiry-sweep.js';
import { startReleaseSweep } from './release-sweep.js';
import { systemClock, uuidIds } from './ids.js';
import type { WebForwarding } from './listener/client-address.js';
import type { ArcadeMetrics } from './metrics/arcade-metrics.js';
import { buildAuth } from './signin/app.js';
import { developmentWarning, type StartLog } from './start-log.js';
import type { Db } from './store/db.js';
import {
  ensureServerSecret,
  sealStoredSecrets,
  SecretsUnreadableError,
} from './credentials/sealed-secrets.js';
import type { Listener } from './start-listeners.js';

/**
 * The services `coinop serve` runs (main.ts): the secrets they hold, the API and the sign-in
 * service built from them, and the API's work apart from requests.
 */

const WRITE_TOKEN_KEY_NAME = 'write_token_key';
const WRITE_TOKEN_KEY_BYTES = 32; // HMAC-SHA256 key: as long as the hash.

/** What the start says about the services once built: the admin token, Redis, sealed secrets. */
export function logStartNotes(
  log: StartLog,
  config: Config,
  admin: AdminToken | null,
  sealedCount: number,
): void {
  if (admin) warnAboutAdminToken(log, admin);
  if (config.redisUrl !== null) {
    // The host only: the URL may carry a password.
    log.info(
      `rate limits are counted in Redis at ${new URL(config.redisUrl).host}, shared with ` +
        'every process using it',
    );
  }
  if (sealedCount > 0) {
    log.info(`encrypted ${sealedCount} secrets an earlier coinop stored in plain text`);
  }
}

/**
 * Loads the secrets key and seals the secrets an earlier coinop stored in plain text. Only the
 * API and the sign-in service hold secrets: a web-only process needs no key (null).
 */
export async function loadSecrets(
  config: Config,
  db: Db,
  log: StartLog,
  banner: boolean,
): Promise<{ secrets: SecretsKey | null; sealedCount: number }> {
  let secrets: SecretsKey | null = null;
  let sealedCount = 0;
  if (config.services.includes('api') || config.services.includes('auth')) {
    secrets = await loadSecretsKey(config);
    try {
      sealedCount = await sealStoredSecrets(db, secrets.box);
    } catch (error) {
      // Sealing is one database transaction: refused, nothing is sealed under a generated key.
      await discardGeneratedKey(secrets);
      if (error instanceof SecretsUnreadableError) throw refusal(secrets, error);
      throw error;
    }
  }
  if (secrets) {
    const development = developmentWarning(config, isSecretsKeyBesideData(secrets));
    // Once for a cluster too: the process that logs the banner says it.
    if (development !== null && banner) log.warn(development);
    warnAboutSecretsKey(log, secrets, { development: development !== null });
  }
  return { secrets, sealedCount };
}

/** What the API and the sign-in service are built with, beside the config. */
export interface ServiceDeps {
  readonly db: Db;
  readonly secrets: SecretsKey | null;
  readonly https: { cert: Buffer; key: Buffer } | undefined;
  readonly forwarding: WebForwarding | null;
  readonly redis: Redis | null;
  readonly metrics: ArcadeMetrics | null;
  readonly logDestination: DestinationStream | undefined;
}

/**
 * Builds the API and the sign-in service this process runs (`--services`), not listening yet,
 * each added to `listeners` as soon as it is built (so a failure after it closes it too).
 */
export async function buildServices(
  config: Config,
  listeners: Listener[],
  { db, secrets, https, forwarding, redis, metrics, logDestination }: ServiceDeps,
): Promise<{
  api: FastifyInstance | null;
  auth: FastifyInstance | null;
  admin: AdminToken | null;
}> {
  let api: FastifyInstance | null = null;
  let admin: AdminToken | null = null;
  if (config.services.includes('api') && secrets) {
    const writeTokenKey = await ensureServerSecret(
      db,
      WRITE_TOKEN_KEY_NAME,
      WRITE_TOKEN_KEY_BYTES,
      secrets.box,
    );
    admin = await loadAdminToken(config);
    api = await buildApi(config, {
      db,
      clock: systemClock,
      ids: uuidIds,
      writeTokenKey,
      secrets: secrets.box,
      adminToken: admin.token,
      https,
      webForwarding: forwarding,
      redis,
      metrics,
      ...(logDestination ? { logDestination } : {}),
    });
    listeners.push({ name: 'api', app: api, port: config.apiPort });
  }
  let auth: FastifyInstance | null = null;
  if (config.services.includes('auth') && secrets) {
    auth = await buildAuth(config, {
      db,
      clock: systemClock,
      ids: uuidIds,
      secrets: secrets.box,
      https,
      webForwarding: forwarding,
      redis,
      metrics,
      ...(logDestination ? { logDestination } : {}),
    });
    listeners.push({ name: 'auth', app: auth, port: config.authPort });
  }
  return { api, auth, admin };
}

/**
 * Starts the API's work apart from requests: the expiry sweep (its stop returned), the tournament
 * closer and, in chain mode, the deposit watcher and the withdrawal sender.
 */
export function startArcadeWork(api: FastifyInstance, config: Config): () => Promise<void> {
  const stopExpirySweep = startExpirySweep(
    api.arcade,
    api.log,
    config.expirySweepIntervalSeconds * 1000,
  );
  const stopReleaseSweep = startReleaseSweep(
    api.arcade,
    api.log,
    config.releaseSweepIntervalSeconds * 1000,
  );
  const stopSweep = async () => {
    await Promise.all([stopExpirySweep(), stopReleaseSweep()]);
  };
  // Stopped by the API's close, with the rest of the arcade's services.
  api.arcade.closer.start(api.log);
  if (config.chain && api.arcade.chain) {
    api.log.info(
      `chain mode: crediting deposits into vault ${config.chain.vaultAddress} after ` +
        `${config.chain.confirmations} confirmations (RPC ${redactRpcUrl(config.chain.rpcUrl)})`,
    );
    // Stopped by the API's close, with the rest of the arcade's services.
    api.arcade.chain.start(api.log);
    api.arcade.sender?.start(api.log);
  }
  return stopSweep;
}
