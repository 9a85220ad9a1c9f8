// The replay verifier's cost (issue 30): what checking one score's replay costs in the sandbox
// (QuickJS compiled to WebAssembly, in worker threads; a fresh runtime and context per run).
//   node packages/server/bench/verifier.mjs            (after `node scripts/build.mjs`)
// or as the `verifier` part of `npm run bench`. Knobs: BENCH_VERIFIER_RUNS (300: runs timed one
// at a time), BENCH_VERIFIER_SECONDS (5: each throughput measurement), BENCH_VERIFIER_MOVES (500).
//
// The verifier is a realistic one: a seeded 2048-like game, replayed from ~500 moves; beside it
// an empty verifier (`return score`), whose cost is the sandbox's own per run.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createReplayVerifier } from '../dist/verifier/index.js';

/** A 2048-like game: 4×4, tiles from a PRNG seeded by the play's seed, score = merged tiles. */
export const VERIFIER_2048 = `
function prng(seed) {
  let state = parseInt(seed.slice(0, 8), 16) >>> 0 || 1;
  return () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
}
function spawn(board, random) {
  const empty = [];
  for (let i = 0; i < 16; i++) if (board[i] === 0) empty.push(i);
  if (empty.length === 0) return;
  board[empty[Math.floor(random() * empty.length)]] = random() < 0.9 ? 2 : 4;
}
// Each move's four lines, as board indexes from the edge the tiles slide to.
const LINES = {
  L: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  R: [3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12],
  U: [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15],
  D: [12, 8, 4, 0, 13, 9, 5, 1, 14, 10, 6, 2, 15, 11, 7, 3],
};
const tiles = new Int32Array(4);
function slide(board, move) {
  const cells = LINES[move];
  let gained = 0;
  let moved = false;
  for (let line = 0; line < 16; line += 4) {
    let count = 0;
    for (let i = 0; i < 4; i++) {
      const value = board[cells[line + i]];
      if (value !== 0) tiles[count++] = value;
    }
    let out = 0;
    for (let i = 0; i < count; i++) {
      let value = tiles[i];
      if (i + 1 < count && tiles[i + 1] === value) { value *= 2; gained += value; i++; }
      const cell = cells[line + out++];
      if (board[cell] !== value) { board[cell] = value; moved = true; }
    }
    for (; out < 4; out++) {
      const cell = cells[line + out];
      if (board[cell] !== 0) { board[cell] = 0; moved = true; }
    }
  }
  return gained === 0 && !moved ? -1 : gained;
}
export function verify({ seed, replay }) {
  const { moves } = JSON.parse(replay);
  if (typeof moves !== 'string' || !/^[LRUD]*$/.test(moves)) throw new Error('bad moves');
  const random = prng(seed);
  const board = new Int32Array(16);
  spawn(board, random);
  spawn(board, random);
  let score = 0;
  for (let i = 0; i < moves.length; i++) {
    const gained = slide(board, moves[i]);
    if (gained < 0) continue; // Nothing moved: no tile spawns.
    score += gained;
    spawn(board, random);
  }
  return score;
}
`;
const EMPTY = 'export function verify({ score }) { return score; }';

const env = process.env;
const RUNS = Number(env['BENCH_VERIFIER_RUNS'] ?? 300);
const SECONDS = Number(env['BENCH_VERIFIER_SECONDS'] ?? 5);
const MOVES = Number(env['BENCH_VERIFIER_MOVES'] ?? 500);
const LIMITS = { timeLimitMs: 250, memoryLimitMb: 32, replayMaxBytes: 65_536 };

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const round = (ms) => Math.round(ms * 100) / 100;

/** A replay of `MOVES` random moves, and the score it earns (asked of the verifier itself). */
async function sampleCall(sandbox) {
  const seed = randomBytes(32).toString('hex');
  const moves = Array.from({ length: MOVES }, () => 'LRUD'[Math.floor(Math.random() * 4)]);
  const replay = JSON.stringify({ moves: moves.join('') });
  const probe = await sandbox.check(VERIFIER_2048, { seed, replay, score: -1, leaderboardId: '' });
  if (probe.computed === undefined) throw new Error(`the verifier failed: ${probe.detail}`);
  return { seed, replay, score: probe.computed, leaderboardId: '' };
}

/** Runs one at a time: each run's latency as a score would wait for it on an idle arcade. */
async function latencies(sandbox, source, call) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const outcome = await sandbox.check(source, call);
    times.push(performance.now() - started);
    if (!outcome.ok) throw new Error(`a run was refused: ${outcome.detail}`);
  }
  times.sort((a, b) => a - b);
  return { p50: round(quantile(times, 0.5)), p99: round(quantile(times, 0.99)) };
}

/** Verifies per second with `inFlight` checks always waiting, for SECONDS. */
async function throughput(sandbox, source, call, inFlight) {
  const until = performance.now() + SECONDS * 1000;
  let done = 0;
  const lane = async () => {
    while (performance.now() < until) {
      const outcome = await sandbox.check(source, call);
      if (!outcome.ok) throw new Error(`a run was refused: ${outcome.detail}`);
      done += 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, lane));
  return Math.round(done / ((performance.now() - started) / 1000));
}

/** Every row of the verifier's bench, for run.mjs's report and JSON. */
export async function verifierBench(log = () => {}) {
  const rows = [];
  for (const workers of [1, 2]) {
    const sandbox = createReplayVerifier({
      sources: { currentVersion: async () => null, source: async () => null },
      settings: { ...LIMITS, workers },
    });
    try {
      const call = await sampleCall(sandbox);
      for (const [name, source] of [
        [`2048, ${MOVES} moves`, VERIFIER_2048],
        ['empty (`return score`)', EMPTY],
      ]) {
        const { p50, p99 } = await latencies(sandbox, source, call);
        const perSecond = await throughput(sandbox, source, call, workers * 4);
        const row = { verifier: name, workers, p50Ms: p50, p99Ms: p99, perSecond };
        log(`verifier ${JSON.stringify(row)}`);
        rows.push(row);
      }
    } finally {
      await sandbox.close();
    }
  }
  return rows;
}

export function verifierTable(rows) {
  const lines = [
    '| Verifier | Workers | p50 (one at a time) | p99 | Verifies a second (4 waiting per worker) |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const r of rows) {
    lines.push(`| ${r.verifier} | ${r.workers} | ${r.p50Ms} ms | ${r.p99Ms} ms | ${r.perSecond} |`);
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await verifierBench((line) => console.error(line));
  console.log(verifierTable(rows));
}
