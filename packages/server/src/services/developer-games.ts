import type { TesterRecord } from '../store/testers.js';
import { CoinopError, NO_SCORE_RULES, wholeHstToUnits, type ScoreRules } from '@coinop/core';
import { gameRules } from '../store/score-rules.js';
import type { TierRulesChange } from './score-rules-settings.js';
import type { DeveloperRecord } from '../store/developers.js';
import { ensureDeveloper } from '../store/developers.js';
import { findDeveloperByWallet } from '../store/developers.js';
import { findGame, findGamesOfDeveloper, type GameRecord } from '../store/games.js';
import { notifyClientRevoked, notifyGameChanged } from '../store/cache-notices.js';
import {
  clientsOf,
  countLiveTiers,
  findClient,
  findTier,
  gameStats,
  liveTiersOf,
  lockGameRow,
  retireTier,
  revokeClient,
  updateTier,
  type GameClientSummary,
  type GameStatsRecord,
  type TierRecord,
} from '../store/developer-games.js';
import { walletOf } from '../credentials/api-keys.js';
import { rotateClientSecret } from '../credentials/game-clients.js';
import { createClient } from './admin.js';
import { insertLeaderboard } from '../store/games.js';
import { currentVerifierVersions } from '../store/game-verifiers.js';
import type { ArcadeServices } from './arcade-services.js';
import type { CoverCheck } from './cover-check.js';
import {
  registerGame,
  registrationDeps,
  updateDeveloperGame,
  type CreateGameInput,
  type RegistrationDeps,
  type UpdateGameInput,
} from './registration.js';

/** A developer's game as the portal shows it: live tiers, every client, its score rules. */
export interface DeveloperGameView {
  readonly game: GameRecord;
  readonly tiers: readonly TierRecord[];
  readonly clients: readonly GameClientSummary[];
  readonly scoreRules: ScoreRules;
  /** The arcade operator's default payout hold, which a game without its own hold has. */
  readonly operatorPayoutHoldSeconds: number;
  /** The current replay verifier's version; null when the game has none. */
  readonly verifierVersion: number | null;
}

/** A request's optional change of score rules (issue 30). */
type WithRules<Change> = { readonly scoreRules?: Change | undefined };

export interface NewClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly createdAt: Date;
}

/**
 * The developer portal's use cases (issue 5): a wallet's developer manages their own games,
 * tiers and game-server clients, and reads their stats. Another developer's game is answered as
 * not found, so ids of games cannot be probed. Every write drops the game from the caches.
 */
export class DeveloperPortal {
  readonly #arcade: ArcadeServices;
  readonly #registration: RegistrationDeps;

  constructor(arcade: ArcadeServices, checkCover?: CoverCheck) {
    this.#arcade = arcade;
    this.#registration = registrationDeps(arcade, checkCover);
  }

  /** The developer of the player's wallet, created on first use as API keys do. */
  async developerOf(playerId: string): Promise<DeveloperRecord> {
    const { db, clock, ids } = this.#arcade;
    const wallet = await walletOf(db, playerId);
    return (await findDeveloperByWallet(db, wallet)) ?? ensureDeveloper(db, clock, ids, wallet);
  }

  async listGames(developer: DeveloperRecord): Promise<DeveloperGameView[]> {
    return this.#views(await findGamesOfDeveloper(this.#arcade.db, developer.id));
  }

  async getGame(developer: DeveloperRecord, gameId: string): Promise<DeveloperGameView> {
    return this.#view(await this.#ownGame(developer, gameId));
  }

  /**
   * Registers a game with its payout hold and score rules in one transaction: a refusal of
   * either leaves no game.
   */
  async createGame(developer: DeveloperRecord, input: CreateGameInput): Promise<DeveloperGameView> {
    const { game } = await registerGame(this.#registration, developer.id, input);
    this.#changed(game.id);
    return this.#view(game);
  }

  /** Changes any mutable field, the hold and the score rules together, in one transaction. */
  async updateGame(
    developer: DeveloperRecord,
    gameId: string,
    input: UpdateGameInput,
  ): Promise<DeveloperGameView> {
    const { game } = await updateDeveloperGame(this.#registration, developer.id, gameId, input);
    return this.#view(game);
  }

  async addTier(
    developer: DeveloperRecord,
    gameId: string,
    input: {
      name: string;
      cost: number;
      leadersMax?: number | undefined;
      payoutHoldSeconds?: number | null | undefined;
    } & WithRules<TierRulesChange>,
  ): Promise<TierRecord> {
    await this.#ownGame(developer, gameId);
    const { scoreRules, payoutHoldSeconds } = input;
    if (scoreRules !== undefined) await this.#arcade.scoreRules.checkTier(gameId, null, scoreRules);
    const { clock, ids, config } = this.#arcade;
    // The tier, its hold and its rules together: a refusal of any leaves no tier.
    const id = await this.#arcade.db.transaction(async (tx) => {
      const tier = await insertLeaderboard(tx, clock, ids, gameId, {
        name: input.name,
        costUnits: wholeHstToUnits(input.cost),
        leadersMax: input.leadersMax ?? config.defaultLeadersMax,
      });
      if (payoutHoldSeconds !== undefined && payoutHoldSeconds !== null) {
        await updateTier(tx, tier.id, { payoutHoldSeconds });
      }
      if (scoreRules !== undefined) {
        await this.#arcade.scoreRules.changeTierIn(tx, gameId, tier.id, scoreRules);
      }
      await notifyGameChanged(tx, gameId);
      return tier.id;
    });
    this.#changed(gameId);
    return this.#tier(gameId, id);
  }

