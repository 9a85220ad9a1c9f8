import { describe, expect, it } from 'vitest';
import { uuidIds } from '../../src/ids.js';
import { generatedAvatarUrl } from '../../src/services/avatar.js';

const svgOf = (url: string) =>
  Buffer.from(url.replace('data:image/svg+xml;base64,', ''), 'base64').toString('utf8');

describe('generated avatars', () => {
  it('draw one identicon per player, the same on every call, also once forgotten', () => {
    const first = uuidIds.next();
    const url = generatedAvatarUrl(first);
    expect(url.startsWith('data:image/svg+xml;base64,')).toBe(true);
    expect(svgOf(url)).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg".*<\/svg>$/);

    // Far more players than are kept drawn: the first is drawn again, identically.
    const others = Array.from({ length: 6000 }, () => uuidIds.next());
    const urls = new Set(others.map(generatedAvatarUrl));
    expect(urls.size).toBeGreaterThan(5900);
    expect(urls.has(url)).toBe(false);
    expect(generatedAvatarUrl(first)).toBe(url);
  });
});
