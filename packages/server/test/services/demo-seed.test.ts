import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_GAME_NAME,
  HIGH_LOW_EXAMPLE_URL,
  HIGH_LOW_GAME_NAME,
  REACTION_EXAMPLE_URL,
  seedDemo,
} from '../../src/services/demo-seed.js';
import { findGame, updateGame } from '../../src/store/games.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';

describe.each(storeVariants())('the demo seed on %s', (variant) => {
  let t: TestApi;

  beforeAll(async () => {
    t = await buildTestApi(variant);
  });
  afterAll(() => t?.close());

  it('registers both example games, published, with their URLs, covers and default tiers', async () => {
    const seed = await seedDemo(t.app.arcade);
    const reaction = await findGame(t.db, seed.gameId);
    const highLow = await findGame(t.db, seed.highLowGameId);
    expect(reaction).toMatchObject({
      name: DEMO_GAME_NAME,
      url: REACTION_EXAMPLE_URL,
      coverUrl: 'http://127.0.0.1:8090/cover.png',
      scoreDisplay: 'REVERSE',
      scoreUnit: 'ms',
      category: 'Arcade',
    });
    expect(highLow).toMatchObject({
      name: HIGH_LOW_GAME_NAME,
      url: HIGH_LOW_EXAMPLE_URL,
      coverUrl: 'http://127.0.0.1:8091/cover.png',
      scoreDisplay: 'NORMAL',
      scoreUnit: 'in a row',
      category: 'Cards',
      tagLine: 'Call the next card',
    });
    expect(reaction?.publishedAt).not.toBeNull();
    expect(highLow?.publishedAt).not.toBeNull();
    const tiers = await t.db.query<{ name: string; game_id: string }>(
      'SELECT name, game_id FROM leaderboards WHERE game_id = $1 ORDER BY cost_units',
      [seed.highLowGameId],
    );
    expect(tiers.map((r) => r.name)).toEqual(['Practice', 'High stakes']);
    expect(seed.client?.clientSecret).toMatch(/^csec_/);
    expect(seed.lines).toContain(
      `high-low: COINOP_GAME_ID=${seed.highLowGameId} (its server makes its own client unless given one)`,
    );
    expect(seed.lines.filter((l) => l.startsWith('game '))).toEqual([
      expect.stringMatching(
        new RegExp(`^game "Demo Reaction" ${seed.gameId} at http://127.0.0.1:8090/, published; `),
      ),
      expect.stringMatching(
        new RegExp(`^game "High-Low" ${seed.highLowGameId} at http://127.0.0.1:8091/, published; `),
      ),
    ]);
  });

  it('changes nothing when run again, and keeps a URL someone set', async () => {
    const [games] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM games');
    const first = await seedDemo(t.app.arcade);
    await updateGame(t.db, t.clock, first.gameId, { url: 'http://127.0.0.1:9999/' });
    const again = await seedDemo(t.app.arcade);
    expect(again.gameId).toBe(first.gameId);
    expect(again.highLowGameId).toBe(first.highLowGameId);
    expect(again.client).toBeNull();
    expect(again.players.map((p) => p.balanceUnits)).toEqual([100_000_000_000n, 100_000_000_000n]);
    const [after] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM games');
    expect(after?.n).toBe(games?.n);
    expect((await findGame(t.db, first.gameId))?.url).toBe('http://127.0.0.1:9999/');
  });

  it('gives a game an older seed made without a URL, cover or unit the example ones', async () => {
    const seed = await seedDemo(t.app.arcade);
    await updateGame(t.db, t.clock, seed.highLowGameId, { url: '', coverUrl: '', scoreUnit: '' });
    await updateGame(t.db, t.clock, seed.gameId, { scoreUnit: 'msec' });
    await seedDemo(t.app.arcade);
    expect(await findGame(t.db, seed.highLowGameId)).toMatchObject({
      url: HIGH_LOW_EXAMPLE_URL,
      coverUrl: 'http://127.0.0.1:8091/cover.png',
      scoreUnit: 'in a row',
    });
    // A unit someone set is kept.
    expect((await findGame(t.db, seed.gameId))?.scoreUnit).toBe('msec');
  });

  it('issue 17: replaces the terminal-only High-Low text of an older seed, keeps one edited', async () => {
    const seed = await seedDemo(t.app.arcade);
    const terminalOnly =
      'Guess whether the next card is higher or lower. The game server deals and keeps the ' +
      'score; play it from a terminal.';
    await updateGame(t.db, t.clock, seed.highLowGameId, { description: terminalOnly });
    await seedDemo(t.app.arcade);
    const described = (await findGame(t.db, seed.highLowGameId))?.description;
    expect(described).toBe(
      'Guess whether the next card is higher or lower; each right call adds to your streak. The ' +
        'game server deals and keeps the score. Play it here: press Sign in with the arcade, ' +
        'then Deal. Or in a terminal: npm run play -w @coinop/example-high-low in a checkout of ' +
        'coinop.',
    );
    await updateGame(t.db, t.clock, seed.highLowGameId, { description: 'My own words.' });
    await seedDemo(t.app.arcade);
    expect((await findGame(t.db, seed.highLowGameId))?.description).toBe('My own words.');
  });
});
