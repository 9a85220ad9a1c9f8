import {
  CoinopError,
  splitCost,
  type Clock,
  type Leaderboard,
  type SplitRule,
  type Units,
} from '@coinop/core';
import {
  findDeveloperName,
  listCatalogGames,
  type CatalogFilter,
  type CatalogGame,
} from '../store/catalog.js';
import { publishedGameActivity, type GameActivity } from '../store/catalog-activity.js';
import type { Db } from '../store/db.js';
import type { GameReads, GameView } from './game-reads.js';

/** The window the catalog counts plays and pools over: the last 7 days. */
export const CATALOG_WINDOW_MS = 7 * 86_400_000;
/**
 * How long one read of every published game's activity serves the catalog: the counts cost a
 * range scan per game, so a busy catalog runs them at most this often per process, never per play.
 */
export const CATALOG_ACTIVITY_TTL_MS = 30_000;

/** How the catalog is ordered (docs/concepts/discovery.md); `new` is the order it always had. */
export type CatalogSort = 'popular' | 'new' | 'pool';

/** A listed game with its week: plays begun and HST paid into its boards. */
export interface ListedGame extends CatalogGame {
  readonly playsThisWeek: number;
  readonly poolThisWeekUnits: Units;
}

/** One tier's split of a play begun now, by the settlement's own `splitCost`. */
export interface TierPayoutView {
  readonly board: Leaderboard;
  readonly leaders: readonly { readonly playerId: string; readonly units: Units }[];
  /** The leaders' part back to the player who pays, when nobody leads; else 0. */
  readonly returnedUnits: Units;
  readonly developerUnits: Units;
  readonly arcadeUnits: Units;
  readonly fullBoardLeaderUnits: Units;
}

const NO_ACTIVITY: GameActivity = { plays: 0, paidUnits: 0n };
// Stand-ins for the paying player's, the developer's and the arcade's accounts: the split only
// tells them apart.
const PAYEES = {
  playerAccountId: 'player',
  developerAccountId: 'developer',
  arcadeAccountId: 'arcade',
};

/**
 * The catalog's discovery reads (issue 31): games sorted by their week, a developer's page, and
 * what each tier of a game pays per play. Public: published games only.
 */
export class CatalogDiscovery {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #reads: GameReads;
  readonly #splitRule: SplitRule;
  #activity: {
    arcadeId: string;
    expiresAt: number;
    read: Promise<Map<string, GameActivity>>;
  } | null = null;

  constructor(db: Db, clock: Clock, reads: GameReads, splitRule: SplitRule) {
    this.#db = db;
    this.#clock = clock;
    this.#reads = reads;
    this.#splitRule = splitRule;
  }

  get splitRule(): SplitRule {
    return this.#splitRule;
  }

  /** Published games matching the filter, with their week, in the order asked for. */
  async catalog(arcadeId: string, filter: CatalogFilter, sort: CatalogSort): Promise<ListedGame[]> {
    const [games, activity] = await Promise.all([
      listCatalogGames(this.#db, arcadeId, filter),
      this.#weekOf(arcadeId),
    ]);
    const listed = games.map((game): ListedGame => {
      const week = activity.get(game.id) ?? NO_ACTIVITY;
      return { ...game, playsThisWeek: week.plays, poolThisWeekUnits: week.paidUnits };
    });
    // `listed` is newest first; a stable sort keeps that order among equals.
    if (sort === 'popular') listed.sort((a, b) => b.playsThisWeek - a.playsThisWeek);
    if (sort === 'pool')
      listed.sort((a, b) => compareUnits(b.poolThisWeekUnits, a.poolThisWeekUnits));
    return listed;
  }

  /** A developer's public page: their name, if any, and their published games, newest first. */
  async developerPage(
    arcadeId: string,
    developerId: string,
  ): Promise<{ name: string | null; games: ListedGame[] }> {
    const developer = await findDeveloperName(this.#db, developerId);
    const games = developer ? await this.catalog(arcadeId, { developerId }, 'new') : [];
    // A developer with nothing published is not public: answered as if there were none.
    if (!developer || games.length === 0) {
      throw new CoinopError('developer_not_found', `developer ${developerId} does not exist`, {
        details: { developerId },
      });
    }
    return { name: developer.name, games };
  }

  /** The published game's view; 404 game_not_found for an unpublished or foreign game. */
  async publishedGame(arcadeId: string, gameId: string): Promise<GameView> {
    const view = await this.#reads.gameView(gameId);
    if (view.game.publishedAt === null || view.game.arcadeId !== arcadeId) {
      throw new CoinopError('game_not_found', `game ${gameId} does not exist`);
    }
    return view;
  }

  /** What a play begun now on each tier of the published game pays, and to whom. */
  async payouts(arcadeId: string, gameId: string): Promise<TierPayoutView[]> {
    const view = await this.publishedGame(arcadeId, gameId);
    return view.leaderboards.map((board) => {
      const leaderIds = (view.leaders.get(board.id) ?? []).map((l) => l.playerId);
      const shares = splitCost(board.costUnits, leaderIds, PAYEES, this.#splitRule);
      const unitsOf = (role: 'player' | 'developer' | 'arcade') =>
        shares.find((s) => s.role === role)?.amount ?? 0n;
      const fullBoard = splitCost(
        board.costUnits,
        Array.from({ length: board.leadersMax }, (_, i) => `leader-${i}`),
        PAYEES,
        this.#splitRule,
      );
      return {
        board,
        leaders: [...new Set(leaderIds)].map((playerId) => ({
          playerId,
          units: shares.find((s) => s.role === 'leader' && s.accountId === playerId)?.amount ?? 0n,
        })),
        returnedUnits: unitsOf('player'),
        developerUnits: unitsOf('developer'),
        arcadeUnits: unitsOf('arcade'),
        fullBoardLeaderUnits: fullBoard.find((s) => s.role === 'leader')?.amount ?? 0n,
      };
    });
  }

  async #weekOf(arcadeId: string): Promise<Map<string, GameActivity>> {
    const now = this.#clock.now().getTime();
    const cached = this.#activity;
    if (cached && cached.arcadeId === arcadeId && cached.expiresAt > now) return cached.read;
    const read = publishedGameActivity(this.#db, arcadeId, new Date(now - CATALOG_WINDOW_MS));
    this.#activity = { arcadeId, expiresAt: now + CATALOG_ACTIVITY_TTL_MS, read };
    read.catch(() => {
      if (this.#activity?.read === read) this.#activity = null;
    });
    return read;
  }
}

function compareUnits(a: Units, b: Units): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
