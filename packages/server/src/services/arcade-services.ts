import type { SecretBox } from '../credentials/secret-box.js';
import { MOVES_PRUNED_MAX, pruneBestMoves } from '../store/board-pages.js';
import type { Clock, Ids } from '@coinop/core';
import type { ApiDeps } from '../deps.js';
import { webAppUrl, type Config } from '../config.js';
import type { Db } from '../store/db.js';
import { ensureArcade, type ArcadeRecord } from '../store/arcades.js';
import { CoinopError } from '@coinop/core';
import { secretMatches } from '../credentials/secrets.js';
import {
  WriteTokenVerifier,
  signWriteToken,
  type WriteTokenClaims,
} from '../credentials/write-tokens.js';
import { findGameClient } from '../store/games.js';
import { RevokedClients } from '../credentials/revoked-clients.js';
import { GameCache } from './game-cache.js';
import { CacheSync } from './cache-sync.js';
import { Avatars } from './avatar.js';
import { GameReads } from './game-reads.js';
import { PlayService, type PlayPolicy } from './plays.js';
import { ScoreRulesSettings } from './score-rules-settings.js';
import { ConsentService } from './consent.js';
import { TesterService } from './testers.js';
import { DepositWatcher } from '../chain/watcher.js';
import { ChainPlayRequests } from '../chain/chain-play-requests.js';
import { WithdrawalRequests } from '../chain/withdrawal-requests.js';
import { WithdrawalSender } from '../chain/withdrawals.js';
import { readOperatorKey } from '../chain/operator-key.js';
import { DevChainFunds } from '../dev-chain/dev-chain-funds.js';
import { ledgerTotals } from '../store/ledger.js';
import { chainProgress } from '../chain/status.js';
import { TournamentCloser } from './tournament-closer.js';
import { createReplayVerifier, type VerifierSandbox } from '../verifier/index.js';
import { sandboxVerification, storedVerifierSources } from './verifier-sources.js';
import { flagOutlierScores } from './outlier-check.js';
import { releaseDuePayouts } from './payout-releases.js';
import { ScoreVoids } from './score-voids.js';
import { CatalogDiscovery } from './catalog-discovery.js';
import { GameScreenshots } from './game-screenshots.js';
import { LiveAnnouncer } from './live-announcer.js';
import { LiveHub } from './live-hub.js';
import { LiveReads } from './live-reads.js';

/**
 * How the score path checks replays: with this arcade's own sandbox, unless the caller wires
 * another (a test's), or none (null).
 */
function scoreVerificationOf(deps: ApiDeps, verifiers: VerifierSandbox) {
  return deps.scoreVerification === undefined
    ? sandboxVerification(deps.db, verifiers)
    : deps.scoreVerification;
}

/** The play path's rules as the config sets them. */
export function playPolicy(config: Config): PlayPolicy {
  const gamePages = webAppUrl(config);
  return {
    playTtlSeconds: config.playTtlSeconds,
    replayMaxBytes: config.verifier.replayMaxBytes,
    splitRule: config.splitRule,
    payoutHoldSeconds: config.payoutHoldSeconds,
    defaultAllowanceUnits: config.defaultAllowanceUnits,
    grantUrl: (gameId) => `${gamePages}/games/${gameId}#allowance`,
  };
}

/**
 * The arcade's application services: what HTTP handlers call. Holds storage, time, ids, config
 * and the caches; each method is one use case, thin over the core and the stores.
 */
