// @ts-check
import { COVER_HEIGHT, COVER_WIDTH, coverPng } from '../../shared/cover-png.js';

/** The reaction game's cover: a green disc on a dark field, inside a red ring. */
export function reactionCover() {
  const cx = COVER_WIDTH / 2;
  const cy = COVER_HEIGHT / 2;
  return coverPng((x, y) => {
    const d = Math.hypot(x - cx, y - cy);
    if (d < 300) return [30, 142, 62];
    if (d < 360) return [16, 19, 26];
    if (d < 400) return [179, 38, 30];
    return [16, 19, 26];
  });
}
