// Ranking at scale: one board with `rows` players' bests, bulk-loaded with set-based SQL, then
// the store's own rank query (countAtOrAbove) and leaders list (topLeaders) timed one call at a
// time straight against the database. A naive count(*) over the same board is timed beside it.
import { performance } from 'node:perf_hooks';
import { bucketChanges, bucketPath, rankKey, wholeHstToUnits } from '@coinop/core';
import { systemClock, uuidIds } from '../dist/ids.js';
import { insertGame } from '../dist/store/games.js';
import { countAtOrAbove, topLeaders } from '../dist/store/leaders.js';
import { writeScores } from '../dist/store/score-batch.js';
import { ensureArcade } from '../dist/store/arcades.js';
import { ensureDeveloper } from '../dist/store/developers.js';
import { bulkLoad } from './board-load.mjs';
import { summarize } from './load.mjs';

/**
 * Creates one board on `db` (migrated, empty) and bulk-loads `rows` bests on it, then checks the
 * loaded count tree against the core's own functions and a naive count. `log` reports progress.
 */
export async function loadBigBoard(db, rows, log) {
  const { board, gameId } = await createBoard(db);
  const loadStarted = performance.now();
  await bulkLoad(db, board, rows, { log });
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  log(
    `loaded ${rows.toLocaleString('en')} bests and their rank buckets in ` +
      `${loadSeconds.toFixed(1)} s`,
  );
  const check = await verify(db, board, rows);
  return { board, gameId, rows, loadSeconds, check };
}

/** Times the rank query, the leaders list and a score update on a loaded big board. */
export async function rankingBench(db, { board, rows, loadSeconds, check }, { samples, budgetMs }) {
  const probes = await probeKeys(db, board, samples);

  // Warm the caches and (on Postgres) the planner, then time one call at a time; each
  // measurement stops early at its time budget, so a slow query cannot stall the bench.
  const warm = budgetMs / 4;
  await timeEach(probes.slice(0, 200), (key) => countAtOrAbove(db, board, key), warm);
  const count = await timeEach(probes, (key) => countAtOrAbove(db, board, key), budgetMs);
  await timeEach(probes.slice(0, 200), () => topLeaders(db, board, 10), warm);
  const leaders = await timeEach(probes, () => topLeaders(db, board, 10), budgetMs);
  // The floor under both: one trivial round trip, timed the same way on the same machine.
  const roundTrip = await timeEach(probes, () => db.query('SELECT 1'), budgetMs);
  const naive = await timeEach(
    probes.slice(0, 20),
    (key) =>
      db.query('SELECT count(*) AS n FROM leaders WHERE leaderboard_id = $1 AND rank_key >= $2', [
        board,
        key.toString(),
      ]),
    budgetMs,
  );
  const update = await timeScoreUpdates(db, board, Math.min(500, samples), budgetMs);
  const plan = db.dialect === 'postgres' ? await explainCount(db, board, probes[0]) : null;

  return {
    rows,
    loadSeconds,
    check,
    countAtOrAbove: count,
    topLeaders: leaders,
    selectOne: roundTrip,
    naiveCount: naive,
    scoreUpdate: update,
    plan,
  };
}

export async function createBoard(db) {
  const clock = systemClock;
  const arcade = await ensureArcade(db, clock, uuidIds);
  const developer = await ensureDeveloper(
    db,
    clock,
    uuidIds,
    `0x${'b'.repeat(39)}${Math.floor(Math.random() * 10)}`,
  );
  const game = await db.transaction((tx) =>
    insertGame(
      tx,
      clock,
      uuidIds,
      arcade.id,
      {
        developerId: developer.id,
        name: 'Ranking at scale',
        description: 'one board, many players',
        category: 'arcade',
        developerInfo: '',
        tagLine: '',
        url: 'https://game.example',
        coverUrl: 'https://game.example/cover.png',
        scoreDisplay: 'NORMAL',
        prodDomain: null,
      },
      [{ name: 'Main', costUnits: wholeHstToUnits(1), leadersMax: 10 }],
    ),
  );
  const [row] = await db.query('SELECT id FROM leaderboards WHERE game_id = $1', [game.id]);
  return { board: row.id, gameId: game.id };
}

