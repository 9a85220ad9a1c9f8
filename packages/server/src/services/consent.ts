import {
  CoinopError,
  allowanceDay,
  allowanceWithinReach,
  assertConsentFrom,
  chargeVerdict,
  dailyLimit,
  gameReaches,
  voidLockTransfer,
  type Clock,
  type ConsentActor,
  type ConsentFacts,
  type Ids,
  type TransferRequest,
} from '@coinop/core';
import type { Db } from '../store/db.js';
import { applyTransfers } from '../store/ledger.js';
import {
  allowancesOf,
  consentFacts,
  findAllowance,
  lockOpenPlaysOfGame,
  markGameResumed,
  markGameSuspended,
  setAllowance,
  type StoredAllowance,
} from '../store/consent.js';
import { findGame } from '../store/games.js';
import { notifyGameChanged } from '../store/cache-notices.js';
import { notifyLive } from '../store/live-notices.js';
import { setPlayStatus } from '../store/plays.js';
import type { GameCache } from './game-cache.js';

/** An allowance as a player sees it: their choice, the limit in force and today's spending. */
export interface AllowanceView {
  readonly gameId: string;
  readonly gameName: string;
  /** 'player': the player chose `dailyUnits`; 'default': the operator's default applies. */
  readonly source: 'player' | 'default';
  /** The daily limit in force; null is unlimited (an operator's default only). */
  readonly dailyLimitUnits: bigint | null;
  readonly spentTodayUnits: bigint;
  readonly decidedAt: Date | null;
}

/**
 * Consent to charges (docs/concepts/consent.md): a player's allowances for games and the
 * operator's suspensions (testers: testers.ts). The play statement enforces them; this service
 * changes them, through the consent rule (`assertConsentFrom`), and answers questions about them.
 */
