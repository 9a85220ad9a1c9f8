import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';
import { createDeveloper } from '../../src/services/admin.js';

/**
 * Issue 30: the payout hold set by a developer per game and tier, seen by the operator and by
 * players, and the void routes of the operator and of a game's developer, with every bad input
 * answered by a 4xx that names it.
 */
describe.each(storeVariants())('payout hold and void routes on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  let other: GameFixture;
  let session: string;
  let apiKey: string;
  let otherApiKey: string;

  beforeEach(async () => {
    s = await buildTestSignin(variant, { payoutHoldSeconds: 600 });
    api = testApiOf(s);
    const wallet = newWallet();
    game = await gameWithTiers(api, { costs: [1, 2], developerWallet: wallet.address });
    other = await gameWithTiers(api, { costs: [1] });
    session = (await walletSignIn(s.auth, wallet)).access_token;
    apiKey = (await createDeveloper(s.api.arcade, wallet.address)).apiKey;
    otherApiKey = (await createDeveloper(s.api.arcade, newWallet().address)).apiKey;
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
    await expectRankTreeConsistent(s.db);
    await s.close();
  });

  const portal = (method: 'PATCH' | 'GET', url: string, payload?: object) =>
    s.api.inject({
      method,
      url: `/developer${url}`,
      headers: { authorization: `Bearer ${session}` },
      ...(payload === undefined ? {} : { payload }),
    });
  const adminVoid = (scoreId: string, payload: unknown, token = TEST_ADMIN_TOKEN) =>
    s.api.inject({
      method: 'POST',
      url: `/admin/scores/${scoreId}/void`,
      headers: { authorization: `Bearer ${token}` },
      payload: payload as object,
    });
  const developerVoid = (gameId: string, scoreId: string, key: string, payload: unknown) =>
    s.api.inject({
      method: 'POST',
      url: `/developer/games/${gameId}/scores/${scoreId}/void`,
      headers: { 'api-key': key },
      payload: payload as object,
    });

  async function scored(fixture: GameFixture, playerId: string, value: number, tier = 0) {
    const token = await writeToken(api, fixture);
    const post = (path: string, payload: object) =>
      s.api.inject({
        method: 'POST',
        url: `/arcades/${fixture.arcadeId}/games/${fixture.gameId}/${path}`,
        headers: { authorization: `Bearer ${token}` },
        payload,
      });
    const leaderboardId = fixture.tiers[tier]!.id;
    const play = await post('play', { playerId, leaderboardId });
    expect(play.statusCode, play.body).toBe(200);
    s.clock.advance(1000);
    const score = await post('score', { playId: play.json().id, leaderboardId, score: value });
    expect(score.statusCode, score.body).toBe(200);
    s.clock.advance(1000);
    return score.json().id as string;
  }

  it('sets, shows and applies a game’s and a tier’s hold, and refuses bad values by name', async () => {
    const tier = game.tiers[1]!.id;
    const patched = await portal('PATCH', `/games/${game.gameId}/leaderboards/${tier}`, {
      payoutHoldSeconds: 120,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().payoutHoldSeconds).toBe(120);
    const gamePatched = await portal('PATCH', `/games/${game.gameId}`, { payoutHoldSeconds: 0 });
    expect(gamePatched.statusCode, gamePatched.body).toBe(200);
    expect(gamePatched.json().payoutHoldSeconds).toBe(0);
    expect(
      gamePatched
        .json()
        .leaderboards.map((t: { payoutHoldSeconds: unknown }) => t.payoutHoldSeconds),
    ).toEqual([null, 120]);

    // The operator sees the game's effective hold: its own 0, not the operator's 600.
    const list = await s.api.inject({
      method: 'GET',
      url: '/admin/games',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    const holds = Object.fromEntries(
      list
        .json()
        .games.map((g: { gameId: string; payoutHoldSeconds: number }) => [
          g.gameId,
          g.payoutHoldSeconds,
        ]),
    );
    expect(holds).toEqual({ [game.gameId]: 0, [other.gameId]: 600 });

    // Tier 1 inherits the game's 0: paid at once. Tier 2 holds for 120 s.
    const alice = await fundedPlayer(api, 10, 'alice');
    await scored(game, alice.playerId, 5, 0);
    await scored(game, alice.playerId, 5, 1);
    const held = await s.db.query<{ leaderboard_id: string; release: Date | null; created: Date }>(
      `SELECT p.leaderboard_id, p.payouts_release_at AS release, p.updated_at AS created
       FROM plays p WHERE p.game_id = $1 ORDER BY p.created_at`,
      [game.gameId],
    );
    expect(held.map((h) => h.release === null)).toEqual([true, false]);
    expect(held[1]!.release!.getTime() - held[1]!.created.getTime()).toBe(120_000);

    for (const bad of [-1, 2_592_001, 1.5, '60', true]) {
      const res = await portal('PATCH', `/games/${game.gameId}/leaderboards/${tier}`, {
        payoutHoldSeconds: bad,
      });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().message).toContain('payoutHoldSeconds');
      const onGame = await portal('PATCH', `/games/${game.gameId}`, { payoutHoldSeconds: bad });
      expect(onGame.statusCode, String(bad)).toBe(400);
      expect(onGame.json().message).toContain('payoutHoldSeconds');
    }
  });

  it('shows a leader their pending payouts and when they become spendable', async () => {
    const wallet = newWallet();
    const leader = await fundedPlayer(api, 10, 'leader', wallet.address);
    const bob = await fundedPlayer(api, 10, 'bob');
    await scored(game, leader.playerId, 9);
    const start = s.clock.now().getTime();
    await scored(game, bob.playerId, 1); // pays the leader 0.7 HST, held 600 s
    const me = await s.api.inject({
      method: 'GET',
      url: '/player/me',
      headers: { authorization: `Bearer ${(await walletSignIn(s.auth, wallet)).access_token}` },
    });
    expect(me.statusCode, me.body).toBe(200);
    // 0.7 of the leader's own first play (nobody led the board: the leaders' part comes back to
    // them, held like every share) and 0.7 of bob's; the next release is their own play's.
    expect(me.json()).toMatchObject({ balance: '9', pending: '0', pendingPayouts: '1.4' });
    expect(Date.parse(me.json().pendingPayoutsReleaseAt)).toBe(start - 1000 + 600_000);
  });

  it('voids by the operator and by the game’s own developer, and refuses every bad input', async () => {
    const alice = await fundedPlayer(api, 10, 'alice');
    const first = await scored(game, alice.playerId, 7);
    const second = await scored(game, alice.playerId, 8);
    const elsewhere = await scored(other, alice.playerId, 3);

    const unknown = '5f0c8a1e-0000-4000-8000-000000000000';
    for (const [body, field] of [
      [{}, 'reason'],
      [{ reason: '' }, 'reason'],
      [{ reason: '   ' }, 'reason'],
      [{ reason: 'x'.repeat(501) }, 'reason'],
      [{ reason: 'ok', extra: 1 }, 'extra'],
      [{ reason: 42 }, 'reason'],
    ] as const) {
      const res = await adminVoid(first, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toContain(field);
    }
    const notUuid = await adminVoid('not-a-uuid', { reason: 'x' });
    expect(notUuid.statusCode).toBe(400);
    expect(notUuid.json().message).toContain('scoreId');
    expect((await adminVoid(unknown, { reason: 'x' })).json().code).toBe('score_not_found');
    expect((await adminVoid(first, { reason: 'x' }, 'wrong')).statusCode).toBe(401);

    // Another developer's game, and a score of another game: 404, nothing written.
    const foreign = await developerVoid(game.gameId, first, otherApiKey, { reason: 'mine?' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().code).toBe('game_not_found');
    const wrongGame = await developerVoid(game.gameId, elsewhere, apiKey, { reason: 'not here' });
    expect(wrongGame.statusCode).toBe(404);
    expect(wrongGame.json().code).toBe('score_not_found');

    const byDeveloper = await developerVoid(game.gameId, second, apiKey, { reason: 'replayed' });
    expect(byDeveloper.statusCode, byDeveloper.body).toBe(200);
    expect(byDeveloper.json()).toMatchObject({ scoreId: second, resettledPlays: [], moved: [] });
    const byAdmin = await adminVoid(elsewhere, { reason: 'impossible' });
    expect(byAdmin.statusCode, byAdmin.body).toBe(200);
    expect((await adminVoid(elsewhere, { reason: 'again' })).json().code).toBe(
      'score_already_voided',
    );
    const marks = await s.db.query<{ id: string; void_reason: string; voided_by: string }>(
      'SELECT id, void_reason, voided_by FROM scores WHERE voided_at IS NOT NULL ORDER BY voided_by',
    );
    expect(marks).toEqual([
      { id: elsewhere, void_reason: 'impossible', voided_by: 'admin' },
      { id: second, void_reason: 'replayed', voided_by: `developer:${game.developerId}` },
    ]);
    // Alice's best on the game's board falls back to her first score.
    const best = await s.db.query<{ score_id: string }>(
      'SELECT score_id FROM leaders WHERE leaderboard_id = $1',
      [game.tiers[0]!.id],
    );
    expect(best).toEqual([{ score_id: first }]);
  });
});
