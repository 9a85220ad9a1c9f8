import { resolve } from 'node:path';
import {
  chainConfig,
  devChainConfig,
  parseChainRpcUrl,
  type ChainConfig,
  type DevChainSettings,
} from './config-chain.js';
import { DEFAULTS } from './config-defaults.js';
import { readFlags, type ConfigInput, type FlagReader } from './config-flags.js';
import {
  ConfigError,
  TEST_HOOK_ENV,
  ENV_ONLY,
  describe,
  parseAuthIssuer,
  parseClaimsNamespace,
  parseDefaultAllowance,
  parsePublicUrl,
  parseRedisUrl,
  parseSecretsKey,
  parseServices,
  parseSplit,
  parseTrustProxy,
  parseWebOrigins,
  parseBannerGames,
} from './config-values.js';
import { parseRateLimits, RATE_LIMITS, type RateLimits } from './config-rate-limits.js';

export {
  ConfigError,
  ENV_ONLY,
  FLAG_ENV,
  SERVICES,
  TEST_HOOK_ENV,
  type Service,
} from './config-values.js';
export { RATE_LIMITS, type RateLimitName, type RateLimits } from './config-rate-limits.js';
export type { ChainConfig, DevChainConfig, DevChainSettings } from './config-chain.js';
export { DEFAULTS } from './config-defaults.js';
// The Config and its parts, as config.ts has always exported them.
export * from './config-settings.js';
import {
  LOG_FORMATS,
  type Config,
  type LogFormat,
  type OverloadLimits,
  type VerifierLimits,
} from './config-settings.js';
export type { ConfigInput } from './config-flags.js';

/** 32 characters: 128 bits as hex (`openssl rand -hex 32` gives 256); the generated one is longer. */
export const ADMIN_TOKEN_LENGTH_MIN = 32;

/**
 * Builds the config from command-line values (already parsed) over the environment over the
 * defaults. Throws ConfigError naming the flag on any bad value.
 */
