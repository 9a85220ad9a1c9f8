import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApi } from './app.js';
import { withDevChain, type Config } from './config.js';
import { buildAuth } from './signin/app.js';
import { systemClock, uuidIds } from './ids.js';
import type { Db } from './store/db.js';
import {
  ensureServerSecret,
  sealStoredSecrets,
  SecretsUnreadableError,
} from './credentials/sealed-secrets.js';
import {
  isSecretsKeyBesideData,
  loadSecretsKey,
  refusal,
  warnAboutSecretsKey,
  type SecretsKey,
} from './credentials/secrets-key.js';
import { buildWeb } from './web/app.js';
import { newWebForwarding } from './listener/client-address.js';
import { connectRedis, redisReady } from './listener/shared-counts.js';
import { redactRpcUrl } from './chain/rpc.js';
import { ANVIL_CHAIN_ID, anvilBinary } from './dev-chain/anvil.js';
import type { RunningDevChain } from './dev-chain/dev-chain.js';
import { ArcadeMetrics } from './metrics/arcade-metrics.js';
import { startMetricsListener, type MetricsListener } from './metrics/metrics-listener.js';
import { startBanner } from './start-banner.js';
import { createStartLog, developmentWarning } from './start-log.js';
import {
  DEMO_CLIENT_FILE,
  migrateStep,
  openDatabaseStep,
  seedDemoStep,
  startDevChainStep,
} from './start-steps.js';
import { loadAdminToken, warnAboutAdminToken, type AdminToken } from './admin-token.js';
import { logDatabaseOutages } from './listener/database-outages.js';
import { startExpirySweep } from './expiry-sweep.js';

export { ADMIN_TOKEN_FILE } from './admin-token.js';
export { DEMO_CLIENT_FILE, openDatabase, PGLITE_DIR } from './start-steps.js';
const WRITE_TOKEN_KEY_NAME = 'write_token_key';
const WRITE_TOKEN_KEY_BYTES = 32; // HMAC-SHA256 key: as long as the hash.

/** A started coinop: the API's URL, and one call that stops everything in order. */
export interface RunningServer {
  /**
   * Base URL of the arcade API ({base_url}), e.g. http://127.0.0.1:8080; the sign-in service's
   * when this process runs only that (`--services auth`).
   */
  readonly url: string;
  /** Every listener by name (`api`, `auth`, `web`), each with its URL. */
  readonly urls: Readonly<Record<string, string>>;
  /**
   * The API's Fastify instance, for embedding and tests (`api.arcade` reaches storage). Throws a
   * TypeError when this process does not run the API.
   */
  readonly api: FastifyInstance;
  /** The sign-in service's Fastify instance; throws a TypeError when it does not run here. */
  readonly auth: FastifyInstance;
  /** Closes the listeners, then the database. Safe to call more than once. */
  close(): Promise<void>;
}

/** One HTTP listener of the process: the API, the sign-in service or the web app. */
interface Listener {
  readonly name: string;
  readonly app: FastifyInstance;
  readonly port: number;
}

/**
 * Opens storage, applies migrations (with `--no-migrate`, checks that none is pending), loads the
 * shared secrets, builds each listener's app and listens. Everything opened is closed again if a
 * later step fails. Rejects with a SecretsKeyError, naming the flag, when the secrets key does not
 * open the stored secrets, and with a MigrationError when the schema is not this code's.
 */
