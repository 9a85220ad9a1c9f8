import type { Command } from 'commander';
import type { ConfigInput, FLAG_ENV } from '../config.js';

/**
 * Every config flag as the commands take it (`serve` takes them all; `migrate` and `db` the ones
 * they need), with its value placeholder, environment variable and help text.
 */

type FlagEnv = typeof FLAG_ENV;

/**
 * The flags as config.ts names them. The types tie each entry to FLAG_ENV, so a flag renamed
 * there fails to compile here, without importing config.ts at run time.
 */
const CONFIG_FLAGS: {
  readonly [K in keyof FlagEnv]: {
    readonly flag: FlagEnv[K][0];
    readonly env: FlagEnv[K][1];
    /** Placeholder of the value; absent for on/off flags. */
    readonly value?: string;
    /** May be given more than once; the values reach config.ts as one comma list. */
    readonly repeatable?: true;
    readonly description: string;
  };
} = {
  host: {
    flag: '--host',
    env: 'COINOP_HOST',
    value: 'host',
    description: 'address to listen on (default 127.0.0.1)',
  },
  apiPort: {
    flag: '--api-port',
    env: 'COINOP_API_PORT',
    value: 'port',
    description: 'arcade API port (default 8080; 0 picks a free one)',
  },
  publicUrl: {
    flag: '--public-url',
    env: 'COINOP_PUBLIC_URL',
    value: 'url',
    description:
      'where clients reach the API, for the URLs it hands out (default http://<host>:<api-port>)',
  },
  databaseUrl: {
    flag: '--database-url',
    env: 'DATABASE_URL',
    value: 'url',
    description: 'Postgres URL; without it the embedded database in --data-dir is used',
  },
  dataDir: {
    flag: '--data-dir',
    env: 'COINOP_DATA_DIR',
    value: 'dir',
    description: 'embedded database, generated admin token and secrets key (default ./.coinop)',
  },
  noMigrate: {
    flag: '--no-migrate',
    env: 'COINOP_NO_MIGRATE',
    description:
      'do not apply migrations at start; refuse to start while any are pending (run coinop ' +
      'migrate apply first)',
  },
  databasePoolSize: {
    flag: '--database-pool-size',
    env: 'COINOP_DATABASE_POOL_SIZE',
    value: 'n',
    description: 'Postgres connections (default 20)',
  },
  tlsCertPath: {
    flag: '--tls-cert',
    env: 'COINOP_TLS_CERT',
    value: 'file',
    description: 'PEM certificate: serve HTTPS (with --tls-key)',
  },
  tlsKeyPath: {
    flag: '--tls-key',
    env: 'COINOP_TLS_KEY',
    value: 'file',
    description: 'PEM private key for --tls-cert',
  },
  adminToken: {
    flag: '--admin-token',
    env: 'COINOP_ADMIN_TOKEN',
    value: 'token',
    description: 'admin API token (default: generated into <data-dir>/admin-token)',
  },
  allowPrivateUrls: {
    flag: '--allow-private-urls',
    env: 'COINOP_ALLOW_PRIVATE_URLS',
    description:
      'let the arcade fetch loopback and private-network URLs (e.g. a local cover image)',
  },
  faucetHst: {
    flag: '--faucet-hst',
    env: 'COINOP_FAUCET_HST',
    value: 'hst',
    description:
      'test HST a player may take from the faucet per request (default 100 with --demo, else 0: off)',
  },
  defaultAllowance: {
    flag: '--default-allowance',
    env: 'COINOP_DEFAULT_ALLOWANCE',
    value: 'hst|unlimited',
    description:
      'HST a day a published game may charge a player who chose no allowance ' +
      '(default 0: consent required; 50 with --demo)',
  },
  trustProxy: {
    flag: '--trust-proxy',
    env: 'COINOP_TRUST_PROXY',
    value: 'who',
    description:
      'whose X-Forwarded-For to believe: none (default), loopback, addresses/CIDRs, or a hop count',
  },
  demo: {
    flag: '--demo',
    env: 'COINOP_DEMO',
    description: 'seed a demo developer, game and funded players',
  },
  writeTokenTtlSeconds: {
    flag: '--write-token-ttl',
    env: 'COINOP_WRITE_TOKEN_TTL',
    value: 'seconds',
    description: 'write token lifetime (default 3600)',
  },
  playTtlSeconds: {
    flag: '--play-ttl',
    env: 'COINOP_PLAY_TTL',
    value: 'seconds',
    description: 'time to score a play before it expires (default 3600)',
  },
  payoutHoldSeconds: {
    flag: '--payout-hold',
    env: 'COINOP_PAYOUT_HOLD',
    value: 'seconds',
    description: 'payouts stay pending this long, so a score can be voided (default 0)',
  },
  splitRule: {
    flag: '--split',
    env: 'COINOP_SPLIT',
    value: 'l/d/a',
    description: 'payout percent to leaders/developer/arcade (default 70/20/10)',
  },
  logLevel: {
    flag: '--log-level',
    env: 'COINOP_LOG_LEVEL',
    value: 'level',
    description: 'fatal, error, warn, info, debug, trace or silent (default info)',
  },
  workers: {
    flag: '--workers',
    env: 'COINOP_WORKERS',
    value: 'n',
    description:
      'processes sharing the ports, each with its own database pool (default 1; more need --database-url)',
  },
  accessLog: {
    flag: '--access-log',
    env: 'COINOP_ACCESS_LOG',
    description: 'log a line for every request (off by default: requests write no log)',
  },
  services: {
    flag: '--services',
    env: 'COINOP_SERVICES',
    value: 'list',
    description: 'listeners to start: a comma list of api, auth, web (default api,auth,web)',
  },
  authPort: {
    flag: '--auth-port',
    env: 'COINOP_AUTH_PORT',
    value: 'port',
    description: 'player sign-in service port (default 8081; 0 picks a free one)',
  },
  webPort: {
    flag: '--web-port',
    env: 'COINOP_WEB_PORT',
    value: 'port',
    description: 'web app port (default 8082; 0 picks a free one)',
  },
  authIssuer: {
    flag: '--auth-issuer',
    env: 'COINOP_AUTH_ISSUER',
    value: 'host[:port]',
    description:
      "sign-in service's public address: token issuer and SIWE domain (default host:auth-port)",
  },
  claimsNamespace: {
    flag: '--claims-namespace',
    env: 'COINOP_CLAIMS_NAMESPACE',
    value: 'host',
    description: 'player token claims are https://<host>/playerId, ... (default the issuer host)',
  },
  playerTokenTtlSeconds: {
    flag: '--player-token-ttl',
    env: 'COINOP_PLAYER_TOKEN_TTL',
    value: 'seconds',
    description: 'player token lifetime (default 86400)',
  },
  keyRotationDays: {
    flag: '--key-rotation-days',
    env: 'COINOP_KEY_ROTATION_DAYS',
    value: 'days',
    description: 'retire the token signing key after this many days (default 30)',
  },
  webOrigins: {
    flag: '--web-origin',
    env: 'COINOP_WEB_ORIGINS',
    value: 'origin',
    repeatable: true,
    description:
      'browser origin of the web app, allowed to call sign-in and developer routes (CORS); the ' +
      'first is where CLI logins are approved; repeat or comma list',
  },
  chainRpcUrl: {
    flag: '--chain-rpc-url',
    env: 'COINOP_CHAIN_RPC_URL',
    value: 'url',
    description:
      'chain JSON-RPC URL: lets contract wallets sign in (EIP-1271); with --chain-vault-address, ' +
      'deposits into the vault are credited',
  },
  chainVaultAddress: {
    flag: '--chain-vault-address',
    env: 'COINOP_CHAIN_VAULT_ADDRESS',
    value: 'address',
    description:
      "chain mode: the ArcadeVault whose deposits are credited (HST is the vault's token())",
  },
  chainConfirmations: {
    flag: '--chain-confirmations',
    env: 'COINOP_CHAIN_CONFIRMATIONS',
    value: 'blocks',
    description: 'blocks on top of a deposit before it is credited (default 12)',
  },
  chainStartBlock: {
    flag: '--chain-start-block',
    env: 'COINOP_CHAIN_START_BLOCK',
    value: 'block',
    description: "the vault's deploy block: where reading its deposits begins (default 0)",
  },
  chainPollMs: {
    flag: '--chain-poll-ms',
    env: 'COINOP_CHAIN_POLL_MS',
    value: 'ms',
    description: 'how often the chain is asked for new blocks (default 2000)',
  },
  chainOperatorKeyFile: {
    flag: '--chain-operator-key-file',
    env: 'COINOP_CHAIN_OPERATOR_KEY_FILE',
    value: 'file',
    description:
      "the operator's signing key, sealed with the secrets key (coinop admin chain operator-key " +
      'generate|import); without it withdrawals are queued, not sent',
  },
  chainPublicRpcUrl: {
    flag: '--chain-public-rpc-url',
    env: 'COINOP_CHAIN_PUBLIC_RPC_URL',
    value: 'url',
    description:
      "a JSON-RPC URL of the vault's chain that browsers may use, for the web app's wallet " +
      '(default none: the server keeps its own RPC URL to itself)',
  },
  devChain: {
    flag: '--dev-chain',
    env: 'COINOP_DEV_CHAIN',
    description:
      'run a local chain (Anvil) with HST and the vault deployed, in chain mode, its state ' +
      'kept in <data-dir>/dev-chain; the faucet mints test HST to wallets (npm start)',
  },
  devChainPort: {
    flag: '--dev-chain-port',
    env: 'COINOP_DEV_CHAIN_PORT',
    value: 'port',
    description: "the dev chain's JSON-RPC port on 127.0.0.1 (default 8545)",
  },
  rateLimits: {
    flag: '--rate-limit',
    env: 'COINOP_RATE_LIMITS',
    value: 'name=n',
    repeatable: true,
    description:
      'requests a minute a group of routes takes from one client: signin (60), token (60), ' +
      'plays (600000 per game client), player-plays (120), faucet (10), registration (30); ' +
      '0 turns one off; repeat or comma list',
  },
  redisUrl: {
    flag: '--redis-url',
    env: 'COINOP_REDIS_URL',
    value: 'url',
    description:
      'Redis holding the rate limits, shared by every process using it (default: each process ' +
      'counts alone)',
  },
  gameCacheTtlMs: {
    flag: '--game-cache-ttl-ms',
    env: 'COINOP_GAME_CACHE_TTL_MS',
    value: 'ms',
    description:
      "how long a game read (its leaders) may lag another process's scores (default 1000)",
  },
  metricsPort: {
    flag: '--metrics-port',
    env: 'COINOP_METRICS_PORT',
    value: 'port',
    description:
      'serve Prometheus metrics at /metrics on this port of --host (default off; no auth: ' +
      'keep the port private)',
  },
  logFormat: {
    flag: '--log-format',
    env: 'COINOP_LOG_FORMAT',
    value: 'json|pretty',
    description: 'log as JSON lines or readable lines (default pretty on a terminal, else json)',
  },
  bannerGames: {
    flag: '--banner-game',
    env: 'COINOP_BANNER_GAMES',
    value: 'name=url',
    repeatable: true,
    description:
      'a game served beside coinop, listed in the start banner (npm start lists its example ' +
      'games); repeat or comma list',
  },
  overloadEventLoopDelayMs: {
    flag: '--overload-event-loop-delay-ms',
    env: 'COINOP_OVERLOAD_EVENT_LOOP_DELAY_MS',
    value: 'ms',
    description: 'answer 503 overloaded past this mean event-loop delay (default 1000; 0: off)',
  },
  overloadHeapMb: {
    flag: '--overload-heap-mb',
    env: 'COINOP_OVERLOAD_HEAP_MB',
    value: 'mb',
    description: 'answer 503 overloaded past this V8 heap use (default 90% of its limit; 0: off)',
  },
  overloadRssMb: {
    flag: '--overload-rss-mb',
    env: 'COINOP_OVERLOAD_RSS_MB',
    value: 'mb',
    description: 'answer 503 overloaded past this resident memory (default 0: off)',
  },
  verifierTimeLimitMs: {
    flag: '--verifier-time-limit-ms',
    env: 'COINOP_VERIFIER_TIME_LIMIT_MS',
    value: 'ms',
    description: 'time a replay verifier may run for one score (default 250)',
  },
  verifierMemoryLimitMb: {
    flag: '--verifier-memory-limit-mb',
    env: 'COINOP_VERIFIER_MEMORY_LIMIT_MB',
    value: 'mb',
    description: 'memory a replay verifier may allocate for one score (default 32)',
  },
  verifierWorkers: {
    flag: '--verifier-workers',
    env: 'COINOP_VERIFIER_WORKERS',
    value: 'count',
    description: 'threads running replay verifiers, 1 to 4 (default 1)',
  },
  replayMaxBytes: {
    flag: '--replay-max-bytes',
    env: 'COINOP_REPLAY_MAX_BYTES',
    value: 'bytes',
    description: 'largest replay a score may carry (default 65536)',
  },
  secretsKeyFile: {
    flag: '--secrets-key-file',
    env: 'COINOP_SECRETS_KEY_FILE',
    value: 'file',
    description:
      'key encrypting the secrets in the database: 64 hex digits or base64 of 32 bytes ' +
      '(or the key itself in COINOP_SECRETS_KEY; default: generated into <data-dir>/secrets-key)',
  },
};

