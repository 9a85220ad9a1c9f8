import type { SplitRule } from '@coinop/core';
import type { ChainConfig, DevChainConfig } from './config-chain.js';
import type { RateLimits } from './config-rate-limits.js';
import type { BannerGame, Service } from './config-values.js';

/** What a running coinop is configured with: the `Config` and the groups of limits in it. */

/** Every setting of a running coinop, typed and frozen: config.ts reads them, and only it. */
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
  /**
   * Chain mode: deposits into the vault are credited (`--chain-vault-address`, or the dev chain's
   * vault once it runs); null when off.
   */
  readonly chain: ChainConfig | null;
  /** `--dev-chain`: coinop runs Anvil with the contracts deployed (docs/operating/dev-chain.md). */
  readonly devChain: DevChainConfig | null;
  readonly siweChallengeTtlSeconds: number;
  readonly cliLoginTtlSeconds: number;
  readonly cliPollIntervalSeconds: number;
  /**
   * Requests a minute each rate-limited group of routes takes from one key (client address, game
   * client, player or developer); 0 turns a group's limit off (docs/reference/rate-limits.md).
   */
  readonly rateLimits: RateLimits;
  /**
   * Redis that holds the rate limits' counts (`--redis-url`), so they hold across several API
   * processes; null counts in each process's memory. May carry a password: never logged.
   */
  readonly redisUrl: string | null;
  /** Log a line per request (`--access-log`); off by default, so requests write no log. */
  readonly accessLog: boolean;
  /**
   * Processes serving the listeners (`--workers`): one, or several sharing the ports (Node's
   * cluster), each with its own pool. Several need Postgres: the embedded database is one
   * process's.
   */
  readonly workers: number;
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
  /** How long opening a Postgres connection may take before the database counts as unreachable. */
  readonly databaseConnectTimeoutMs: number;
  /** What the Retry-After of a 503 `service_unavailable` says while the database is unreachable. */
  readonly databaseRetryAfterSeconds: number;
  /**
   * Apply pending migrations at start (the default); `--no-migrate` leaves that to `coinop
   * migrate apply` and refuses to start while any are pending.
   */
  readonly migrate: boolean;
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
  /**
   * Seconds a settled play's payouts stay pending before they are spendable, unless its game or
   * tier says otherwise; 0 pays at once (docs/concepts/plays-and-settlement.md#hold-and-void).
   */
  readonly payoutHoldSeconds: number;
  readonly expirySweepIntervalSeconds: number;
  readonly releaseSweepIntervalSeconds: number;
  readonly defaultLeadersMax: number;
  readonly defaultTiers: readonly { name: string; costHst: number }[];
  readonly splitRule: SplitRule;
  readonly bodyLimitBytes: number;
  readonly coverFetchTimeoutMs: number;
  readonly coverMaxBytes: number;
  /**
   * How long another API process's scores may take to show in a cached game read (its leaders).
   * Changes to games, tiers and clients reach every process at once (LISTEN/NOTIFY); this also
   * bounds how long a change whose notice was lost can linger.
   */
  readonly gameCacheTtlMs: number;
  /** Test hook (`COINOP_TEST_CLOSE_PAUSE_MS`, undocumented): a pause inside each round's close. */
  readonly closeTestPauseMs: number;
  /** Test hook (`COINOP_TEST_VOID_PAUSE_MS`, undocumented): a pause inside each score void. */
  readonly voidTestPauseMs: number;
  readonly logLevel: string;
  /**
   * `json`: one JSON object a line, for a log collector; `pretty`: readable lines for a person
   * (`--log-format`; by default pretty when standard output is a terminal, else JSON).
   */
  readonly logFormat: LogFormat;
  /** Games served beside this process (`--banner-game`), which the start banner lists. */
  readonly bannerGames: readonly BannerGame[];
  /**
   * Port of the Prometheus `/metrics` listener on `host` (`--metrics-port`); null: no metrics
   * listener. Unauthenticated: a port the operator keeps off the public network.
   */
  readonly metricsPort: number | null;
  /** When a listener answers 503 `overloaded` rather than take more work. */
  readonly overload: OverloadLimits;
  /** The replay verifiers' sandbox (docs/reference/verifier.md). */
  readonly verifier: VerifierLimits;
}

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** See DEFAULTS and docs/operating for each; the sandbox reads them as `VerifierSettings`. */
export interface VerifierLimits {
  readonly timeLimitMs: number;
  readonly memoryLimitMb: number;
  readonly workers: number;
  readonly replayMaxBytes: number;
}

/** Thresholds past which the listeners refuse requests with 503 and Retry-After; 0 turns one off. */
export interface OverloadLimits {
  /** Mean event-loop delay over the last second. */
  readonly eventLoopDelayMs: number;
  /** V8 heap in use; null: 90% of the heap's limit (the `--max-old-space-size` in effect). */
  readonly heapUsedMb: number | null;
  /** Resident memory; 0 by default: set it under the container's memory limit. */
  readonly rssMb: number;
  /** What the 503's Retry-After says. */
  readonly retryAfterSeconds: number;
}