export function loadConfig(
  flags: ConfigInput,
  env: Record<string, string | undefined> = process.env,
  stdoutIsTerminal: boolean = process.stdout.isTTY === true,
): Config {
  const reader = readFlags(flags, env);
  const { text, int, bool } = reader;
  const { secretsKeyFile, secretsKey } = secretsKeyOf(reader, env);
  const { tlsCertPath, tlsKeyPath } = tlsPathsOf(reader);

  const host = text('host') ?? DEFAULTS.host;
  const authPort = int('authPort', DEFAULTS.authPort, 0, 65535);
  const authIssuer = parseAuthIssuer(text('authIssuer'), host, authPort);

  const apiPort = int('apiPort', DEFAULTS.apiPort, 0, 65535);
  const metricsPort = text('metricsPort') === null ? null : int('metricsPort', 0, 0, 65535);
  const logFormat = parseLogFormat(text('logFormat'), stdoutIsTerminal);
  const workers = workersOf(reader);
  const chainRpcUrl = parseChainRpcUrl(text('chainRpcUrl'));
  const dataDir = resolve(text('dataDir') ?? DEFAULTS.dataDir);
  const services = parseServices(text('services'));
  const devChain = devChainConfig(dataDir, workers, { text, int, bool });
  if (devChain && !services.includes('api')) {
    throw new ConfigError(
      `${describe('devChain')} runs with the api service: add it to --services`,
    );
  }
  const chain = chainModeOf(chainRpcUrl, reader);

  return Object.freeze({
    host,
    apiPort,
    publicUrl: parsePublicUrl(text('publicUrl'), host, apiPort, tlsCertPath !== null),
    services,
    authPort,
    webPort: int('webPort', DEFAULTS.webPort, 0, 65535),
    authIssuer,
    claimsNamespace: parseClaimsNamespace(text('claimsNamespace'), authIssuer),
    playerTokenTtlSeconds: int(
      'playerTokenTtlSeconds',
      DEFAULTS.playerTokenTtlSeconds,
      60,
      DEFAULTS.playerTokenTtlMaxSeconds,
    ),
    playerTokenTtlMaxSeconds: DEFAULTS.playerTokenTtlMaxSeconds,
    webSessionTtlSeconds: DEFAULTS.webSessionTtlSeconds,
    webSessionMaxAgeSeconds: DEFAULTS.webSessionMaxAgeSeconds,
    keyRotationDays: int('keyRotationDays', DEFAULTS.keyRotationDays, 1, 3650),
    webOrigins: parseWebOrigins(text('webOrigins')),
    chainRpcUrl,
    chainRpcTimeoutMs: DEFAULTS.chainRpcTimeoutMs,
    chain,
    devChain,
    siweChallengeTtlSeconds: DEFAULTS.siweChallengeTtlSeconds,
    cliLoginTtlSeconds: DEFAULTS.cliLoginTtlSeconds,
    cliPollIntervalSeconds: DEFAULTS.cliPollIntervalSeconds,
    rateLimits: parseRateLimits(text('rateLimits'), DEFAULTS.rateLimits),
    redisUrl: parseRedisUrl(text('redisUrl')),
    trustProxy: parseTrustProxy(text('trustProxy')),
    accessLog: bool('accessLog'),
    workers,
    databaseUrl: text('databaseUrl'),
    dataDir,
    databasePoolSize: int('databasePoolSize', DEFAULTS.databasePoolSize, 1, 1000),
    databaseConnectTimeoutMs: DEFAULTS.databaseConnectTimeoutMs,
    databaseRetryAfterSeconds: DEFAULTS.databaseRetryAfterSeconds,
    migrate: !bool('noMigrate'),
    tlsCertPath,
    tlsKeyPath,
    adminToken: parseAdminToken(text('adminToken')),
    secretsKeyFile: secretsKeyFile === null ? null : resolve(secretsKeyFile),
    secretsKey,
    allowPrivateUrls: bool('allowPrivateUrls'),
    demo: bool('demo'),
    // A demo arcade is a development arcade: its players get test HST unless told otherwise.
    // Not in chain mode but on a dev chain, whose faucet mints on chain.
    faucetHst: int('faucetHst', bool('demo') && !chain ? DEFAULTS.demoFaucetHst : 0, 0, 1_000_000),
    defaultAllowanceUnits: parseDefaultAllowance(
      text('defaultAllowance'),
      bool('demo') ? DEFAULTS.demoDefaultAllowanceHst : DEFAULTS.defaultAllowanceHst,
    ),
    writeTokenTtlSeconds: int('writeTokenTtlSeconds', DEFAULTS.writeTokenTtlSeconds, 1, 86_400),
    playTtlSeconds: int('playTtlSeconds', DEFAULTS.playTtlSeconds, 1, 30 * 86_400),
    payoutHoldSeconds: int('payoutHoldSeconds', DEFAULTS.payoutHoldSeconds, 0, 30 * 86_400),
    expirySweepIntervalSeconds: DEFAULTS.expirySweepIntervalSeconds,
    releaseSweepIntervalSeconds: DEFAULTS.releaseSweepIntervalSeconds,
    defaultLeadersMax: DEFAULTS.defaultLeadersMax,
    defaultTiers: DEFAULTS.defaultTiers,
    splitRule: parseSplit(text('splitRule')),
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
    coverFetchTimeoutMs: DEFAULTS.coverFetchTimeoutMs,
    coverMaxBytes: DEFAULTS.coverMaxBytes,
    gameCacheTtlMs: int('gameCacheTtlMs', DEFAULTS.gameCacheTtlMs, 0, 86_400_000),
    closeTestPauseMs: parseTestPauseMs(env[TEST_HOOK_ENV.closePauseMs], TEST_HOOK_ENV.closePauseMs),
    voidTestPauseMs: parseTestPauseMs(env[TEST_HOOK_ENV.voidPauseMs], TEST_HOOK_ENV.voidPauseMs),
    logLevel: text('logLevel') ?? DEFAULTS.logLevel,
    logFormat,
    bannerGames: parseBannerGames(text('bannerGames')),
    metricsPort,
    overload: overloadLimits(reader),
    verifier: verifierLimits(reader),
  });
}

/**
 * The admin token (it mints HST), when given: at least ADMIN_TOKEN_LENGTH_MIN characters, so a
 * guesser held to the `admin-failures` rate limit never finds it.
 */
function parseAdminToken(token: string | null): string | null {
  if (token === null || token.length >= ADMIN_TOKEN_LENGTH_MIN) return token;
  throw new ConfigError(
    `${describe('adminToken')} must be at least ${ADMIN_TOKEN_LENGTH_MIN} characters (it can ` +
      `mint HST), got ${token.length}: make one with openssl rand -hex 32, or leave it out to ` +
      'have coinop generate one into <data-dir>/admin-token',
  );
}

