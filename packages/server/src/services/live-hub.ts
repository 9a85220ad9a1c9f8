import type { Leader, LiveBoard } from '@coinop/protocol';
import { CACHE_CHANNEL, parseCacheNotice } from '../store/cache-notices.js';
import type { Db } from '../store/db.js';
import { LIVE_CHANNEL, parseLiveNotice, type LiveNotice } from '../store/live-notices.js';
import type { GameCache } from './game-cache.js';

/** One open stream, as the hub sees it: what it follows, and how to tell it. */
export interface LiveWatcher {
  /** The game whose boards it follows; null for none. */
  readonly gameId: string | null;
  /** The ledger account whose balance and notifications it follows; null for none. */
  readonly accountId: string | null;
  /** A followed board's leaders now. */
  board(board: LiveBoard): void;
  /** The account's balance or notifications may have changed: read them again. */
  account(): void;
  /** The game changed (published, unpublished, its tiers): check the viewer may still see it. */
  gameChanged(): void;
  /** The hub stops (the server closes): end the stream; the client resumes elsewhere. */
  close(): void;
}

/** The most streams one process holds: past it, a new one is refused (503) and goes elsewhere. */
export const LIVE_STREAMS_MAX = 20_000;
/**
 * The most streams one player holds in one process (a tab each): past it, a new one is refused
 * (429), so one account cannot take a process's streams or make its reads many times over.
 */
export const LIVE_STREAMS_PER_PLAYER = 10;

/**
 * Fans out live changes to this process's streams (docs/concepts/live-updates.md). It LISTENs on
 * the live channel (scores, payouts: `LiveAnnouncer`, `notifyLive`) and the cache channel (a void
 * changed a board, a game changed), from every process on the database. A board's leaders are
 * read once per change however many streams follow it, and never twice at once: changes that
 * arrive during a read make one more read after it. What each stream may see is the route's
 * business; the hub only says what changed.
 */
export class LiveHub {
  readonly #db: Db;
  readonly #games: GameCache;
  readonly #readLeaders: (gameId: string, leaderboardId: string) => Promise<Leader[]>;
  /** Each stream, with the boards it follows now. */
  readonly #watchers = new Map<LiveWatcher, readonly string[]>();
  readonly #byBoard = new Map<string, { gameId: string; watchers: Set<LiveWatcher> }>();
  readonly #byAccount = new Map<string, Set<LiveWatcher>>();
  readonly #boardReads = new Map<string, { again: boolean }>();
  /** Streams per player's account, counted from `reserve` until released. */
  readonly #perAccount = new Map<string, number>();
  #stops: (() => Promise<void>)[] = [];

  constructor(
    db: Db,
    games: GameCache,
    readLeaders: (gameId: string, leaderboardId: string) => Promise<Leader[]>,
  ) {
    this.#db = db;
    this.#games = games;
    this.#readLeaders = readLeaders;
  }

