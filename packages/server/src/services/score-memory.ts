import { RankedBoard, type Clock, type NewBest } from '@coinop/core';
import type { Queryable } from '../store/db.js';
import {
  readBoard,
  type BatchRead,
  type BoardBest,
  type BoardEntry,
  type BoardVersion,
  type ScoreQuery,
  type ScoreStanding,
} from '../store/score-batch.js';
import type { StoredPlay } from '../store/plays.js';

/** A play this process opened, with what scoring it needs of its player. */
export interface RememberedPlay {
  readonly play: StoredPlay;
  readonly playerAccountId: string;
  readonly playerName: string;
  readonly playerAvatarUrl: string | null;
}

/** A batch's read, answered from memory, and the board versions its write must find. */
export interface RememberedRead {
  readonly read: BatchRead;
  readonly versions: ReadonlyMap<string, bigint>;
}

interface KeptBoard {
  version: bigint;
  readonly board: RankedBoard<BoardBest>;
}

/** Boards with more players than this are read from the database. */
const KEPT_BOARD_MAX_PLAYERS = 10_000;
const KEPT_BOARDS_MAX = 16;
const REMEMBERED_PLAYS_MAX = 20_000;
/** After another process wrote to a kept board, it is read from the database for this long. */
const CONTENDED_MS = 5_000;
/** A board found too big to keep is not tried again for this long. */
const TOO_BIG_MS = 300_000;

/**
 * What one API process knows of the plays it opened and the boards it scores on, so that a batch
 * of scores can be decided without reading the database first: the read is a round trip on the
 * path of every score. The write then checks it decided on current facts — each play still
 * open, each best still the one replaced, each board still at the version copied — and refuses
 * otherwise; the batch is then read and decided afresh. A board another process writes to as
 * well is read from the database for a while, since its copy would keep going stale.
 */
export class ScoreMemory {
  readonly #db: Queryable;
  readonly #clock: Clock;
  readonly #plays = new Map<string, RememberedPlay>();
  /** Most recently used last. */
  readonly #boards = new Map<string, KeptBoard>();
  /** Boards not to keep until the time given. */
  readonly #notBefore = new Map<string, number>();
  readonly #boardMaxPlayers: number;

  constructor(
    db: Queryable,
    clock: Clock,
    { boardMaxPlayers = KEPT_BOARD_MAX_PLAYERS }: { boardMaxPlayers?: number } = {},
  ) {
    this.#db = db;
    this.#clock = clock;
    this.#boardMaxPlayers = boardMaxPlayers;
  }

  rememberPlay(remembered: RememberedPlay): void {
    this.#plays.set(remembered.play.id, remembered);
    if (this.#plays.size > REMEMBERED_PLAYS_MAX) {
      this.#plays.delete(this.#plays.keys().next().value ?? '');
    }
  }

  /** A play this process opened and has not seen scored, as opened; undefined otherwise. */
  play(playId: string): StoredPlay | undefined {
    return this.#plays.get(playId)?.play;
  }

  forgetPlays(playIds: Iterable<string>): void {
    for (const id of playIds) this.#plays.delete(id);
  }

  /** The boards of those of these plays it remembers. */
  boardsOf(playIds: Iterable<string>): Set<string> {
    const boards = new Set<string>();
    for (const id of playIds) {
      const remembered = this.#plays.get(id);
      if (remembered !== undefined) boards.add(remembered.play.leaderboardId);
    }
    return boards;
  }

  /**
   * The batch's read from memory, or null when memory lacks any of it (a play opened elsewhere or
   * past its time, a board too big or contended): then the database is read. `leadersMax` gives
   * each board's leaders' size as the caller priced it.
   */
  async read(
    queries: readonly ScoreQuery[],
    leadersMax: (leaderboardId: string) => number | undefined,
  ): Promise<RememberedRead | null> {
    const now = this.#clock.now().getTime();
    const standings = new Map<string, ScoreStanding>();
    const tops = new Map<string, BoardEntry[]>();
    const versions = new Map<string, bigint>();
    for (const query of queries) {
      const remembered = this.#plays.get(query.playId);
      if (remembered === undefined) return null;
      const { play } = remembered;
      if (play.gameId !== query.gameId || play.expiresAt.getTime() <= now) return null;
      const kept = await this.#board(play.leaderboardId, now);
      const max = leadersMax(play.leaderboardId);
      if (kept === null || max === undefined) return null;
      const leaderAccountIds: string[] = [];
      for (const id of play.leaderPlayerIds) {
        const leader = kept.board.best(id);
        if (leader === null) return null;
        leaderAccountIds.push(leader.accountId);
      }
      const best = kept.board.best(play.playerId);
      standings.set(play.id, {
        scoring: {
          play,
          playerAccountId: remembered.playerAccountId,
          playerName: remembered.playerName,
          playerAvatarUrl: remembered.playerAvatarUrl,
          leaderAccountIds,
        },
        best:
          best === null
            ? null
            : { rankKey: best.rankKey, achievedAt: best.achievedAt, scoreId: best.scoreId },
        atOrAbove: kept.board.atOrAbove(query.key),
      });
      if (!tops.has(play.leaderboardId)) {
        const top = kept.board.top(max + 1);
        tops.set(
          play.leaderboardId,
          top.map(({ playerId, score, rankKey, achievedAt, name, avatarUrl }) => ({
            playerId,
            score,
            rankKey,
            achievedAt,
            name,
            avatarUrl,
          })),
        );
      }
      versions.set(play.leaderboardId, kept.version);
    }
    return { read: { standings, tops }, versions };
  }