/** The secrets key, from its file or from the environment (not both); nulls when neither. */
function secretsKeyOf(
  { text }: FlagReader,
  env: Record<string, string | undefined>,
): { secretsKeyFile: string | null; secretsKey: ReturnType<typeof parseSecretsKey> } {
  const secretsKeyFile = text('secretsKeyFile');
  const secretsKey = parseSecretsKey(env[ENV_ONLY.secretsKey]);
  if (secretsKeyFile !== null && secretsKey !== null) {
    throw new ConfigError(
      `give the secrets key once: ${describe('secretsKeyFile')} or ${ENV_ONLY.secretsKey}, not both`,
    );
  }
  return { secretsKeyFile, secretsKey };
}

/**
 * Why nothing mints HST in the ledger in chain mode, said by both refusals: the faucet's here, at
 * start, and the operator's mint's (`mintHstAsOperator`).
 */
export const CHAIN_MODE_MINTS_NOTHING =
  "in chain mode the ledger's HST is in the vault, and a mint in the ledger would be HST no " +
  'token backs';

/** Chain mode's settings (null: off); a faucet has no place in it. */
function chainModeOf(rpcUrl: string | null, { text, int }: FlagReader): ChainConfig | null {
  const chain = chainConfig(rpcUrl, { text, int });
  if (chain && text('faucetHst') !== null && text('faucetHst') !== '0') {
    throw new ConfigError(
      `${describe('faucetHst')} is for a dev arcade: ${CHAIN_MODE_MINTS_NOTHING} ` +
        `(${describe('devChain')} has a faucet that mints test HST on its chain)`,
    );
  }
  return chain;
}

/** The TLS certificate's and key's paths: both, or neither. */
function tlsPathsOf({ text }: FlagReader): {
  tlsCertPath: string | null;
  tlsKeyPath: string | null;
} {
  const tlsCertPath = text('tlsCertPath');
  const tlsKeyPath = text('tlsKeyPath');
  if ((tlsCertPath === null) !== (tlsKeyPath === null)) {
    throw new ConfigError('--tls-cert and --tls-key (COINOP_TLS_CERT, COINOP_TLS_KEY) go together');
  }
  return { tlsCertPath, tlsKeyPath };
}

/** How many processes serve (`--workers`): more than one needs a Postgres they share. */
function workersOf({ text, int }: FlagReader): number {
  const workers = int('workers', 1, 1, 64);
  if (workers > 1 && text('databaseUrl') === null) {
    throw new ConfigError(
      `--workers ${workers} (COINOP_WORKERS) needs --database-url (DATABASE_URL): the embedded database serves one process`,
    );
  }
  return workers;
}

/** The thresholds past which a listener answers 503 `overloaded`. */
function overloadLimits({ text, int }: FlagReader): OverloadLimits {
  return {
    eventLoopDelayMs: int(
      'overloadEventLoopDelayMs',
      DEFAULTS.overloadEventLoopDelayMs,
      0,
      3_600_000,
    ),
    heapUsedMb: text('overloadHeapMb') === null ? null : int('overloadHeapMb', 0, 0, 1_048_576),
    rssMb: int('overloadRssMb', 0, 0, 1_048_576),
    retryAfterSeconds: DEFAULTS.overloadRetryAfterSeconds,
  };
}

/** The replay verifiers' limits: each run's time and memory, the threads, a replay's size. */
function verifierLimits({ int }: FlagReader): VerifierLimits {
  return {
    timeLimitMs: int('verifierTimeLimitMs', DEFAULTS.verifierTimeLimitMs, 10, 10_000),
    memoryLimitMb: int('verifierMemoryLimitMb', DEFAULTS.verifierMemoryLimitMb, 4, 1024),
    workers: int('verifierWorkers', DEFAULTS.verifierWorkers, 1, 4),
    replayMaxBytes: int('replayMaxBytes', DEFAULTS.replayMaxBytes, 1024, 1_048_576),
  };
}

function parseLogFormat(value: string | null, stdoutIsTerminal: boolean): LogFormat {
  if (value === null) return stdoutIsTerminal ? 'pretty' : 'json';
  const format = LOG_FORMATS.find((f) => f === value);
  if (format === undefined) {
    throw new ConfigError(`${describe('logFormat')} must be json or pretty, got ${value}`);
  }
  return format;
}

