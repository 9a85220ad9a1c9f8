import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { DestinationStream } from 'pino';
import { withDevChain, type Config } from './config.js';
import type { Db } from './store/db.js';
import { newWebForwarding } from './listener/client-address.js';
import { connectRedis, redisReady } from './listener/shared-counts.js';
import { ANVIL_CHAIN_ID, anvilBinary } from './dev-chain/anvil.js';
import type { RunningDevChain } from './dev-chain/dev-chain.js';
import { ArcadeMetrics } from './metrics/arcade-metrics.js';
import type { MetricsListener } from './metrics/metrics-listener.js';
import { startBanner } from './start-banner.js';
import { createStartLog, type StartLog } from './start-log.js';
import {
  DEMO_CLIENT_FILE,
  migrateStep,
  openDatabaseStep,
  seedDemoStep,
  startDevChainStep,
} from './start-steps.js';
import { checkAdminTokenFile, type AdminToken } from './admin-token.js';
import { logDatabaseOutages } from './listener/database-outages.js';
import { listenQuietly, serveMetrics, startWebListener, type Listener } from './start-listeners.js';
import { buildServices, loadSecrets, logStartNotes, startArcadeWork } from './start-services.js';

export { ADMIN_TOKEN_FILE } from './admin-token.js';
export { DEMO_CLIENT_FILE, openDatabase, PGLITE_DIR } from './start-steps.js';

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

/** How `startServer` starts, beside the config. */
export interface StartOptions {
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
}

/**
 * Opens storage, applies migrations (with `--no-migrate`, checks that none is pending), loads the
 * shared secrets, builds each listener's app and listens. Everything opened is closed again if a
 * later step fails. Rejects with a SecretsKeyError, naming the flag, when the secrets key does not
 * open the stored secrets, with an AdminTokenError (before anything is created) when
 * `<dataDir>/admin-token` holds a bad token, and with a MigrationError when the schema is not
 * this code's.
 */
