import { resolve } from 'node:path';
import {
  CoinopError,
  DEFAULT_SPLIT_RULE,
  assertSplitRule,
  parseHst,
  wholeHstToUnits,
  type SplitRule,
} from '@coinop/core';
import { decodeSecretsKey } from './credentials/secret-box.js';

/** The listeners one coinop process can run: the arcade API, player sign-in and the web app. */
export const SERVICES = ['api', 'auth', 'web'] as const;
export type Service = (typeof SERVICES)[number];

/** Every setting of a running coinop, typed and frozen. The only module that reads the environment. */
export interface Config {
  readonly host: string;
  readonly apiPort: number;
  /**
   * Where clients reach the arcade API ({base_url}), without a trailing slash: the base of the
   * URLs the API hands out for itself (players' generated avatars).
   */
  readonly publicUrl: string;
  /** The listeners this process starts (`--services`); the others may run in other processes. */
  readonly services: readonly Service[];
  /** Port of the player sign-in service ({auth_url}). */
  readonly authPort: number;
  /** Port of the web app, which forwards /api and /auth to the other two listeners. */
  readonly webPort: number;
  /** Public host[:port] of the sign-in service: the SIWE domain; tokens' iss is https://{it}/. */
  readonly authIssuer: string;
  /** Player-token claims are named https://{claimsNamespace}/playerId, … (spec 5.3). */
  readonly claimsNamespace: string;
  readonly playerTokenTtlSeconds: number;
  /** Longest lifetime of a player token minted by `coinop admin player token`. */
  readonly playerTokenTtlMaxSeconds: number;
  /** Lifetime of a web session token (the web app's credential); the app renews it. */
  readonly webSessionTtlSeconds: number;
  /** How long after the wallet's signature a web session can be renewed without signing again. */
  readonly webSessionMaxAgeSeconds: number;
  /** A signing key older than this is retired when next used; it stays published meanwhile. */
  readonly keyRotationDays: number;
  /** Browser origins allowed to call the sign-in service and the developer endpoints (CORS). */
  readonly webOrigins: readonly string[];
  /** JSON-RPC URL of the wallets' chain; when set, contract wallets sign in through EIP-1271. */
  readonly chainRpcUrl: string | null;
  readonly chainRpcTimeoutMs: number;
  readonly siweChallengeTtlSeconds: number;
  readonly cliLoginTtlSeconds: number;
  readonly cliPollIntervalSeconds: number;
  /** Requests per minute one client address may make to each rate-limited sign-in route. */
  readonly signinRateLimitPerMinute: number;
  /**
   * Whose `X-Forwarded-For` the listeners believe (`--trust-proxy`): false for nobody, `loopback`
   * or a list of addresses and CIDRs, or the number of proxy hops in front. The web listener's
   * own forwarding is recognised without it.
   */
  readonly trustProxy: false | string | number;
  /** Postgres URL; when null the embedded database lives in `dataDir`. */
  readonly databaseUrl: string | null;
  readonly dataDir: string;
  readonly databasePoolSize: number;
  readonly tlsCertPath: string | null;
  readonly tlsKeyPath: string | null;
  /** Admin bearer token; when null one is generated into `<dataDir>/admin-token`. */
  readonly adminToken: string | null;
  /**
   * File holding the secrets key, which encrypts the signing keys and HMAC keys in the database.
   * With neither this nor `secretsKey`, one is generated into `<dataDir>/secrets-key`.
   */
  readonly secretsKeyFile: string | null;
  /** The secrets key itself (64 hex digits or base64 of 32 bytes), from the environment only. */
  readonly secretsKey: string | null;
  readonly allowPrivateUrls: boolean;
  /** Seed the demo arcade (a developer, a game with tiers, funded players) at start. */
  readonly demo: boolean;
  /** HST the faucet grants a player per request in a development arcade; 0 turns it off. */
  readonly faucetHst: number;
  /**
   * What a published game may lock from a player a day (UTC) when the player chose no allowance
   * for it, in base units; 0 requires every player's explicit consent, null is unlimited.
   */
  readonly defaultAllowanceUnits: bigint | null;
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
  authPort: 8081,
  webPort: 8082,
  demoFaucetHst: 100, // Enough for a good few plays at the default tiers' costs.
  // Nobody's HST moves without their consent: a game server charges only players who allowed it.
  defaultAllowanceHst: 0,
  // A demo arcade's players try the server-side example without a consent step first.
  demoDefaultAllowanceHst: 50,
  services: SERVICES, // One process serves everything until an operator splits the listeners.
  playerTokenTtlSeconds: 86_400, // A day: longer than a session; a game signs in again after.
  playerTokenTtlMaxSeconds: 30 * 86_400, // Minted test tokens live a month at most.
  webSessionTtlSeconds: 900, // Fifteen minutes: a leaked session token is soon useless.
  webSessionMaxAgeSeconds: 7 * 86_400, // A week of renewals, then the wallet signs in again.
  keyRotationDays: 30, // Monthly keeps a leaked key's reach short without churning verifiers.
  chainRpcTimeoutMs: 10_000, // An EIP-1271 check is one eth_call.
  siweChallengeTtlSeconds: 300, // Five minutes to read and sign the message in a wallet.
  cliLoginTtlSeconds: 600, // Ten minutes to open the page, connect a wallet and approve.
  cliPollIntervalSeconds: 5, // RFC 8628 §3.5's default polling interval.
  signinRateLimitPerMinute: 60, // A person signs in a few times; a poller asks 12 times a minute.
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
  publicUrl: ['--public-url', 'COINOP_PUBLIC_URL'],
  databaseUrl: ['--database-url', 'DATABASE_URL'],
  dataDir: ['--data-dir', 'COINOP_DATA_DIR'],
  databasePoolSize: ['--database-pool-size', 'COINOP_DATABASE_POOL_SIZE'],
  tlsCertPath: ['--tls-cert', 'COINOP_TLS_CERT'],
  tlsKeyPath: ['--tls-key', 'COINOP_TLS_KEY'],
  adminToken: ['--admin-token', 'COINOP_ADMIN_TOKEN'],
  allowPrivateUrls: ['--allow-private-urls', 'COINOP_ALLOW_PRIVATE_URLS'],
  demo: ['--demo', 'COINOP_DEMO'],
  faucetHst: ['--faucet-hst', 'COINOP_FAUCET_HST'],
  defaultAllowance: ['--default-allowance', 'COINOP_DEFAULT_ALLOWANCE'],
  writeTokenTtlSeconds: ['--write-token-ttl', 'COINOP_WRITE_TOKEN_TTL'],
  playTtlSeconds: ['--play-ttl', 'COINOP_PLAY_TTL'],
  splitRule: ['--split', 'COINOP_SPLIT'],
  logLevel: ['--log-level', 'COINOP_LOG_LEVEL'],
  services: ['--services', 'COINOP_SERVICES'],
  authPort: ['--auth-port', 'COINOP_AUTH_PORT'],
  webPort: ['--web-port', 'COINOP_WEB_PORT'],
  authIssuer: ['--auth-issuer', 'COINOP_AUTH_ISSUER'],
  claimsNamespace: ['--claims-namespace', 'COINOP_CLAIMS_NAMESPACE'],
  playerTokenTtlSeconds: ['--player-token-ttl', 'COINOP_PLAYER_TOKEN_TTL'],
  keyRotationDays: ['--key-rotation-days', 'COINOP_KEY_ROTATION_DAYS'],
  webOrigins: ['--web-origin', 'COINOP_WEB_ORIGINS'],
  trustProxy: ['--trust-proxy', 'COINOP_TRUST_PROXY'],
  chainRpcUrl: ['--chain-rpc-url', 'COINOP_CHAIN_RPC_URL'],
  secretsKeyFile: ['--secrets-key-file', 'COINOP_SECRETS_KEY_FILE'],
} as const;