/**
 * The config once the dev chain runs: chain mode on its vault, with its operator key, its minter
 * for the faucet, and its RPC URL, which browsers may use too (it is on loopback and has no key).
 */
export function withDevChain(config: Config, settings: DevChainSettings): Config {
  const devChain = config.devChain;
  if (!devChain) throw new TypeError('withDevChain needs a config with --dev-chain');
  return Object.freeze({
    ...config,
    chainRpcUrl: settings.rpcUrl,
    chain: {
      rpcUrl: settings.rpcUrl,
      vaultAddress: settings.vaultAddress,
      confirmations: devChain.confirmations,
      startBlock: settings.startBlock,
      pollIntervalMs: devChain.pollIntervalMs,
      logRangeBlocksMax: DEFAULTS.chainLogRangeBlocksMax,
      rpcTimeoutMs: DEFAULTS.chainRpcTimeoutMs,
      retryMaxMs: DEFAULTS.chainRetryMaxMs,
      operatorKeyFile: settings.operatorKeyFile,
      withdrawalBatchMax: DEFAULTS.chainWithdrawalBatchMax,
      reconcileIntervalMs: DEFAULTS.chainReconcileIntervalMs,
      publicRpcUrl: settings.rpcUrl,
      devChainMinter: settings.minter,
    },
  });
}

/**
 * The arcade web app's public address: the first `--web-origin`, or the web listener's own
 * (loopback for a wildcard host). Links the API hands out to players point there.
 */
export function webAppUrl(config: Config): string {
  const [first] = config.webOrigins;
  if (first !== undefined) return first;
  const host = config.host === '0.0.0.0' || config.host.includes(':') ? 'localhost' : config.host;
  const scheme = config.tlsCertPath === null ? 'http' : 'https';
  return `${scheme}://${host}:${config.webPort}`;
}

/**
 * A development arcade: demo players and games, a dev chain or a faucet. Its HST is test money;
 * it says so once in its log (`developmentWarning`) and on every page (`GET /arcade`).
 */
export function isDevelopmentArcade(
  config: Pick<Config, 'demo' | 'devChain' | 'faucetHst'>,
): boolean {
  return config.demo || config.devChain !== null || config.faucetHst > 0;
}

/** A test hook's pause: whole milliseconds up to ten minutes, 0 when unset. */
function parseTestPauseMs(value: string | undefined, name: string): number {
  if (value === undefined || value === '') return 0;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0 || ms > 600_000) {
    throw new ConfigError(`${name} must be whole milliseconds from 0 to 600000, got ${value}`);
  }
  return ms;
}

/**
 * Far above the defaults, so that no test meets a rate limit by accident and the bench, which
 * builds its API from this config, measures plays unlimited (thousands a second, one client).
 */
const TEST_RATE_LIMIT = 10_000_000;

/**
 * A config for tests and embedding: defaults, in-memory database, overrides applied. The
 * sign-in and web listeners pick free ports, so tests never contend for 8081 or 8082.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return Object.freeze({
    ...loadConfig({}, {}, false),
    dataDir: '',
    logLevel: 'silent',
    // Tests of plays are not about consent: every published game may charge. Consent tests set it.
    defaultAllowanceUnits: null,
    // A test process blocks its loop on purpose (the embedded database, builds): tests of
    // overload set their own limits.
    overload: { eventLoopDelayMs: 0, heapUsedMb: 0, rssMb: 0, retryAfterSeconds: 10 },
    authPort: 0,
    webPort: 0,
    // Tests share one address and game clients; the rate-limit tests set their own limits.
    rateLimits: Object.fromEntries(
      RATE_LIMITS.map((name) => [name, TEST_RATE_LIMIT]),
    ) as RateLimits,
    ...overrides,
  });
}

/**
 * The sign-in service's public address: https on its issuer's host[:port] (what its tokens
 * name), the listener's own scheme when the issuer is this machine (localhost or an IP address,
 * as in development).
 */
export function signinPublicUrl(config: Config): string {
  const local = /^(localhost|(\d{1,3}\.){3}\d{1,3})(:\d+)?$/.test(config.authIssuer);
  const scheme = local && config.tlsCertPath === null ? 'http' : 'https';
  return `${scheme}://${config.authIssuer}`;
}
