// @ts-check
import { deflateSync, crc32 } from 'node:zlib';

/** The arcade checks covers are exactly this size (spec 8). */
export const COVER_WIDTH = 1920;
export const COVER_HEIGHT = 1080;

/**
 * What both example games share: the cover image the catalog shows. A game server makes its own
 * at start instead of keeping a binary in the repository.
 *
 * A 1920×1080 RGB PNG painted by `paint(x, y)` → [r, g, b]. Large flat areas compress to a few
 * kilobytes, so the cover is made at start instead of kept in the repository.
 * @param {(x: number, y: number) => readonly [number, number, number]} paint
 * @returns {Buffer}
 */
export function coverPng(paint) {
  const rowBytes = 1 + COVER_WIDTH * 3;
  const raw = Buffer.alloc(rowBytes * COVER_HEIGHT);
  for (let y = 0; y < COVER_HEIGHT; y++) {
    const row = y * rowBytes; // filter byte 0 (none) starts each row
    for (let x = 0; x < COVER_WIDTH; x++) {
      const [r, g, b] = paint(x, y);
      raw[row + 1 + x * 3] = r;
      raw[row + 2 + x * 3] = g;
      raw[row + 3 + x * 3] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(COVER_WIDTH, 0);
  header.writeUInt32BE(COVER_HEIGHT, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * @param {string} type
 * @param {Buffer} data
 */
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
