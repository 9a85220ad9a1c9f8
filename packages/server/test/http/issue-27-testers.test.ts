import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeVariants } from '@coinop/testkit/db';
import { balanceOf, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  type TestSignin,
  testApiOf,
  walletPlayer,
  type WalletPlayer,
} from '@coinop/testkit/signin';

/**
 * Issue 27, finding 1: the drain came back through testers. A developer named any wallet as a
 * tester of their unpublished game (`PUT /developer/games/{g}/testers/{wallet}` → 200, no word
 * from that wallet), read the stranger's balance with a write token, added a tier costing it and
 * charged it: a player went from 600 to 100 HST. Naming a tester is now an invitation; only the
 * player, signed in as themself, accepts it (docs/concepts/consent.md, "Testers").
 */

const HST = 100_000_000n;

type Player = WalletPlayer;

describe.each(storeVariants())('testers are invitations the player accepts, on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;

  beforeEach(async () => {
    s = await buildTestSignin(variant, { defaultAllowanceUnits: 0n });
    api = testApiOf(s);
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  const player = (fundHst = 0, wallet = newWallet()) => walletPlayer(s, fundHst, wallet);

  const as = (who: Player, method: 'GET' | 'PUT' | 'DELETE' | 'POST', url: string, body?: object) =>
    s.api.inject({
      method,
      url,
      headers: { authorization: `Bearer ${who.token}` },
      ...(body === undefined ? {} : { payload: body }),
    });

  /** A developer signed in with their wallet, and their unpublished game with a free tier. */
  async function attackerGame() {
    const wallet = newWallet();
    const developer = await player(0, wallet);
    const game = await gameWithTiers(api, {
      costs: [1, 0],
      published: false,
      developerWallet: wallet.address,
    });
    return { developer, game };
  }

  async function gameServer(game: GameFixture) {
    const token = await writeToken(api, game);
    const headers = { authorization: `Bearer ${token}` };
    const post = (path: string, payload: object) =>
      s.api.inject({
        method: 'POST',
        url: `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`,
        headers,
        payload,
      });
    return {
      play: (playerId: string, leaderboardId: string) => post('play', { playerId, leaderboardId }),
      score: (playId: string, leaderboardId: string) =>
        post('score', { playId, leaderboardId, score: 7 }),
      details: (playerId: string) =>
        s.api.inject({ method: 'GET', url: `/players/${playerId}/details`, headers }),
    };
  }

  const playsOf = async (playerId: string) =>
    (
      await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM plays WHERE player_id = $1', [
        playerId,
      ])
    )[0]!.n;
  const invite = (developer: Player, game: GameFixture, who: Player) =>
    as(developer, 'PUT', `/developer/games/${game.gameId}/testers/${who.wallet.address}`);
  const testersOf = async (developer: Player, game: GameFixture) =>
    (await as(developer, 'GET', `/developer/games/${game.gameId}/testers`)).json().testers;

  it('refuses the drain: an invited wallet is charged nothing and its balance is not read', async () => {
    const victim = await player(600);
    const { developer, game } = await attackerGame();
    const server = await gameServer(game);

    const invited = await invite(developer, game, victim);
    expect(invited.statusCode).toBe(200);
    expect(invited.json()).toEqual({
      wallet: victim.wallet.address.toLowerCase(),
      addedAt: s.clock.now().toISOString(),
      state: 'invited',
      answeredAt: null,
    });

    // The balance read the attack priced its tier from.
    const details = await server.details(victim.playerId);
    expect(details.statusCode).toBe(404);
    expect(details.json()).toMatchObject({ code: 'player_not_found' });

    const tier = await as(developer, 'POST', `/developer/games/${game.gameId}/leaderboards`, {
      name: 'Everything',
      cost: 500,
    });
    expect(tier.statusCode).toBe(201);
    for (const leaderboardId of [tier.json().id, game.tiers[0]!.id, game.tiers[1]!.id]) {
      const play = await server.play(victim.playerId, leaderboardId);
      expect(play.statusCode, leaderboardId).toBe(403);
      expect(play.json()).toMatchObject({
        code: 'player_not_tester',
        message:
          `game ${game.gameId} is not published: it may charge only its developer and the ` +
          `testers who accepted the developer's invitation, and player ${victim.playerId} is ` +
          'neither',
        details: { gameId: game.gameId, playerId: victim.playerId },
      });
    }
    // The invitation names the dearest play as it stands: the new tier, until it is retired.
    const dearest = async () =>
      (await as(victim, 'GET', '/player/testing')).json<{
        invitations: { highestPlayCost: string | null }[];
      }>().invitations[0]!.highestPlayCost;
    expect(await dearest()).toBe('500');
    const retired = await as(
      developer,
      'DELETE',
      `/developer/games/${game.gameId}/leaderboards/${tier.json().id}`,
    );
    expect(retired.statusCode, retired.body).toBe(200);
    expect(await dearest()).toBe('1');
    // Nor may the invited wallet preview the game.
    const preview = await as(victim, 'GET', `/player/games/${game.gameId}`);
    expect(preview.json()).toMatchObject({ code: 'game_not_found' });

    expect(await balanceOf(api, victim.accountId)).toMatchObject({
      available: 600n * HST,
      pending: 0n,
    });
    expect(await balanceOf(api, game.developerAccountId)).toMatchObject({ available: 0n });
    expect(await playsOf(victim.playerId)).toBe(0);
  });

  it('lets a tester who accepted play, and refuses them again once they leave', async () => {
    const tester = await player(20);
    const { developer, game } = await attackerGame();
    const server = await gameServer(game);
    const [paid, free] = [game.tiers[0]!.id, game.tiers[1]!.id];
    await invite(developer, game, tester);

    const listed = await as(tester, 'GET', '/player/testing');
    expect(listed.statusCode).toBe(200);
    const developerWallet = developer.wallet.address.toLowerCase();
    const waiting = {
      gameId: game.gameId,
      gameName: expect.stringMatching(/^Game /),
      published: false,
      developerWallet,
      // Named from the wallet, checksummed as the web app writes addresses (issue 28).
      developerName: `${developer.wallet.address.slice(0, 6)}…${developer.wallet.address.slice(-4)}`,
      // Its tiers cost 1 HST and nothing: the most a tester may pay for one play now.
      highestPlayCost: '1',
      // No allowance chosen yet: the operator's default would apply.
      dailyLimit: null,
      state: 'invited',
      invitedAt: s.clock.now().toISOString(),
      answeredAt: null,
    };
    expect(listed.json()).toEqual({ invitations: [waiting] });

    s.clock.advance(60_000);
    const accepted = await as(tester, 'PUT', `/player/testing/${game.gameId}`, {
      dailyLimit: '1.5',
    });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({
      ...waiting,
      dailyLimit: '1.5',
      state: 'accepted',
      answeredAt: s.clock.now().toISOString(),
    });
    // The acceptance is the player's allowance for the game, as its page shows it.
    expect((await as(tester, 'GET', `/player/allowances/${game.gameId}`)).json()).toMatchObject({
      source: 'player',
      dailyLimit: '1.5',
      spentToday: '0',
    });
    expect(await testersOf(developer, game)).toEqual([
      expect.objectContaining({ state: 'accepted', answeredAt: s.clock.now().toISOString() }),
    ]);

    const played = await server.play(tester.playerId, paid);
    expect(played.statusCode).toBe(200);
    expect((await server.score(played.json().id, paid)).statusCode).toBe(200);
    expect((await server.play(tester.playerId, free)).statusCode).toBe(200);
    // 20 - 1, and 0.7 back: nobody led the tier when the play began.
    expect((await server.details(tester.playerId)).json()).toMatchObject({ balance: 19.7 });
    expect((await as(tester, 'GET', `/player/games/${game.gameId}`)).statusCode).toBe(200);
    // 1 of the 1.5 HST allowed today is spent: another 1 HST play is refused, a free one is not.
    expect((await server.play(tester.playerId, paid)).json()).toMatchObject({
      code: 'consent_required',
      details: { dailyLimit: '1.5', spentToday: '1', cost: '1' },
    });
    expect((await server.play(tester.playerId, free)).statusCode).toBe(200);

    // Accepting again sets the allowance anew; the invitation keeps its first answer's date.
    s.clock.advance(60_000);
    const again = await as(tester, 'PUT', `/player/testing/${game.gameId}`, { dailyLimit: 2 });
    expect(again.json()).toEqual({ ...accepted.json(), dailyLimit: '2' });

    const left = await as(tester, 'DELETE', `/player/testing/${game.gameId}`);
    expect(left.statusCode).toBe(200);
    // Leaving revokes the allowance too: should the game be published, it still charges nothing.
    expect(left.json()).toMatchObject({
      state: 'left',
      dailyLimit: '0',
      answeredAt: s.clock.now().toISOString(),
    });
    for (const leaderboardId of [paid, free]) {
      expect((await server.play(tester.playerId, leaderboardId)).json()).toMatchObject({
        code: 'player_not_tester',
      });
    }
    expect((await server.details(tester.playerId)).statusCode).toBe(404);
    expect((await as(tester, 'GET', `/player/games/${game.gameId}`)).statusCode).toBe(404);
    expect(await testersOf(developer, game)).toEqual([expect.objectContaining({ state: 'left' })]);
    expect(await balanceOf(api, tester.accountId)).toMatchObject({ available: 1_970_000_000n });

    // A player who left may change their mind while the invitation stands; today's spending
    // stays counted (1 of 2).
    const back = await as(tester, 'PUT', `/player/testing/${game.gameId}`, { dailyLimit: '2' });
    expect(back.json()).toMatchObject({ state: 'accepted', dailyLimit: '2' });
    expect((await server.play(tester.playerId, paid)).statusCode).toBe(200);
    expect((await server.play(tester.playerId, paid)).json().code).toBe('consent_required');
  });

  it("keeps a player's no: inviting again does not overrule it; a withdrawn invitation is gone", async () => {
    const player1 = await player(5);
    const { developer, game } = await attackerGame();
    await invite(developer, game, player1);

    const declined = await as(player1, 'DELETE', `/player/testing/${game.gameId}`);
    expect(declined.json()).toMatchObject({ state: 'declined' });
    const reinvited = await invite(developer, game, player1);
    expect(reinvited.statusCode).toBe(200);
    expect(reinvited.json()).toMatchObject({ state: 'declined' });
    // Declining again is the same answer.
    expect((await as(player1, 'DELETE', `/player/testing/${game.gameId}`)).json().state).toBe(
      'declined',
    );

    const withdrawn = await as(
      developer,
      'DELETE',
      `/developer/games/${game.gameId}/testers/${player1.wallet.address}`,
    );
    expect(withdrawn.statusCode).toBe(204);
    expect((await as(player1, 'GET', '/player/testing')).json()).toEqual({ invitations: [] });
    const gone = await as(player1, 'PUT', `/player/testing/${game.gameId}`, { dailyLimit: '1' });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({
      code: 'tester_invitation_not_found',
      message: `you have no invitation to test game ${game.gameId}`,
    });
    expect(await testersOf(developer, game)).toEqual([]);
  });

  it('lets only the invited wallet answer its invitation', async () => {
    const invitee = await player(5);
    const stranger = await player(5);
    const { developer, game } = await attackerGame();
    const server = await gameServer(game);
    await invite(developer, game, invitee);

    // Another player, and the developer themself, have no invitation to answer.
    for (const who of [stranger, developer]) {
      const res = await as(who, 'PUT', `/player/testing/${game.gameId}`, { dailyLimit: '1' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'tester_invitation_not_found' });
      expect((await as(who, 'DELETE', `/player/testing/${game.gameId}`)).statusCode).toBe(404);
    }
    expect(await testersOf(developer, game)).toEqual([
      expect.objectContaining({ state: 'invited' }),
    ]);
    expect((await server.play(invitee.playerId, game.tiers[0]!.id)).statusCode).toBe(403);
    expect((await server.play(stranger.playerId, game.tiers[0]!.id)).statusCode).toBe(403);

    // Nor do the allowance routes tell them the unpublished game's name, or take a limit for it.
    const allowance = `/player/allowances/${game.gameId}`;
    // The developer is an insider: their own allowance names the game.
    const name: string = (await as(developer, 'GET', allowance)).json().gameName;
    expect(name).toMatch(/^Game /);
    for (const who of [stranger, invitee]) {
      for (const res of [
        await as(who, 'GET', allowance),
        await as(who, 'PUT', allowance, { dailyLimit: '5' }),
        await as(who, 'DELETE', allowance),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({
          code: 'game_not_found',
          message: `game ${game.gameId} does not exist`,
        });
        expect(res.body).not.toContain(name);
      }
    }
    const list = await as(invitee, 'GET', '/player/allowances');
    expect(list.json().allowances).toEqual([]);
    // Once they accept, the game's page (and its allowance) are theirs to see.
    await as(invitee, 'PUT', `/player/testing/${game.gameId}`, { dailyLimit: '5' });
    expect((await as(invitee, 'GET', allowance)).json()).toMatchObject({
      gameName: name,
      dailyLimit: '5',
    });
  });

  it('refuses bad input with a 4xx naming the problem, and changes nothing', async () => {
    const who = await player();
    const { developer, game } = await attackerGame();
    for (const [url, field] of [
      ['/player/testing/not-a-uuid', 'gameId'],
      ['/player/testing/00000000-0000-0000-0000-00000000000g', 'gameId'],
    ] as const) {
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await as(who, method, url, method === 'PUT' ? { dailyLimit: '1' } : undefined);
        expect(res.statusCode, `${method} ${url}`).toBe(400);
        expect(res.json()).toMatchObject({ code: 'validation_failed', details: { field } });
      }
    }
    const unknown = await as(who, 'PUT', '/player/testing/00000000-0000-4000-8000-000000000000', {
      dailyLimit: '1',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'tester_invitation_not_found' });
    const badWallet = await as(developer, 'PUT', `/developer/games/${game.gameId}/testers/0x12`);
    expect(badWallet.statusCode).toBe(400);
    expect(badWallet.json()).toMatchObject({
      code: 'validation_failed',
      details: { field: 'wallet' },
    });
    // Accepting names a daily allowance, well formed; a bad one accepts nothing.
    const invitee = await player(5);
    await invite(developer, game, invitee);
    for (const [body, code] of [
      [undefined, 'validation_failed'],
      [{}, 'validation_failed'],
      [{ dailyLimit: '-1' }, 'invalid_amount'],
      [{ dailyLimit: '0.000000001' }, 'invalid_amount'],
      [{ dailyLimit: 'lots' }, 'invalid_amount'],
      [{ dailyLimit: '1', more: true }, 'validation_failed'],
    ] as const) {
      const res = await as(invitee, 'PUT', `/player/testing/${game.gameId}`, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json(), JSON.stringify(body)).toMatchObject({ code });
      expect(res.json().message, JSON.stringify(body)).toMatch(/dailyLimit|body|more/);
    }
    expect((await as(invitee, 'GET', '/player/allowances')).json().allowances).toEqual([]);
    expect(await testersOf(developer, game)).toEqual([
      expect.objectContaining({ state: 'invited' }),
    ]);
    await as(
      developer,
      'DELETE',
      `/developer/games/${game.gameId}/testers/${invitee.wallet.address}`,
    );
    // No credential, or a stale one, is a 401.
    const anonymous = await s.api.inject({ method: 'GET', url: '/player/testing' });
    expect(anonymous.statusCode).toBe(401);
    expect(await testersOf(developer, game)).toEqual([]);
  });
});
