import { resolve } from 'node:path';
import { DEFAULT_SPLIT_RULE, assertSplitRule, type SplitRule } from '@coinop/core';

/** Every setting of a running coinop, typed and frozen. The only module that reads the environment. */
export interface Config {
  readonly host: string;
  readonly apiPort: number;
  /** Postgres URL; when null the embedded database lives in `dataDir`. */
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly databasePoolSize: number;
  readonly tlsCertPath: string | null;
  readonly tlsKeyPath: string | null;
  /** Admin bearer token; when null one is generated into `<dataDir>/admin-token`. */
  readonly adminToken: string | null;
  readonly allowPrivateUrls: boolean;
  /** Seed the demo arcade (a developer, a game with tiers, funded players) at start. */
  readonly demo: boolean;
  readonly writeTokenTtlSeconds: number;
  readonly playTtlSeconds: number;
  readonly expirySweepIntervalSeconds: number;
  readonly defaultLeadersMax: number;
  readonly defaultTiers: readonly { name: string; costHst: number }[];
  readonly splitRule: SplitRule;
  readonly bodyLimitBytes: number;
  readonly coverFetchTimeoutMs: number;
  readonly coverMaxBytes: number;
  /** How long another API process's leaderboard writes may take to show in a cached game read. */
  readonly gameCacheTtlMs: number;
  readonly logLevel: string;
}

/** Defaults, each with why. */
export const DEFAULTS = {
  host: '127.0.0.1', // Loopback: a fresh install exposes nothing until asked to.
  apiPort: 8080,
  dataDir: './.coinop',
  databasePoolSize: 20, // Enough for 50 concurrent clients without starving Postgres' 100 slots.
  writeTokenTtlSeconds: 3600, // An hour: the SDKs refresh at half-life.
  playTtlSeconds: 3600, // Rule: a play not scored within an hour expires.
  expirySweepIntervalSeconds: 30, // Expired plays settle within half a minute of expiring.
  defaultLeadersMax: 10,
  // Two tiers on registration, so a new game is playable at once; operators can change them.
  defaultTiers: [
    { name: 'Practice', costHst: 1 },
    { name: 'High stakes', costHst: 10 },
  ],
  bodyLimitBytes: 64 * 1024, // Every request body here is a few hundred bytes.
  coverFetchTimeoutMs: 5000,
  coverMaxBytes: 10 * 1024 * 1024, // A 1920×1080 PNG is rarely above 5 MB.
  gameCacheTtlMs: 1000,
  logLevel: 'info',
} as const;

/** A config error names the flag and its environment variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export type ConfigInput = Partial<Record<keyof typeof FLAG_ENV, string | boolean | undefined>>;

/** Each config field's command-line flag and environment variable. */
export const FLAG_ENV = {
  host: ['--host', 'COINOP_HOST'],
  apiPort: ['--api-port', 'COINOP_API_PORT'],
  databaseUrl: ['--database-url', 'DATABASE_URL'],
  dataDir: ['--data-dir', 'COINOP_DATA_DIR'],
  databasePoolSize: ['--database-pool-size', 'COINOP_DATABASE_POOL_SIZE'],
  tlsCertPath: ['--tls-cert', 'COINOP_TLS_CERT'],
  tlsKeyPath: ['--tls-key', 'COINOP_TLS_KEY'],
  adminToken: ['--admin-token', 'COINOP_ADMIN_TOKEN'],
  allowPrivateUrls: ['--allow-private-urls', 'COINOP_ALLOW_PRIVATE_URLS'],
  demo: ['--demo', 'COINOP_DEMO'],
  writeTokenTtlSeconds: ['--write-token-ttl', 'COINOP_WRITE_TOKEN_TTL'],
  playTtlSeconds: ['--play-ttl', 'COINOP_PLAY_TTL'],
  splitRule: ['--split', 'COINOP_SPLIT'],
  logLevel: ['--log-level', 'COINOP_LOG_LEVEL'],
} as const;

/**
 * Builds the config from command-line values (already parsed) over the environment over the
 * defaults. Throws ConfigError naming the flag on any bad value.
 */