/** Settings taken from the environment only: a command line's values show in `ps`. */
export const ENV_ONLY = {
  secretsKey: 'COINOP_SECRETS_KEY',
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
      throw new ConfigError(
        `${describe(key)} must be a whole number from ${min} to ${max}, got ${String(v)}`,
      );
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

  const secretsKeyFile = text('secretsKeyFile');
  const secretsKey = parseSecretsKey(env[ENV_ONLY.secretsKey]);
  if (secretsKeyFile !== null && secretsKey !== null) {
    throw new ConfigError(
      `give the secrets key once: ${describe('secretsKeyFile')} or ${ENV_ONLY.secretsKey}, not both`,
    );
  }

  const tlsCertPath = text('tlsCertPath');
  const tlsKeyPath = text('tlsKeyPath');
  if ((tlsCertPath === null) !== (tlsKeyPath === null)) {
    throw new ConfigError('--tls-cert and --tls-key (COINOP_TLS_CERT, COINOP_TLS_KEY) go together');
  }

  const host = text('host') ?? DEFAULTS.host;
  const authPort = int('authPort', DEFAULTS.authPort, 0, 65535);
  const authIssuer = parseAuthIssuer(text('authIssuer'), host, authPort);

  const apiPort = int('apiPort', DEFAULTS.apiPort, 0, 65535);

  return Object.freeze({
    host,
    apiPort,
    publicUrl: parsePublicUrl(text('publicUrl'), host, apiPort, tlsCertPath !== null),
    services: parseServices(text('services')),
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
    chainRpcUrl: parseChainRpcUrl(text('chainRpcUrl')),
    chainRpcTimeoutMs: DEFAULTS.chainRpcTimeoutMs,
    siweChallengeTtlSeconds: DEFAULTS.siweChallengeTtlSeconds,
    cliLoginTtlSeconds: DEFAULTS.cliLoginTtlSeconds,
    cliPollIntervalSeconds: DEFAULTS.cliPollIntervalSeconds,
    signinRateLimitPerMinute: DEFAULTS.signinRateLimitPerMinute,
    trustProxy: parseTrustProxy(text('trustProxy')),
    databaseUrl: text('databaseUrl'),
    dataDir: resolve(text('dataDir') ?? DEFAULTS.dataDir),
    databasePoolSize: int('databasePoolSize', DEFAULTS.databasePoolSize, 1, 1000),
    tlsCertPath,
    tlsKeyPath,
    adminToken: text('adminToken'),
    secretsKeyFile: secretsKeyFile === null ? null : resolve(secretsKeyFile),
    secretsKey,
    allowPrivateUrls: bool('allowPrivateUrls'),
    demo: bool('demo'),
    // A demo arcade is a development arcade: its players get test HST unless told otherwise.
    faucetHst: int('faucetHst', bool('demo') ? DEFAULTS.demoFaucetHst : 0, 0, 1_000_000),
    defaultAllowanceUnits: parseDefaultAllowance(
      text('defaultAllowance'),
      bool('demo') ? DEFAULTS.demoDefaultAllowanceHst : DEFAULTS.defaultAllowanceHst,
    ),
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

/** The secrets key from the environment, checked here so a typo stops start-up at once. */
function parseSecretsKey(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (decodeSecretsKey(value) === null) {
    throw new ConfigError(
      `${ENV_ONLY.secretsKey} must be 32 bytes as 64 hex digits or base64 ` +
        `(openssl rand -hex 32), got ${value.length} characters that are neither`,
    );
  }
  return value;
}

/** "70/20/10": leaders/developer/arcade percent. */
function parseSplit(value: string | null): SplitRule {
  if (value === null) return DEFAULT_SPLIT_RULE;
  const parts = value.split('/').map(Number);
  const [leadersPercent, developerPercent, arcadePercent] = parts;
  if (
    parts.length !== 3 ||
    leadersPercent === undefined ||
    developerPercent === undefined ||
    arcadePercent === undefined
  ) {
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

/**
 * Where the sign-in service says it is. An EIP-4361 domain is a DNS name, an IPv4 address or
 * localhost, with an optional port; the default is the listen address, loopback for a wildcard.
 */
function parseAuthIssuer(value: string | null, host: string, authPort: number): string {
  const listenHost = host === '0.0.0.0' || host.includes(':') ? 'localhost' : host;
  const issuer = value ?? `${listenHost}:${authPort}`;
  if (!ISSUER_PATTERN.test(issuer)) {
    throw new ConfigError(
      `${describe('authIssuer')} must be host[:port] (a DNS name with a dot, an IPv4 address or ` +
        `localhost; no scheme or path), got ${issuer}`,
    );
  }
  return issuer.toLowerCase();
}
const DNS_NAME = '([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}';
const ISSUER_PATTERN = new RegExp(
  `^(localhost|(\\d{1,3}\\.){3}\\d{1,3}|${DNS_NAME})(:\\d{1,5})?$`,
  'i',
);

/** The claim namespace defaults to the issuer's host, without its port. */
function parseClaimsNamespace(value: string | null, authIssuer: string): string {
  const namespace = value ?? authIssuer.replace(/:\d+$/, '');
  if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/i.test(namespace)) {
    throw new ConfigError(
      `${describe('claimsNamespace')} must be a host name such as example.com, got ${namespace}`,
    );
  }
  return namespace;
}

function parseServices(value: string | null): readonly Service[] {
  if (value === null) return DEFAULTS.services;
  const names = value.split(',').map((s) => s.trim());
  const unknown = names.filter((n) => !(SERVICES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) {
    throw new ConfigError(
      `${describe('services')} must be a comma list of ${SERVICES.join(', ')}, got ${value}`,
    );
  }
  return SERVICES.filter((s) => names.includes(s));
}

/**
 * The API's public URL: as given (http or https, no query), else the address it listens on, a
 * wildcard host read as this machine.
 */
function parsePublicUrl(value: string | null, host: string, port: number, tls: boolean): string {
  if (value === null) {
    const shown = ['0.0.0.0', '::', ''].includes(host)
      ? '127.0.0.1'
      : host.includes(':')
        ? `[${host}]`
        : host;
    return `${tls ? 'https' : 'http'}://${shown}:${port}`;
  }
  const url = URL.canParse(value) ? new URL(value) : null;
  if (url === null || !/^https?:$/.test(url.protocol) || url.search !== '' || url.hash !== '') {
    throw new ConfigError(
      `${describe('publicUrl')} must be an http(s) URL like https://api.arcade.example.com, got ${value}`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** Each origin exactly as a browser sends it: scheme://host[:port], no path. */
function parseWebOrigins(value: string | null): readonly string[] {
  if (value === null) return [];
  const origins = value
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter((o) => o !== '');
  for (const origin of origins) {
    const url = URL.canParse(origin) ? new URL(origin) : null;
    if (url === null || !/^https?:$/.test(url.protocol) || url.origin !== origin) {
      throw new ConfigError(
        `${describe('webOrigins')} takes origins like https://arcade.example.com, got ${origin}`,
      );
    }
  }
  return [...new Set(origins)];
}

const IPV4_OR_CIDR = /^(\d{1,3}\.){3}\d{1,3}(\/\d{1,2})?$/;
const IPV6_OR_CIDR = /^[0-9a-f:]+(\/\d{1,3})?$/i;

/**
 * `none` (the default: nobody's X-Forwarded-For is believed), `loopback`, a comma list of
 * addresses and CIDRs (`10.0.0.0/8,192.0.2.7`), or a hop count.
 */
function parseTrustProxy(value: string | null): false | string | number {
  if (value === null || value === 'none') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops < 1 || hops > 10) {
      throw new ConfigError(`${describe('trustProxy')} takes 1 to 10 hops, got ${value}`);
    }
    return hops;
  }
  const parts = value.split(',').map((p) => p.trim());
  for (const part of parts) {
    const named = ['loopback', 'linklocal', 'uniquelocal'].includes(part);
    if (!named && !IPV4_OR_CIDR.test(part) && !(part.includes(':') && IPV6_OR_CIDR.test(part))) {
      throw new ConfigError(
        `${describe('trustProxy')} takes none, loopback, addresses and CIDRs (10.0.0.0/8), or ` +
          `a hop count; got ${part}`,
      );
    }
  }
  return parts.join(',');
}

/** `unlimited`, or HST a day (`0` = explicit consent required). */
function parseDefaultAllowance(value: string | null, fallbackHst: number): bigint | null {
  if (value === null) return wholeHstToUnits(fallbackHst);
  if (value === 'unlimited') return null;
  try {
    return parseHst(value, describe('defaultAllowance'));
  } catch (error) {
    if (!(error instanceof CoinopError)) throw error;
    throw new ConfigError(
      `${describe('defaultAllowance')} must be HST a day (0 requires consent) or unlimited, got ${value}`,
    );
  }
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

function parseChainRpcUrl(value: string | null): string | null {
  if (value === null) return null;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new ConfigError(`${describe('chainRpcUrl')} must be an http(s) URL, got ${value}`);
  }
  return value;
}

/**
 * A config for tests and embedding: defaults, in-memory database, overrides applied. The
 * sign-in and web listeners pick free ports, so tests never contend for 8081 or 8082.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return Object.freeze({
    ...loadConfig({}, {}),
    dataDir: '',
    logLevel: 'silent',
    // Tests of plays are not about consent: every published game may charge. Consent tests set it.
    defaultAllowanceUnits: null,
    authPort: 0,
    webPort: 0,
    ...overrides,
  });
}
