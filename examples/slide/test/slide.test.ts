/* eslint-disable @typescript-eslint/no-non-null-assertion -- as in the packages tests: a move that must exist */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  DIRECTIONS,
  MAX_MOVES,
  MAX_SCORE,
  MAX_TILE,
  canMove,
  newGame,
  nextRandom,
  replayOf,
  replayRun,
  seedWords,
  slide,
  tileValue,
  verify,
  type Direction,
  type SlideState,
} from '../web/slide.js';

const SEED = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const OTHER_SEED = '60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752';

/** A test's own small generator (not the engine's), so the fuzz's choices are reproducible. */
function lcg(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** A state with the given board (exponents) and a generator from SEED. */
function stateWith(cells: number[]): SlideState {
  return { cells, score: 0, moves: '', placed: -1, over: !canMove(cells), rng: seedWords(SEED) };
}

/** Plays random legal moves from `seed` until over or `stopAfter` moves. */
function randomRun(seed: string, random: () => number, stopAfter = Infinity): SlideState {
  let state = newGame(seed);
  while (!state.over && state.moves.length < stopAfter) {
    const tries = [...DIRECTIONS].sort(() => random() - 0.5);
    const next = tries.map((d) => slide(state, d)).find((s) => s !== null);
    if (!next) throw new Error('a run that is not over has a move');
    state = next;
  }
  return state;
}

function seedOf(random: () => number): string {
  let hex = '';
  while (hex.length < 64) hex += Math.floor(random() * 16).toString(16);
  return hex;
}

describe('the random generator', () => {
  it('is xoshiro128**: the reference implementation’s outputs for the state 1, 2, 3, 4', () => {
    // From Blackman and Vigna's xoshiro128starstar.c, compiled and run with this state.
    const state = [1, 2, 3, 4];
    const outputs = Array.from({ length: 6 }, () => nextRandom(state));
    expect(outputs).toEqual([11520, 0, 5927040, 70819200, 2031721883, 1637235492]);
  });

  it('folds the seed’s 256 bits into its 128-bit state: word i XOR word i + 4', () => {
    const seed = '00000001000000020000000300000004' + 'f'.repeat(32);
    expect(seedWords(seed)).toEqual([~1, ~2, ~3, ~4]);
    // Equal halves fold to zero, which xoshiro never leaves: a fixed word replaces it.
    expect(seedWords('ab'.repeat(32))).toEqual([0x9e3779b9 | 0, 0, 0, 0]);
  });

  it.each([
    ['too short', 'ab'.repeat(31)],
    ['too long', 'ab'.repeat(33)],
    ['upper case', 'AB'.repeat(32)],
    ['not hex', 'g'.repeat(64)],
    ['empty', ''],
  ])('refuses a seed that is %s', (_name, seed) => {
    expect(() => newGame(seed)).toThrow(new Error('the seed must be 64 lowercase hex characters'));
  });

  it('refuses a seed that is not a string', () => {
    expect(() => newGame(42 as unknown as string)).toThrow(
      'the seed must be 64 lowercase hex characters',
    );
  });
});

describe('the board', () => {
  it('starts with two tiles the seed places, the same every time', () => {
    const first = newGame(SEED);
    expect(first).toEqual(newGame(SEED));
    expect(first.cells.filter((e) => e !== 0)).toHaveLength(2);
    expect(first.cells.every((e) => e === 0 || e === 1 || e === 2)).toBe(true);
    expect(first).toMatchObject({ score: 0, moves: '', over: false });
  });

  it('differs from seed to seed', () => {
    const random = lcg(7);
    const boards = new Set(
      Array.from({ length: 40 }, () => newGame(seedOf(random)).cells.join(',')),
    );
    // Two tiles on 16 cells, each a 2 or a 4: 480 boards; 40 seeds rarely share one.
    expect(boards.size).toBeGreaterThan(30);
    expect(newGame(OTHER_SEED).cells).not.toEqual(newGame(SEED).cells);
  });

  it('slides, merges equal tiles once per move, and scores the merged values', () => {
    const state = stateWith([1, 1, 2, 2, 1, 1, 1, 1, 2, 1, 1, 0, 0, 0, 0, 3]);
    const next = slide(state, 'L')!;
    // 2+2 → 4 and 4+4 → 8 (12); 2 2 2 2 → 4 4 (8); 4 2 2 → 4 4, not 8 (4); 8 slides left.
    expect(next.cells.map(tileValue).slice(0, 2)).toEqual([4, 8]);
    expect(next.cells.map(tileValue).slice(4, 6)).toEqual([4, 4]);
    expect(next.cells.map(tileValue).slice(8, 10)).toEqual([4, 4]);
    expect(next.cells[12]).toBe(3);
    expect(next.score).toBe(12 + 8 + 4);
    expect(next.moves).toBe('L');
    // One new tile on an empty cell.
    const before = [2, 3, 0, 0, 2, 2, 0, 0, 2, 2, 0, 0, 3, 0, 0, 0];
    const spawned = next.cells
      .map((e, i) => (before[i] === e ? null : i))
      .filter((i) => i !== null);
    expect(spawned).toEqual([next.placed]);
    expect(before[spawned[0]!]).toBe(0);
    expect([1, 2]).toContain(next.cells[spawned[0]!]);
    // The state it came from is unchanged.
    expect(state.cells).toEqual([1, 1, 2, 2, 1, 1, 1, 1, 2, 1, 1, 0, 0, 0, 0, 3]);
  });

  const row = (...cells: number[]) => [...cells, ...Array(16 - cells.length).fill(0)];
  it.each<[Direction, number[], number]>([
    ['L', row(0, 0, 1, 1), 0],
    ['R', row(1, 1), 3],
    ['U', row(0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1), 0],
    ['D', row(1, 0, 0, 0, 1), 12],
  ])('slides %s toward its own side', (direction, cells, mergedAt) => {
    const next = slide(stateWith(cells), direction)!;
    expect(next.cells[mergedAt]).toBe(2);
    // The merged tile and the one new tile: nothing else is left on the board.
    expect(next.cells.filter((e) => e !== 0)).toHaveLength(2);
    expect(next.score).toBe(4);
  });

  it('ends the run at its last allowed move', () => {
    const almost = { ...stateWith([1, 1, ...Array(14).fill(0)]), moves: 'L'.repeat(MAX_MOVES - 1) };
    const last = slide(almost, 'L')!;
    expect(last.moves).toHaveLength(MAX_MOVES);
    expect(last.over).toBe(true);
    expect(slide(last, 'R')).toBeNull();
  });

  it('refuses a move that changes nothing, and every move once no move is possible', () => {
    expect(slide(stateWith([1, 2, 0, 0, ...Array(12).fill(0)]), 'L')).toBeNull();
    const stuck = stateWith([1, 2, 1, 2, 2, 1, 2, 1, 1, 2, 1, 2, 2, 1, 2, 1]);
    expect(stuck.over).toBe(true);
    for (const d of DIRECTIONS) expect(slide(stuck, d)).toBeNull();
  });
});

describe('replays and the verifier', () => {
  it('gives the same board and score for the same seed and moves', () => {
    const run = randomRun(SEED, lcg(3), 200);
    const replay = replayOf(run);
    expect(replay).toBe(`s1:${run.moves}`);
    expect(replay).toMatch(/^s1:[LRUD]+$/);
    expect(replay.length).toBe(3 + run.moves.length);
    const again = replayRun(SEED, replay);
    expect(again.cells).toEqual(run.cells);
    expect(again.score).toBe(run.score);
    expect(verify({ seed: SEED, replay, score: run.score, leaderboardId: 'any' })).toBe(run.score);
    expect(run.score).toBeGreaterThan(0);
  });

  it('verifies every prefix of a run: a player may finish after any move', () => {
    let state = newGame(SEED);
    const random = lcg(11);
    expect(verify({ seed: SEED, replay: 's1:' })).toBe(0);
    while (!state.over) {
      const next = [...DIRECTIONS]
        .sort(() => random() - 0.5)
        .map((d) => slide(state, d))
        .find((s) => s !== null)!;
      state = next;
      expect(verify({ seed: SEED, replay: replayOf(state) })).toBe(state.score);
    }
    // The end: no move is possible, and a replay that goes on is refused.
    expect(canMove(state.cells)).toBe(false);
    expect(() => verify({ seed: SEED, replay: replayOf(state) + 'L' })).toThrow(
      `move ${state.moves.length + 1} comes after the run ended`,
    );
  });

  it('earns another score (or throws) for a tampered replay, a tampered score, or another seed', () => {
    const run = randomRun(SEED, lcg(5), 150);
    const replay = replayOf(run);
    // A claimed score the replay does not earn: the arcade compares and refuses it.
    expect(verify({ seed: SEED, replay, score: run.score + 2 })).not.toBe(run.score + 2);
    let caught = 0;
    for (let i = 3; i < replay.length; i += 7) {
      const flipped = replay[i] === 'L' ? 'R' : 'L';
      const tampered = replay.slice(0, i) + flipped + replay.slice(i + 1);
      try {
        const tamperedRun = replayRun(SEED, tampered);
        expect(tamperedRun.cells).not.toEqual(run.cells);
      } catch (error) {
        expect((error as Error).message).toMatch(/^move \d+ \([LRUD]\) changes nothing$/);
        caught++;
      }
    }
    // Flipping moves of a real run makes no-op moves somewhere: the replay is not a run at all.
    expect(caught).toBeGreaterThan(0);
    let otherSeed: number | string;
    try {
      otherSeed = verify({ seed: OTHER_SEED, replay });
    } catch (error) {
      otherSeed = (error as Error).message;
    }
    expect(otherSeed).not.toBe(run.score);
  });

  it.each([
    ['no version', 'LURD', 'the replay must start with "s1:"'],
    ['another version', 's2:LURD', 'the replay must start with "s1:"'],
    ['a letter that is no move', 's1:LUxD', 'move 3 is "x", not one of L, R, U, D'],
    ['lower case', 's1:l', 'move 1 is "l", not one of L, R, U, D'],
    [
      'too many moves',
      `s1:${'L'.repeat(MAX_MOVES + 1)}`,
      'the replay has 5001 moves, more than 5000',
    ],
  ])('throws, saying why, on a replay with %s', (_name, replay, message) => {
    expect(() => verify({ seed: SEED, replay })).toThrow(new Error(message));
  });

  it('throws on a replay that is not a string', () => {
    expect(() => verify({ seed: SEED, replay: null as unknown as string })).toThrow(
      'the replay must start with "s1:"',
    );
  });

  it('agrees with the run for a few hundred random runs, each within the bounds', () => {
    const fuzzSeed = 20_261_128;
    const random = lcg(fuzzSeed);
    let longest = 0;
    for (let i = 0; i < 300; i++) {
      const seed = seedOf(random);
      // Half play to the end, half finish early.
      const stopAfter = random() < 0.5 ? Infinity : Math.floor(random() * 200);
      const run = randomRun(seed, random, stopAfter);
      const label = `fuzz seed ${fuzzSeed}, run ${i}, seed ${seed}`;
      expect(verify({ seed, replay: replayOf(run), score: run.score }), label).toBe(run.score);
      expect(run.score, label).toBeLessThanOrEqual(MAX_SCORE);
      expect(Math.max(...run.cells.map(tileValue)), label).toBeLessThanOrEqual(MAX_TILE);
      longest = Math.max(longest, run.moves.length);
    }
    expect(longest).toBeGreaterThan(100);
  });

  it('states its bounds: at most 5,000 moves, a 16384 tile and 260,104 points', () => {
    expect([MAX_MOVES, MAX_TILE, MAX_SCORE]).toEqual([5_000, 16_384, 260_104]);
  });

  it('is one self-contained file: no imports, no clock, no Math.random', async () => {
    // The arcade's sandbox loads it alone, and a replay must give the same score there.
    const text = await readFile(new URL('../web/slide.js', import.meta.url), 'utf8');
    const source = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    expect(source).not.toMatch(/^\s*import\b|\bimport\(|\brequire\(/m);
    expect(source).not.toMatch(/Math\.random|\bDate\b|performance\.|globalThis|\bwindow\b/);
    expect(source).toMatch(/^export function verify\(/m);
    // The comments went, the code stayed.
    expect(source.length).toBeGreaterThan(text.length / 3);
  });
});