export class ArcadeServices {
  readonly config: Config;
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly games: GameCache;
  readonly writeTokenKey: Uint8Array;
  /** Seals and opens the secrets in storage; the player-token services need it. */
  readonly secrets: SecretBox;
  readonly plays: PlayService;
  /** Voids scores and re-settles the held payouts they caused. */
  readonly voids: ScoreVoids;
  /** The score rules of games and tiers (issue 30). */
  readonly scoreRules: ScoreRulesSettings;
  readonly consent: ConsentService;
  /** Invitations to test unpublished games, and the players' answers. */
  readonly testers: TesterService;
  readonly reads: GameReads;
  /** The catalog's sorting, developer pages and payout boxes (issue 31). */
  readonly discovery: CatalogDiscovery;
  /** Games' screenshot galleries (issue 31). */
  readonly screenshots: GameScreenshots;
  readonly avatars: Avatars;
  /** Game clients revoked by any process on this database. */
  readonly revokedClients: RevokedClients;
  /** Drops what other processes' changes made stale; started by `bootstrap`. */
  readonly #cacheSync: CacheSync;
  /** Credits deposits into the chain vault (chain mode); started by the server, not here. */
  readonly chain: DepositWatcher | null;
  /** Withdrawals requested by players and developers (refused with chain_mode_off when off). */
  readonly withdrawals: WithdrawalRequests;
  /** Plays players lock from their wallets (refused with chain_mode_off when off). */
  readonly chainPlays: ChainPlayRequests;
  /** Test HST and ETH on a dev chain (`--dev-chain`) for the faucet and the demo; else null. */
  readonly devChainFunds: DevChainFunds | null;
  /**
   * Runs the games' replay verifiers (docs/reference/verifier.md) in worker threads, started on
   * first use; closed by `stop`.
   */
  readonly verifiers: VerifierSandbox;
  /** Closes tournament rounds as they end; started by the server, stopped by `stop`. */
  readonly closer: TournamentCloser;
  /** Tells this process's live streams what changed in any process; started by `bootstrap`. */
  readonly live: LiveHub;
  /** Announces what the score path changed, for every process's live streams. */
  readonly announcer: LiveAnnouncer;
  /** What the live streams and the notifications menu read about a player. */
  readonly liveReads: LiveReads;
  /** Pays the queued withdrawals (chain mode); made by `bootstrap`, started by the server. */
  #sender: WithdrawalSender | null = null;
  readonly #writeTokens: WriteTokenVerifier;
  #record: ArcadeRecord | null = null;