  /**
   * A new name, cost, score rules or payout hold; plays already open settle at the cost they
   * locked, and each play is held by the hold in force when it settles. Rules are checked before
   * anything is written, and written with the other fields in one transaction.
   */
  async updateTier(
    developer: DeveloperRecord,
    gameId: string,
    leaderboardId: string,
    input: {
      name?: string | undefined;
      cost?: number | undefined;
      payoutHoldSeconds?: number | null | undefined;
    } & WithRules<TierRulesChange>,
  ): Promise<TierRecord> {
    await this.#ownGame(developer, gameId);
    const { scoreRules } = input;
    const rules = this.#arcade.scoreRules;
    if (scoreRules !== undefined) await rules.checkTier(gameId, leaderboardId, scoreRules);
    await this.#arcade.db.transaction(async (tx) => {
      const found = await findTier(tx, gameId, leaderboardId, true);
      if (!found) throw tierNotFound(gameId, leaderboardId);
      if (found.retiredAt !== null) throw tierRetired(gameId, leaderboardId);
      const updated = await updateTier(tx, leaderboardId, {
        name: input.name,
        costUnits: input.cost === undefined ? undefined : wholeHstToUnits(input.cost),
        payoutHoldSeconds: input.payoutHoldSeconds,
      });
      if (scoreRules !== undefined) await rules.changeTierIn(tx, gameId, leaderboardId, scoreRules);
      await notifyGameChanged(tx, gameId);
      return updated;
    });
    this.#changed(gameId);
    return this.#tier(gameId, leaderboardId);
  }

  /**
   * Retires a tier: no new plays, while its open plays still settle and its leaders stay
   * readable. The game's last live tier stays. Retiring again changes nothing.
   */
  async retireTier(
    developer: DeveloperRecord,
    gameId: string,
    leaderboardId: string,
  ): Promise<{ id: string; retired: true }> {
    await this.#ownGame(developer, gameId);
    await this.#arcade.db.transaction(async (tx) => {
      // Two retirements at once must not leave the game without a tier.
      await lockGameRow(tx, gameId);
      const tier = await findTier(tx, gameId, leaderboardId);
      if (!tier) throw tierNotFound(gameId, leaderboardId);
      if (tier.retiredAt !== null) return;
      if ((await countLiveTiers(tx, gameId)) <= 1) {
        throw new CoinopError(
          'last_live_leaderboard',
          `leaderboard ${leaderboardId} is the last live tier of game ${gameId}; add another ` +
            'tier before retiring it',
          { details: { leaderboardId, gameId } },
        );
      }
      await retireTier(tx, this.#arcade.clock, leaderboardId);
      await notifyGameChanged(tx, gameId);
    });
    this.#changed(gameId);
    return { id: leaderboardId, retired: true };
  }

  async createClient(developer: DeveloperRecord, gameId: string): Promise<NewClient> {
    await this.#ownGame(developer, gameId);
    const { clientId, clientSecret } = await createClient(this.#arcade, gameId);
    this.#changed(gameId);
    const summary = await this.#client(gameId, clientId);
    return { clientId, clientSecret, createdAt: summary.createdAt };
  }

  /** A new secret for the client; the old one fails `POST /oauth/writetoken` at once. */
  async rotateClient(
    developer: DeveloperRecord,
    gameId: string,
    clientId: string,
  ): Promise<NewClient> {
    await this.#ownGame(developer, gameId);
    const rotated = await rotateClientSecret(this.#arcade.db, this.#arcade.clock, gameId, clientId);
    if (!rotated) {
      const existing = await this.#client(gameId, clientId);
      throw new CoinopError(
        'client_revoked',
        `client ${existing.clientId} was revoked; create a new client instead`,
        { details: { clientId, gameId } },
      );
    }
    this.#changed(gameId);
    return {
      clientId: rotated.clientId,
      clientSecret: rotated.clientSecret,
      createdAt: rotated.createdAt,
    };
  }

  async revokeClient(
    developer: DeveloperRecord,
    gameId: string,
    clientId: string,
  ): Promise<GameClientSummary> {
    await this.#ownGame(developer, gameId);
    const revoked = await this.#arcade.db.transaction(async (tx) => {
      const found = await revokeClient(tx, this.#arcade.clock, gameId, clientId);
      // Its write tokens stop working now, in every process, not when they expire.
      if (found) await notifyClientRevoked(tx, clientId);
      return found;
    });
    if (!revoked) throw clientNotFound(gameId, clientId);
    this.#arcade.revokedClients.remember(clientId);
    this.#changed(gameId);
    return revoked;
  }

  async stats(developer: DeveloperRecord, gameId: string): Promise<GameStatsRecord> {
    await this.#ownGame(developer, gameId);
    return gameStats(this.#arcade.db, gameId, developer.accountId);
  }

  /** The wallets the developer invited to test the game, and whether each accepted. */
  async testers(developer: DeveloperRecord, gameId: string): Promise<TesterRecord[]> {
    await this.#ownGame(developer, gameId);
    return this.#arcade.testers.list(gameId);
  }

  /** Invites a wallet to test the game: no consent until its player accepts. */
  async inviteTester(
    developer: DeveloperRecord,
    gameId: string,
    wallet: string,
  ): Promise<TesterRecord> {
    await this.#ownGame(developer, gameId);
    return this.#arcade.testers.invite(gameId, wallet);
  }

  async removeTester(developer: DeveloperRecord, gameId: string, wallet: string): Promise<void> {
    await this.#ownGame(developer, gameId);
    await this.#arcade.testers.remove(gameId, wallet);
  }

  async #ownGame(developer: DeveloperRecord, gameId: string): Promise<GameRecord> {
    const game = await findGame(this.#arcade.db, gameId);
    if (!game || game.developerId !== developer.id) {
      throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
        details: { gameId },
      });
    }
    return game;
  }

  async #view(game: GameRecord): Promise<DeveloperGameView> {
    const [view] = await this.#views([game]);
    if (!view) throw new Error(`game ${game.id} has no view`);
    return view;
  }

  /** Tiers, clients, rules and verifier versions of any number of games, a query each. */
  async #views(games: readonly GameRecord[]): Promise<DeveloperGameView[]> {
    const ids = games.map((g) => g.id);
    const [tiers, clients, rules, verifiers] = await Promise.all([
      liveTiersOf(this.#arcade.db, ids),
      clientsOf(this.#arcade.db, ids),
      gameRules(this.#arcade.db, ids),
      currentVerifierVersions(this.#arcade.db, ids),
    ]);
    return games.map((game) => ({
      game,
      tiers: tiers.get(game.id) ?? [],
      clients: clients.get(game.id) ?? [],
      scoreRules: rules.get(game.id) ?? NO_SCORE_RULES,
      operatorPayoutHoldSeconds: this.#arcade.config.payoutHoldSeconds,
      verifierVersion: verifiers.get(game.id) ?? null,
    }));
  }

  async #tier(gameId: string, leaderboardId: string): Promise<TierRecord> {
    const tier = await findTier(this.#arcade.db, gameId, leaderboardId);
    if (!tier) throw tierNotFound(gameId, leaderboardId);
    return tier;
  }

  async #client(gameId: string, clientId: string): Promise<GameClientSummary> {
    const client = await findClient(this.#arcade.db, gameId, clientId);
    if (!client) throw clientNotFound(gameId, clientId);
    return client;
  }

  #changed(gameId: string): void {
    this.#registration.onGameChanged(gameId);
  }
}

function tierNotFound(gameId: string, leaderboardId: string): CoinopError {
  return new CoinopError(
    'leaderboard_not_found',
    `game ${gameId} has no leaderboard ${leaderboardId}`,
    { details: { leaderboardId, gameId } },
  );
}

function tierRetired(gameId: string, leaderboardId: string): CoinopError {
  return new CoinopError(
    'leaderboard_retired',
    `leaderboard ${leaderboardId} of game ${gameId} is retired and cannot change`,
    { details: { leaderboardId, gameId } },
  );
}

function clientNotFound(gameId: string, clientId: string): CoinopError {
  return new CoinopError('client_not_found', `game ${gameId} has no client ${clientId}`, {
    details: { clientId, gameId },
  });
}

export type { DeveloperRecord } from '../store/developers.js';
export type { GameClientSummary, TierRecord } from '../store/developer-games.js';
