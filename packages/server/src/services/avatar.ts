import { createHash } from 'node:crypto';

/**
 * A player without an avatar of their own gets a generated one: a symmetric 5×5 identicon drawn
 * from the player id, served by the API at `/avatars/{playerId}.svg`. It is the same on every
 * call, so it is served for caching forever, and answers that list leaders carry a short URL
 * instead of the image.
 */
export class Avatars {
  readonly #base: string;

  /** `publicUrl`: the API's public URL (`Config.publicUrl`). */
  constructor(publicUrl: string) {
    this.#base = `${publicUrl}/avatars/`;
  }

  /** The player's own avatar URL, else the URL of their generated one. */
  urlOf(playerId: string, avatarUrl: string | null): string {
    return avatarUrl ?? `${this.#base}${playerId}.svg`;
  }
}

/** The generated avatar of a player id, as SVG text (under 1 kB). */
export function generatedAvatarSvg(playerId: string): string {
  let svg = drawn.get(playerId);
  if (svg === undefined) {
    svg = draw(playerId);
    // Oldest first: the leaders of busy boards, whose avatars are asked for most, stay in.
    if (drawn.size >= DRAWN_MAX) drawn.delete(drawn.keys().next().value ?? '');
    drawn.set(playerId, svg);
  }
  return svg;
}

/** Avatars already drawn: drawing one costs a hash and some string building. */
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
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="-1 -1 7 7" shape-rendering="crispEdges">` +
    `<rect x="-1" y="-1" width="7" height="7" fill="hsl(${hue} 30% 92%)"/>` +
    `<g fill="hsl(${hue} 60% 45%)">${cells.join('')}</g></svg>`
  );
}
