import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { serve, startCoverServer, type CoverServer } from '../fixtures/cover-server.js';
import { pngImage } from '../fixtures/images.js';

interface Tier {
  id: string;
  name: string;
}

/**
 * A developer could create two tiers named "Bronze" on one game, and players saw two "Bronze"
 * tiers they could not tell apart. A name another live tier of the game has (in any case, spaces
 * around ignored) is now 409 tier_name_taken, on the portal's create and rename and on the admin
 * API (what `coinop admin leaderboard create` calls).
 */
describe.each(storeVariants())('tier names on %s', (variant) => {
  let s: TestSignin;
  let covers: CoverServer;
  let token: string;

  beforeAll(async () => {
    s = await buildTestSignin(variant, { allowPrivateUrls: true });
    covers = await startCoverServer({ '/cover.png': serve(pngImage(1920, 1080)) });
    token = (await walletSignIn(s.auth, newWallet())).access_token;
  });
  afterAll(async () => {
    await expectLedgerBalanced(s.db);
    await covers.close();
    await s.close();
  });

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    s.api.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
      ...(payload === undefined ? {} : { payload }),
    });

  async function register(name: string): Promise<{ id: string; leaderboards: Tier[] }> {
    const res = await call('POST', '/developer/games', {
      name,
      coverUrl: covers.url('/cover.png'),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  }

  const liveNames = async (gameId: string) =>
    (await call('GET', `/developer/games/${gameId}`))
      .json<{ leaderboards: Tier[] }>()
      .leaderboards.map((t) => t.name);

  const taken = (name: string) => ({
    type: 'https://coinop.dev/errors/tier_name_taken',
    title: 'Tier name already used',
    status: 409,
    code: 'tier_name_taken',
    detail: `another live tier of the game is already named ${JSON.stringify(name)}; choose another name`,
    message: `another live tier of the game is already named ${JSON.stringify(name)}; choose another name`,
    details: { field: 'name' },
  });

  it('refuses a second "Bronze" on create, in any case and with spaces around', async () => {
    const game = await register('Bronze Age');
    const add = (name: string) =>
      call('POST', `/developer/games/${game.id}/leaderboards`, { name, cost: 2 });
    expect((await add('Bronze')).statusCode).toBe(201);
    for (const name of ['Bronze', 'bronze', '  BRONZE ', 'practice']) {
      const res = await add(name);
      expect(res.statusCode, name).toBe(409);
      expect(res.json()).toEqual(taken(name.trim()));
    }
    expect(await liveNames(game.id)).toEqual(['Practice', 'High stakes', 'Bronze']);
    // Another game may have its own "Bronze".
    const other = await register('Other Age');
    const res = await call('POST', `/developer/games/${other.id}/leaderboards`, {
      name: 'Bronze',
      cost: 1,
    });
    expect(res.statusCode).toBe(201);
  });

  it('refuses a rename to another live tier’s name, and allows a tier its own name', async () => {
    const game = await register('Renames');
    const [practice, stakes] = game.leaderboards as [Tier, Tier];
    const rename = (tier: Tier, name: string) =>
      call('PATCH', `/developer/games/${game.id}/leaderboards/${tier.id}`, { name });
    const clash = await rename(stakes, ' practice');
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual(taken('practice'));
    // Its own name in another case is no clash.
    const same = await rename(practice, 'PRACTICE');
    expect(same.statusCode, same.body).toBe(200);
    expect(await liveNames(game.id)).toEqual(['PRACTICE', 'High stakes']);
  });

  it('frees the name of a retired tier', async () => {
    const game = await register('Retirement');
    const [practice] = game.leaderboards as [Tier, Tier];
    const retired = await call('DELETE', `/developer/games/${game.id}/leaderboards/${practice.id}`);
    expect(retired.statusCode, retired.body).toBe(200);
    const again = await call('POST', `/developer/games/${game.id}/leaderboards`, {
      name: 'Practice',
      cost: 1,
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(await liveNames(game.id)).toEqual(['High stakes', 'Practice']);
  });

  it('refuses a taken name on the admin API (coinop admin leaderboard create)', async () => {
    const game = await register('Admin Age');
    const res = await s.api.inject({
      method: 'POST',
      url: '/admin/leaderboards',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { gameId: game.id, name: 'High Stakes', cost: 5 },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual(taken('High Stakes'));
    expect(await liveNames(game.id)).toEqual(['Practice', 'High stakes']);
  });
});