/** Every config flag: what `coinop serve` takes. */
export const ALL_CONFIG_FLAGS = Object.keys(CONFIG_FLAGS) as (keyof FlagEnv)[];

/**
 * Adds the config flags `keys` to `command` as `serve` has them (flag, value, environment variable
 * in the help), so every command reads a setting the same way. Returns what turns the command's
 * parsed values into `loadConfig`'s input; `loadConfig` then adds the environment.
 */
export function addConfigFlags(
  command: Command,
  keys: readonly (keyof FlagEnv)[],
): (values: OptionValues) => ConfigInput {
  const attributes: [keyof FlagEnv, string, boolean][] = [];
  for (const key of keys) {
    const spec = CONFIG_FLAGS[key];
    const flags = spec.value === undefined ? spec.flag : `${spec.flag} <${spec.value}>`;
    const description = `${spec.description} [env ${spec.env}]`;
    if (spec.repeatable) {
      command.option(flags, description, (value: string, previous: string | undefined) =>
        previous === undefined ? value : `${previous},${value}`,
      );
    } else {
      command.option(flags, description);
    }
    // Commander keeps `--no-x` as `x`: false when given, true when not.
    const negated = spec.flag.startsWith('--no-');
    attributes.push([key, camelCase(spec.flag.replace(/^--no-/, '--')), negated]);
  }
  return (values) => {
    const flags: ConfigInput = {};
    for (const [key, attribute, negated] of attributes) {
      // Absent, an on/off `--no-x` flag leaves its environment variable to decide.
      flags[key] = negated ? (values[attribute] === false ? true : undefined) : values[attribute];
    }
    return flags;
  };
}

/** Commander's parsed option values of a command. */
export type OptionValues = Record<string, string | boolean | undefined>;

export { loadCliConfig } from './load-cli-config.js';

/** Commander's attribute name for a long flag: --api-port → apiPort. */
function camelCase(flag: string): string {
  return flag.replace(/^--/, '').replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}
