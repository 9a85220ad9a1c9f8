import { createHash } from 'node:crypto';
import {
  CoinopError,
  InsufficientFundsError,
  allowanceDay,
  chargeRefusal,
  assertScorable,
  availableUnits,
  createTransfers,
  decideScoreBatch,
  leaderboardOf,
  rankKey,
  SettlementBatch,
  settlementSnapshot,
  settlementTransfers,
  type Clock,
  type GameRef,
  type Ids,
  type Play,
  type SplitRule,
  type TransferRequest,
  type Leaderboard,
  type PlacedScore,
} from '@coinop/core';
import type { Db, Queryable } from '../store/db.js';
import { AllowanceRaced, IdempotencyKeyTaken, WriteRaced } from '../store/errors.js';
import { applyTransfers, findAccount } from '../store/ledger.js';
import { insertApproval } from '../store/approvals.js';
import { findScoreByPlay, type StoredScore } from '../store/leaders.js';
import {
  openFreePlay,
  openPaidPlays,
  type ConsentPolicy,
  type OpenPlayRow,
} from '../store/open-plays.js';
import {
  lockPlaysForScores,
  readScoreBatch,
  writeScores,
  type BatchScore,
  type BoardEntry,
  type ScoreStanding,
  type ScoringPlay,
} from '../store/score-batch.js';
import {
  findPlayByIdempotencyKey,
  lockExpiredPlays,
  playerAccounts,
  setPlayStatus,
  type StoredPlay,
} from '../store/plays.js';
import type { GameCache } from './game-cache.js';
import { GroupCommit } from './group-commit.js';
import { ScoreMemory } from './score-memory.js';

export interface PlayPolicy {
  readonly playTtlSeconds: number;
  readonly splitRule: SplitRule;
  /** Daily allowance for players who chose none for a published game; null is unlimited. */
  readonly defaultAllowanceUnits: bigint | null;
  /** Where a player grants a game an allowance: the game's page in the arcade web app. */
  grantUrl(gameId: string): string;
}

/**
 * The player's wallet signature that approved a client-side play or score; recorded in the same
 * transaction as what it approved. The caller has checked the signature.
 */
export interface SignedApproval {
  readonly playerId: string;
  readonly wallet: string;
  readonly nonce: string;
  readonly message: string;
  readonly signature: string;
}

export interface OpenPlayInput {
  readonly gameId: string;
  readonly playerId: string;
  readonly leaderboardId: string;
  readonly idempotencyKey: string | null;
  /** With an approval: the cost the player signed for; the play locks exactly this or nothing. */
  readonly approval?: SignedApproval & { readonly costUnits: bigint };
}

export interface SubmitScoreInput {
  readonly gameId: string;
  readonly playId: string;
  /** The play's leaderboard as the caller knows it; null takes the play's own (client-side). */
  readonly leaderboardId: string | null;
  readonly score: number;
  readonly idempotencyKey: string | null;
  /** Client-side: the score must be for a play of this approval's player. */
  readonly approval?: SignedApproval;
}

/** The stored score, and whether this call recorded it or replayed an earlier identical call. */
export interface ScoreOutcome {
  readonly score: StoredScore;
  readonly leaderboardId: string;
  /** The board's leaders after this score; null on a replay (read them afresh). */
  readonly leaders: readonly BoardEntry[] | null;
  readonly replayed: boolean;
}

/**
 * The play/score path: opening a play locks its cost in escrow; a score (or expiry) settles it
 * and places the player on the board. Each use case commits atomically: one statement, or one
 * transaction.
 */