  constructor(config: Config, deps: ApiDeps) {
    this.config = config;
    this.db = deps.db;
    this.clock = deps.clock;
    this.ids = deps.ids;
    this.writeTokenKey = deps.writeTokenKey;
    this.secrets = deps.secrets;
    this.revokedClients = new RevokedClients(deps.db);
    this.#writeTokens = new WriteTokenVerifier(deps.writeTokenKey, (clientId) =>
      this.revokedClients.has(clientId),
    );
    this.games = new GameCache(deps.db, config.gameCacheTtlMs);
    const metrics = deps.metrics ?? null;
    this.verifiers = createReplayVerifier({
      sources: storedVerifierSources(deps.db),
      settings: config.verifier,
    });
    const verification = scoreVerificationOf(deps, this.verifiers);
    this.announcer = new LiveAnnouncer(deps.db);
    this.plays = new PlayService(
      deps.db,
      deps.clock,
      deps.ids,
      this.games,
      playPolicy(config),
      metrics,
      verification,
      this.announcer,
    );
    this.voids = new ScoreVoids({
      db: deps.db,
      clock: deps.clock,
      ids: deps.ids,
      games: this.games,
      splitRule: config.splitRule,
      boardChanged: (leaderboardId) => this.plays.forgetBoard(leaderboardId),
      pauseMs: config.voidTestPauseMs,
    });
    this.scoreRules = new ScoreRulesSettings(deps.db, deps.clock, verification);
    this.consent = new ConsentService(
      deps.db,
      deps.clock,
      deps.ids,
      this.games,
      config.defaultAllowanceUnits,
    );
    this.testers = new TesterService(deps.db, deps.clock);
    this.avatars = new Avatars(config.publicUrl);
    this.chain = config.chain
      ? new DepositWatcher({
          db: deps.db,
          clock: deps.clock,
          ids: deps.ids,
          chain: config.chain,
          playTtlSeconds: config.playTtlSeconds,
        })
      : null;
    this.devChainFunds = config.chain?.devChainMinter ? new DevChainFunds(config.chain) : null;
    const chainRequests = { db: deps.db, clock: deps.clock, ids: deps.ids, chain: config.chain };
    this.withdrawals = new WithdrawalRequests(chainRequests);
    this.chainPlays = new ChainPlayRequests(chainRequests);
    this.reads = new GameReads(
      deps.db,
      deps.clock,
      this.games,
      config.gameCacheTtlMs,
      this.avatars,
    );
    this.discovery = new CatalogDiscovery(deps.db, deps.clock, this.reads, config.splitRule);
    this.screenshots = new GameScreenshots(deps);
    this.liveReads = new LiveReads(deps.db);
    this.live = new LiveHub(deps.db, this.games, (game, board) => this.reads.leaders(game, board));
    if (deps.db.dialect === 'pglite') this.announcer.deliverLocally((n) => this.live.apply(n));
    this.#cacheSync = new CacheSync(deps.db, {
      games: this.games,
      reads: this.reads,
      revokedClients: this.revokedClients,
      boards: this.plays,
    });
    this.closer = new TournamentCloser({
      db: deps.db,
      clock: deps.clock,
      ids: deps.ids,
      arcadeAccountId: () => this.record.accountId,
      splitRule: config.splitRule,
      metrics,
      gameChanged: (gameId) => {
        this.games.invalidate(gameId);
        this.reads.invalidate(gameId);
      },
      closePauseMs: config.closeTestPauseMs,
    });
    if (metrics) this.#watch(metrics);
  }

  /** The ledger's totals and the chain's progress, read when the metrics are scraped. */
  #watch(metrics: NonNullable<ApiDeps['metrics']>): void {
    metrics.watchLedger(() => ledgerTotals(this.db));
    const chain = this.config.chain;
    if (chain) {
      metrics.watchChain(chain.vaultAddress, () => chainProgress(this.db, chain, this.chain));
    }
  }

  /**
   * Exchanges a game server's client id and secret for a write token scoped to its game and
   * arcade (spec 4.2). Unknown client, revoked client and wrong secret answer alike.
   */
  async issueWriteToken(
    clientId: string,
    clientSecret: string,
  ): Promise<WriteTokenClaims & { accessToken: string; expiresInSeconds: number }> {
    const client = await findGameClient(this.db, clientId);
    if (!client || !secretMatches(clientSecret, client.secretHash)) {
      throw new CoinopError(
        'invalid_client_credentials',
        'client_id or client_secret is not valid',
      );
    }
    const game = await this.games.get(client.gameId);
    const claims = {
      clientId,
      developerId: game.developerId,
      gameId: game.id,
      arcadeId: game.arcadeId,
    };
    const ttl = this.config.writeTokenTtlSeconds;
    const accessToken = await signWriteToken(claims, this.writeTokenKey, this.clock.now(), ttl);
    return { ...claims, accessToken, expiresInSeconds: ttl };
  }

  async verifyWriteToken(token: string): Promise<WriteTokenClaims> {
    return this.#writeTokens.verify(token, this.clock.now());
  }

  /** Settles plays whose time ran out, in batches, until none is left. */
  async settleExpiredPlays(): Promise<number> {
    let total = 0;
    for (;;) {
      const settled = await this.plays.settleExpired();
      total += settled;
      if (settled === 0) return total;
    }
  }

  /** Posts the held payouts whose hold ended, batch after batch; answers how many plays. */
  async releaseHeldPayouts(): Promise<number> {
    let total = 0;
    for (;;) {
      const released = await releaseDuePayouts(this);
      total += released;
      if (released === 0) return total;
    }
  }

  /** Deletes the board moves no walk can need any more, in bounded batches; returns how many. */
  async pruneBoardMoves(): Promise<number> {
    let total = 0;
    for (;;) {
      const pruned = await pruneBestMoves(this.db, this.clock.now());
      total += pruned;
      if (pruned < MOVES_PRUNED_MAX) return total;
    }
  }

  /** Flags the boards' new leaders that stand out against their history (issue 30). */
  async flagOutlierScores(): Promise<number> {
    return flagOutlierScores(this);
  }

  /** Finds or creates the installation's arcade; called once before serving. */
  async bootstrap(): Promise<ArcadeRecord> {
    if (this.#record === null) {
      this.#record = await ensureArcade(this.db, this.clock, this.ids);
      // Listening first: a revocation made while the list is read is then not missed.
      await this.#cacheSync.start();
      await this.live.start();
      await this.revokedClients.start();
      const chain = this.config.chain;
      if (chain) {
        // Read at start, so a key file that does not open stops the server with its name.
        const operator =
          chain.operatorKeyFile === null
            ? null
            : await readOperatorKey(chain.operatorKeyFile, this.secrets);
        this.#sender = new WithdrawalSender({
          db: this.db,
          clock: this.clock,
          ids: this.ids,
          chain,
          operator,
        });
      }
    }
    return this.#record;
  }

  /** Stops what `bootstrap` and the server started; the app's close calls it. */
  async stop(): Promise<void> {
    await this.closer.stop();
    await this.verifiers.close();
    await this.chain?.stop();
    await this.#sender?.stop();
    this.revokedClients.stop();
    await this.#cacheSync.stop();
    await this.live.stop();
    await this.announcer.settled();
  }

  /** The withdrawal sender in chain mode, once `bootstrap` ran; null otherwise. */
  get sender(): WithdrawalSender | null {
    return this.#sender;
  }

  /** The installation's arcade (its id, its account, the mint account). */
  get record(): ArcadeRecord {
    if (!this.#record) throw new TypeError('Arcade.bootstrap() must run before use');
    return this.#record;
  }
}
