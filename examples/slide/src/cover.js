// @ts-check
import { COVER_HEIGHT, COVER_WIDTH, coverPng } from '../../shared/cover-png.js';

/** Tile colours of the page (web/style.css), from 2 to 2048, and the empty cell's. */
const TILES = [
  [217, 226, 242],
  [185, 205, 242],
  [143, 177, 247],
  [95, 145, 255],
  [123, 211, 137],
  [63, 191, 95],
  [245, 215, 110],
  [245, 197, 66],
  [245, 159, 66],
  [245, 123, 66],
  [255, 90, 95],
];
const EMPTY = /** @type {const} */ ([27, 32, 43]);
const FRAME = /** @type {const} */ ([42, 49, 64]);
const FIELD = /** @type {const} */ ([16, 19, 26]);
/** Which tile each cell of the cover's board shows (an index into TILES), -1 for empty. */
const LAYOUT = [10, 9, 8, 7, 3, 4, 5, 6, 2, 1, -1, 0, -1, 0, -1, -1];

/** The slide game's cover: a 4×4 board of merging tiles, centred on a dark field. */
export function slideCover() {
  const size = 840;
  const left = (COVER_WIDTH - size) / 2;
  const top = (COVER_HEIGHT - size) / 2;
  const gap = 24;
  const cell = (size - gap * 5) / 4;
  return coverPng((x, y) => {
    const bx = x - left;
    const by = y - top;
    if (bx < 0 || by < 0 || bx >= size || by >= size) return FIELD;
    const col = Math.floor((bx - gap) / (cell + gap));
    const row = Math.floor((by - gap) / (cell + gap));
    const inX = bx - gap - col * (cell + gap);
    const inY = by - gap - row * (cell + gap);
    if (col < 0 || row < 0 || inX >= cell || inY >= cell || inX < 0 || inY < 0) return FRAME;
    const tile = LAYOUT[row * 4 + col] ?? -1;
    const colour = tile < 0 ? EMPTY : TILES[tile];
    return /** @type {readonly [number, number, number]} */ (colour ?? EMPTY);
  });
}