export class PlayService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #games: GameCache;
  readonly #policy: PlayPolicy;
  /**
   * Scores are group-committed. One queue for every game: the batches of different games would
   * contend for the arcade's account (and often for leaders' accounts) anyway.
   */
  readonly #scores: GroupCommit<ScoreJob, ScoreOutcome>;
  /** Server-to-server paid plays, group-committed (of any game). */
  readonly #plays: GroupCommit<PlayItem, OpenPlayRow>;
  /** The plays this process opened and the boards it scores on, to decide scores without a read. */
  readonly #memory: ScoreMemory;

  constructor(db: Db, clock: Clock, ids: Ids, games: GameCache, policy: PlayPolicy) {
    this.#db = db;
    this.#clock = clock;
    this.#ids = ids;
    this.#games = games;
    this.#policy = policy;
    this.#memory = new ScoreMemory(db, clock);
    // A batch of plays is one statement; one that fails as a whole (say, a retry racing on an
    // idempotency key) opens its plays again one by one.
    this.#plays = new GroupCommit({
      maxBatch: BATCH_MAX,
      key: (item) => item.play.playerId,
      commit: async (batch) =>
        (await openPaidPlays(this.#db.generic, batch, this.#consent())).map((row) => ({
          ok: true,
          value: row,
        })),
      commitAlone: (item) => item.alone(),
    });
    // A score refused by a domain rule (a CoinopError, thrown before it wrote anything) fails
    // alone; a batch whose write lost a race with another process runs again under locks
    // (`#runBatch`); after any other error its scores run again one at a time.
    this.#scores = new GroupCommit({
      maxBatch: BATCH_MAX,
      key: (job) => job.input.playId,
      commit: (jobs) => this.#runBatch(jobs),
      commitAlone: async (job) => {
        const [one] = await this.#runBatch([job]);
        if (one === undefined)
          throw new TypeError(`no answer for the score of ${job.input.playId}`);
        if (!one.ok) throw one.error;
        return one.value;
      },
    });
  }

  /**
   * Opens a play: the player must exist and be able to spend the tier's cost, which is locked
   * (a pending transfer) into the play's escrow. With an idempotency key, a retry returns the
   * play the first call opened instead of charging again. The tier is priced from this
   * process's game cache; the statement that opens the play checks it is still so priced, and
   * if another API process changed it, the tier is read again and the play opened afresh. The
   * game must be allowed to charge the player (docs/concepts/consent.md); the same statement
   * checks and spends the allowance.
   */
  async open(input: OpenPlayInput): Promise<StoredPlay> {
    // A signed play is not priced afresh: the player approved one cost.
    const tierAttempts = input.approval === undefined ? OPEN_ATTEMPTS : 1;
    let tierChanges = 0;
    let consentRaces = 0;
    for (;;) {
      const opened = await this.#openOnce(input);
      if (opened === CONSENT_RACED) {
        // Another process's play spent the allowance, or the player revoked it, as this one
        // spent it: each race follows a committed change, so deciding again settles it.
        if (++consentRaces < CONSENT_ATTEMPTS) continue;
        throw new CoinopError(
          'service_unavailable',
          `plays of player ${input.playerId} kept racing for one allowance; nothing was charged, retry`,
        );
      }
      if (opened !== TIER_CHANGED) return opened;
      this.#games.invalidate(input.gameId);
      if (++tierChanges >= tierAttempts) {
        throw new CoinopError(
          'leaderboard_changed',
          `leaderboardId ${input.leaderboardId} changed while the play was being opened; nothing was charged`,
          { details: { field: 'leaderboardId', leaderboardId: input.leaderboardId } },
        );
      }
    }
  }

  async #openOnce(
    input: OpenPlayInput,
  ): Promise<StoredPlay | typeof TIER_CHANGED | typeof CONSENT_RACED> {
    const requestHash = digest([input.playerId, input.leaderboardId]);
    if (input.idempotencyKey !== null) {
      const earlier = await findPlayByIdempotencyKey(this.#db, input.gameId, input.idempotencyKey);
      if (earlier) return replayedPlay(earlier, requestHash);
    }
    const game = await this.#games.getForNewPlay(input.gameId, input.leaderboardId);
    const board = leaderboardOf(game, input.leaderboardId);
    if (input.approval !== undefined && input.approval.costUnits !== board.costUnits) {
      return TIER_CHANGED;
    }
    const now = this.#clock.now();
    const play: StoredPlay = {
      id: this.#ids.next(),
      arcadeId: game.arcadeId,
      gameId: game.id,
      developerId: game.developerId,
      leaderboardId: board.id,
      playerId: input.playerId,
      costUnits: board.costUnits,
      lockTransferId: board.costUnits > 0n ? this.#ids.next() : null,
      leaderPlayerIds: [],
      status: 'open',
      expiresAt: new Date(now.getTime() + this.#policy.playTtlSeconds * 1000),
      createdAt: now,
      updatedAt: now,
      idempotencyKey: input.idempotencyKey,
      requestHash,
    };

    const signed = input.approval !== undefined;
    const openIn = async (q: Queryable) =>
      play.lockTransferId === null
        ? openFreePlay(q, play, board.leadersMax)
        : openPaidPlays(q, [{ play, leadersMax: board.leadersMax, signed }], this.#consent()).then(
            ([row]) => {
              if (!row) throw new TypeError(`no answer for play ${play.id}`);
              return row;
            },
          );
    const openAlone = () =>
      play.lockTransferId === null
        ? openIn(this.#db)
        : this.#plays.submit({
            play,
            leadersMax: board.leadersMax,
            signed,
            alone: () => openIn(this.#db),
          });
    const { approval } = input;
    let opened;
    try {
      // Server-to-server plays are group-committed (`#plays`); an approved play records
      // its signature with it, in a transaction of its own.
      opened =
        approval === undefined
          ? await openAlone()
          : await this.#db.transaction(async (tx) => {
              const result = await openIn(tx);
              if (result.tierCurrent && result.leaderPlayerIds !== null) {
                await recordApproval(tx, approval, 'play', play.id, now, this.#ids.next());
              }
              return result;
            });
    } catch (error) {
      // Two identical retries raced; the other one opened the play.
      if (input.idempotencyKey !== null && error instanceof IdempotencyKeyTaken) {
        const earlier = await findPlayByIdempotencyKey(
          this.#db,
          input.gameId,
          input.idempotencyKey,
        );
        if (earlier) return replayedPlay(earlier, requestHash);
      }
      if (error instanceof AllowanceRaced) return CONSENT_RACED;
      throw error;
    }
    if (opened.playerAccountId === null) {
      throw new CoinopError('player_not_found', `player ${input.playerId} does not exist`, {
        details: { field: 'playerId', playerId: input.playerId },
      });
    }
    if (!opened.tierCurrent) return TIER_CHANGED;
    if (opened.refusal !== null) {
      throw chargeRefusal(opened.refusal, {
        gameId: game.id,
        playerId: input.playerId,
        costUnits: board.costUnits,
        grantUrl: this.#policy.grantUrl(game.id),
      });
    }
    if (opened.leaderPlayerIds === null) {
      // Nothing was written: the conditional debit found less than the cost to spend.
      const account = await findAccount(this.#db, opened.playerAccountId);
      throw new InsufficientFundsError(
        opened.playerAccountId,
        account ? availableUnits(account) : 0n,
        board.costUnits,
      );
    }
    const result = { ...play, leaderPlayerIds: opened.leaderPlayerIds };
    if (opened.player !== undefined) {
      this.#memory.rememberPlay({
        play: result,
        playerAccountId: opened.playerAccountId,
        playerName: opened.player.name,
        playerAvatarUrl: opened.player.avatarUrl,
      });
    }
    return result;
  }

  /**
   * Scores a play once: records the player's best on the board, ranks the score, and settles the
   * play's escrow by the split rule. A retry with the same idempotency key replays the first
   * result. Scores are group-committed: those that arrive while the previous batch is
   * committing run together in one write (see `#runBatch`), each answered only once that write has
   * committed; a client-side score's signature is recorded in the same transaction.
   */
  async score(input: SubmitScoreInput): Promise<ScoreOutcome> {
    if (!Number.isFinite(input.score) || input.score < 0) {
      throw new CoinopError(
        'validation_failed',
        `score must be a finite number ≥ 0, got ${input.score}`,
        { details: { field: 'score' } },
      );
    }
    const game = await this.#games.get(input.gameId);
    const requestHash = digest([input.playId, input.leaderboardId ?? '', String(input.score)]);
    return this.#scores.submit({ input, game, requestHash });
  }

  /**
   * Runs a batch without a transaction: decided from memory when this process opened its plays
   * and keeps their boards (`ScoreMemory`), else from a read, then written by a statement that
   * refuses if anything it was decided on has changed (another API process on the same
   * database, or the expiry sweeper, got in between). Then, and for a batch with client-side
   * scores, whose signatures are recorded with them, it runs in a transaction that locks its
   * plays and bests first and reads them.
   */
  async #runBatch(jobs: readonly ScoreJob[]): Promise<Settled[]> {
    if (jobs.every((j) => j.input.approval === undefined)) {
      try {
        return await this.#scoreBatch(this.#db.generic, jobs, { fromMemory: true });
      } catch (error) {
        // A lost race, or a deadlock with another process's write: run again under locks.
        if (!(error instanceof WriteRaced)) throw error;
        this.#memory.contended(this.#memory.boardsOf(jobs.map((j) => j.input.playId)));
      }
    }
    return this.#db.transaction(async (tx) => {
      await lockPlaysForScores(
        tx,
        jobs.map((j) => ({ playId: j.input.playId, gameId: j.input.gameId })),
      );
      const settled = await this.#scoreBatch(tx, jobs, { fromMemory: false });
      // A client-side score keeps the player's signature with it. A nonce used before fails the
      // batch, which then reruns one by one, so only that score is refused.
      for (const [i, step] of settled.entries()) {
        const approval = jobs[i]?.input.approval;
        if (approval === undefined || !step.ok || step.value.replayed) continue;
        const { score } = step.value;
        await recordApproval(
          tx,
          approval,
          'score',
          score.playId,
          score.createdAt,
          this.#ids.next(),
        );
      }
      return settled;
    });
  }

  /**
   * Two statements whatever the batch's size: read everything the batch decides on, then write.
   * Each score is decided in order against the boards as the scores before it in the batch left
   * them (`BoardState`), exactly as if each had committed alone.
   */
  async #scoreBatch(
    q: Queryable,
    jobs: readonly ScoreJob[],
    { fromMemory }: { fromMemory: boolean },
  ): Promise<Settled[]> {
    const queries = jobs.map((j) => ({
      playId: j.input.playId,
      gameId: j.input.gameId,
      key: rankKey(j.input.score, j.game.scoreDisplay),
    }));
    const leadersMax = new Map(
      jobs.flatMap((j) => j.game.leaderboards.map((b) => [b.id, b.leadersMax] as const)),
    );
    const remembered = fromMemory
      ? await this.#memory.read(queries, (id) => leadersMax.get(id))
      : null;
    const read = remembered?.read ?? (await readScoreBatch(q, queries));
    const steps: (Settled | ReadyScore)[] = [];
    for (const job of jobs) {
      try {
        steps.push(await this.#ready(q, job, read.standings.get(job.input.playId) ?? null));
      } catch (error) {
        if (!(error instanceof CoinopError)) throw error;
        steps.push({ ok: false, error });
      }
    }
    const ready = steps.filter((s): s is ReadyScore => 'key' in s);
    if (ready.length === 0) return steps as Settled[];

    const scoreIds = ready.map(() => this.#ids.next());
    const decided = decideScoreBatch(
      ready.map(({ job, standing, board, key, now }, i) => ({
        leaderboardId: board.id,
        leadersMax: board.leadersMax,
        entry: {
          playerId: standing.scoring.play.playerId,
          score: job.input.score,
          rankKey: key,
          achievedAt: now,
          name: standing.scoring.playerName,
          avatarUrl: standing.scoring.playerAvatarUrl,
        },
        scoreId: scoreIds[i] as string,
        bestBefore: standing.best,
        atOrAboveBefore: standing.atOrAbove,
      })),
      read.tops,
    );
    const scores: BatchScore[] = [];
    const ledger = new SettlementBatch();
    let nth = 0;
    const settled = steps.map((step): Settled => {
      if (!('key' in step)) return step;
      const { job, standing, board, game, now } = step;
      const { play } = standing.scoring;
      const { rank, isWinner, leaders } = decided.placed[nth] as PlacedScore<BoardEntry>;
      const scoreId = scoreIds[nth] as string;
      nth += 1;
      const outcome = this.#settlement(play, standing.scoring, game);
      ledger.add(outcome.toInsert, outcome.deltas, now);
      const stored: StoredScore = {
        id: scoreId,
        playId: play.id,
        leaderboardId: board.id,
        score: job.input.score,
        leaderRank: rank,
        isWinner,
        idempotencyKey: job.input.idempotencyKey,
        requestHash: job.requestHash,
        createdAt: now,
      };
      scores.push({
        scoreId,
        playId: play.id,
        leaderboardId: board.id,
        playerId: play.playerId,
        score: stored.score,
        leaderRank: rank,
        isWinner,
        idempotencyKey: stored.idempotencyKey,
        requestHash: job.requestHash,
        now,
      });
      return {
        ok: true,
        value: { score: stored, leaderboardId: board.id, leaders, replayed: false },
      };
    });
    const versions = [...new Set(ready.map((s) => s.board.id))].map((leaderboardId) => ({
      leaderboardId,
      expected: remembered?.versions.get(leaderboardId) ?? null,
    }));
    await writeScores(q, {
      scores,
      bests: decided.bests,
      buckets: decided.buckets,
      transfers: ledger.transfers,
      transferTimes: ledger.times,
      deltas: ledger.deltas,
      boards: versions,
    });
    if (remembered === null) {
      this.#memory.forgetBoards(versions.map((b) => b.leaderboardId));
    } else {
      const players = new Map(
        ready.map(({ standing: { scoring } }) => [
          scoring.play.playerId,
          {
            accountId: scoring.playerAccountId,
            name: scoring.playerName,
            avatarUrl: scoring.playerAvatarUrl,
          },
        ]),
      );
      try {
        this.#memory.committed(versions, decided.bests, players);
      } catch {
        // The batch is committed whatever memory makes of it: copy its boards afresh.
        this.#memory.forgetBoards(versions.map((b) => b.leaderboardId));
      }
    }
    this.#memory.forgetPlays(ready.map((s) => s.standing.scoring.play.id));
    return settled;
  }

  /**
   * Checks a batched score against its locked play: every rule that can refuse it (a
   * CoinopError) is decided here, before the batch writes anything. A replay of an earlier
   * identical call is answered here too.
   */
  async #ready(
    q: Queryable,
    job: ScoreJob,
    standing: ScoreStanding | null,
  ): Promise<Settled | ReadyScore> {
    const { input, game, requestHash } = job;
    const now = this.#clock.now();
    if (!standing) {
      throw new CoinopError(
        'play_not_found',
        `play ${input.playId} does not exist in game ${input.gameId}`,
        { details: { field: 'playId', playId: input.playId } },
      );
    }
    const { play } = standing.scoring;
    if (input.approval !== undefined && input.approval.playerId !== play.playerId) {
      throw new CoinopError(
        'play_of_another_player',
        `play ${play.id} belongs to another player; a player scores only their own plays`,
        { details: { field: 'playId', playId: play.id } },
      );
    }
    if (play.status === 'scored' && input.idempotencyKey !== null) {
      const earlier = await findScoreByPlay(q, play.id);
      if (earlier && earlier.idempotencyKey === input.idempotencyKey) {
        if (earlier.requestHash !== requestHash) throw keyReused(input.idempotencyKey);
        return {
          ok: true,
          value: {
            score: earlier,
            leaderboardId: play.leaderboardId,
            leaders: null,
            replayed: true,
          },
        };
      }
    }
    assertScorable(play, input.leaderboardId ?? play.leaderboardId, now);
    const fresh = game.leaderboards.some((b) => b.id === play.leaderboardId)
      ? game
      : await this.#games.getWithLeaderboard(input.gameId, play.leaderboardId);
    const board = leaderboardOf(fresh, play.leaderboardId);
    return {
      job,
      standing,
      board,
      game: fresh,
      key: rankKey(input.score, fresh.scoreDisplay),
      now,
    };
  }

  /** The ledger transfers that settle a play's escrow by the split rule, decided. */
  #settlement(play: Play, locked: ScoringPlay, game: GameRef) {
    const transfers = settlementTransfers(
      play,
      locked.leaderAccountIds,
      locked.playerAccountId,
      game,
      this.#policy.splitRule,
      () => this.#ids.next(),
    );
    const outcome = createTransfers(
      transfers,
      settlementSnapshot(
        [{ play, playerAccountId: locked.playerAccountId }],
        [...locked.leaderAccountIds, game.developerAccountId, game.arcadeAccountId],
      ),
    );
    if (!outcome.ok)
      throw new TypeError(`settlement of play ${play.id}: ${outcome.results.join(', ')}`);
    return outcome;
  }

  /**
   * Settles up to `limit` open plays whose time ran out: their locked HST is posted and paid out
   * as for a score, and they become `expired`. Returns how many it settled.
   */
  async settleExpired(limit = 500): Promise<number> {
    return this.#db.transaction(async (tx) => {
      const now = this.#clock.now();
      const plays = await lockExpiredPlays(tx, now, limit);
      const byGame = new Map<string, StoredPlay[]>();
      for (const play of plays) byGame.set(play.gameId, [...(byGame.get(play.gameId) ?? []), play]);
      for (const [gameId, gamePlays] of byGame) {
        const game = await this.#games.get(gameId);
        await this.#settle(tx, gamePlays, game, now);
        for (const play of gamePlays) await setPlayStatus(tx, play.id, 'expired', now);
      }
      return plays.length;
    });
  }

  /** The consent policy a play statement applies now. */
  #consent(): ConsentPolicy {
    return {
      defaultAllowanceUnits: this.#policy.defaultAllowanceUnits,
      day: allowanceDay(this.#clock.now()),
    };
  }

  /** Posts each play's locked cost and pays it out, in one linked batch. */
  async #settle(tx: Queryable, plays: readonly Play[], game: GameRef, now: Date): Promise<void> {
    const players = [...new Set(plays.flatMap((p) => [p.playerId, ...p.leaderPlayerIds]))];
    const accounts = await playerAccounts(tx, players);
    const transfers: TransferRequest[] = [];
    for (const play of plays) {
      const playerAccountId = accounts.get(play.playerId);
      if (!playerAccountId)
        throw new TypeError(`player ${play.playerId} of play ${play.id} has no account`);
      const leaderAccountIds = play.leaderPlayerIds
        .map((id) => accounts.get(id))
        .filter((id): id is string => id !== undefined);
      transfers.push(
        ...settlementTransfers(
          play,
          leaderAccountIds,
          playerAccountId,
          game,
          this.#policy.splitRule,
          () => this.#ids.next(),
        ),
      );
    }
    await applyTransfers(tx, transfers, now);
  }
}

