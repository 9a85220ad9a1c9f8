// @ts-check

/**
 * Slide: a seeded 4×4 sliding-merge puzzle, and its verifier. This one file is both the game's
 * engine (the page imports it) and the verifier the developer uploads to the arcade: the code
 * that plays is the code that checks. So it has no imports and reads no clock and no
 * Math.random: every new tile comes from the play's seed, and the same seed and moves always give
 * the same board and score, in a browser and in the arcade's sandbox alike.
 *
 * Rules: each move slides every tile as far as it goes in one direction; two tiles of the same
 * value that meet merge into one of twice the value, once per move, and the merged value is added
 * to the score. A move that changes nothing is not a move. After each move one tile appears on
 * an empty cell, a 2 (nine times in ten) or a 4. The run ends when no move is possible, or when
 * the player finishes (cashes out) earlier.
 *
 * Replay: "s1:" then one letter per move, L, R, U or D, e.g. "s1:LLURD".
 */

export const SIZE = 4;
export const CELLS = SIZE * SIZE;
/** The replay format's version, before the colon. */
export const REPLAY_PREFIX = 's1:';
/** The moves a replay may hold, by their letter. */
export const DIRECTIONS = /** @type {const} */ (['L', 'R', 'U', 'D']);
/**
 * The longest run: beyond almost every human's (a 2048 tile takes about a thousand moves, an 8192
 * about four thousand), short enough that the arcade's sandbox checks it in a few tens of
 * milliseconds, and the bound that makes MAX_TILE and MAX_SCORE provable. The run ends there.
 */
export const MAX_MOVES = 5_000;
/**
 * The tiles on the board add up to what was spawned: two at the start and one per move, each 2
 * or 4, so at most 4 × (2 + MAX_MOVES) = 20,008 < 2^15. No tile is larger than that sum, so none
 * is over 2^14 (and every cell's exponent fits in 4 bits).
 */
export const MAX_TILE = 2 ** 14;
/**
 * No run can score more. A tile 2^k built from 2s earned (k − 1) × 2^k in the merges that made
 * it (a spawned 4 earns less), so with k ≤ 14 the score is at most 13 × the tiles' sum, which is
 * at most 20,008: 260,104.
 */
export const MAX_SCORE = 13 * 4 * (2 + MAX_MOVES);

/** @typedef {(typeof DIRECTIONS)[number]} Direction */

/**
 * A run at one moment. Never changed in place: `slide` returns a new one.
 * @typedef {object} SlideState
 * @property {readonly number[]} cells the 16 cells, row by row from the top left, each 0 when empty
 *   or else the tile's exponent: 1 for a 2, 2 for a 4, 3 for an 8 (tileValue turns it into the
 *   number shown)
 * @property {number} score the sum of every merged tile so far
 * @property {string} moves the moves so far, one letter each
 * @property {number} placed the cell where the last move's new tile appeared; -1 at the start
 * @property {boolean} over true once no move is possible, or after MAX_MOVES moves
 * @property {readonly number[]} rng the random generator's four 32-bit words
 */

/**
 * The number a cell shows: 2^exponent, or 0 for an empty cell.
 * @param {number} exponent
 */
export function tileValue(exponent) {
  return exponent === 0 ? 0 : 2 ** exponent;
}

/**
 * The first board of a run: two tiles placed by the seed.
 * @param {string} seed the play's seed, 64 lowercase hex characters
 * @returns {SlideState}
 */
export function newGame(seed) {
  const rng = seedWords(seed);
  const cells = new Array(CELLS).fill(0);
  spawn(cells, rng);
  spawn(cells, rng);
  return { cells, score: 0, moves: '', placed: -1, over: !canMove(cells), rng };
}

/**
 * The run after one move, or null when that move changes nothing (or the run is over).
 * @param {SlideState} state
 * @param {Direction} direction
 * @returns {SlideState | null}
 */
