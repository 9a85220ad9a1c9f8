import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { serve, startCoverServer, type CoverServer } from '../fixtures/cover-server.js';
import { pngImage } from '../fixtures/images.js';

// Issue 30: a developer sets a game's payout hold when registering it, and a tier's when adding
// it, as PATCH sets them; a value out of range is refused with a 400 naming the field, and
// nothing is written.

interface Game {
  id: string;
  payoutHoldSeconds: number | null;
  leaderboards: { id: string; payoutHoldSeconds: number | null }[];
}

describe.each(storeVariants())('a payout hold set at creation on %s', (variant) => {
  let s: TestSignin;
  let covers: CoverServer;
  let token: string;

  beforeAll(async () => {
    s = await buildTestSignin(variant, { allowPrivateUrls: true, payoutHoldSeconds: 600 });
    covers = await startCoverServer({ '/cover.png': serve(pngImage(1920, 1080)) });
    token = (await walletSignIn(s.auth, newWallet())).access_token;
  });
  afterAll(async () => {
    await covers.close();
    await s.close();
  });

  const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
    s.api.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload }),
    });
  const register = (body: object) =>
    call('POST', '/developer/games', {
      name: 'Slide',
      coverUrl: covers.url('/cover.png'),
      ...body,
    });
  const count = async (table: 'games' | 'leaderboards') =>
    (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n;

  it('registers a game and adds a tier with their holds', async () => {
    const res = await register({ payoutHoldSeconds: 86_400 });
    expect(res.statusCode, res.body).toBe(201);
    const game = res.json<Game>();
    expect(game.payoutHoldSeconds).toBe(86_400);
    // The default tiers inherit the game's.
    expect(game.leaderboards.map((t) => t.payoutHoldSeconds)).toEqual(
      game.leaderboards.map(() => null),
    );
    const stored = await s.db.query<{ payout_hold_seconds: number | null }>(
      'SELECT payout_hold_seconds FROM games WHERE id = $1',
      [game.id],
    );
    expect(stored).toEqual([{ payout_hold_seconds: 86_400 }]);

    const tier = await call('POST', `/developer/games/${game.id}/leaderboards`, {
      name: 'Quick',
      cost: 1,
      payoutHoldSeconds: 0,
    });
    expect(tier.statusCode, tier.body).toBe(201);
    expect(tier.json().payoutHoldSeconds).toBe(0);
    const read = await call('GET', `/developer/games/${game.id}`);
    expect(read.json<Game>().leaderboards.at(-1)).toMatchObject({
      id: tier.json().id,
      payoutHoldSeconds: 0,
    });

    // Absent or null: the operator's default (the game's own stays null).
    const plain = await register({ name: 'Plain', payoutHoldSeconds: null });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json<Game>().payoutHoldSeconds).toBe(null);
  });

  it('refuses a hold out of range by name and writes nothing', async () => {
    const created = await register({ name: 'Holder' });
    expect(created.statusCode, created.body).toBe(201);
    const gameId = created.json<Game>().id;
    const games = await count('games');
    const tiers = await count('leaderboards');
    for (const bad of [-1, 2_592_001, 1.5, '60', true]) {
      const res = await register({ name: 'Bad', payoutHoldSeconds: bad });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().message).toContain('payoutHoldSeconds');
      const tier = await call('POST', `/developer/games/${gameId}/leaderboards`, {
        name: 'Bad',
        cost: 1,
        payoutHoldSeconds: bad,
      });
      expect(tier.statusCode, String(bad)).toBe(400);
      expect(tier.json().message).toContain('payoutHoldSeconds');
    }
    expect(await count('games')).toBe(games);
    expect(await count('leaderboards')).toBe(tiers);
  });
});
