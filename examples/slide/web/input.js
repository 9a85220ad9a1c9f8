// @ts-check
/* global document */

/**
 * The player's moves, from the keyboard (arrows, WASD), a swipe on the board, or the on-screen
 * pad, each turned into one of the engine's directions.
 */

/** @type {Record<string, import('./slide.js').Direction>} */
const KEYS = {
  ArrowLeft: 'L',
  ArrowRight: 'R',
  ArrowUp: 'U',
  ArrowDown: 'D',
  a: 'L',
  d: 'R',
  w: 'U',
  s: 'D',
};
/** The shortest swipe taken as a move, in CSS pixels: shorter is a tap. */
const SWIPE_MIN_PX = 24;

/**
 * Calls `onMove` for every move the player makes, while `isActive()`.
 * @param {{ board: HTMLElement, pad: HTMLElement, isActive: () => boolean,
 *   onMove: (direction: import('./slide.js').Direction) => void }} options
 */
export function listenForMoves({ board, pad, isActive, onMove }) {
  document.addEventListener('keydown', (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || !isActive()) return;
    const direction = KEYS[event.key.length === 1 ? event.key.toLowerCase() : event.key];
    if (!direction) return;
    // Arrow keys would scroll the page as well.
    event.preventDefault();
    onMove(direction);
  });

  /** @type {{ x: number, y: number } | null} */
  let start = null;
  board.addEventListener('pointerdown', (event) => {
    start = { x: event.clientX, y: event.clientY };
  });
  board.addEventListener('pointerup', (event) => {
    if (!start || !isActive()) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    start = null;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_MIN_PX) return;
    if (Math.abs(dx) > Math.abs(dy)) onMove(dx > 0 ? 'R' : 'L');
    else onMove(dy > 0 ? 'D' : 'U');
  });
  board.addEventListener('pointercancel', () => {
    start = null;
  });

  pad.addEventListener('click', (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest('button');
    const direction = button?.dataset['direction'];
    if (direction && isActive()) onMove(/** @type {import('./slide.js').Direction} */ (direction));
  });
}
