import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/services/demo-seed.js';
import type { ArcadeServices } from '../../src/services/arcade-services.js';
import { findGame, updateGame } from '../../src/store/games.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';

/**
 * The demo seeded its example games at http://127.0.0.1:8090–8092 whatever the start said, so a
 * second arcade started with other ports framed the first arcade's examples. The seed now
 * registers each example where `--banner-game <name>=<url>` says it is served (npm start passes
 * 8090–8092, as before), and a game still at a seeded local address follows on a later start.
 */
const BANNER_GAMES = [
  { name: 'reaction', url: 'http://127.0.0.1:9190' },
  { name: 'high-low', url: 'http://127.0.0.1:9191/' },
  { name: 'slide', url: 'http://127.0.0.1:9192' },
];

/** The same arcade as another start with other flags would see it. */
function startedWith(arcade: ArcadeServices, bannerGames: typeof BANNER_GAMES): ArcadeServices {
  const config = { ...arcade.config, bannerGames };
  return new Proxy(arcade, {
    get(target, property) {
      if (property === 'config') return config;
      // Getters and methods run on the arcade itself, whose private fields they read.
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}

describe.each(storeVariants())('the demo seed and the examples’ ports on %s', (variant) => {
  let t: TestApi;

  beforeAll(async () => {
    t = await buildTestApi(variant, { bannerGames: BANNER_GAMES });
  });
  afterAll(() => t?.close());

  it('registers each example where --banner-game serves it, and says so in the log', async () => {
    const seed = await seedDemo(t.app.arcade);
    const urls = async () =>
      Promise.all(
        [seed.gameId, seed.highLowGameId, seed.slideGameId].map(async (id) => {
          const game = await findGame(t.db, id);
          return [game?.url, game?.coverUrl];
        }),
      );
    expect(await urls()).toEqual([
      ['http://127.0.0.1:9190/', 'http://127.0.0.1:9190/cover.png'],
      ['http://127.0.0.1:9191/', 'http://127.0.0.1:9191/cover.png'],
      ['http://127.0.0.1:9192/', 'http://127.0.0.1:9192/cover.png'],
    ]);
    const gameLines = seed.lines.filter((l) => l.startsWith('game '));
    expect(gameLines.map((l) => l.match(/ at (\S+), published/)?.[1])).toEqual([
      'http://127.0.0.1:9190/',
      'http://127.0.0.1:9191/',
      'http://127.0.0.1:9192/',
    ]);

    // A start without the flags (npm start's ports) moves the seeded games back to 8090–8092,
    // but a URL the developer chose stays.
    await updateGame(t.db, t.clock, seed.slideGameId, { url: 'https://slide.example/' });
    const again = await seedDemo(startedWith(t.app.arcade, []));
    expect(again.gameId).toBe(seed.gameId);
    expect(await urls()).toEqual([
      ['http://127.0.0.1:8090/', 'http://127.0.0.1:8090/cover.png'],
      ['http://127.0.0.1:8091/', 'http://127.0.0.1:8091/cover.png'],
      ['https://slide.example/', 'http://127.0.0.1:9192/cover.png'],
    ]);
    expect(again.lines.filter((l) => l.startsWith('game ')).map((l) => l.split(' at ')[1])).toEqual(
      [
        expect.stringMatching(/^http:\/\/127\.0\.0\.1:8090\/, published/),
        expect.stringMatching(/^http:\/\/127\.0\.0\.1:8091\/, published/),
        expect.stringMatching(/^https:\/\/slide\.example\/, published/),
      ],
    );
  });
});