export class ConsentService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #games: GameCache;
  readonly #defaultAllowanceUnits: bigint | null;

  constructor(
    db: Db,
    clock: Clock,
    ids: Ids,
    games: GameCache,
    defaultAllowanceUnits: bigint | null,
  ) {
    this.#db = db;
    this.#clock = clock;
    this.#ids = ids;
    this.#games = games;
    this.#defaultAllowanceUnits = defaultAllowanceUnits;
  }

  /** The operator's default daily allowance; null is unlimited. */
  get defaultAllowanceUnits(): bigint | null {
    return this.#defaultAllowanceUnits;
  }

  /** The player's allowances, the ones they chose and the ones the game spent under the default. */
  async allowances(playerId: string): Promise<AllowanceView[]> {
    const stored = await allowancesOf(this.#db, playerId, this.#today());
    return stored.map((a) => this.#view(a));
  }

  /**
   * The player's allowance for one game, chosen or default; the game must exist and, unpublished,
   * have the player as an insider.
   */
  async allowance(playerId: string, gameId: string): Promise<AllowanceView> {
    const game = await findGame(this.#db, gameId);
    if (!game) throw gameNotFound(gameId);
    await this.#assertWithinReach(gameId, playerId);
    const stored = await findAllowance(this.#db, playerId, gameId, this.#today());
    return this.#view(
      stored ?? {
        gameId,
        gameName: game.name,
        dailyUnits: null,
        decidedAt: null,
        spentTodayUnits: 0n,
      },
    );
  }

  /**
   * The player allows the game `dailyUnits` a day; 0 revokes. Takes effect for the next play.
   * Only the player may, with their own session (`consent_requires_player`).
   */
  async grant(
    actor: ConsentActor,
    grant: { readonly playerId: string; readonly gameId: string },
    dailyUnits: bigint,
  ): Promise<AllowanceView> {
    assertConsentFrom({ kind: 'allowance', ...grant }, actor);
    const { playerId, gameId } = grant;
    await this.#assertWithinReach(gameId, playerId, dailyUnits);
    const now = this.#clock.now();
    const stored = await setAllowance(this.#db, {
      playerId,
      gameId,
      dailyUnits,
      day: allowanceDay(now),
      now,
    });
    return this.#view(stored);
  }

  /** Whether the game may charge the player now (a play of `costUnits`), as the play would find. */
  async mayCharge(gameId: string, playerId: string, costUnits = 0n): Promise<boolean> {
    const facts = await this.facts(gameId, playerId);
    return facts !== null && chargeVerdict(facts, costUnits, this.#defaultAllowanceUnits).ok;
  }

  /**
   * Whether the game may charge the player at all: not suspended, published or the player an
   * insider, and the player's daily limit for it above zero.
   */
  async reaches(gameId: string, playerId: string): Promise<boolean> {
    const facts = await this.facts(gameId, playerId);
    if (facts === null || facts.suspended) return false;
    if (!gameReaches(facts)) return false;
    const limit = dailyLimit(facts, this.#defaultAllowanceUnits);
    return limit === null || limit > 0n;
  }

  facts(gameId: string, playerId: string): Promise<ConsentFacts | null> {
    return consentFacts(this.#db, gameId, playerId, this.#today());
  }

  /**
   * Suspends the game: no new plays from now on (the play statement checks), and every open play
   * is voided, its lock returned to its player. Returns how many plays were voided. Suspending a
   * suspended game voids what is left open and keeps the first date.
   */
  async suspend(gameId: string): Promise<{ voidedPlays: number }> {
    const now = this.#clock.now();
    // Committed before the open plays are voided, so no new play opens meanwhile.
    await this.#db.transaction(async (tx) => {
      if (!(await markGameSuspended(tx, gameId, now))) throw gameNotFound(gameId);
      await notifyGameChanged(tx, gameId);
    });
    this.#games.invalidate(gameId);
    const voidedPlays = await this.#db.transaction(async (tx) => {
      const open = await lockOpenPlaysOfGame(tx, gameId);
      const transfers = open
        .map(({ play, playerAccountId }) =>
          voidLockTransfer(play, playerAccountId, this.#ids.next()),
        )
        .filter((t): t is TransferRequest => t !== null);
      await applyTransfers(tx, transfers, now);
      for (const { play } of open) await setPlayStatus(tx, play.id, 'voided', now);
      // Each player hears of their refund live, at commit.
      await notifyLive(tx, { boards: [], accounts: transfers.map((t) => t.debitAccountId) });
      return open.length;
    });
    return { voidedPlays };
  }

  /** Lifts a suspension: the game takes plays again. */
  async resume(gameId: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      if (!(await markGameResumed(tx, gameId, this.#clock.now()))) throw gameNotFound(gameId);
      await notifyGameChanged(tx, gameId);
    });
    this.#games.invalidate(gameId);
  }

  /**
   * An unpublished game is unknown to everyone but its insiders, here as on its page: its name
   * and the player's allowance for it answer 404 to anyone else, except an allowance the player
   * already holds, which they may always see, lower and revoke (`allowanceWithinReach`).
   */
  async #assertWithinReach(gameId: string, playerId: string, dailyUnits?: bigint): Promise<void> {
    const facts = await this.facts(gameId, playerId);
    if (facts === null || !allowanceWithinReach(facts, dailyUnits)) throw gameNotFound(gameId);
  }

  #view(a: StoredAllowance): AllowanceView {
    return {
      gameId: a.gameId,
      gameName: a.gameName,
      source: a.dailyUnits === null ? 'default' : 'player',
      dailyLimitUnits: a.dailyUnits ?? this.#defaultAllowanceUnits,
      spentTodayUnits: a.spentTodayUnits,
      decidedAt: a.decidedAt,
    };
  }

  #today(): string {
    return allowanceDay(this.#clock.now());
  }
}

function gameNotFound(gameId: string): CoinopError {
  return new CoinopError('game_not_found', `game ${gameId} does not exist`, {
    details: { gameId },
  });
}