export async function startServer(
  config: Config,
  {
    seedDemo: seeds = true,
    clusterWorker = false,
    banner = true,
    database,
    logDestination,
  }: StartOptions = {},
): Promise<RunningServer> {
  // Before anything opens: --dev-chain without Anvil installed says how to add it, at once.
  if (config.devChain) anvilBinary();
  await checkAdminTokenFile(config);
  // Every worker of a cluster migrates, but only the one that logs the banner tells each step.
  const log = createStartLog(config, logDestination, { quiet: !banner });
  const db = database ?? (await openDatabaseStep(config, log));
  const redis = config.redisUrl === null ? null : connectRedis(config.redisUrl);
  // Waited for a moment only: a Redis that is down must not keep the arcade from starting.
  if (redis) await redisReady(redis);
  const opened: Opened = {
    db,
    redis,
    listeners: [],
    stopSweep: async () => undefined,
    stopOutageLog: () => undefined,
    devChain: null,
    metricsListener: null,
  };
  let closed: Promise<void> | null = null;
  const close = () => (closed ??= closeOpened(opened));

  const metrics = config.metricsPort === null ? null : new ArcadeMetrics();
  metrics?.watchPool(() => db.poolStats());
  metrics?.watchDatabase(db.availability);
  try {
    return await startListeners(config, opened, close, {
      log,
      metrics,
      seeds,
      clusterWorker,
      banner,
      logDestination,
    });
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/**
 * The start once storage is open: migrations, secrets, the dev chain, each service's app, the
 * listeners, the metrics and the arcade's work, then the banner. What it opens goes into
 * `opened`, which `close` stops (the caller closes it if this throws).
 */
async function startListeners(
  givenConfig: Config,
  opened: Opened,
  close: () => Promise<void>,
  {
    log,
    metrics,
    seeds,
    clusterWorker,
    banner,
    logDestination,
  }: {
    log: StartLog;
    metrics: ArcadeMetrics | null;
    seeds: boolean;
    clusterWorker: boolean;
    banner: boolean;
    logDestination: DestinationStream | undefined;
  },
): Promise<RunningServer> {
  // With --dev-chain, chain mode's settings exist once the dev chain runs.
  let config = givenConfig;
  const { listeners, db, redis } = opened;
  await migrateStep(db, config, log);
  const https = await loadTls(config);
  const { secrets, sealedCount } = await loadSecrets(config, db, log, banner);
  if (config.devChain && secrets) {
    const devChainConfig = { ...config, devChain: config.devChain };
    const devChain = await startDevChainStep(devChainConfig, db, secrets.box, log, (started) => {
      opened.devChain = started;
    });
    opened.devChain = devChain;
    config = withDevChain(config, devChain.settings);
  }
  // The web listener forwards only to listeners in this process, so a secret of its own tells
  // them which requests it forwarded.
  const webForwarding = newWebForwarding();
  const forwarding = config.services.includes('web') ? webForwarding : null;
  const { api, auth, admin } = await buildServices(config, listeners, {
    db,
    secrets,
    https,
    forwarding,
    redis,
    metrics,
    logDestination,
  });
  const serviceLog = (api ?? auth)?.log;
  // Once for the process, however many of its listeners share the database.
  if (serviceLog) opened.stopOutageLog = logDatabaseOutages(db.availability, serviceLog);

  logStartNotes(log, config, admin, sealedCount);
  if (config.demo && api && seeds) await seedDemoStep(api, config, log);
  else if (config.demo && !api) {
    log.warn('--demo seeds through the api service, which this process does not run');
  }

  const urls: Record<string, string> = {};
  for (const listener of listeners)
    urls[listener.name] = await listenQuietly(listener, config.host);
  // Built once the others listen: it forwards /api and /auth to their actual addresses.
  const web = config.services.includes('web')
    ? await startWebListener(config, listeners, urls, {
        https,
        forwarding: webForwarding,
        metrics,
        ...(logDestination ? { logDestination } : {}),
      })
    : null;
  const url = urls['api'] ?? urls['auth'] ?? urls['web'];
  if (url === undefined) throw new TypeError('no listener started');
  if (metrics && config.metricsPort !== null) {
    opened.metricsListener = await serveMetrics(config, metrics, config.metricsPort, {
      clusterWorker,
      urls,
    });
  }
  if (api) opened.stopSweep = startArcadeWork(api, config);
  const bannerLog = (api ?? auth ?? web)?.log;
  if (banner && bannerLog) {
    await logStartBanner(bannerLog, config, {
      urls,
      admin,
      api,
      devChain: opened.devChain !== null,
    });
  }
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
}

/** What a start has opened so far: what its close stops, in `closeOpened`'s order. */
interface Opened {
  readonly db: Db;
  readonly redis: Redis | null;
  readonly listeners: Listener[];
  stopSweep: () => Promise<void>;
  stopOutageLog: () => void;
  devChain: RunningDevChain | null;
  metricsListener: MetricsListener | null;
}

/** Closes what a start opened: its work, the listeners, Redis, the database, then the dev chain. */
async function closeOpened(opened: Opened): Promise<void> {
  await opened.stopSweep();
  opened.stopOutageLog();
  await opened.metricsListener?.close();
  // Stop taking requests everywhere first, so no request meets a closed database.
  await Promise.allSettled(opened.listeners.map((l) => l.app.close()));
  opened.redis?.disconnect();
  try {
    await opened.db.close();
  } finally {
    // Last: Anvil writes the chain's state as it stops, after the ledger's last write.
    await opened.devChain?.stop();
  }
}

/** Which service a started server's app is; a TypeError when this process does not run it. */
function running(app: FastifyInstance | null, name: string): FastifyInstance {
  if (!app) throw new TypeError(`this process does not run the ${name} service`);
  return app;
}

/** Logs the start banner (start-banner.ts): every address, the admin token's file, the demo. */
async function logStartBanner(
  bannerLog: FastifyBaseLogger,
  config: Config,
  {
    urls,
    admin,
    api,
    devChain,
  }: {
    urls: Record<string, string>;
    admin: AdminToken | null;
    api: FastifyInstance | null;
    devChain: boolean;
  },
): Promise<void> {
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
      devChain && config.chain ? { rpcUrl: config.chain.rpcUrl, chainId: ANVIL_CHAIN_ID } : null,
    workers: config.workers,
    games: config.bannerGames,
  });
  if (config.logFormat === 'json') bannerLog.info(fields, message);
  else bannerLog.info(message);
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
