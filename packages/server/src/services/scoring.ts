import {
  CoinopError,
  assertRoundTakesScore,
  assertScorable,
  decideScoreBatch,
  leaderboardOf,
  playerScoreRefusal,
  rankKey,
  SettlementBatch,
  type GameRef,
  type Leaderboard,
  type PlacedScore,
  unpromptedPayees,
} from '@coinop/core';
import type { Queryable } from '../store/db.js';
import { WriteRaced } from '../store/errors.js';
import { findScoreByPlay, type StoredScore } from '../store/leaders.js';
import {
  lockPlaysForScores,
  readScoreBatch,
  nextBoardVersion,
  writeScores,
  type BatchRead,
  type BatchScore,
  type BoardEntry,
  type ScoreStanding,
} from '../store/score-batch.js';

import { GroupCommit } from './group-commit.js';
import type { BatchDecision, ScoreJob, Settled } from './scoring-shapes.js';
import { decideSettlement } from './score-settlement.js';
import type { RememberedRead } from './score-memory.js';
import {
  BATCH_MAX,
  digest,
  keyReused,
  recordApproval,
  type PlayPathDeps,
  type ScoreOutcome,
  type SubmitScoreInput,
} from './play-requests.js';

/**
 * Scoring plays: each score is ranked on its board and settles its play's escrow by the split
 * rule; scores are group-committed, decided in the core and written in one statement.
 */
export class Scoring {
  readonly #deps: PlayPathDeps;
  /**
   * Scores are group-committed. One queue for every game: the batches of different games would
   * contend for the arcade's account (and often for leaders' accounts) anyway.
   */
  readonly #scores: GroupCommit<ScoreJob, ScoreOutcome>;
  /** Settles once the last batch to start has been decided (`#inTurn`). */
  #turn: Promise<void> = Promise.resolve();

