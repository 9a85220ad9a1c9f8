import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { testConfig, type RateLimits } from '../../src/config.js';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, nextWallet, type GameFixture } from '@coinop/testkit/arcade';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';

/** The test config's limits (far above any test) with the given groups set. */
const limits = (set: Partial<RateLimits>): RateLimits => ({ ...testConfig().rateLimits, ...set });
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

function expectRateLimited(res: LightMyRequestResponse, max: number, subject: string): void {
  expect(res.statusCode).toBe(429);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const retryAfter = Number(res.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(60);
  const body = res.json<{ code: string; message: string }>();
  expect(body.code).toBe('rate_limited');
  expect(body.message).toMatch(
    new RegExp(`^too many requests from ${subject}: at most ${max} a minute; retry in \\d+`),
  );
}

// Counted in memory per listener here; counts shared by processes: listener/shared-counts.test.ts.
describe('rate limits of the API', () => {
  let s: TestSignin;
  let api: TestApi;
  /** The same arcade code with the token exchange's limit off. */
  let unlimited: TestApi;
  let address = 0;
  /** Each test's own client address, so the per-address counts of one do not reach another. */
  const nextAddress = () => `198.51.100.${++address}`;

  beforeAll(async () => {
    s = await buildTestSignin('pglite', {
      faucetHst: 5,
      rateLimits: limits({
        token: 2,
        plays: 2,
        faucet: 1,
        'player-plays': 1,
        registration: 2,
        profile: 1,
      }),
    });
    api = testApiOf(s);
    unlimited = await buildTestApi('pglite', { rateLimits: limits({ token: 0 }) });
  });
  afterAll(async () => {
    await Promise.all([s?.close(), unlimited?.close()]);
  });

  const exchange = (on: TestApi, game: GameFixture, remoteAddress: string, secret?: string) =>
    on.app.inject({
      method: 'POST',
      url: '/oauth/writetoken',
      remoteAddress,
      payload: { client_id: game.clientId, client_secret: secret ?? game.clientSecret },
    });

  it('limits token exchanges per client address, whatever the credentials', async () => {
    const game = await gameWithTiers(api);
    const guesser = nextAddress();
    expect((await exchange(api, game, guesser)).statusCode).toBe(200);
    expect((await exchange(api, game, guesser, 'wrong')).statusCode).toBe(401);
    // A guesser meets the limit however it varies what it sends.
    expectRateLimited(await exchange(api, game, guesser), 2, 'this address');
    expect((await exchange(api, game, nextAddress())).statusCode).toBe(200);
  });

  it('limits plays per game client, each client counted apart', async () => {
    const player = await fundedPlayer(api, 100);
    const games = [await gameWithTiers(api), await gameWithTiers(api)];
    const from = nextAddress();
    const tokens: string[] = [];
    for (const game of games) {
      tokens.push((await exchange(api, game, from)).json<{ access_token: string }>().access_token);
    }
    const play = (i: 0 | 1, token: string | undefined) => {
      const game = games[i]!;
      return api.app.inject({
        method: 'POST',
        url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
        headers: { authorization: `Bearer ${token}` },
        payload: { playerId: player.playerId, leaderboardId: game.tiers[0]!.id },
      });
    };
    expect((await play(0, tokens[0])).statusCode).toBe(200);
    expect((await play(0, tokens[0])).statusCode).toBe(200);
    expectRateLimited(await play(0, tokens[0]), 2, 'this game client');
    expect((await play(1, tokens[1])).statusCode).toBe(200);
    // Counted once authenticated: a request without a token is refused as such, not counted.
    expect((await play(0, undefined)).json()).toMatchObject({ code: 'invalid_write_token' });
  });

  it('limits the faucet and web-app plays per player', async () => {
    const game = await gameWithTiers(api);
    const [alice, bob] = [
      await walletSignIn(s.auth, newWallet()),
      await walletSignIn(s.auth, newWallet()),
    ];
    const faucet = (token: string) =>
      s.api.inject({
        method: 'POST',
        url: '/player/faucet',
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await faucet(alice.access_token)).statusCode).toBe(200);
    expectRateLimited(await faucet(alice.access_token), 1, 'this player');
    expect((await faucet(bob.access_token)).statusCode).toBe(200);
    expect((await faucet('not-a-token')).statusCode).toBe(401);

    const play = () =>
      s.api.inject({
        method: 'POST',
        url: `/player/games/${game.gameId}/plays`,
        headers: { authorization: `Bearer ${alice.access_token}` },
        payload: { leaderboardId: game.tiers[0]!.id, nonce: randomUUID(), signature: '0x00' },
      });
    // The first is refused for its signature, and counted all the same.
    expect((await play()).json()).toMatchObject({ code: 'invalid_approval_signature' });
    expectRateLimited(await play(), 1, 'this player');
  });

  it('limits profile changes per player (issue 31)', async () => {
    const [alice, bob] = [
      await walletSignIn(s.auth, newWallet()),
      await walletSignIn(s.auth, newWallet()),
    ];
    const rename = (token: string, name: string) =>
      s.api.inject({
        method: 'PATCH',
        url: '/player/me',
        headers: { authorization: `Bearer ${token}` },
        payload: { name },
      });
    expect((await rename(alice.access_token, 'Limited Alice')).statusCode).toBe(200);
    expectRateLimited(await rename(alice.access_token, 'Limited Alicia'), 1, 'this player');
    // Each route counts apart (as every limited route does): a picture is a change of its own.
    const removeAvatar = () =>
      s.api.inject({
        method: 'DELETE',
        url: '/player/me/avatar',
        headers: { authorization: `Bearer ${alice.access_token}` },
      });
    expect((await removeAvatar()).statusCode).toBe(200);
    expectRateLimited(await removeAvatar(), 1, 'this player');
    expect((await rename(bob.access_token, 'Limited Bob')).statusCode).toBe(200);
  });

  it('limits registration per developer, whichever of their keys is used, and in the portal', async () => {
    const wallet = nextWallet();
    const keys: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await api.app.inject({
        method: 'POST',
        url: '/admin/developers',
        headers: admin,
        payload: { wallet },
      });
      keys.push(res.json<{ apiKey: string }>().apiKey);
    }
    const update = (key: string) =>
      api.app.inject({
        method: 'PATCH',
        url: '/game/update',
        headers: { 'api-key': key, 'game-id': randomUUID() },
        payload: { description: 'new' },
      });
    expect((await update(keys[0]!)).json()).toMatchObject({ code: 'game_not_found' });
    expect((await update(keys[1]!)).json()).toMatchObject({ code: 'game_not_found' });
    expectRateLimited(await update(keys[0]!), 2, 'this developer');

    // The portal's registration and update fetch covers too: limited alike, per signed-in wallet.
    const session = await walletSignIn(s.auth, newWallet());
    const portalUpdate = () =>
      api.app.inject({
        method: 'PATCH',
        url: `/developer/games/${randomUUID()}`,
        headers: { authorization: `Bearer ${session.access_token}` },
        payload: { description: 'new' },
      });
    expect((await portalUpdate()).json()).toMatchObject({ code: 'game_not_found' });
    expect((await portalUpdate()).json()).toMatchObject({ code: 'game_not_found' });
    expectRateLimited(await portalUpdate(), 2, 'this developer');

    // Issue 17: publish requests write a row each, limited alike.
    const requester = await walletSignIn(s.auth, newWallet());
    const request = () =>
      api.app.inject({
        method: 'POST',
        url: `/developer/games/${randomUUID()}/publish-requests`,
        headers: { authorization: `Bearer ${requester.access_token}` },
        payload: {},
      });
    expect((await request()).json()).toMatchObject({ code: 'game_not_found' });
    expect((await request()).json()).toMatchObject({ code: 'game_not_found' });
    expectRateLimited(await request(), 2, 'this developer');
  });

  it('turns a group off with 0', async () => {
    const game = await gameWithTiers(unlimited);
    const from = nextAddress();
    for (let i = 0; i < 5; i++) {
      const res = await exchange(unlimited, game, from);
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
});
