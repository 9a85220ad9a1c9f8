import {
  CoinopError,
  DEFAULT_SPLIT_RULE,
  assertSplitRule,
  parseHst,
  wholeHstToUnits,
  type SplitRule,
} from '@coinop/core';
import { decodeSecretsKey } from './config-secrets-key.js';

/**
 * How each setting is named and read: the flags and environment variables, and one parser per
 * value that needs more than a number. Every refusal names the flag (`describe`).
 */

/** The listeners one coinop process can run: the arcade API, player sign-in and the web app. */
export const SERVICES = ['api', 'auth', 'web'] as const;
export type Service = (typeof SERVICES)[number];

/** Settings taken from the environment only: a command line's values show in `ps`. */
export const ENV_ONLY = {
  secretsKey: 'COINOP_SECRETS_KEY',
} as const;

/**
 * Hooks for coinop's own tests, from the environment only and left out of the documented
 * settings: never set them in production.
 */
export const TEST_HOOK_ENV = {
  /** Milliseconds each tournament round's close waits before it commits (the crash tests). */
  closePauseMs: 'COINOP_TEST_CLOSE_PAUSE_MS',
  /** Milliseconds each score void waits inside its transaction before it commits. */
  voidPauseMs: 'COINOP_TEST_VOID_PAUSE_MS',
} as const;

/** A config error names the flag and its environment variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Each config field's command-line flag and environment variable. */
export const FLAG_ENV = {
  host: ['--host', 'COINOP_HOST'],
  apiPort: ['--api-port', 'COINOP_API_PORT'],
  publicUrl: ['--public-url', 'COINOP_PUBLIC_URL'],
  databaseUrl: ['--database-url', 'DATABASE_URL'],
  dataDir: ['--data-dir', 'COINOP_DATA_DIR'],
  databasePoolSize: ['--database-pool-size', 'COINOP_DATABASE_POOL_SIZE'],
  noMigrate: ['--no-migrate', 'COINOP_NO_MIGRATE'],
  tlsCertPath: ['--tls-cert', 'COINOP_TLS_CERT'],
  tlsKeyPath: ['--tls-key', 'COINOP_TLS_KEY'],
  adminToken: ['--admin-token', 'COINOP_ADMIN_TOKEN'],
  allowPrivateUrls: ['--allow-private-urls', 'COINOP_ALLOW_PRIVATE_URLS'],
  demo: ['--demo', 'COINOP_DEMO'],
  faucetHst: ['--faucet-hst', 'COINOP_FAUCET_HST'],
  defaultAllowance: ['--default-allowance', 'COINOP_DEFAULT_ALLOWANCE'],
  writeTokenTtlSeconds: ['--write-token-ttl', 'COINOP_WRITE_TOKEN_TTL'],
  playTtlSeconds: ['--play-ttl', 'COINOP_PLAY_TTL'],
  payoutHoldSeconds: ['--payout-hold', 'COINOP_PAYOUT_HOLD'],
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
  accessLog: ['--access-log', 'COINOP_ACCESS_LOG'],
  workers: ['--workers', 'COINOP_WORKERS'],
  chainRpcUrl: ['--chain-rpc-url', 'COINOP_CHAIN_RPC_URL'],
  chainVaultAddress: ['--chain-vault-address', 'COINOP_CHAIN_VAULT_ADDRESS'],
  chainConfirmations: ['--chain-confirmations', 'COINOP_CHAIN_CONFIRMATIONS'],
  chainStartBlock: ['--chain-start-block', 'COINOP_CHAIN_START_BLOCK'],
  chainPollMs: ['--chain-poll-ms', 'COINOP_CHAIN_POLL_MS'],
  chainOperatorKeyFile: ['--chain-operator-key-file', 'COINOP_CHAIN_OPERATOR_KEY_FILE'],
  chainPublicRpcUrl: ['--chain-public-rpc-url', 'COINOP_CHAIN_PUBLIC_RPC_URL'],
  devChain: ['--dev-chain', 'COINOP_DEV_CHAIN'],
  devChainPort: ['--dev-chain-port', 'COINOP_DEV_CHAIN_PORT'],
  secretsKeyFile: ['--secrets-key-file', 'COINOP_SECRETS_KEY_FILE'],
  rateLimits: ['--rate-limit', 'COINOP_RATE_LIMITS'],
  redisUrl: ['--redis-url', 'COINOP_REDIS_URL'],
  gameCacheTtlMs: ['--game-cache-ttl-ms', 'COINOP_GAME_CACHE_TTL_MS'],
  metricsPort: ['--metrics-port', 'COINOP_METRICS_PORT'],
  logFormat: ['--log-format', 'COINOP_LOG_FORMAT'],
  bannerGames: ['--banner-game', 'COINOP_BANNER_GAMES'],
  overloadEventLoopDelayMs: [
    '--overload-event-loop-delay-ms',
    'COINOP_OVERLOAD_EVENT_LOOP_DELAY_MS',
  ],
  overloadHeapMb: ['--overload-heap-mb', 'COINOP_OVERLOAD_HEAP_MB'],
  overloadRssMb: ['--overload-rss-mb', 'COINOP_OVERLOAD_RSS_MB'],
  verifierTimeLimitMs: ['--verifier-time-limit-ms', 'COINOP_VERIFIER_TIME_LIMIT_MS'],
  verifierMemoryLimitMb: ['--verifier-memory-limit-mb', 'COINOP_VERIFIER_MEMORY_LIMIT_MB'],
  verifierWorkers: ['--verifier-workers', 'COINOP_VERIFIER_WORKERS'],
  replayMaxBytes: ['--replay-max-bytes', 'COINOP_REPLAY_MAX_BYTES'],
} as const;

