import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { FLAG_ENV, withDevChain, type Config, type DevChainConfig } from './config.js';
import type { SecretBox } from './credentials/secret-box.js';
import { ANVIL_CHAIN_ID } from './dev-chain/anvil.js';
import {
  checkLedgerAgreesWithDevChain,
  devChainResetAdvice,
  hasDevChainDeployment,
  startDevChain,
  type RunningDevChain,
} from './dev-chain/dev-chain.js';
import { seedDemo } from './services/demo-seed.js';
import { startStep, type StartLog } from './start-log.js';
import type { Db } from './store/db.js';
import { assertMigrated, migrate } from './store/migrate.js';
import { openPglite } from './store/pglite.js';
import { openPostgres } from './store/postgres.js';

/**
 * The steps of `coinop serve`'s start that come before its listeners, each logged as a start
 * step (start-log.ts): the database and its schema, the dev chain, the demo arcade.
 */

/** The embedded database's directory inside the data directory. */
export const PGLITE_DIR = 'pglite';
/**
 * The demo game's client (id and secret) inside the data directory, mode 0600: written when the
 * demo seed issues it, since the secret is never logged and never stored in clear elsewhere.
 */
export const DEMO_CLIENT_FILE = 'demo-client.json';

/** The database the config names: Postgres, or the embedded one in the data directory. */
export async function openDatabase(config: Config): Promise<Db> {
  if (config.databaseUrl !== null) {
    return openPostgres(config.databaseUrl, config.databasePoolSize, {
      connectTimeoutMs: config.databaseConnectTimeoutMs,
    });
  }
  const dir = join(config.dataDir, PGLITE_DIR);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return openPglite(dir);
}

/**
 * Opens the database the config names, saying which (never a password). Creating the embedded
 * database is the slowest part of a first start, and blocks the event loop while it runs: it is
 * announced before it begins.
 */
export async function openDatabaseStep(config: Config, log: StartLog): Promise<Db> {
  const database = describeDatabase(config);
  const creating =
    config.databaseUrl === null && !existsSync(join(config.dataDir, PGLITE_DIR, 'PG_VERSION'));
  return startStep(
    log,
    'database',
    creating ? `creating ${database} (on the first start only)` : `opening ${database}`,
    () => openNamingDatabase(config),
    () => `${creating ? 'created' : 'opened'} ${database}`,
    { announceNow: creating },
  );
}

/** Applies the migrations this database has not seen, or with `--no-migrate` checks for none. */
export async function migrateStep(db: Db, config: Config, log: StartLog): Promise<void> {
  if (!config.migrate) return assertMigrated(db);
  await startStep(
    log,
    'schema',
    'applying the migrations this database has not seen',
    () => migrate(db),
    (applied) => (applied.length === 0 ? 'up to date' : `applied ${applied.length} migrations`),
  );
}

/**
 * `openDatabase`, its Postgres failure naming the server and the flag: the
 * driver's own words (`connect ECONNREFUSED 127.0.0.1:1`) say neither.
 */
async function openNamingDatabase(config: Config): Promise<Db> {
  try {
    return await openDatabase(config);
  } catch (error) {
    if (config.databaseUrl === null) throw error;
    const url = URL.canParse(config.databaseUrl) ? new URL(config.databaseUrl) : null;
    // The host, port and database only: the URL may carry a password.
    const where = url ? ` at ${url.host}${url.pathname}` : '';
    throw new Error(
      `cannot open the database${where} (${FLAG_ENV.databaseUrl.join(' / ')}): ` +
        `${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** What the database step names: the embedded one's directory, or Postgres without secrets. */
function describeDatabase(config: Config): string {
  if (config.databaseUrl === null) {
    return `the embedded database in ${join(config.dataDir, PGLITE_DIR)}`;
  }
  const url = URL.canParse(config.databaseUrl) ? new URL(config.databaseUrl) : null;
  // The host and database only: the URL may carry a password.
  return url ? `Postgres at ${url.host}${url.pathname}` : 'Postgres';
}

/**
 * Starts the dev chain (deploying its contracts on the first start) and checks that it agrees
 * with the ledger. `onStarted` gets Anvil as soon as it runs, so the caller stops it even when
 * the check fails.
 */
export async function startDevChainStep(
  config: Config & { readonly devChain: DevChainConfig },
  db: Db,
  box: SecretBox,
  log: StartLog,
  onStarted: (devChain: RunningDevChain) => void,
): Promise<RunningDevChain> {
  const { devChain } = config;
  const reset = devChainResetAdvice(config.dataDir, config.databaseUrl);
  const deploys = !hasDevChainDeployment(devChain.dir);
  return startStep(
    log,
    'dev chain',
    `starting Anvil on port ${devChain.port}${deploys ? ', deploying HST and the vault' : ''}`,
    async () => {
      const started = await startDevChain(devChain, reset, box);
      onStarted(started);
      const chain = withDevChain(config, started.settings).chain;
      if (chain) await checkLedgerAgreesWithDevChain(db, chain, reset);
      return started;
    },
    ({ settings, deployment, deployed }) =>
      `Anvil on ${settings.rpcUrl} (chain ${ANVIL_CHAIN_ID}), its state in ${devChain.dir}; ` +
      `HST ${deployment.hst}, vault ${deployment.vault}${deployed ? ', deployed now' : ''}`,
    { announceNow: deploys },
  );
}

/**
 * Seeds the demo arcade (services/demo-seed.ts), writes the client it issued (id and secret,
 * mode 0600) to the data directory, and logs what the demo holds.
 */
export async function seedDemoStep(
  api: FastifyInstance,
  config: Config,
  log: StartLog,
): Promise<void> {
  const demo = await startStep(
    log,
    'demo',
    'seeding the demo arcade: a developer, the example games and funded players',
    () => seedDemo(api.arcade),
    () => 'the demo arcade is seeded',
  );
  if (demo.client) {
    await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
    await writeFile(
      join(config.dataDir, DEMO_CLIENT_FILE),
      `${JSON.stringify({ gameId: demo.gameId, ...demo.client }, null, 2)}\n`,
      { mode: 0o600 },
    );
  }
  for (const line of demo.lines) log.info(`demo: ${line}`);
}
