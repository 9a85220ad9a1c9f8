import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_DEVELOPER_WALLET,
  DEMO_GAME_NAME,
  HIGH_LOW_EXAMPLE_URL,
  HIGH_LOW_GAME_NAME,
  REACTION_EXAMPLE_URL,
  seedDemo,
} from '../../src/services/demo-seed.js';
import { findGame, updateGame } from '../../src/store/games.js';
import {
  SLIDE_ENGINE_FILE,
  SLIDE_EXAMPLE_URL,
  SLIDE_GAME_NAME,
  SLIDE_SCORE_RULES,
} from '../../src/services/demo-slide.js';
import { gameRules } from '../../src/store/score-rules.js';
import { GameVerifiers } from '../../src/services/game-verifiers.js';
import { findDeveloperByWallet } from '../../src/store/developers.js';
import { latestVerifierVersion } from '../../src/store/game-verifiers.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';

describe.each(storeVariants())('the demo seed on %s', (variant) => {
  let t: TestApi;

  beforeAll(async () => {
    t = await buildTestApi(variant);
  });
  afterAll(() => t?.close());

  it('registers the example games, published, with their URLs, covers and default tiers', async () => {
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
      expect.stringMatching(
        new RegExp(`^game "Slide" ${seed.slideGameId} at http://127.0.0.1:8092/, published; `),
      ),
    ]);
  });

  it('issue 30: registers Slide with its engine file as its verifier, uploaded once', async () => {
    const seed = await seedDemo(t.app.arcade);
    expect(await findGame(t.db, seed.slideGameId)).toMatchObject({
      name: SLIDE_GAME_NAME,
      url: SLIDE_EXAMPLE_URL,
      coverUrl: 'http://127.0.0.1:8092/cover.png',
      scoreDisplay: 'NORMAL',
      scoreUnit: 'points',
      category: 'Puzzle',
    });
    const engine = await readFile(SLIDE_ENGINE_FILE, 'utf8');
    const sha256 = createHash('sha256').update(engine, 'utf8').digest('hex');
    const first = await latestVerifierVersion(t.db, seed.slideGameId);
    expect(first).toMatchObject({ sha256, sizeBytes: Buffer.byteLength(engine), removedAt: null });
    expect(seed.lines).toContain(
      `slide: verifier version ${first!.version} is examples/slide/web/slide.js (sha256 ` +
        `${sha256.slice(0, 12)}…)`,
    );
    // The rules examples/README.md justifies, the bound being the engine's own.
    const { MAX_SCORE } = (await import(SLIDE_ENGINE_FILE.href)) as { MAX_SCORE: number };
    expect(SLIDE_SCORE_RULES).toEqual({
      minScore: 0,
      maxScore: MAX_SCORE,
      minPlayMs: 500,
      replay: 'required',
    });
    expect((await gameRules(t.db, [seed.slideGameId])).get(seed.slideGameId)).toEqual(
      SLIDE_SCORE_RULES,
    );
    expect(seed.lines).toContain(
      "slide: scores from 0 to 260104, at least 500 ms after the play's open, replay required",
    );
    // Seeding again uploads nothing, and rules the developer set since stand.
    await t.app.arcade.scoreRules.changeGame(seed.slideGameId, { minPlayMs: 2000 });
    await seedDemo(t.app.arcade);
    expect((await latestVerifierVersion(t.db, seed.slideGameId))?.version).toBe(first!.version);
    expect((await gameRules(t.db, [seed.slideGameId])).get(seed.slideGameId)?.minPlayMs).toBe(2000);

    // A verifier that is not the checkout's engine (an older one, say) gives way to the engine.
    const developer = await findDeveloperByWallet(t.db, DEMO_DEVELOPER_WALLET.toLowerCase());
    const verifiers = new GameVerifiers(t.app.arcade);
    await verifiers.upload(developer!, seed.slideGameId, 'export function verify() { return 0; }');
    await seedDemo(t.app.arcade);
    expect(await latestVerifierVersion(t.db, seed.slideGameId)).toMatchObject({
      version: first!.version + 2,
      sha256,
    });
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