/** The loaded tree must match the core's functions and a naive count exactly. */
async function verify(db, board, rows) {
  const sample = await db.query(
    `SELECT score, rank_key FROM leaders WHERE leaderboard_id = $1 ORDER BY player_id LIMIT 50`,
    [board],
  );
  for (const r of sample) {
    const key = BigInt(r.rank_key);
    if (rankKey(Number(r.score), 'NORMAL') !== key) {
      throw new Error(`rank_key ${key} of score ${r.score} differs from rankKey()`);
    }
    const path = bucketPath(key);
    const found = await db.query(
      `SELECT count(*)::int AS n FROM rank_buckets b
       JOIN unnest($2::smallint[], $3::bigint[]) AS p(level, bucket)
         ON b.level = p.level AND b.bucket = p.bucket
       WHERE b.leaderboard_id = $1 AND b.players > 0`,
      [board, path.map((_, i) => i + 1), path.map((b) => b.toString())],
    );
    if (found[0].n !== 8) throw new Error(`bucketPath of key ${key} is not in rank_buckets`);
  }
  const [levels] = await db.query(
    `SELECT count(*)::int AS buckets, count(DISTINCT level)::int AS levels,
            (sum(players) FILTER (WHERE level = 1))::bigint AS level1,
            (sum(players) FILTER (WHERE level = 8))::bigint AS level8
     FROM rank_buckets WHERE leaderboard_id = $1`,
    [board],
  );
  if (Number(levels.level1) !== rows || Number(levels.level8) !== rows || levels.levels !== 8) {
    throw new Error(`rank_buckets do not add up to ${rows}: ${JSON.stringify(levels)}`);
  }
  const compared = [];
  for (const r of sample.slice(0, 10)) {
    const key = BigInt(r.rank_key);
    const [naive] = await db.query(
      'SELECT count(*)::int AS n FROM leaders WHERE leaderboard_id = $1 AND rank_key >= $2',
      [board, key.toString()],
    );
    const fast = await countAtOrAbove(db, board, key);
    if (fast !== naive.n)
      throw new Error(`countAtOrAbove(${key}) = ${fast}, count(*) = ${naive.n}`);
    compared.push(fast);
  }
  return { bucketRows: levels.buckets, comparedWithNaiveCount: compared.length, ok: true };
}

/** Keys to rank: half the bests of random players, half fresh scores anywhere on the board. */
async function probeKeys(db, board, samples) {
  const existing = await db.query(
    `SELECT rank_key FROM leaders TABLESAMPLE SYSTEM (1) WHERE leaderboard_id = $1 LIMIT $2`,
    [board, Math.ceil(samples / 2)],
  );
  const keys = existing.map((r) => BigInt(r.rank_key));
  while (keys.length < samples)
    keys.push(rankKey(Math.floor(Math.random() * 10_000_000), 'NORMAL'));
  // Interleave so neither half runs warm on its own.
  return keys.sort(() => Math.random() - 0.5);
}

/** Times `call` on each input, one at a time, until the inputs or the time budget run out. */
export async function timeEach(inputs, call, budgetMs) {
  const times = [];
  const deadline = performance.now() + budgetMs;
  for (const input of inputs) {
    const started = performance.now();
    await call(input);
    times.push(performance.now() - started);
    if (started > deadline) break;
  }
  return summarize(times);
}

/**
 * The write side of ranking on the big board: a random existing player's new best written by the
 * score path's own statement (`writeScores`, with the best and its count-tree moves, without a
 * score or a settlement), then ranked.
 */
async function timeScoreUpdates(db, board, count, budgetMs) {
  const players = await db.query(
    `SELECT player_id FROM leaders TABLESAMPLE SYSTEM (1) WHERE leaderboard_id = $1 LIMIT $2`,
    [board, count],
  );
  return timeEach(
    players,
    async ({ player_id: playerId }) => {
      const score = 10_000_000 + Math.floor(Math.random() * 1_000_000);
      const key = rankKey(score, 'NORMAL');
      const [best] = await db.query(
        `SELECT rank_key::text AS rank_key, score_id FROM leaders
         WHERE leaderboard_id = $1 AND player_id = $2`,
        [board, playerId],
      );
      const from = best ? BigInt(best.rank_key) : null;
      await writeScores(db, {
        scores: [],
        bests: [
          {
            leaderboardId: board,
            playerId,
            score,
            rankKey: key,
            scoreId: uuidIds.next(),
            achievedAt: new Date(),
            replacesScoreId: best?.score_id ?? null,
          },
        ],
        buckets: bucketChanges(from, key).map((c) => ({ leaderboardId: board, ...c })),
        transfers: [],
        transferTimes: [],
        deltas: new Map(),
        boards: [],
      });
      return countAtOrAbove(db, board, key);
    },
    budgetMs,
  );
}

/**
 * EXPLAIN ANALYZE of the rank query exactly as the store sends it (captured, so this shows the
 * shipped SQL even when it changes), to show it reads a bounded set of bucket rows.
 */
async function explainCount(db, board, key) {
  let sent = null;
  await countAtOrAbove(
    {
      query: (sql, params) => {
        sent = { sql, params };
        return db.query(sql, params);
      },
    },
    board,
    key,
  );
  const rows = await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) ${sent.sql}`, sent.params);
  return rows.map((r) => r['QUERY PLAN']);
}