export function slide(state, direction) {
  if (state.over || state.moves.length >= MAX_MOVES) return null;
  const cells = state.cells.slice();
  const gained = slideCells(cells, direction);
  if (gained < 0) return null;
  const rng = state.rng.slice();
  const placed = spawn(cells, rng);
  return {
    cells,
    score: state.score + gained,
    moves: state.moves + direction,
    placed,
    over: !canMove(cells) || state.moves.length + 1 >= MAX_MOVES,
    rng,
  };
}

/**
 * The replay a run submits with its score.
 * @param {SlideState} state
 */
export function replayOf(state) {
  return REPLAY_PREFIX + state.moves;
}

/**
 * Plays a replay from the seed's first board. Throws, saying why, on a replay that is not one of
 * this game's: a wrong format, a move that changes nothing, a move after the end.
 * @param {string} seed
 * @param {string} replay
 * @returns {SlideState}
 */
export function replayRun(seed, replay) {
  if (typeof replay !== 'string' || !replay.startsWith(REPLAY_PREFIX)) {
    throw new Error(`the replay must start with "${REPLAY_PREFIX}"`);
  }
  const moves = replay.slice(REPLAY_PREFIX.length);
  if (moves.length > MAX_MOVES) {
    throw new Error(`the replay has ${moves.length} moves, more than ${MAX_MOVES}`);
  }
  // One board changed in place: a long replay is checked without a copy per move.
  const start = newGame(seed);
  const cells = start.cells.slice();
  const rng = start.rng.slice();
  let score = 0;
  let placed = -1;
  for (let i = 0; i < moves.length; i++) {
    const direction = /** @type {Direction} */ (moves[i]);
    if (!(direction in LINES)) {
      throw new Error(`move ${i + 1} is "${moves[i]}", not one of L, R, U, D`);
    }
    const gained = slideCells(cells, direction);
    if (gained < 0) {
      throw new Error(
        canMove(cells)
          ? `move ${i + 1} (${direction}) changes nothing`
          : `move ${i + 1} comes after the run ended`,
      );
    }
    score += gained;
    placed = spawn(cells, rng);
  }
  return { cells, score, moves, placed, over: !canMove(cells) || moves.length >= MAX_MOVES, rng };
}

/**
 * The verifier the arcade runs: the score the replay earns from this seed (the arcade accepts a
 * score only when it equals this). Throws on a replay that is not a run of this game.
 * @param {{ seed: string, replay: string, score?: number, leaderboardId?: string }} input
 * @returns {number}
 */
export function verify({ seed, replay }) {
  return replayRun(seed, replay).score;
}

/**
 * Whether any move is possible: an empty cell, or two equal neighbours.
 * @param {readonly number[]} cells
 */
export function canMove(cells) {
  for (let i = 0; i < CELLS; i++) {
    const value = cells[i];
    if (value === 0) return true;
    if (i % SIZE < SIZE - 1 && cells[i + 1] === value) return true;
    if (i + SIZE < CELLS && cells[i + SIZE] === value) return true;
  }
  return false;
}

/**
 * The seed's 256 bits folded into xoshiro128**'s 128-bit state (each word the XOR of the seed's
 * words i and i + 4). An all-zero state would stay zero forever, so it gets a fixed word instead.
 * @param {string} seed
 * @returns {number[]}
 */
export function seedWords(seed) {
  if (typeof seed !== 'string' || !/^[0-9a-f]{64}$/.test(seed)) {
    throw new Error('the seed must be 64 lowercase hex characters');
  }
  /** @type {number[]} */
  const words = [];
  for (let i = 0; i < 4; i++) {
    const low = parseInt(seed.slice(i * 8, i * 8 + 8), 16);
    const high = parseInt(seed.slice(i * 8 + 32, i * 8 + 40), 16);
    words.push((low ^ high) | 0);
  }
  if (!words.some((word) => word !== 0)) words[0] = 0x9e3779b9 | 0;
  return words;
}

/**
 * xoshiro128** (Blackman and Vigna, 2018): the next 32-bit output, advancing `s` in place.
 * @param {number[]} s
 */
export function nextRandom(s) {
  const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
  const t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  return result;
}

/**
 * @param {number} x
 * @param {number} k
 */
function rotl(x, k) {
  return (x << k) | (x >>> (32 - k));
}

