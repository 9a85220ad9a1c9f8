import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { serve, startCoverServer, type CoverServer } from '../fixtures/cover-server.js';
import { pngImage } from '../fixtures/images.js';

// Issue 30: a developer declares their game's score rules, and each tier's overrides, in the
// portal API's `scoreRules`; rules that no score could meet, or a replay requirement without a
// verifier, are refused with a 400 naming the field, and nothing of the request is written.

interface Rules {
  minScore: number | null;
  maxScore: number | null;
  minPlayMs: number | null;
  replay: string | null;
}
interface Game {
  id: string;
  tagLine: string;
  scoreRules: Rules;
  leaderboards: { id: string; name: string; cost: number; scoreRules: Rules }[];
}

const NONE = { minScore: null, maxScore: null, minPlayMs: null };

describe.each(storeVariants())('score rules in the developer portal API on %s', (variant) => {
  let s: TestSignin;
  let covers: CoverServer;
  let token: string;

  beforeAll(async () => {
    s = await buildTestSignin(variant, { allowPrivateUrls: true });
    covers = await startCoverServer({ '/cover.png': serve(pngImage(1920, 1080)) });
    token = (await walletSignIn(s.auth, newWallet())).access_token;
  });
  afterAll(async () => {
    await covers.close();
    await s.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    s.api.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload }),
    });
  const register = async (body: object = {}) => {
    const res = await call('POST', '/developer/games', {
      name: 'Slide',
      coverUrl: covers.url('/cover.png'),
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Game>();
  };
  const gameCount = async () =>
    (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM games'))[0]?.n;

  it('a new game has no rules; they are set at registration and shown on every read', async () => {
    const plain = await register();
    expect(plain.scoreRules).toEqual({ ...NONE, replay: 'off' });
    expect(plain.leaderboards.map((t) => t.scoreRules)).toEqual([
      { ...NONE, replay: null },
      { ...NONE, replay: null },
    ]);
    const ruled = await register({
      scoreRules: { minScore: 0, maxScore: 5000, minPlayMs: 10_000 },
    });
    expect(ruled.scoreRules).toEqual({
      minScore: 0,
      maxScore: 5000,
      minPlayMs: 10_000,
      replay: 'off',
    });
    const read = (await call('GET', `/developer/games/${ruled.id}`)).json<Game>();
    expect(read.scoreRules).toEqual(ruled.scoreRules);
    const stored = await s.db.query(
      'SELECT min_score, max_score, min_play_ms, replay_rule FROM games WHERE id = $1',
      [ruled.id],
    );
    expect(stored).toEqual([
      { min_score: 0, max_score: 5000, min_play_ms: 10_000, replay_rule: 'off' },
    ]);
  });

  it('a change sets the fields it gives, clears those given null, keeps the others', async () => {
    const game = await register({ scoreRules: { minScore: 1, maxScore: 10 } });
    const changed = await call('PATCH', `/developer/games/${game.id}`, {
      scoreRules: { maxScore: null, minPlayMs: 500 },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Game>().scoreRules).toEqual({
      minScore: 1,
      maxScore: null,
      minPlayMs: 500,
      replay: 'off',
    });
    // With another field, both change.
    const both = await call('PATCH', `/developer/games/${game.id}`, {
      tagLine: 'Slide to win',
      scoreRules: { minScore: null },
    });
    expect(both.json<Game>()).toMatchObject({
      tagLine: 'Slide to win',
      scoreRules: { minScore: null, maxScore: null, minPlayMs: 500, replay: 'off' },
    });
  });

  it('a tier overrides its game’s rules and inherits what it leaves null', async () => {
    const game = await register({ scoreRules: { maxScore: 5000 } });
    const tier = game.leaderboards[0]!;
    const res = await call('PATCH', `/developer/games/${game.id}/leaderboards/${tier.id}`, {
      scoreRules: { maxScore: 100, minPlayMs: 2000 },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ scoreRules: Rules }>().scoreRules).toEqual({
      minScore: null,
      maxScore: 100,
      minPlayMs: 2000,
      replay: null,
    });
    const added = await call('POST', `/developer/games/${game.id}/leaderboards`, {
      name: 'Marathon',
      cost: 2,
      scoreRules: { minPlayMs: 60_000 },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json<{ scoreRules: Rules }>().scoreRules).toEqual({
      ...NONE,
      minPlayMs: 60_000,
      replay: null,
    });
  });

  it.each([
    [{ minScore: -1 }, 'scoreRules.minScore '],
    [{ maxScore: 'lots' }, 'scoreRules.maxScore '],
    [{ minPlayMs: 1.5 }, 'scoreRules.minPlayMs '],
    [{ minPlayMs: 86_400_001 }, 'scoreRules.minPlayMs must be at most 86400000'],
    [{ replay: 'sometimes' }, 'scoreRules.replay '],
    [{ cheat: true }, 'scoreRules.cheat is not a field this request takes'],
  ])(
    'refuses %j at registration with a 400 naming %s, registering nothing',
    async (rules, path) => {
      const before = await gameCount();
      const res = await call('POST', '/developer/games', {
        name: 'Nope',
        coverUrl: covers.url('/cover.png'),
        scoreRules: rules,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
      expect(res.json().message).toContain(path);
      expect(await gameCount()).toBe(before);
    },
  );

  it('refuses rules no score could meet, alone or with a tier, writing nothing', async () => {
    const before = await gameCount();
    const inverted = await call('POST', '/developer/games', {
      name: 'Nope',
      coverUrl: covers.url('/cover.png'),
      scoreRules: { minScore: 10, maxScore: 5 },
    });
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json()).toMatchObject({
      code: 'validation_failed',
      message: 'scoreRules.minScore 10 is above maxScore 5: no score could be accepted',
    });
    expect(await gameCount()).toBe(before);

    const game = await register({ scoreRules: { maxScore: 100 } });
    const tier = game.leaderboards[0]!;
    const clash = await call('PATCH', `/developer/games/${game.id}/leaderboards/${tier.id}`, {
      name: 'Renamed',
      scoreRules: { minScore: 200 },
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().message).toBe(
      "scoreRules (with the game's rules).minScore 200 is above maxScore 100: no score could be accepted",
    );
    const unchanged = (await call('GET', `/developer/games/${game.id}`)).json<Game>();
    expect(unchanged.leaderboards[0]).toMatchObject({
      name: tier.name,
      scoreRules: tier.scoreRules,
    });
  });

  it('refuses to require replays of a game without a verifier', async () => {
    const game = await register();
    const res = await call('PATCH', `/developer/games/${game.id}`, {
      scoreRules: { replay: 'required' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      message:
        "scoreRules.replay 'required' needs the game's replay verifier: upload it first " +
        '(docs/reference/verifier.md), then require replays',
    });
    expect((await call('GET', `/developer/games/${game.id}`)).json<Game>().scoreRules.replay).toBe(
      'off',
    );
  });
});
