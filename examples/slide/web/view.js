// @ts-check
/* global document */
import { CELLS, SIZE, tileValue } from './slide.js';

/**
 * What the player sees of a run: the board, the score and the moves. The board is one image to
 * assistive technology, named by its rows ("Row 1: 2, empty, empty, 4. …"), since its cells alone
 * say nothing.
 */

/** @param {string} selector */
export const $ = (selector) => {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`missing ${selector}`);
  return /** @type {HTMLElement} */ (element);
};

/** Makes the 16 cells once. @param {HTMLElement} board */
export function buildBoard(board) {
  const cells = [];
  for (let i = 0; i < CELLS; i++) {
    const cell = document.createElement('div');
    cell.className = 'cell';
    cell.setAttribute('aria-hidden', 'true');
    cells.push(cell);
  }
  board.replaceChildren(...cells);
}

/**
 * Shows a run's board (the tile the last move placed marked), score and moves.
 * @param {import('./slide.js').SlideState | null} state
 */
export function renderRun(state) {
  const fresh = state?.placed ?? -1;
  const board = $('#board');
  const cells = /** @type {HTMLElement[]} */ ([...board.children]);
  cells.forEach((cell, i) => {
    const value = state ? tileValue(state.cells[i] ?? 0) : 0;
    cell.textContent = value === 0 ? '' : String(value);
    cell.dataset['value'] = String(Math.min(value, 4096));
    cell.dataset['digits'] = String(String(value).length);
    cell.classList.toggle('fresh', i === fresh);
  });
  board.setAttribute('aria-label', state ? describeBoard(state) : 'Board: press Play to start');
  $('#score').textContent = (state?.score ?? 0).toLocaleString('en');
  $('#moves').textContent = (state?.moves.length ?? 0).toLocaleString('en');
}

/** @param {import('./slide.js').SlideState} state */
function describeBoard(state) {
  const rows = [];
  for (let r = 0; r < SIZE; r++) {
    const values = state.cells
      .slice(r * SIZE, r * SIZE + SIZE)
      .map((e) => (e === 0 ? 'empty' : String(tileValue(e))));
    rows.push(`Row ${r + 1}: ${values.join(', ')}.`);
  }
  return `Board. ${rows.join(' ')}`;
}