/**
 * A whole number in [0, n) from the next output (n ≤ 16, so the product is exact).
 * @param {number[]} rng
 * @param {number} n
 */
function below(rng, n) {
  return Math.floor((nextRandom(rng) * n) / 4294967296);
}

/**
 * Places a new tile on an empty cell, in place: which empty cell, then 4 one time in ten, else 2.
 * Returns the cell (-1 on a full board, which a move never leaves: it moved or merged a tile).
 * @param {number[]} cells
 * @param {number[]} rng
 */
function spawn(cells, rng) {
  let empty = 0;
  for (let i = 0; i < CELLS; i++) if (cells[i] === 0) empty++;
  if (empty === 0) return -1;
  let pick = below(rng, empty);
  const exponent = below(rng, 10) === 0 ? 2 : 1;
  for (let i = 0; i < CELLS; i++) {
    if (cells[i] !== 0) continue;
    if (pick === 0) {
      cells[i] = exponent;
      return i;
    }
    pick--;
  }
  return -1;
}

/**
 * For each direction, the 16 cells line by line, each line from the side its tiles slide to: a
 * table made once, so a move reads indices instead of computing them.
 * @type {Record<Direction, number[]>}
 */
const LINES = { L: [], R: [], U: [], D: [] };
for (let line = 0; line < SIZE; line++) {
  for (let p = 0; p < SIZE; p++) {
    LINES.L.push(line * SIZE + p);
    LINES.R.push(line * SIZE + (SIZE - 1 - p));
    LINES.U.push(p * SIZE + line);
    LINES.D.push((SIZE - 1 - p) * SIZE + line);
  }
}

// What each line becomes when slid, by the line's key (its four exponents, 4 bits each, the
// first cell lowest): 1 + the key after, and the points its merges earn. Filled as lines are
// met, so a long replay slides each distinct line once: the sandbox interprets this code, and a
// look-up costs far less there than a slide.
/** @type {Int32Array | null} */
let slidKey = null;
/** @type {Int32Array | null} */
let slidPoints = null;

/**
 * Slides one line toward its first cell and merges equal neighbours, each tile once, recording
 * the result in the memo.
 * @param {number} key
 * @param {Int32Array} keys
 * @param {Int32Array} points
 */
function slideLine(key, keys, points) {
  const out = [0, 0, 0, 0];
  let count = 0;
  let mergeable = false;
  let gained = 0;
  for (let p = 0; p < SIZE; p++) {
    const exponent = (key >> (4 * p)) & 15;
    if (exponent === 0) continue;
    if (mergeable && out[count - 1] === exponent) {
      out[count - 1] = exponent + 1;
      gained += 2 ** (exponent + 1);
      mergeable = false;
    } else {
      out[count++] = exponent;
      mergeable = true;
    }
  }
  keys[key] = 1 + (out[0] | (out[1] << 4) | (out[2] << 8) | (out[3] << 12));
  points[key] = gained;
}

/**
 * Slides and merges every line in place. Returns the points the merges earned, or -1 when nothing
 * moved (the cells are then unchanged).
 * @param {number[]} cells
 * @param {Direction} direction
 */
function slideCells(cells, direction) {
  slidKey ??= new Int32Array(1 << 16);
  slidPoints ??= new Int32Array(1 << 16);
  const order = LINES[direction];
  let gained = 0;
  let moved = false;
  for (let start = 0; start < CELLS; start += SIZE) {
    const a = order[start];
    const b = order[start + 1];
    const c = order[start + 2];
    const d = order[start + 3];
    const key = cells[a] | (cells[b] << 4) | (cells[c] << 8) | (cells[d] << 12);
    if (slidKey[key] === 0) slideLine(key, slidKey, slidPoints);
    const after = slidKey[key] - 1;
    if (after === key) continue;
    moved = true;
    gained += slidPoints[key];
    cells[a] = after & 15;
    cells[b] = (after >> 4) & 15;
    cells[c] = (after >> 8) & 15;
    cells[d] = after >> 12;
  }
  return moved ? gained : -1;
}