export async function startServer(
  givenConfig: Config,
  {
    seedDemo: seeds = true,
    clusterWorker = false,
    banner = true,
    database,
    logDestination,
  }: {
    readonly seedDemo?: boolean;
    /** A worker of `--workers N`: the primary serves the metrics, gathered from every worker. */
    readonly clusterWorker?: boolean;
    /** Log the start banner once everything listens (a cluster's first worker only). */
    readonly banner?: boolean;
    /**
     * An open database to serve from instead of the one the config names (for embedding and
     * tests); the server closes it when it stops.
     */
    readonly database?: Db;
    /** Where every listener logs instead of standard output (JSON lines). */
    readonly logDestination?: DestinationStream;
  } = {},
): Promise<RunningServer> {
  // With --dev-chain, chain mode's settings exist once the dev chain runs.
  let config = givenConfig;
  // Before anything opens: --dev-chain without Anvil installed says how to add it, at once.
  if (config.devChain) anvilBinary();
  // Every worker of a cluster migrates, but only the one that logs the banner tells each step.
  const log = createStartLog(config, logDestination, { quiet: !banner });
  const db = database ?? (await openDatabaseStep(config, log));
  const redis = config.redisUrl === null ? null : connectRedis(config.redisUrl);
  // Waited for a moment only: a Redis that is down must not keep the arcade from starting.
  if (redis) await redisReady(redis);
  const listeners: Listener[] = [];
  let stopSweep: () => Promise<void> = async () => undefined;
  let stopOutageLog: () => void = () => undefined;
  let devChain: RunningDevChain | null = null;
  let metricsListener: MetricsListener | null = null;
  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= (async () => {
      await stopSweep();
      stopOutageLog();
      await metricsListener?.close();
      // Stop taking requests everywhere first, so no request meets a closed database.
      await Promise.allSettled(listeners.map((l) => l.app.close()));
      redis?.disconnect();
      try {
        await db.close();
      } finally {
        // Last: Anvil writes the chain's state as it stops, after the ledger's last write.
        await devChain?.stop();
      }
    })());

  const metrics = config.metricsPort === null ? null : new ArcadeMetrics();
  metrics?.watchPool(() => db.poolStats());
  metrics?.watchDatabase(db.availability);
  try {
    await migrateStep(db, config, log);
    const https = await loadTls(config);
    // Only the API and the sign-in service hold secrets; a web-only process needs no key.
    let secrets: SecretsKey | null = null;
    let sealedCount = 0;
    if (config.services.includes('api') || config.services.includes('auth')) {
      secrets = await loadSecretsKey(config);
      try {
        sealedCount = await sealStoredSecrets(db, secrets.box);
      } catch (error) {
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
    if (config.devChain && secrets) {
      const devChainConfig = { ...config, devChain: config.devChain };
      devChain = await startDevChainStep(devChainConfig, db, secrets.box, log, (started) => {
        devChain = started;
      });
      config = withDevChain(config, devChain.settings);
    }
    // The web listener forwards only to listeners in this process, so a secret of its own tells
    // them which requests it forwarded.
    const webForwarding = newWebForwarding();
    const forwarding = config.services.includes('web') ? webForwarding : null;
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
    const serviceLog = (api ?? auth)?.log;
    // Once for the process, however many of its listeners share the database.
    if (serviceLog) stopOutageLog = logDatabaseOutages(db.availability, serviceLog);

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
    if (config.demo && api && seeds) await seedDemoStep(api, config, log);
    else if (config.demo && !api) {
      log.warn('--demo seeds through the api service, which this process does not run');
    }

    const urls: Record<string, string> = {};
    const listen = async (listener: Listener) => {
      // The start banner names every address once; Fastify's own line would say it again.
      const level = listener.app.log.level;
      listener.app.log.level = level === 'silent' ? level : 'warn';
      try {
        urls[listener.name] = await listener.app.listen({
          host: config.host,
          port: listener.port,
          listenTextResolver: (address) => `coinop ${listener.name} listening on ${address}`,
        });
      } finally {
        listener.app.log.level = level;
      }
    };
    for (const listener of listeners) await listen(listener);
    let web: FastifyInstance | null = null;
    if (config.services.includes('web')) {
      // Built once the others listen: it forwards /api and /auth to their actual addresses.
      web = await buildWeb(config, {
        apiUrl: urls['api'] ?? null,
        authUrl: urls['auth'] ?? null,
        https,
        forwarding: webForwarding,
        metrics,
        ...(logDestination ? { logDestination } : {}),
      });
      const listener = { name: 'web', app: web, port: config.webPort };
      listeners.push(listener);
      await listen(listener);
    }
    const url = urls['api'] ?? urls['auth'] ?? urls['web'];
    if (url === undefined) throw new TypeError('no listener started');
    if (metrics && config.metricsPort !== null) {
      if (clusterWorker) {
        // The primary answers the scrape with every worker's metrics summed.
        const { AggregatorRegistry } = await import('prom-client');
        AggregatorRegistry.setRegistries([metrics.registry]);
        new AggregatorRegistry();
        // The primary listens there; a port it picked (0) is in its own log line.
        if (config.metricsPort !== 0) {
          const host = config.host.includes(':') ? `[${config.host}]` : config.host;
          urls['metrics'] = `http://${host}:${config.metricsPort}/metrics`;
        }
      } else {
        metricsListener = await startMetricsListener(config.host, config.metricsPort, () =>
          metrics.render(),
        );
        urls['metrics'] = metricsListener.url;
      }
    }
    if (api) {
      stopSweep = startExpirySweep(api.arcade, api.log, config.expirySweepIntervalSeconds * 1000);
    }
    // Stopped by the API's close, with the rest of the arcade's services.
    api?.arcade.closer.start(api.log);
    if (api && config.chain && api.arcade.chain) {
      api.log.info(
        `chain mode: crediting deposits into vault ${config.chain.vaultAddress} after ` +
          `${config.chain.confirmations} confirmations (RPC ${redactRpcUrl(config.chain.rpcUrl)})`,
      );
      // Stopped by the API's close, with the rest of the arcade's services.
      api.arcade.chain.start(api.log);
      api.arcade.sender?.start(api.log);
    }
    const bannerLog = (api ?? auth ?? web)?.log;
    if (banner && bannerLog) {
      const { message, fields } = startBanner({
        urls,
        adminToken: admin && {
          file: admin.source === 'config' ? null : admin.path,
          generated: admin.source === 'generated',
        },
        demo: config.demo && api !== null,
        demoClientFile:
          config.demo && api !== null && (await isFile(join(config.dataDir, DEMO_CLIENT_FILE)))
            ? join(config.dataDir, DEMO_CLIENT_FILE)
            : null,
        devChain:
          devChain && config.chain
            ? { rpcUrl: config.chain.rpcUrl, chainId: ANVIL_CHAIN_ID }
            : null,
        workers: config.workers,
        games: config.bannerGames,
      });
      if (config.logFormat === 'json') bannerLog.info(fields, message);
      else bannerLog.info(message);
    }
    const running = (app: FastifyInstance | null, name: string): FastifyInstance => {
      if (!app) throw new TypeError(`this process does not run the ${name} service`);
      return app;
    };
    return {
      url,
      urls,
      get api() {
        return running(api, 'api');
      },
      get auth() {
        return running(auth, 'auth');
      },
      close,
    };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function loadTls(config: Config): Promise<{ cert: Buffer; key: Buffer } | undefined> {
  if (config.tlsCertPath === null || config.tlsKeyPath === null) return undefined;
  const [cert, key] = await Promise.all([
    readFile(config.tlsCertPath),
    readFile(config.tlsKeyPath),
  ]);
  return { cert, key };
}
