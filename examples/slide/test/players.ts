import { CELLS, DIRECTIONS, newGame, slide, type SlideState } from '../web/slide.js';

/**
 * A player for tests that want a long, real run. It looks `depth` moves ahead on the real board:
 * it knows the seed, so it knows every tile to come, which no player in the arcade does (the seed
 * reaches the page only with the play, and the tiles depend on the moves). It keeps its largest
 * tile in the bottom-left corner and its rows ordered, and plays for thousands of moves.
 */
export function lookaheadRun(seed: string, stopAfter = Infinity, depth = 3): SlideState {
  let state = newGame(seed);
  while (!state.over && state.moves.length < stopAfter) {
    const [, best] = bestMove(state, depth);
    if (best === null) throw new Error('a run that is not over has a move');
    state = best;
  }
  return state;
}

function bestMove(state: SlideState, depth: number): [number, SlideState | null] {
  let best: SlideState | null = null;
  let bestValue = -Infinity;
  for (const direction of DIRECTIONS) {
    const next = slide(state, direction);
    if (next === null) continue;
    let value = valueOf(next);
    if (depth > 1 && !next.over) value = Math.max(value, bestMove(next, depth - 1)[0]);
    if (next.over) value -= 10_000;
    if (value > bestValue) {
      best = next;
      bestValue = value;
    }
  }
  return [bestValue, best];
}

function valueOf(state: SlideState): number {
  const empty = state.cells.filter((e) => e === 0).length;
  const top = Math.max(...state.cells);
  const corner = state.cells[CELLS - 4] === top ? 30 : 0;
  // Rows ordered from the corner outwards keep merges coming.
  let ordered = 0;
  for (let i = 0; i < CELLS; i++) {
    const e = state.cells[i] ?? 0;
    const right = i % 4 < 3 ? (state.cells[i + 1] ?? 0) : 0;
    const below = i + 4 < CELLS ? (state.cells[i + 4] ?? 0) : 0;
    if (e >= right) ordered += 1;
    if (e <= below) ordered += 1;
  }
  return empty * 10 + corner + ordered * 2;
}
