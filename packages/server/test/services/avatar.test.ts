import { describe, expect, it } from 'vitest';
import { uuidIds } from '../../src/ids.js';
import { Avatars, generatedAvatarSvg } from '../../src/services/avatar.js';

describe('generated avatars', () => {
  it('draw one identicon per player, the same on every call, also once forgotten', () => {
    const first = uuidIds.next();
    const svg = generatedAvatarSvg(first);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg".*<\/svg>$/);

    // Far more players than are kept drawn: the first is drawn again, identically.
    const others = Array.from({ length: 6000 }, () => uuidIds.next());
    const drawn = new Set(others.map(generatedAvatarSvg));
    expect(drawn.size).toBeGreaterThan(5900);
    expect(drawn.has(svg)).toBe(false);
    expect(generatedAvatarSvg(first)).toBe(svg);
  });

  it("are linked under the API's public URL; a player's own avatar is kept as it is", () => {
    const avatars = new Avatars('https://api.arcade.example.com');
    const player = uuidIds.next();
    expect(avatars.urlOf(player, null)).toBe(
      `https://api.arcade.example.com/avatars/${player}.svg`,
    );
    expect(avatars.urlOf(player, 'https://cdn.example.com/me.png')).toBe(
      'https://cdn.example.com/me.png',
    );
  });
});
