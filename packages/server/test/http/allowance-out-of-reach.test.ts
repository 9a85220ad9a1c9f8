import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeVariants } from '@coinop/testkit/db';
import { gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
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
 * An allowance the player gave must stay within their reach while it could charge them
 * (docs/concepts/consent.md, "Allowances out of reach"). An unpublished game answers 404 to
 * anyone but its insiders, and that 404 once also refused the revocation of an allowance the
 * player already held: after the operator unpublished the game, or after its developer removed
 * them from its testers, the player could neither see nor revoke it, and the game charged them
 * again as soon as it was published.
 */

type Player = WalletPlayer;

describe.each(storeVariants())('an allowance out of the game’s reach, on %s', (variant) => {
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

  const as = (who: Player, method: 'GET' | 'PUT' | 'DELETE', url: string, body?: object) =>
    s.api.inject({
      method,
      url,
      headers: { authorization: `Bearer ${who.token}` },
      ...(body === undefined ? {} : { payload: body }),
    });
  const admin = (gameId: string, action: 'publish' | 'unpublish') =>
    s.api.inject({
      method: 'POST',
      url: `/admin/games/${gameId}/${action}`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
  const nameOf = async (game: GameFixture) =>
    (await s.db.query<{ name: string }>('SELECT name FROM games WHERE id = $1', [game.gameId]))[0]!
      .name;
  const allowance = (who: Player, game: GameFixture) =>
    as(who, 'GET', `/player/allowances/${game.gameId}`);
  const allow = (who: Player, game: GameFixture, dailyLimit: string) =>
    as(who, 'PUT', `/player/allowances/${game.gameId}`, { dailyLimit });

  async function serverPlay(game: GameFixture, playerId: string) {
    const token = await writeToken(api, game);
    return s.api.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
      headers: { authorization: `Bearer ${token}` },
      payload: { playerId, leaderboardId: game.tiers[0]!.id },
    });
  }

  /** A developer signed in with their wallet, and their unpublished game with a 1 HST tier. */
  async function testedGame() {
    const wallet = newWallet();
    const developer = await player(0, wallet);
    const game = await gameWithTiers(api, {
      costs: [1],
      published: false,
      developerWallet: wallet.address,
    });
    const tester = await player(20);
    const invited = await as(
      developer,
      'PUT',
      `/developer/games/${game.gameId}/testers/${tester.wallet.address}`,
    );
    expect(invited.statusCode).toBe(200);
    const accepted = await as(tester, 'PUT', `/player/testing/${game.gameId}`, {
      dailyLimit: '5',
    });
    expect(accepted.json()).toMatchObject({ state: 'accepted', dailyLimit: '5' });
    const remove = () =>
      as(developer, 'DELETE', `/developer/games/${game.gameId}/testers/${tester.wallet.address}`);
    return { game, tester, remove };
  }

  it('revokes the allowance of a tester the developer removes, so the game published later charges nothing', async () => {
    const { game, tester, remove } = await testedGame();
    expect((await remove()).statusCode).toBe(204);

    // Revoked with the removal, in the same transaction; the player still sees it, by name.
    expect((await allowance(tester, game)).json()).toMatchObject({
      gameId: game.gameId,
      gameName: await nameOf(game),
      source: 'player',
      dailyLimit: '0',
    });
    // The game no longer reaches them: they may not raise it, nor answer an invitation gone.
    const raised = await allow(tester, game, '5');
    expect(raised.statusCode).toBe(404);
    expect(raised.json()).toMatchObject({ code: 'game_not_found' });
    expect((await as(tester, 'DELETE', `/player/testing/${game.gameId}`)).statusCode).toBe(404);

    expect((await admin(game.gameId, 'publish')).statusCode).toBe(200);
    expect((await serverPlay(game, tester.playerId)).json()).toMatchObject({
      code: 'consent_required',
      details: { dailyLimit: '0', cost: '1' },
    });
    // Published, the game reaches them as any player, and the choice is theirs again.
    expect((await allow(tester, game, '2')).json()).toMatchObject({ dailyLimit: '2' });
    expect((await serverPlay(game, tester.playerId)).statusCode).toBe(200);
  });

  it('keeps the allowance of a tester removed after publication: the game reaches them as anyone', async () => {
    const { game, tester, remove } = await testedGame();
    expect((await admin(game.gameId, 'publish')).statusCode).toBe(200);
    expect((await remove()).statusCode).toBe(204);
    expect((await allowance(tester, game)).json()).toMatchObject({ dailyLimit: '5' });
    expect((await serverPlay(game, tester.playerId)).statusCode).toBe(200);
  });

  it('lets a player see, lower and revoke an allowance after the game is unpublished, not raise it', async () => {
    const game = await gameWithTiers(api, { costs: [1], published: true });
    const fan = await player(20);
    expect((await allow(fan, game, '5')).statusCode).toBe(200);
    expect((await admin(game.gameId, 'unpublish')).statusCode).toBe(200);

    expect((await allowance(fan, game)).json()).toMatchObject({
      gameName: await nameOf(game),
      dailyLimit: '5',
    });
    const raised = await allow(fan, game, '10');
    expect(raised.statusCode).toBe(404);
    expect(raised.json()).toMatchObject({ code: 'game_not_found' });
    expect((await allow(fan, game, '3')).json()).toMatchObject({ dailyLimit: '3' });
    const revoked = await as(fan, 'DELETE', `/player/allowances/${game.gameId}`);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ source: 'player', dailyLimit: '0' });

    // Published again, the game finds the revocation.
    expect((await admin(game.gameId, 'publish')).statusCode).toBe(200);
    expect((await serverPlay(game, fan.playerId)).json()).toMatchObject({
      code: 'consent_required',
      details: { dailyLimit: '0' },
    });

    // A player who never allowed it still hears nothing of the unpublished game, by any method.
    expect((await admin(game.gameId, 'unpublish')).statusCode).toBe(200);
    const stranger = await player(20);
    for (const res of [
      await allowance(stranger, game),
      await allow(stranger, game, '1'),
      await as(stranger, 'DELETE', `/player/allowances/${game.gameId}`),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain(await nameOf(game));
    }
  });
  it('sets no allowance through a CLI login for an unpublished game the player is not let into', async () => {
    const { game, tester } = await testedGame();
    const login = async () =>
      (
        await s.auth.inject({
          method: 'POST',
          url: '/cli',
          payload: { description: 'terminal', gameId: game.gameId },
        })
      ).json<Record<string, string>>();
    const approve = (who: Player, started: Record<string, string>, dailyLimit: string) =>
      s.auth.inject({
        method: 'POST',
        url: `/cli/${started.requestorId}/approve`,
        headers: { authorization: `Bearer ${who.token}` },
        payload: { userCode: started.userCode, dailyLimit },
      });

    const stranger = await player(20);
    const theirs = await login();
    const refused = await approve(stranger, theirs, '5');
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'game_not_found' });
    // Nothing decided, nothing stored.
    const info = await s.auth.inject({
      method: 'GET',
      url: `/cli/${theirs.requestorId}/info?code=${theirs.userCode}`,
    });
    expect(info.json().status).toBe('pending');
    const stored = await s.db.query(
      'SELECT 1 FROM allowances WHERE player_id = $1 AND game_id = $2',
      [stranger.playerId, game.gameId],
    );
    expect(stored).toEqual([]);

    // Its accepted tester may: the login sets the allowance as the game's page would.
    const approved = await approve(tester, await login(), '2.5');
    expect(approved.json()).toEqual({ status: 'approved', grantedDailyLimit: '2.5' });
    expect((await allowance(tester, game)).json()).toMatchObject({ dailyLimit: '2.5' });
  });
});
