import { createHash } from 'node:crypto';

/**
 * A player without an avatar gets a generated one: a symmetric 5×5 identicon derived from the
 * player id, as an SVG data URL, so it needs no image host and is the same on every call.
 */
export function generatedAvatarUrl(playerId: string): string {
  let url = drawn.get(playerId);
  if (url === undefined) {
    url = draw(playerId);
    // Oldest first: a board's leaders, which every score answers with, stay in.
    if (drawn.size >= DRAWN_MAX) drawn.delete(drawn.keys().next().value ?? '');
    drawn.set(playerId, url);
  }
  return url;
}

/**
 * Avatars already drawn (each under 1 kB). A score's answer lists its board's leaders, so the
 * same few are asked for over and over; drawing one costs a hash and an encoding.
 */
const drawn = new Map<string, string>();
const DRAWN_MAX = 4096;

function draw(playerId: string): string {
  const hash = createHash('sha256').update(playerId).digest();
  const hue = Math.round(((hash[0] ?? 0) / 255) * 360);
  const cells: string[] = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 3; col++) {
      if (((hash[1 + row * 3 + col] ?? 0) & 1) === 0) continue;
      for (const x of new Set([col, 4 - col])) {
        cells.push(`<rect x="${x}" y="${row}" width="1" height="1"/>`);
      }
    }
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 -1 7 7" shape-rendering="crispEdges">` +
    `<rect x="-1" y="-1" width="7" height="7" fill="hsl(${hue} 30% 92%)"/>` +
    `<g fill="hsl(${hue} 60% 45%)">${cells.join('')}</g></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}