  async start(): Promise<void> {
    // Notices missed while a connection was down: every stream reads what it follows again.
    const onReconnect = () => this.#refreshAll();
    this.#stops.push(
      await this.#db.listen(LIVE_CHANNEL, (payload) => this.#onLive(payload), { onReconnect }),
      await this.#db.listen(CACHE_CHANNEL, (payload) => this.#onCache(payload), { onReconnect }),
    );
  }

  /** Ends every stream: the server is closing, and waits for its connections to end. */
  closeStreams(): void {
    for (const watcher of [...this.#watchers.keys()]) watcher.close();
  }

  /** Ends every stream and stops listening. */
  async stop(): Promise<void> {
    this.closeStreams();
    const stops = this.#stops;
    this.#stops = [];
    await Promise.all(stops.map((stop) => stop()));
  }

  /**
   * Counts one more stream of the account until the returned function is called (once), or
   * returns null when the account holds `LIVE_STREAMS_PER_PLAYER` in this process already. Counted
   * at once, before any read, so streams opened together cannot pass the limit.
   */
  reserve(accountId: string): (() => void) | null {
    const held = this.#perAccount.get(accountId) ?? 0;
    if (held >= LIVE_STREAMS_PER_PLAYER) return null;
    this.#perAccount.set(accountId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#perAccount.get(accountId) ?? 1) - 1;
      if (left > 0) this.#perAccount.set(accountId, left);
      else this.#perAccount.delete(accountId);
    };
  }

  /** How many streams this process holds now. */
  get size(): number {
    return this.#watchers.size;
  }

  /**
   * Follows what the watcher names until the returned function is called. The game's boards are
   * those it has now; throws `game_not_found` as the game cache does.
   */
  async watch(watcher: LiveWatcher): Promise<() => void> {
    const boards = watcher.gameId === null ? [] : await this.boardsOf(watcher.gameId);
    this.#follow(watcher, boards);
    if (watcher.accountId !== null) {
      const set = this.#byAccount.get(watcher.accountId) ?? new Set<LiveWatcher>();
      set.add(watcher);
      this.#byAccount.set(watcher.accountId, set);
    }
    return () => this.#unwatch(watcher);
  }

  #follow(watcher: LiveWatcher, boards: readonly string[]): void {
    this.#watchers.set(watcher, boards);
    for (const leaderboardId of boards) {
      const entry = this.#byBoard.get(leaderboardId) ?? {
        gameId: watcher.gameId ?? '',
        watchers: new Set<LiveWatcher>(),
      };
      entry.watchers.add(watcher);
      this.#byBoard.set(leaderboardId, entry);
    }
  }

  #unfollow(watcher: LiveWatcher): void {
    for (const id of this.#watchers.get(watcher) ?? []) {
      const entry = this.#byBoard.get(id);
      entry?.watchers.delete(watcher);
      if (entry?.watchers.size === 0) this.#byBoard.delete(id);
    }
  }

  /** A game's boards changed (a round closed and the next opened): its streams follow them. */
  async #refollow(gameId: string): Promise<void> {
    this.#games.invalidate(gameId);
    const boards = await this.boardsOf(gameId).catch(() => null);
    for (const [watcher, followed] of this.#watchers) {
      if (watcher.gameId !== gameId) continue;
      watcher.gameChanged();
      if (boards === null || boards.join() === followed.join()) continue;
      this.#unfollow(watcher);
      this.#follow(watcher, boards);
      for (const id of boards) if (!followed.includes(id)) this.#refreshBoard(id);
    }
  }

  /** The game's tiers, in the game's order, then its tournaments' open rounds. */
  async boardsOf(gameId: string): Promise<string[]> {
    const game = await this.#games.get(gameId);
    return [...game.leaderboards, ...(game.rounds ?? [])].map((b) => b.id);
  }

  /** The board as it stands now. */
  async board(gameId: string, leaderboardId: string): Promise<LiveBoard> {
    return { gameId, leaderboardId, leaders: await this.#readLeaders(gameId, leaderboardId) };
  }

  #unwatch(watcher: LiveWatcher): void {
    this.#unfollow(watcher);
    this.#watchers.delete(watcher);
    if (watcher.accountId !== null) {
      const set = this.#byAccount.get(watcher.accountId);
      set?.delete(watcher);
      if (set?.size === 0) this.#byAccount.delete(watcher.accountId);
    }
  }

  #onLive(payload: string): void {
    const notice = parseLiveNotice(payload);
    // A newer coinop on the same database says something this one cannot read.
    if (notice === null) this.#refreshAll();
    else this.#apply(notice);
  }

  #onCache(payload: string): void {
    const notice = parseCacheNotice(payload);
    if (notice?.kind === 'board') this.#apply({ boards: [notice.leaderboardId], accounts: [] });
    if (notice?.kind === 'game') void this.#refollow(notice.gameId);
  }

  /** Tells the streams of this process what changed, as a notice on the live channel would. */
  apply(notice: LiveNotice): void {
    this.#apply(notice);
  }

  #apply(notice: LiveNotice): void {
    for (const id of notice.boards) if (this.#byBoard.has(id)) this.#refreshBoard(id);
    for (const id of notice.accounts) {
      for (const watcher of this.#byAccount.get(id) ?? []) watcher.account();
    }
  }

  #refreshAll(): void {
    this.#apply({ boards: [...this.#byBoard.keys()], accounts: [...this.#byAccount.keys()] });
  }

  #refreshBoard(leaderboardId: string): void {
    const running = this.#boardReads.get(leaderboardId);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: false };
    this.#boardReads.set(leaderboardId, state);
    void (async () => {
      do {
        state.again = false;
        const entry = this.#byBoard.get(leaderboardId);
        if (!entry) break;
        try {
          const board = await this.board(entry.gameId, leaderboardId);
          for (const watcher of this.#byBoard.get(leaderboardId)?.watchers ?? []) {
            watcher.board(board);
          }
        } catch {
          // The game or tier went away, or the database: the next change reads again.
        }
      } while (state.again);
      this.#boardReads.delete(leaderboardId);
    })();
  }
}
