import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webAppUrl } from '../../src/config.js';
import { findGame } from '../../src/store/games.js';
import { storeVariants } from '@coinop/testkit/db';
import { balanceOf, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  type TestSignin,
  testApiOf,
  walletPlayer,
  type WalletPlayer,
} from '@coinop/testkit/signin';

/**
 * Issue 12: any wallet could drain any player. A new developer registered a game, gave it a tier
 * costing 500 HST, took a write token and posted plays for any player id it read off a public
 * leaderboard; the player went from 500 to 0 HST. A game server may now charge only players who
 * consented (docs/concepts/consent.md).
 */

const HST = 100_000_000n;

type Player = WalletPlayer;

describe.each(storeVariants())('consent to charges on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;

  beforeEach(async () => {
    // The production default: no game server charges a player who has not allowed it.
    s = await buildTestSignin(variant, { defaultAllowanceUnits: 0n });
    api = testApiOf(s);
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
    await expectRankTreeConsistent(s.db);
    await s.close();
  });

  const player = (fundHst = 0, wallet = newWallet()) => walletPlayer(s, fundHst, wallet);

  async function gameServer(game: GameFixture) {
    const token = await writeToken(api, game);
    const post = (path: string, payload: object) =>
      s.api.inject({
        method: 'POST',
        url: `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`,
        headers: { authorization: `Bearer ${token}` },
        payload,
      });
    return {
      token,
      play: (playerId: string, tier = game.tiers[0]!) =>
        post('play', { playerId, leaderboardId: tier.id }),
      score: (playId: string, value: number, tier = game.tiers[0]!) =>
        post('score', { playId, leaderboardId: tier.id, score: value }),
      details: (playerId: string) =>
        s.api.inject({
          method: 'GET',
          url: `/players/${playerId}/details`,
          headers: { authorization: `Bearer ${token}` },
        }),
    };
  }

  const as = (who: Player, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    s.api.inject({
      method,
      url,
      headers: { authorization: `Bearer ${who.token}` },
      ...(payload === undefined ? {} : { payload }),
    });
  const allow = (who: Player, gameId: string, dailyLimit: number | string) =>
    as(who, 'PUT', `/player/allowances/${gameId}`, { dailyLimit });
  const admin = (path: string) =>
    s.api.inject({
      method: 'POST',
      url: path,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
  const playsOf = async (playerId: string) =>
    (
      await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM plays WHERE player_id = $1', [
        playerId,
      ])
    )[0]!.n;

  it('refuses the drain: an unpublished game of a new developer charges no stranger', async () => {
    const victim = await player(500);
    const attacker = await gameWithTiers(api, { costs: [500], published: false });
    const server = await gameServer(attacker);

    const res = await server.play(victim.playerId);

    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({
      code: 'player_not_tester',
      details: { gameId: attacker.gameId, playerId: victim.playerId },
    });
    expect(await balanceOf(api, victim.accountId)).toMatchObject({
      available: 500n * HST,
      pending: 0n,
    });
    expect(await balanceOf(api, attacker.developerAccountId)).toMatchObject({ available: 0n });
    expect(await playsOf(victim.playerId)).toBe(0);
    // Nor can it read the victim's balance to pick its price.
    expect((await server.details(victim.playerId)).statusCode).toBe(404);
  });

  it('refuses a published game a player has not allowed, with the URL to allow it', async () => {
    const victim = await player(500);
    const game = await gameWithTiers(api, { costs: [500] });
    const server = await gameServer(game);

    const res = await server.play(victim.playerId);

    expect(res.statusCode).toBe(403);
    const body = res.json();
    expect(body.code).toBe('consent_required');
    expect(body.details).toEqual({
      gameId: game.gameId,
      playerId: victim.playerId,
      grantUrl: `${webAppUrl(s.config)}/games/${game.gameId}#allowance`,
      dailyLimit: '0',
      spentToday: '0',
      cost: '500',
    });
    expect(body.message).toContain(body.details.grantUrl);
    expect(await balanceOf(api, victim.accountId)).toMatchObject({ available: 500n * HST });
    expect(await playsOf(victim.playerId)).toBe(0);
    expect((await server.details(victim.playerId)).statusCode).toBe(404);
  });

  it("lets an unpublished game charge its developer's own wallet and the testers who accept, within their allowances", async () => {
    const devWallet = newWallet();
    const developer = await player(20, devWallet);
    const game = await gameWithTiers(api, {
      costs: [5],
      published: false,
      developerWallet: devWallet.address,
    });
    const server = await gameServer(game);
    const tester = await player(20);
    const stranger = await player(20);

    // Before publication too, every server-to-server play counts against an allowance: the
    // developer's own wallet allows its game nothing until it says otherwise (default 0 here).
    expect((await server.play(developer.playerId)).json().code).toBe('consent_required');
    expect((await allow(developer, game.gameId, 10)).statusCode).toBe(200);
    expect((await server.play(developer.playerId)).statusCode).toBe(200);
    expect((await server.play(tester.playerId)).json().code).toBe('player_not_tester');

    const added = await as(
      developer,
      'PUT',
      `/developer/games/${game.gameId}/testers/${tester.wallet.address}`,
    );
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({
      wallet: tester.wallet.address.toLowerCase(),
      state: 'invited',
    });
    const listed = await as(developer, 'GET', `/developer/games/${game.gameId}/testers`);
    expect(listed.json().testers.map((t: { wallet: string }) => t.wallet)).toEqual([
      tester.wallet.address.toLowerCase(),
    ]);
    // Issue 27: the invitation is no consent until the tester accepts it themself.
    expect((await server.play(tester.playerId)).json().code).toBe('player_not_tester');
    const accepted = await as(tester, 'PUT', `/player/testing/${game.gameId}`, {
      dailyLimit: '5',
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ state: 'accepted', dailyLimit: '5' });

    const played = await server.play(tester.playerId);
    expect(played.statusCode).toBe(200);
    expect((await server.score(played.json().id, 42)).statusCode).toBe(200);
    expect((await server.play(stranger.playerId)).json().code).toBe('player_not_tester');
    // 20 - 5, and 3.5 back: nobody led the tier when the play began.
    expect((await server.details(tester.playerId)).json()).toMatchObject({ balance: 18.5 });
    // The 5 HST the tester allowed a day are spent: a second play waits for tomorrow, or for
    // them to allow more, whatever the developer's prices.
    const second = await server.play(tester.playerId);
    expect(second.statusCode).toBe(403);
    expect(second.json()).toMatchObject({
      code: 'consent_required',
      details: { dailyLimit: '5', spentToday: '5', cost: '5' },
    });
    expect((await server.details(tester.playerId)).json()).toMatchObject({ balance: 18.5 });

    // Another developer cannot see or change the game's testers.
    const other = await player();
    const foreign = await as(other, 'GET', `/developer/games/${game.gameId}/testers`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('game_not_found');

    const removed = await as(
      developer,
      'DELETE',
      `/developer/games/${game.gameId}/testers/${tester.wallet.address}`,
    );
    expect(removed.statusCode).toBe(204);
    expect((await server.play(tester.playerId)).json().code).toBe('player_not_tester');
    const again = await as(
      developer,
      'DELETE',
      `/developer/games/${game.gameId}/testers/${tester.wallet.address}`,
    );
    expect(again.json().code).toBe('tester_not_found');
  });

  it('charges a consenting player within their daily allowance, afresh each UTC day', async () => {
    const alice = await player(100);
    const game = await gameWithTiers(api, { costs: [10] });
    const server = await gameServer(game);

    const granted = await allow(alice, game.gameId, 25);
    expect(granted.statusCode).toBe(200);
    expect(granted.json()).toMatchObject({
      gameId: game.gameId,
      source: 'player',
      dailyLimit: '25',
      spentToday: '0',
      remainingToday: '25',
    });
    expect((await server.details(alice.playerId)).statusCode).toBe(200);

    expect((await server.play(alice.playerId)).statusCode).toBe(200);
    expect((await server.play(alice.playerId)).statusCode).toBe(200);
    const third = await server.play(alice.playerId);
    expect(third.statusCode).toBe(403);
    expect(third.json()).toMatchObject({
      code: 'consent_required',
      details: { dailyLimit: '25', spentToday: '20', cost: '10' },
    });
    expect(await balanceOf(api, alice.accountId)).toMatchObject({
      available: 80n * HST,
      pending: 20n * HST,
    });
    const mine = await as(alice, 'GET', `/player/allowances/${game.gameId}`);
    expect(mine.json()).toMatchObject({ dailyLimit: '25', spentToday: '20', remainingToday: '5' });

    // A minute past the next UTC midnight: a new day for the allowance.
    const now = s.clock.now();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    s.clock.advance(midnight - now.getTime() + 60_000);
    const tomorrow = await gameServer(game); // a fresh write token: the first one has expired
    expect((await tomorrow.play(alice.playerId)).statusCode).toBe(200);
    const again = await player(0, alice.wallet); // and a fresh web session
    const list = await as(again, 'GET', '/player/allowances');
    expect(list.json()).toEqual({
      defaultDailyLimit: '0',
      allowances: [expect.objectContaining({ gameId: game.gameId, spentToday: '10' })],
    });
  });

  it('opens exactly the allowed number of 50 concurrent plays', async () => {
    const bob = await player(1000);
    const game = await gameWithTiers(api, { costs: [3] });
    const server = await gameServer(game);
    expect((await allow(bob, game.gameId, 21)).statusCode).toBe(200);

    const answers = await Promise.all(Array.from({ length: 50 }, () => server.play(bob.playerId)));

    const codes = answers.map((r) => (r.statusCode === 200 ? 'ok' : r.json().code));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(7);
    expect(codes.filter((c) => c === 'consent_required')).toHaveLength(43);
    expect(await balanceOf(api, bob.accountId)).toMatchObject({
      available: 979n * HST,
      pending: 21n * HST,
    });
    expect(await playsOf(bob.playerId)).toBe(7);
  });

  it("a revoked allowance stops the game's charges, whatever the operator's default", async () => {
    await s.close();
    s = await buildTestSignin(variant, { defaultAllowanceUnits: 100n * HST });
    api = testApiOf(s);
    const carol = await player(50);
    const game = await gameWithTiers(api, { costs: [1] });
    const server = await gameServer(game);

    // The default lets a published game charge a player who chose nothing.
    expect((await server.play(carol.playerId)).statusCode).toBe(200);
    const before = await as(carol, 'GET', '/player/allowances');
    expect(before.json()).toEqual({
      defaultDailyLimit: '100',
      allowances: [
        expect.objectContaining({ source: 'default', dailyLimit: '100', spentToday: '1' }),
      ],
    });

    const revoked = await as(carol, 'DELETE', `/player/allowances/${game.gameId}`);
    expect(revoked.json()).toMatchObject({
      source: 'player',
      dailyLimit: '0',
      remainingToday: '0',
    });

    const refused = await server.play(carol.playerId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('consent_required');
    expect((await server.details(carol.playerId)).statusCode).toBe(404);
    expect(await balanceOf(api, carol.accountId)).toMatchObject({
      available: 49n * HST,
      pending: 1n * HST,
    });
  });

  it('grants an allowance with the CLI login that names its game; the game then charges within it', async () => {
    const game = await gameWithTiers(api, { costs: [3] });
    const { name } = (await findGame(s.db, game.gameId))!;
    const server = await gameServer(game);
    const p = await player(20);
    expect((await server.play(p.playerId)).json().code).toBe('consent_required');

    const start = await s.auth.inject({
      method: 'POST',
      url: '/cli',
      payload: { description: 'High-Low terminal', gameId: game.gameId },
    });
    expect(start.statusCode).toBe(200);
    const { requestorId, userCode, token } = start.json<Record<string, string>>();
    const info = () =>
      s.auth.inject({ method: 'GET', url: `/cli/${requestorId}/info?code=${userCode}` });
    expect((await info()).json()).toMatchObject({
      description: 'High-Low terminal',
      game: { id: game.gameId, name, published: true },
      status: 'pending',
    });
    const approve = (payload: object) =>
      s.auth.inject({
        method: 'POST',
        url: `/cli/${requestorId}/approve`,
        headers: { authorization: `Bearer ${p.token}` },
        payload: { userCode, ...payload },
      });

    // A bad amount decides nothing.
    const bad = await approve({ dailyLimit: '1.000000001' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'invalid_amount',
      message: 'dailyLimit must have at most 8 decimals, got 1.000000001',
      details: { field: 'dailyLimit' },
    });
    expect((await info()).json().status).toBe('pending');

    const approved = await approve({ dailyLimit: '7.5' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toEqual({ status: 'approved', grantedDailyLimit: '7.5' });
    expect((await as(p, 'GET', `/player/allowances/${game.gameId}`)).json()).toMatchObject({
      source: 'player',
      dailyLimit: '7.5',
      spentToday: '0',
    });
    s.clock.advance(5_000);
    const collected = await s.auth.inject({
      method: 'GET',
      url: `/cli/${requestorId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(collected.statusCode).toBe(200);

    // 3 HST a play: two fit in 7.5 HST a day, the third does not.
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const res = await server.play(p.playerId);
      codes.push(res.statusCode === 200 ? 'opened' : res.json().code);
    }
    expect(codes).toEqual(['opened', 'opened', 'consent_required']);
    expect(await balanceOf(api, p.accountId)).toMatchObject({
      available: 14n * HST,
      pending: 6n * HST,
    });
  });

  it('refuses an allowance with a login that names no game, on a rejection, or for an unknown game', async () => {
    const p = await player();
    const plain = (
      await s.auth.inject({ method: 'POST', url: '/cli', payload: { description: 'laptop' } })
    ).json<Record<string, string>>();
    const decide = (action: string, payload: object) =>
      s.auth.inject({
        method: 'POST',
        url: `/cli/${plain.requestorId}/${action}`,
        headers: { authorization: `Bearer ${p.token}` },
        payload: { userCode: plain.userCode, ...payload },
      });
    const noGame = await decide('approve', { dailyLimit: 5 });
    expect(noGame.statusCode).toBe(400);
    expect(noGame.json()).toMatchObject({
      code: 'validation_failed',
      message:
        'dailyLimit needs a login that names its game: this one does not (gameId on POST /cli)',
      details: { field: 'dailyLimit' },
    });
    const onReject = await decide('reject', { dailyLimit: 5 });
    expect(onReject.statusCode).toBe(400);
    expect(onReject.json()).toMatchObject({ code: 'validation_failed' });
    const info = await s.auth.inject({
      method: 'GET',
      url: `/cli/${plain.requestorId}/info?code=${plain.userCode}`,
    });
    expect(info.json()).toMatchObject({ status: 'pending', game: null });

    const unknownGame = '01890000-0000-7000-8000-000000000000';
    const unknown = await s.auth.inject({
      method: 'POST',
      url: '/cli',
      payload: { description: 'laptop', gameId: unknownGame },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({
      code: 'game_not_found',
      message: `game ${unknownGame} does not exist`,
    });
  });

  it('refuses bad allowances with a 400 naming the field, and unknown games with 404', async () => {
    const dave = await player();
    const game = await gameWithTiers(api, { costs: [1] });
    for (const bad of [-1, ' 5', '1e3', 1.123456789, 'lots', 2_000_000_000]) {
      const res = await allow(dave, game.gameId, bad);
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'invalid_amount',
        details: { field: 'dailyLimit' },
      });
    }
    const unknown = await allow(dave, '01900000-0000-7000-8000-000000000000', 5);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('game_not_found');
    expect(await s.db.query('SELECT * FROM allowances')).toEqual([]);
  });

  it('a suspended game takes no plays and its open plays are voided, their HST returned', async () => {
    const erin = await player(40);
    const frank = await player(40);
    const game = await gameWithTiers(api, { costs: [10] });
    const server = await gameServer(game);
    await allow(erin, game.gameId, 100);
    await allow(frank, game.gameId, 100);
    const open = (await server.play(erin.playerId)).json();
    const scored = (await server.play(frank.playerId)).json();
    expect((await server.score(scored.id, 7)).statusCode).toBe(200);
    expect(await balanceOf(api, erin.accountId)).toMatchObject({ pending: 10n * HST });

    const suspended = await admin(`/admin/games/${game.gameId}/suspend`);
    expect(suspended.json()).toEqual({ gameId: game.gameId, suspended: true, voidedPlays: 1 });

    expect(await balanceOf(api, erin.accountId)).toMatchObject({
      available: 40n * HST,
      pending: 0n,
    });
    const [status] = await s.db.query<{ status: string }>(
      'SELECT status FROM plays WHERE id = $1',
      [open.id],
    );
    expect(status?.status).toBe('voided');
    const late = await server.score(open.id, 99);
    expect(late.statusCode).toBe(409);
    expect(late.json().code).toBe('play_not_open');
    const refused = await server.play(erin.playerId);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('game_suspended');
    expect((await admin(`/admin/games/${game.gameId}/suspend`)).json().voidedPlays).toBe(0);

    expect((await admin(`/admin/games/${game.gameId}/resume`)).json().suspended).toBe(false);
    expect((await server.play(erin.playerId)).statusCode).toBe(200);
  });

  it('answers a write token for another game as for a game that does not exist', async () => {
    const mine = await gameWithTiers(api, { costs: [1] });
    const theirs = await gameWithTiers(api, { costs: [1] });
    const { token } = await gameServer(mine);
    const get = (gameId: string) =>
      s.api.inject({
        method: 'GET',
        url: `/arcades/${mine.arcadeId}/developergames/${gameId}`,
        headers: { authorization: `Bearer ${token}` },
      });
    const other = await get(theirs.gameId);
    const missing = await get('01900000-0000-7000-8000-000000000000');
    expect(other.statusCode).toBe(404);
    expect(missing.statusCode).toBe(404);
    expect(other.json().code).toBe('game_not_found');
    expect(missing.json().code).toBe('game_not_found');
  });
});