  /**
   * A batch decided from memory committed, or was sent to commit ahead of the next batch's
   * decision (a write still in flight when the next batch is decided on top of it): each board
   * moved to the batch's version, and these are its players' new bests. If that write then
   * fails, the caller forgets its boards (`contended`), and the batches decided on top of it are
   * refused by their version check.
   */
  committed(
    boards: readonly BoardVersion[],
    bests: readonly NewBest[],
    players: ReadonlyMap<string, { accountId: string; name: string; avatarUrl: string | null }>,
  ): void {
    const now = this.#clock.now().getTime();
    for (const b of boards) {
      const kept = this.#boards.get(b.leaderboardId);
      if (kept === undefined || b.expected !== kept.version) {
        this.#boards.delete(b.leaderboardId);
        continue;
      }
      kept.version = b.next;
    }
    for (const best of bests) {
      const kept = this.#boards.get(best.leaderboardId);
      const player = players.get(best.playerId);
      if (kept === undefined) continue;
      if (player === undefined || kept.board.size >= this.#boardMaxPlayers) {
        // A board that outgrew its copy is read from the database from now on.
        this.#boards.delete(best.leaderboardId);
        if (player !== undefined) this.#notBefore.set(best.leaderboardId, now + TOO_BIG_MS);
        continue;
      }
      kept.board.place({
        playerId: best.playerId,
        score: best.score,
        rankKey: best.rankKey,
        achievedAt: best.achievedAt,
        scoreId: best.scoreId,
        accountId: player.accountId,
        name: player.name,
        avatarUrl: player.avatarUrl,
      });
    }
  }

  /** These boards changed in a way memory did not follow: copy them again when next used. */
  forgetBoards(leaderboardIds: Iterable<string>): void {
    for (const id of leaderboardIds) this.#boards.delete(id);
  }

  /**
   * A board's scores changed outside the score path (a void): its copy goes, and so do the
   * plays remembered on it, whose leaders the void may have corrected.
   */
  forgetBoardAndPlays(leaderboardId: string): void {
    this.#boards.delete(leaderboardId);
    for (const [id, remembered] of this.#plays) {
      if (remembered.play.leaderboardId === leaderboardId) this.#plays.delete(id);
    }
  }

  /** A write decided from memory was refused: its boards are read from the database a while. */
  contended(leaderboardIds: Iterable<string>): void {
    const until = this.#clock.now().getTime() + CONTENDED_MS;
    for (const id of leaderboardIds) {
      this.#boards.delete(id);
      this.#notBefore.set(id, until);
    }
  }

  async #board(leaderboardId: string, now: number): Promise<KeptBoard | null> {
    const kept = this.#boards.get(leaderboardId);
    if (kept !== undefined) {
      this.#boards.delete(leaderboardId);
      this.#boards.set(leaderboardId, kept);
      return kept;
    }
    const notBefore = this.#notBefore.get(leaderboardId);
    if (notBefore !== undefined) {
      if (now < notBefore) return null;
      this.#notBefore.delete(leaderboardId);
    }
    const copy = await readBoard(this.#db, leaderboardId, this.#boardMaxPlayers + 1);
    if (copy === null) return null;
    if (copy.bests.length > this.#boardMaxPlayers) {
      this.#notBefore.set(leaderboardId, now + TOO_BIG_MS);
      return null;
    }
    const loaded = { version: copy.version, board: new RankedBoard(copy.bests) };
    this.#boards.set(leaderboardId, loaded);
    if (this.#boards.size > KEPT_BOARDS_MAX) {
      this.#boards.delete(this.#boards.keys().next().value ?? '');
    }
    return loaded;
  }
}
