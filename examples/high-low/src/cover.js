// @ts-check
import { coverPng } from '../../shared/cover-png.js';

/** The high-low game's cover: two cards, one raised, on green baize. */
export function highLowCover() {
  /** @type {(x: number, y: number, left: number, top: number) => boolean} */
  const inCard = (x, y, left, top) => x >= left && x < left + 420 && y >= top && y < top + 600;
  return coverPng((x, y) => {
    if (inCard(x, y, 1010, 200)) return x < 1030 || y < 220 ? [200, 40, 40] : [250, 250, 245];
    if (inCard(x, y, 490, 300)) return x < 510 || y < 320 ? [20, 20, 30] : [250, 250, 245];
    return [18, 92, 52];
  });
}