export function loadConfig(
  flags: ConfigInput,
  env: Record<string, string | undefined> = process.env,
): Config {
  const pick = (key: keyof typeof FLAG_ENV): string | boolean | undefined => {
    const fromFlag = flags[key];
    if (fromFlag !== undefined) return fromFlag;
    const fromEnv = env[FLAG_ENV[key][1]];
    return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
  };
  const text = (key: keyof typeof FLAG_ENV): string | null => {
    const v = pick(key);
    return v === undefined || typeof v === 'boolean' ? null : v;
  };
  const int = (key: keyof typeof FLAG_ENV, fallback: number, min: number, max: number) => {
    const v = pick(key);
    if (v === undefined) return fallback;
    const n = Number(v);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new ConfigError(`${describe(key)} must be a whole number from ${min} to ${max}, got ${String(v)}`);
    }
    return n;
  };
  const bool = (key: keyof typeof FLAG_ENV): boolean => {
    const v = pick(key);
    if (v === undefined) return false;
    if (typeof v === 'boolean') return v;
    if (['1', 'true', 'yes', 'on'].includes(v.toLowerCase())) return true;
    if (['0', 'false', 'no', 'off'].includes(v.toLowerCase())) return false;
    throw new ConfigError(`${describe(key)} must be true or false, got ${v}`);
  };

  const tlsCertPath = text('tlsCertPath');
  const tlsKeyPath = text('tlsKeyPath');
  if ((tlsCertPath === null) !== (tlsKeyPath === null)) {
    throw new ConfigError('--tls-cert and --tls-key (COINOP_TLS_CERT, COINOP_TLS_KEY) go together');
  }

  return Object.freeze({
    host: text('host') ?? DEFAULTS.host,
    apiPort: int('apiPort', DEFAULTS.apiPort, 0, 65535),
    databaseUrl: text('databaseUrl'),
    dataDir: resolve(text('dataDir') ?? DEFAULTS.dataDir),
    databasePoolSize: int('databasePoolSize', DEFAULTS.databasePoolSize, 1, 1000),
    tlsCertPath,
    tlsKeyPath,
    adminToken: text('adminToken'),
    allowPrivateUrls: bool('allowPrivateUrls'),
    demo: bool('demo'),
    writeTokenTtlSeconds: int('writeTokenTtlSeconds', DEFAULTS.writeTokenTtlSeconds, 1, 86_400),
    playTtlSeconds: int('playTtlSeconds', DEFAULTS.playTtlSeconds, 1, 30 * 86_400),
    expirySweepIntervalSeconds: DEFAULTS.expirySweepIntervalSeconds,
    defaultLeadersMax: DEFAULTS.defaultLeadersMax,
    defaultTiers: DEFAULTS.defaultTiers,
    splitRule: parseSplit(text('splitRule')),
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
    coverFetchTimeoutMs: DEFAULTS.coverFetchTimeoutMs,
    coverMaxBytes: DEFAULTS.coverMaxBytes,
    gameCacheTtlMs: DEFAULTS.gameCacheTtlMs,
    logLevel: text('logLevel') ?? DEFAULTS.logLevel,
  });
}

function describe(key: keyof typeof FLAG_ENV): string {
  const [flag, envName] = FLAG_ENV[key];
  return `${flag} (${envName})`;
}

/** "70/20/10": leaders/developer/arcade percent. */
function parseSplit(value: string | null): SplitRule {
  if (value === null) return DEFAULT_SPLIT_RULE;
  const parts = value.split('/').map(Number);
  const [leadersPercent, developerPercent, arcadePercent] = parts;
  if (parts.length !== 3 || leadersPercent === undefined || developerPercent === undefined || arcadePercent === undefined) {
    throw new ConfigError(`${describe('splitRule')} must look like 70/20/10, got ${value}`);
  }
  const rule = { leadersPercent, developerPercent, arcadePercent };
  try {
    assertSplitRule(rule);
  } catch (error) {
    throw new ConfigError(`${describe('splitRule')}: ${(error as Error).message}`);
  }
  return rule;
}

/** A config for tests and embedding: defaults, in-memory database, overrides applied. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return Object.freeze({ ...loadConfig({}, {}), dataDir: '', logLevel: 'silent', ...overrides });
}
