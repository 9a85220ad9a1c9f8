import { CoinopError } from '@coinop/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidIds } from '../../src/ids.js';
import { GameCache } from '../../src/services/game-cache.js';
import { PlayService, type ScoreOutcome } from '../../src/services/plays.js';
import { playPolicy } from '../../src/services/arcade-services.js';
import type { StoredPlay } from '../../src/store/plays.js';
import type { Db, Queryable, Transaction } from '../../src/store/db.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';

/**
 * The API's Db, counting transactions and batch writes (`play_path_write_scores` calls, failed
 * ones too). `failOnce(name, skip)` fails one statement of that name after letting `skip` of
 * them through; `afterOnce(name, work)` runs `work` once, right after the next statement of that
 * name answers and before its caller sees the answer, and `beforeOnce(name, work)` right before
 * the next one is sent: another process getting in between. `statements` counts each name.
 */
function instrumented(db: Db): Db & {
  transactions: number;
  writes: number;
  failOnce(name: string, skip: number): void;
  holdAndFail(name: string): () => void;
  afterOnce(name: string, work: () => Promise<unknown>): void;
  beforeOnce(name: string, work: () => Promise<unknown>): void;
  statements: Map<string, number>;
} {
  let failing: string | undefined;
  let skipping = 0;
  let holding: { name: string; released: Promise<void> } | undefined;
  let hook: { name: string; work: () => Promise<unknown> } | undefined;
  let before: { name: string; work: () => Promise<unknown> } | undefined;
  const run = async <Row>(
    q: Queryable,
    sql: string,
    params: unknown[] | undefined,
    name: string | undefined,
  ): Promise<Row[]> => {
    if (name === 'play_path_write_scores') wrapped.writes += 1;
    if (name !== undefined) wrapped.statements.set(name, (wrapped.statements.get(name) ?? 0) + 1);
    if (before !== undefined && name === before.name) {
      const { work } = before;
      before = undefined;
      await work();
    }
    if (holding !== undefined && name === holding.name) {
      const { released } = holding;
      holding = undefined;
      await released;
      throw new Error('injected database failure, after a while');
    }
    if (name !== undefined && name === failing && skipping-- === 0) {
      failing = undefined;
      throw new Error('injected database failure');
    }
    const rows = await q.query<Row>(sql, params, name);
    if (hook !== undefined && name === hook.name) {
      const { work } = hook;
      hook = undefined;
      await work();
    }
    return rows;
  };
  const wrapped = {
    transactions: 0,
    writes: 0,
    failOnce(name: string, skip: number) {
      failing = name;
      skipping = skip;
    },
    holdAndFail(name: string) {
      let release = (): void => undefined;
      holding = { name, released: new Promise<void>((resolve) => (release = resolve)) };
      return () => release();
    },
    afterOnce(name: string, work: () => Promise<unknown>) {
      hook = { name, work };
    },
    beforeOnce(name: string, work: () => Promise<unknown>) {
      before = { name, work };
    },
    statements: new Map<string, number>(),
    dialect: db.dialect,
    query: <Row>(sql: string, params?: unknown[], name?: string) => run<Row>(db, sql, params, name),
    ordered: {
      depth: db.ordered.depth,
      query: <Row>(sql: string, params?: unknown[], name?: string) =>
        run<Row>(db.ordered, sql, params, name),
    },
    transaction: <T>(work: (tx: Transaction) => Promise<T>) =>
      db.transaction((tx) => {
        wrapped.transactions += 1;
        return work({
          query: (sql, params, name) => run(tx, sql, params, name),
          exec: (script) => tx.exec(script),
        });
      }),
    listen: (channel: string, onNotify: (payload: string) => void) => db.listen(channel, onNotify),
    poolStats: () => db.poolStats(),
    availability: db.availability,
    close: () => db.close(),
  };
  return wrapped;
}

/** Ranks of distinct players' first scores, applied one after another in this order. */
function sequentialRanks(scores: readonly number[]): number[] {
  return scores.map((s, i) => 1 + scores.slice(0, i).filter((earlier) => earlier >= s).length);
}

