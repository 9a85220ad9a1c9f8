import { SERVICES } from './config-values.js';

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
  chainRpcTimeoutMs: 10_000, // An EIP-1271 check is one eth_call; a log range is one call too.
  // About 2.5 minutes on Ethereum, deeper than any reorganisation seen there since the merge (one
  // or two blocks); finality (two epochs, 64 blocks) is safer still. Other chains differ: set it.
  chainConfirmations: 12,
  chainStartBlock: 0n, // Reads the whole chain: give the vault's deploy block to skip the rest.
  chainPollMs: 2000, // Ethereum makes a block every 12 s; a deposit waits minutes for its depth.
  // Many providers refuse eth_getLogs over more than a few thousand blocks.
  chainLogRangeBlocksMax: 2000,
  chainRetryMaxMs: 60_000, // A chain down for long is asked once a minute.
  // About 45,000 gas a withdrawal: 50 is some 2.3 M gas, a small share of any chain's block.
  chainWithdrawalBatchMax: 50,
  // A shortfall stops the senders within a minute; a reconciliation is a handful of reads.
  chainReconcileIntervalMs: 60_000,
  devChainPort: 8545, // Anvil's own default: where wallets and tools look for a local chain.
  // A kill -9 of the whole process group loses at most this much of the chain; see dev-chain.md.
  devChainStateIntervalSeconds: 1,
  // Anvil mines a block per transaction and none otherwise: a deposit would wait forever for a
  // block on top of it. A dev chain does not reorganise.
  devChainConfirmations: 0,
  devChainPollMs: 250, // A deposit shows in the web app within a moment.
  devChainDir: 'dev-chain',
  siweChallengeTtlSeconds: 300, // Five minutes to read and sign the message in a wallet.
  cliLoginTtlSeconds: 600, // Ten minutes to open the page, connect a wallet and approve.
  cliPollIntervalSeconds: 5, // RFC 8628 §3.5's default polling interval.
  rateLimits: {
    // A person signs in a few times; a CLI-login poller asks 12 times a minute.
    signin: 60,
    // A game server exchanges its credentials about once every half hour per process.
    token: 60,
    // Per game client: well above the 3,000 plays a second one process serves (docs/benchmarks.md),
    // so only a runaway loop meets it.
    plays: 600_000,
    // Per player in the web app: a person approves a play in their wallet every few seconds at most.
    'player-plays': 120,
    // Per player: a grant tops up a balance for many plays; the faucet stops at ten grants' worth.
    faucet: 10,
    // Per player: a name or avatar changes a few times while a person makes up their mind; each
    // change drops the cached copies of every board the player is on.
    profile: 10,
    // Per developer: registering and updating games is occasional; each may fetch a cover image.
    registration: 30,
    // Per developer: each check holds a sandbox thread for up to --verifier-time-limit-ms, which
    // scores share; a person testing a verifier runs one every few seconds.
    'verifier-checks': 60,
    // Per client address: failed admin authentications. The operator mistypes a token a few
    // times; a guesser gets 10 a minute at most, against a token of 128 bits or more.
    'admin-failures': 10,
  },
  dataDir: './.coinop',
  databasePoolSize: 20, // Enough for 50 concurrent clients without starving Postgres' 100 slots.
  // A reachable Postgres accepts in milliseconds; a host that drops packets would otherwise hold
  // each request for the system's two minutes of TCP retries.
  databaseConnectTimeoutMs: 5000,
  databaseRetryAfterSeconds: 5, // A Postgres restart takes seconds; sooner is refused again.
  writeTokenTtlSeconds: 3600, // An hour: the SDKs refresh at half-life.
  playTtlSeconds: 3600, // Rule: a play not scored within an hour expires.
  payoutHoldSeconds: 0, // Today's instant payout unless the operator asks for a review window.
  releaseSweepIntervalSeconds: 5, // Held payouts become spendable within seconds of their hold.
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
  gameCacheTtlMs: 1000, // Another process's scores show in game reads within a second.
  logLevel: 'info',
  // A mean delay of a second means every request waits that long before it is even read; a
  // 2-core box at full benchmark load stays far below it (docs/operating/deploy.md).
  overloadEventLoopDelayMs: 1000,
  overloadRetryAfterSeconds: 10, // Long enough for a burst to drain, short for a client's retry.
  // A replay verifier's run: a 500-move replay takes a few milliseconds (docs/benchmarks.md), so
  // a quarter second is room for a slow game and still a short wait for a refused cheater.
  verifierTimeLimitMs: 250,
  verifierMemoryLimitMb: 32, // A board's state and a parsed replay; a verifier needs far less.
  // One thread: verifying runs beside the API on the same cores; more serve more scores a second.
  verifierWorkers: 1,
  replayMaxBytes: 65_536, // A few thousand moves as JSON; a larger replay is refused unread.
} as const;