export function describe(key: keyof typeof FLAG_ENV): string {
  const [flag, envName] = FLAG_ENV[key];
  return `${flag} (${envName})`;
}

/** The secrets key from the environment, checked here so a typo stops start-up at once. */
export function parseSecretsKey(value: string | undefined): string | null {
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
export function parseSplit(value: string | null): SplitRule {
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
export function parseAuthIssuer(value: string | null, host: string, authPort: number): string {
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
export function parseClaimsNamespace(value: string | null, authIssuer: string): string {
  const namespace = value ?? authIssuer.replace(/:\d+$/, '');
  if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/i.test(namespace)) {
    throw new ConfigError(
      `${describe('claimsNamespace')} must be a host name such as example.com, got ${namespace}`,
    );
  }
  return namespace;
}

export function parseServices(value: string | null): readonly Service[] {
  if (value === null) return SERVICES; // One process serves everything until split.
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
export function parsePublicUrl(
  value: string | null,
  host: string,
  port: number,
  tls: boolean,
): string {
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
export function parseWebOrigins(value: string | null): readonly string[] {
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

/** A game served beside coinop (`npm start`'s examples), for the start banner to list. */
export interface BannerGame {
  readonly name: string;
  readonly url: string;
}

const BANNER_GAME_NAME = /^[A-Za-z0-9 ._-]{1,40}$/;

/** `reaction=http://127.0.0.1:8090`, as a comma list: each a short name and an http(s) URL. */
export function parseBannerGames(value: string | null): readonly BannerGame[] {
  if (value === null) return [];
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const at = entry.indexOf('=');
      const name = entry.slice(0, at).trim();
      const url = entry.slice(at + 1).trim();
      if (
        at < 0 ||
        !BANNER_GAME_NAME.test(name) ||
        !/^https?:\/\/[^/]/.test(url) ||
        !URL.canParse(url)
      ) {
        throw new ConfigError(
          `${describe('bannerGames')} takes name=url: a name of up to 40 letters, digits, ` +
            'spaces, dots, dashes or underscores, and an http(s) URL, like ' +
            `reaction=http://127.0.0.1:8090; got ${entry}`,
        );
      }
      return { name, url };
    });
}

const IPV4_OR_CIDR = /^(\d{1,3}\.){3}\d{1,3}(\/\d{1,2})?$/;
const IPV6_OR_CIDR = /^[0-9a-f:]+(\/\d{1,3})?$/i;

/**
 * `none` (the default: nobody's X-Forwarded-For is believed), `loopback`, a comma list of
 * addresses and CIDRs (`10.0.0.0/8,192.0.2.7`), or a hop count.
 */
export function parseTrustProxy(value: string | null): false | string | number {
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
export function parseDefaultAllowance(value: string | null, fallbackHst: number): bigint | null {
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

/** A redis:// or rediss:// URL; checked at start so a typo does not silently turn sharing off. */
export function parseRedisUrl(value: string | null): string | null {
  if (value === null) return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${describe('redisUrl')} must be a redis:// or rediss:// URL`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(
      `${describe('redisUrl')} must be a redis:// or rediss:// URL, got a ${url.protocol} URL`,
    );
  }
  return value;
}