describe.each(storeVariants())('group-committed scores on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;

  beforeEach(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [1, 10] });
  });
  afterEach(async () => {
    await expectLedgerBalanced(api.db);
    await expectRankTreeConsistent(api.db);
    await api.close();
  });

  const service = (db: Db) =>
    new PlayService(db, api.clock, uuidIds, api.app.arcade.games, playPolicy(api.config));
  const board = () => game.tiers[1]!.id;

  async function openPlays(plays: PlayService, count: number) {
    const players = await Promise.all(Array.from({ length: count }, () => fundedPlayer(api, 10)));
    return Promise.all(
      players.map((p) =>
        plays.open({
          gameId: game.gameId,
          playerId: p.playerId,
          leaderboardId: board(),
          idempotencyKey: null,
        }),
      ),
    );
  }
  const scoreOf = (plays: PlayService, playId: string, score: number) =>
    plays.score({
      gameId: game.gameId,
      playId,
      leaderboardId: board(),
      score,
      idempotencyKey: null,
    });

  it('refuses one score of a batch and commits the others', async () => {
    const db = instrumented(api.db);
    const plays = service(db);
    const opened = await openPlays(plays, 6);
    const values = [30, 10, 50, 10, 40, 20];
    const before = db.writes;
    const missing = uuidIds.next();
    const results = await Promise.allSettled([
      ...opened.slice(0, 3).map((p, i) => scoreOf(plays, p.id, values[i]!)),
      scoreOf(plays, missing, 99),
      ...opened.slice(3).map((p, i) => scoreOf(plays, p.id, values[i + 3]!)),
    ]);
    // Eight scores in fewer writes, none in a transaction: they were committed together.
    expect(db.writes - before).toBeLessThan(7);
    expect(db.transactions).toBe(0);
    const refused = results[3];
    expect(refused?.status).toBe('rejected');
    const reason = refused?.status === 'rejected' ? (refused.reason as unknown) : undefined;
    expect(reason).toBeInstanceOf(CoinopError);
    expect((reason as CoinopError).code).toBe('play_not_found');
    const scored = results.filter((_, i) => i !== 3);
    expect(scored.map((r) => r.status)).toEqual(scored.map(() => 'fulfilled'));
    const ranks = scored.map((r) => (r.status === 'fulfilled' ? r.value.score.leaderRank : 0));
    expect(ranks).toEqual(sequentialRanks(values));
    const [count] = await api.db.query<{ n: bigint }>(
      "SELECT count(*)::bigint AS n FROM plays WHERE status = 'scored'",
    );
    expect(BigInt(count!.n)).toBe(6n);
  });

  it('runs a batch again one score at a time after an unexpected database error', async () => {
    const db = instrumented(api.db);
    const plays = service(db);
    const opened = await openPlays(plays, 5);
    const values = [5, 25, 15, 25, 1];
    // The five scores reach the queue together and run as one batch, whose write fails.
    db.failOnce('play_path_write_scores', 0);
    const before = db.writes;
    const results = await Promise.all(opened.map((p, i) => scoreOf(plays, p.id, values[i]!)));
    expect(results.map((r) => r.score.leaderRank)).toEqual(sequentialRanks(values));
    // The failed batch, then each of its five scores written alone.
    expect(db.writes - before).toBe(6);
    const [count] = await api.db.query<{ n: bigint }>(
      "SELECT count(*)::bigint AS n FROM transfers WHERE kind = 'post_pending'",
    );
    expect(BigInt(count!.n)).toBe(5n);
  });

  it('refuses a batch decided on top of one whose write fails, and scores both once', async () => {
    const db = instrumented(api.db);
    const plays = service(db);
    const opened = await openPlays(plays, 6);
    const values = [5, 25, 15, 30, 1, 12];
    // The first batch's write is held, then fails. On Postgres the second batch is decided on
    // the board as the first would leave it and sent meanwhile: its version check refuses it.
    const failFirst = db.holdAndFail('play_path_write_scores');
    const writes = db.writes;
    const first = opened.slice(0, 3).map((p, i) => scoreOf(plays, p.id, values[i]!));
    while (db.writes === writes) await new Promise((resolve) => setImmediate(resolve));
    const second = opened.slice(3).map((p, i) => scoreOf(plays, p.id, values[i + 3]!));
    const pipelined = api.db.ordered.depth > 1;
    for (let waited = 0; waited < 200 && (!pipelined || db.transactions === 0); waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    // Refused, the second batch ran again under locks; PGlite runs one batch at a time.
    expect(db.transactions).toBe(pipelined ? 1 : 0);
    failFirst();
    const results = await Promise.all([...first, ...second]);
    expect(results.map((r) => r.score.score)).toEqual(values);
    const rows = await api.db.query<{ n: bigint; posted: bigint }>(
      `SELECT (SELECT count(*) FROM plays WHERE status = 'scored')::bigint AS n,
              (SELECT count(*) FROM transfers WHERE kind = 'post_pending')::bigint AS posted`,
    );
    expect(rows[0]).toEqual({ n: 6n, posted: 6n });
    // Each player's one score is their best; the board ranks them by score.
    const leaders = await api.db.query<{ score: number }>(
      'SELECT score FROM leaders WHERE leaderboard_id = $1 ORDER BY rank_key DESC',
      [board()],
    );
    expect(leaders.map((b) => b.score)).toEqual([...values].sort((a, b) => b - a));
  });

  it('ranks a batch exactly as the same scores committed one at a time', async () => {
    // Two plays per player (a best, then a better or a worse score), ties, three leaders.
    const small = await gameWithTiers(api, { costs: [1, 10], leadersMax: 3 });
    const plays = service(api.db);
    const players = await Promise.all(Array.from({ length: 6 }, () => fundedPlayer(api, 40)));
    const order = [0, 1, 2, 3, 4, 5, 2, 0, 5, 1, 4, 3];
    const values = [20, 40, 10, 40, 30, 5, 50, 15, 45, 40, 60, 0];
    const run = async (gameId: string, leaderboardId: string, together: boolean) => {
      const opened: StoredPlay[] = [];
      for (const p of order) {
        opened.push(
          await plays.open({
            gameId,
            playerId: players[p]!.playerId,
            leaderboardId,
            idempotencyKey: null,
          }),
        );
      }
      const one = (i: number) =>
        plays.score({
          gameId,
          playId: opened[i]!.id,
          leaderboardId,
          score: values[i]!,
          idempotencyKey: null,
        });
      if (together) return Promise.all(opened.map((_, i) => one(i)));
      const out: ScoreOutcome[] = [];
      for (let i = 0; i < opened.length; i++) out.push(await one(i));
      return out;
    };
    const alone = await run(game.gameId, board(), false);
    const together = await run(small.gameId, small.tiers[1]!.id, true);
    // The reference board has 10 leaders; compare the top 3 of its answers.
    const view = (r: Awaited<ReturnType<typeof run>>[number], top: number) => ({
      rank: r.score.leaderRank,
      leaders: r.leaders?.slice(0, top).map((l) => [l.playerId, l.score]),
    });
    expect(together.map((r) => view(r, 3))).toEqual(alone.map((r) => view(r, 3)));
    expect(together.map((r) => r.score.isWinner)).toEqual(
      alone.map((r) => r.score.leaderRank <= 3),
    );
  });

  it('keeps bests and the count tree exact when two API instances score one board', async () => {
    // Two services with their own queues on one database: two API processes' batches.
    const a = service(api.db);
    const b = service(api.db);
    const opened = await openPlays(a, 40);
    const values = opened.map((_, i) => ((i * 37) % 13) * 3);
    const results = await Promise.all(
      opened.map((p, i) => scoreOf(i % 2 === 0 ? a : b, p.id, values[i]!)),
    );
    expect(results.every((r) => !r.replayed)).toBe(true);
    const rows = await api.db.query<{ player_id: string; score: number }>(
      'SELECT player_id, score FROM leaders WHERE leaderboard_id = $1',
      [board()],
    );
    expect(new Map(rows.map((r) => [r.player_id, r.score]))).toEqual(
      new Map(opened.map((p, i) => [p.playerId, values[i]!])),
    );
    // Every rank is 1 + the players whose best beats or ties it, counted among all 40.
    const ranks = results.map((r) => r.score.leaderRank);
    values.forEach((v, i) => {
      expect(ranks[i]).toBeGreaterThanOrEqual(1);
      expect(ranks[i]).toBeLessThanOrEqual(1 + values.filter((w, j) => j !== i && w >= v).length);
    });
  });

  // How `a` decides the batch another process gets in before: from memory when `a` opened the
  // plays itself (the other process writes just before `a` does), from a read when another
  // process opened them (it writes just after `a` read).
  describe.each([
    { how: 'from memory', openedBy: 'a', hook: 'beforeOnce', statement: 'play_path_write_scores' },
    {
      how: 'from a read',
      openedBy: 'c',
      hook: 'afterOnce',
      statement: 'play_path_read_score_batch',
    },
  ] as const)('a batch decided $how', ({ openedBy, hook, statement }) => {
    it('writes nothing on a stale board: a best changed in between, so it reruns under locks', async () => {
      const db = instrumented(api.db);
      const a = service(db);
      const b = service(api.db);
      const opener = openedBy === 'a' ? a : service(api.db);
      const player = await fundedPlayer(api, 20);
      const open = () =>
        opener.open({
          gameId: game.gameId,
          playerId: player.playerId,
          leaderboardId: board(),
          idempotencyKey: null,
        });
      const first = await open();
      const second = await open();
      const others = await openPlays(opener, 3);
      await Promise.all(others.map((p, i) => scoreOf(a, p.id, [40, 60, 20][i]!)));
      // Another API process scores the player's other play (50) after this batch was decided
      // (no best for the player) and before it writes its 30.
      db[hook](statement, () => scoreOf(b, second.id, 50));
      const writes = db.writes;
      const outcome = await scoreOf(a, first.id, 30);
      // The first write refused; the rerun locked, read the 50 and kept it: 30 is no better.
      expect(db.writes - writes).toBe(2);
      expect(db.transactions).toBe(1);
      // Other players beating 30: the 60 and the 40.
      expect(outcome.score.leaderRank).toBe(3);
      expect(outcome.score.isWinner).toBe(true);
      const best = await api.db.query<{ score: number }>(
        'SELECT score FROM leaders WHERE leaderboard_id = $1 AND player_id = $2',
        [board(), player.playerId],
      );
      expect(best).toEqual([{ score: 50 }]);

      // A board whose copy went stale is read for the next batches, not copied again at once;
      // a read-decided batch kept no copy to go stale.
      const [next] = await openPlays(a, 1);
      const reads = db.statements.get('play_path_read_score_batch') ?? 0;
      expect((await scoreOf(a, next!.id, 45)).score.leaderRank).toBe(3);
      expect(db.statements.get('play_path_read_score_batch') ?? 0).toBe(
        reads + (openedBy === 'a' ? 1 : 0),
      );
    });

    it('refuses a score whose play another process scored before its write', async () => {
      const db = instrumented(api.db);
      const a = service(db);
      const b = service(api.db);
      const [play] = await openPlays(openedBy === 'a' ? a : service(api.db), 1);
      db[hook](statement, () => scoreOf(b, play!.id, 70));
      const refused = await scoreOf(a, play!.id, 80).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(CoinopError);
      expect((refused as CoinopError).code).toBe('play_already_scored');
      const rows = await api.db.query<{ score: number }>(
        'SELECT score FROM scores WHERE play_id = $1',
        [play!.id],
      );
      expect(rows).toEqual([{ score: 70 }]);
      const [posted] = await api.db.query<{ n: bigint }>(
        "SELECT count(*)::bigint AS n FROM transfers WHERE kind = 'post_pending' AND pending_id = $1",
        [play!.lockTransferId],
      );
      expect(BigInt(posted!.n)).toBe(1n);
    });
  });

  it('decides from memory, without reading, the plays it opened', async () => {
    const db = instrumented(api.db);
    const a = service(db);
    const opened = await openPlays(a, 4);
    await Promise.all(opened.map((p, i) => scoreOf(a, p.id, [7, 3, 9, 3][i]!)));
    const more = await openPlays(a, 3);
    const results = await Promise.all(more.map((p, i) => scoreOf(a, p.id, [8, 3, 10][i]!)));
    // In order, as if committed one by one: 9 beats the 8; five bests tie or beat the 3 (the
    // earlier 3s and the 8 among them); the 10 beats all.
    expect(results.map((r) => r.score.leaderRank)).toEqual([2, 6, 1]);
    expect(db.statements.get('play_path_read_score_batch')).toBeUndefined();
    // The board was copied once, at its first batch.
    expect(db.statements.get('play_path_read_board')).toBe(1);
  });

  it('plans the batch statements once, without their values, and others as usual', async () => {
    const named = (q: Queryable, sql: string, name: string) =>
      q.query<{ mode: string }>(sql, [], name).then((rows) => rows[0]?.mode);
    const mode = (q: Queryable) =>
      named(q, "SELECT current_setting('plan_cache_mode') AS mode", 'test_plan_cache_mode');
    expect(await mode(api.db.ordered)).toBe('force_generic_plan');
    expect(await mode(api.db)).toBe('auto');
    expect(await api.db.transaction(mode)).toBe('auto');
    // A failed statement leaves the session (PGlite's one) planning as usual too.
    await expect(named(api.db.ordered, 'SELECT 1 / 0 AS mode', 'test_plan_fails')).rejects.toThrow(
      /division by zero/,
    );
    expect(await mode(api.db)).toBe('auto');
  });

  describe('a tier another API process changed', () => {
    // Another process: its own game cache, warmed before the tier changes under it.
    async function otherProcess() {
      const other = new PlayService(
        api.db,
        api.clock,
        uuidIds,
        new GameCache(api.db, 60_000),
        playPolicy(api.config),
      );
      const [warm] = await openPlays(other, 1);
      expect(warm!.costUnits).toBe(10n * 10n ** 8n);
      return other;
    }
    const openOn = (plays: PlayService, playerId: string, extra: object = {}) =>
      plays.open({
        gameId: game.gameId,
        playerId,
        leaderboardId: board(),
        idempotencyKey: null,
        ...extra,
      });
    const codeOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'opened',
        (error: unknown) => (error instanceof CoinopError ? error.code : String(error)),
      );

    it('charges the new price, not the one its cache remembers', async () => {
      const other = await otherProcess();
      await api.db.query('UPDATE leaderboards SET cost_units = $2 WHERE id = $1', [
        board(),
        3n * 10n ** 8n,
      ]);
      const player = await fundedPlayer(api, 10);
      const play = await openOn(other, player.playerId);
      expect(play.costUnits).toBe(3n * 10n ** 8n);
      const [account] = await api.db.query<{ pending: bigint }>(
        'SELECT a.debits_pending AS pending FROM accounts a JOIN players p ON p.account_id = a.id WHERE p.id = $1',
        [player.playerId],
      );
      expect(BigInt(account!.pending)).toBe(3n * 10n ** 8n);
    });

    it('opens no new play on a tier retired since', async () => {
      const other = await otherProcess();
      await api.db.query('UPDATE leaderboards SET retired_at = now() WHERE id = $1', [board()]);
      const player = await fundedPlayer(api, 10);
      expect(await codeOf(openOn(other, player.playerId))).toBe('leaderboard_retired');
    });

    it('opens no signed play whose approved cost is no longer the price', async () => {
      const other = await otherProcess();
      await api.db.query('UPDATE leaderboards SET cost_units = $2 WHERE id = $1', [
        board(),
        3n * 10n ** 8n,
      ]);
      const player = await fundedPlayer(api, 10);
      const approval = {
        playerId: player.playerId,
        wallet: '0x0000000000000000000000000000000000000001',
        nonce: 'n-1',
        message: 'approve 10 HST',
        signature: '0x00',
        costUnits: 10n * 10n ** 8n,
      };
      expect(await codeOf(openOn(other, player.playerId, { approval }))).toBe(
        'leaderboard_changed',
      );
      const plays = await api.db.query('SELECT id FROM plays WHERE player_id = $1', [
        player.playerId,
      ]);
      expect(plays).toEqual([]);
    });
  });
});