/** A play's allowance spend raced another process's (or a revocation): decide it again. */
const CONSENT_RACED = Symbol('consent raced');
/** Each consent race follows a committed spend or revocation; a few always settle it. */
const CONSENT_ATTEMPTS = 5;

/** How many times a play is priced afresh when another process keeps changing its tier. */
const OPEN_ATTEMPTS = 3;
const TIER_CHANGED = Symbol('tier changed');

/** The most scores (or plays) one batch commits together. */
const BATCH_MAX = 64;

interface ScoreJob {
  readonly input: SubmitScoreInput;
  readonly game: GameRef;
  readonly requestHash: string;
}

type Settled = { ok: true; value: ScoreOutcome } | { ok: false; error: CoinopError };

/** A batched score that passed every rule, with what deciding it needs. */
interface ReadyScore {
  readonly job: ScoreJob;
  readonly standing: ScoreStanding;
  readonly board: Leaderboard;
  readonly game: GameRef;
  readonly key: bigint;
  readonly now: Date;
}

interface PlayItem {
  readonly play: StoredPlay;
  readonly leadersMax: number;
  /** The player approved this play with a wallet signature: it needs no allowance. */
  readonly signed: boolean;
  /** Opens this play in a statement of its own. */
  alone(): Promise<OpenPlayRow>;
}

async function recordApproval(
  tx: Queryable,
  approval: SignedApproval,
  kind: 'play' | 'score',
  subjectId: string,
  now: Date,
  id: string,
): Promise<void> {
  const recorded = await insertApproval(tx, { ...approval, id, kind, subjectId, createdAt: now });
  if (!recorded) {
    // The nonce doubles as the idempotency key, so a true retry was answered before this point.
    throw new CoinopError(
      'idempotency_key_reused',
      `approval nonce ${approval.nonce} was already used for another ${kind}`,
      { details: { field: 'nonce' } },
    );
  }
}

function replayedPlay(earlier: StoredPlay, requestHash: string): StoredPlay {
  if (earlier.requestHash !== requestHash) throw keyReused(earlier.idempotencyKey ?? '');
  return earlier;
}

function keyReused(key: string): CoinopError {
  return new CoinopError(
    'idempotency_key_reused',
    `Idempotency-Key ${key} was already used for a different request`,
    { details: { idempotencyKey: key } },
  );
}

function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url');
}

export type { StoredPlay, StoredScore };