  constructor(deps: PlayPathDeps) {
    this.#deps = deps;
    // A score refused by a domain rule (a CoinopError, thrown before it wrote anything) fails
    // alone; a batch whose write lost a race with another process runs again under locks
    // (`#runBatch`); after any other error its scores run again one at a time.
    this.#scores = new GroupCommit({
      maxBatch: BATCH_MAX,
      maxInFlight: deps.db.ordered.depth,
      key: (job) => job.input.playId,
      commit: (jobs) => this.#runBatch(jobs),
      commitAlone: async (job) => {
        const [one] = await this.#runBatch([job]);
        if (one === undefined)
          throw new TypeError(`no answer for the score of ${job.input.playId}`);
        if (!one.ok) throw one.error;
        return one.value;
      },
      onBatch: (size) => deps.metrics?.batchCommitted('scores', size),
    });
    deps.metrics?.watchQueue('scores', this.#scores);
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
    const game = await this.#deps.games.get(input.gameId);
    // A game without score rules, and a score without a replay, pass no gate: today's path.
    if (game.scoreRules !== undefined || (input.replay ?? null) !== null) {
      await this.#deps.gate.check(input, game);
    }
    const requestHash = digest([input.playId, input.leaderboardId ?? '', String(input.score)]);
    return this.#scores.submit({ input, game, requestHash });
  }

  /**
   * Runs a batch without a transaction: decided from memory when this process opened its plays
   * and keeps their boards (`ScoreMemory`), else from a read, then written by a statement that
   * refuses if anything it was decided on has changed (another API process on the same
   * database, or the expiry sweeper, got in between). Such batches are decided in turn and
   * written on the ordered connection, up to its depth in flight (`#inTurn`). Then, and for a batch with client-side
   * scores, whose signatures are recorded with them, it runs in a transaction that locks its
   * plays and bests first and reads them.
   */
  async #runBatch(jobs: readonly ScoreJob[]): Promise<Settled[]> {
    const touched: Touched = { boards: [], accounts: [] };
    const settled = await this.#commitBatch(jobs, touched);
    // Once committed, never before: a live stream reads what the notice names.
    this.#deps.live?.touched(touched.boards, touched.accounts);
    return settled;
  }

  async #commitBatch(jobs: readonly ScoreJob[], touched: Touched): Promise<Settled[]> {
    if (jobs.every((j) => j.input.approval === undefined)) {
      try {
        return await this.#inTurn((decided) =>
          this.#scoreBatch(this.#deps.db.ordered, jobs, { fromMemory: true, decided, touched }),
        );
      } catch (error) {
        // A lost race, or a deadlock with another process's write: run again under locks.
        if (!(error instanceof WriteRaced)) throw error;
        this.#deps.memory.contended(this.#deps.memory.boardsOf(jobs.map((j) => j.input.playId)));
      }
    }
    return this.#deps.db.transaction(async (tx) => {
      await lockPlaysForScores(
        tx,
        jobs.map((j) => ({ playId: j.input.playId, gameId: j.input.gameId })),
      );
      const settled = await this.#scoreBatch(tx, jobs, { fromMemory: false, touched });
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
          this.#deps.ids.next(),
        );
      }
      return settled;
    });
  }

  /**
   * Batches are decided one at a time, in the order they started, each on the boards as the
   * batches before it left them, though those may still be committing: their writes go first on
   * the same ordered connection (`Db.ordered`), and a batch decided on top of one that then fails
   * is refused by its version check. `work` calls `decided` once its write is sent.
   */
  async #inTurn<T>(work: (decided: () => void) => Promise<T>): Promise<T> {
    const previous = this.#turn;
    let decided = (): void => undefined;
    this.#turn = new Promise<void>((resolve) => (decided = resolve));
    await previous;
    try {
      return await work(decided);
    } finally {
      decided();
    }
  }

  /**
   * Two statements whatever the batch's size: read everything the batch decides on, then write.
   * Each score is decided in order against the boards as the scores before it in the batch left
   * them (`decideScoreBatch` in the core), exactly as if each had committed alone.
   */
  async #scoreBatch(
    q: Queryable,
    jobs: readonly ScoreJob[],
    {
      fromMemory,
      decided: decidedTurn,
      touched,
    }: { fromMemory: boolean; decided?: () => void; touched: Touched },
  ): Promise<Settled[]> {
    const { steps, read, remembered } = await this.#readBatch(q, jobs, fromMemory);
    const ready = steps.filter((s): s is ReadyScore => 'key' in s);
    if (ready.length === 0) return steps as Settled[];
    const decision = this.#decideBatch(steps, ready, read.tops);
    await this.#writeBatch(q, ready, decision, remembered, decidedTurn);
    touchedBy(ready, decision, touched);
    return decision.settled;
  }

  /**
   * Reads what the batch decides on, from memory when it may (`ScoreMemory`) or else from the
   * database, and checks each score against its play (`#ready`): a refused score is settled
   * here, the rest are ready to decide.
   */
  async #readBatch(q: Queryable, jobs: readonly ScoreJob[], fromMemory: boolean) {
    const queries = jobs.map((j) => ({
      playId: j.input.playId,
      gameId: j.input.gameId,
      key: rankKey(j.input.score, j.game.scoreDisplay),
    }));
    const leadersMax = new Map(
      jobs.flatMap((j) =>
        [...j.game.leaderboards, ...(j.game.rounds ?? [])].map(
          (b) => [b.id, b.leadersMax] as const,
        ),
      ),
    );
    const remembered = fromMemory
      ? await this.#deps.memory.read(queries, (id) => leadersMax.get(id))
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
    return { steps, read, remembered };
  }

  /**
   * Decides the ready scores, in order, on the boards as read: each one's rank, the new bests and
   * count-tree deltas (`decideScoreBatch`), and its settlement by the split rule; and each step's
   * answer. Writes nothing.
   */
  #decideBatch(
    steps: readonly (Settled | ReadyScore)[],
    ready: readonly ReadyScore[],
    tops: BatchRead['tops'],
  ): BatchDecision {
    const scoreIds = ready.map(() => this.#deps.ids.next());
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
      tops,
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
      const { outcome, releaseAt } = decideSettlement(
        { play, locked: standing.scoring, game, board, now },
        this.#deps.policy,
        () => this.#deps.ids.next(),
      );
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
        payoutsReleaseAt: releaseAt,
        replay: job.input.replay ?? null,
      });
      return {
        ok: true,
        value: { score: stored, leaderboardId: board.id, leaders, replayed: false },
      };
    });
    return { settled, scores, ledger, decided };
  }

  /**
   * Writes a decided batch in one statement, guarded by each board's version when it was decided
   * from memory, and keeps memory in step with what it wrote. In turn (`decidedTurn`), the next
   * batch may be decided as soon as this one's write is sent.
   */
  async #writeBatch(
    q: Queryable,
    ready: readonly ReadyScore[],
    { scores, ledger, decided }: BatchDecision,
    remembered: RememberedRead | null,
    decidedTurn: (() => void) | undefined,
  ): Promise<void> {
    const versions = [...new Set(ready.map((s) => s.board.id))].map((leaderboardId) => ({
      leaderboardId,
      expected: remembered?.versions.get(leaderboardId) ?? null,
      next: nextBoardVersion(),
    }));
    const written = writeScores(q, {
      scores,
      bests: decided.bests,
      buckets: decided.buckets,
      transfers: ledger.transfers,
      transferTimes: ledger.times,
      deltas: ledger.deltas,
      boards: versions,
    });
    const boards = versions.map((b) => b.leaderboardId);
    const remember = () => {
      if (remembered === null) {
        this.#deps.memory.forgetBoards(boards);
        return;
      }
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
        this.#deps.memory.committed(versions, decided.bests, players);
      } catch {
        // Whatever memory makes of the batch, its boards are copied afresh.
        this.#deps.memory.forgetBoards(boards);
      }
    };
    if (decidedTurn === undefined) {
      await written;
      remember();
    } else {
      // In turn, the next batch is decided on the boards as this one leaves them, while this
      // one commits: its write follows this one on the ordered connection.
      remember();
      decidedTurn();
      try {
        await written;
      } catch (error) {
        // Memory holds what this batch would have left: copy its boards afresh.
        this.#deps.memory.forgetBoards(boards);
        throw error;
      }
    }
    this.#deps.memory.forgetPlays(ready.map((s) => s.standing.scoring.play.id));
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
    const now = this.#deps.clock.now();
    if (!standing) {
      throw new CoinopError(
        'play_not_found',
        `play ${input.playId} does not exist in game ${input.gameId}`,
        { details: { field: 'playId', playId: input.playId } },
      );
    }
    const { play } = standing.scoring;
    if (input.approval !== undefined) {
      const refusal = playerScoreRefusal(play, input.approval.playerId);
      if (refusal !== null) throw refusal;
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
    // A play that is not open is refused by its status alone, whatever its board.
    if (play.status !== 'open')
      assertScorable(play, input.leaderboardId ?? play.leaderboardId, now);
    const isCached = (b: Leaderboard) => b.id === play.leaderboardId;
    const fresh =
      game.leaderboards.some(isCached) || game.rounds?.some(isCached) === true
        ? game
        : await this.#deps.games.getWithLeaderboard(input.gameId, play.leaderboardId);
    const board = leaderboardOf(fresh, play.leaderboardId);
    let named = input.leaderboardId ?? play.leaderboardId;
    if (board.round !== undefined) {
      assertRoundTakesScore(play, board.round, now);
      // A game server may name the round by its tournament, as it opened the play.
      if (named === board.round.tournamentId) named = board.id;
    }
    assertScorable(play, named, now);
    return {
      job,
      standing,
      board,
      game: fresh,
      key: rankKey(input.score, fresh.scoreDisplay),
      now,
    };
  }
}

/** The boards and ledger accounts a written batch changed, for the live streams. */
interface Touched {
  boards: string[];
  accounts: string[];
}

/**
 * What the batch changed that someone may watch: its boards, and the accounts its payouts
 * credited. Only live streams read it; nothing here costs a query.
 */
function touchedBy(ready: readonly ReadyScore[], decision: BatchDecision, touched: Touched): void {
  for (const s of ready) touched.boards.push(s.board.id);
  touched.accounts.push(...unpromptedPayees(decision.ledger.transfers));
}

/** A batched score that passed every rule, with what deciding it needs. */
interface ReadyScore {
  readonly job: ScoreJob;
  readonly standing: ScoreStanding;
  readonly board: Leaderboard;
  readonly game: GameRef;
  readonly key: bigint;
  readonly now: Date;
}
