import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { approvalMessage } from '@coinop/protocol';
import { wholeHstToUnits } from '@coinop/core';
import { mintHst } from '../../src/services/admin-hst.js';
import { storeVariants } from '@coinop/testkit/db';
import { balanceOf, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';

/**
 * What broke (security review, finding 4): a game the operator suspended charges no one and
 * answers `403 game_suspended` (docs/concepts/consent.md, "Who a game may charge"), but only its
 * plays were refused: its page could still ask for a payment to its developer
 * (`POST /player/games/{gameId}/purchases`, bridge `hstTransfer`), and it went through, because
 * the purchase checked only that the game was visible. A payment now follows the rule a signed
 * play follows.
 */
describe.each(storeVariants())('a suspended game takes no payment, on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  let gameName: string;

  beforeAll(async () => {
    s = await buildTestSignin(variant);
    api = testApiOf(s);
    game = await gameWithTiers(api, { costs: [2] });
    gameName = (await s.api.arcade.reads.gameView(game.gameId)).game.name;
  });
  afterAll(() => s.close());
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
  });

  it('refuses a signed payment to the developer of a suspended game', async () => {
    const wallet = newWallet();
    const { access_token, playerId } = await walletSignIn(s.auth, wallet);
    const { accountId } = await s.api.arcade.reads.player(playerId);
    await mintHst(s.api.arcade, { id: playerId, amountUnits: wholeHstToUnits(10) });

    const suspended = await s.api.inject({
      method: 'POST',
      url: `/admin/games/${game.gameId}/suspend`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(suspended.statusCode).toBe(200);
    const developerBefore = (await balanceOf(api, game.developerAccountId)).available;

    const nonce = randomUUID();
    const message = approvalMessage({
      kind: 'purchase',
      gameId: game.gameId,
      gameName,
      amountUnits: wholeHstToUnits(5),
      nonce,
    });
    const res = await s.api.inject({
      method: 'POST',
      url: `/player/games/${game.gameId}/purchases`,
      headers: { authorization: `Bearer ${access_token}` },
      payload: { amount: '5', nonce, signature: await wallet.signMessage({ message }) },
    });

    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      code: 'game_suspended',
      message: `game ${game.gameId} is suspended by the arcade operator and takes no plays or payments`,
    });
    // Nothing recorded: no payment, and the approval's nonce is still unused.
    expect(
      await s.db.query("SELECT 1 FROM wallet_approvals WHERE kind = 'purchase' AND nonce = $1", [
        nonce,
      ]),
    ).toEqual([]);
    expect(
      await s.db.query('SELECT 1 FROM game_purchases WHERE game_id = $1', [game.gameId]),
    ).toEqual([]);
    expect((await balanceOf(api, accountId)).available).toBe(wholeHstToUnits(10));
    expect((await balanceOf(api, game.developerAccountId)).available).toBe(developerBefore);

    // Resumed, the game takes the same signed payment: the refusal wrote nothing.
    const resumed = await s.api.inject({
      method: 'POST',
      url: `/admin/games/${game.gameId}/resume`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(resumed.statusCode).toBe(200);
    const paid = await s.api.inject({
      method: 'POST',
      url: `/player/games/${game.gameId}/purchases`,
      headers: { authorization: `Bearer ${access_token}` },
      payload: { amount: '5', nonce, signature: await wallet.signMessage({ message }) },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    expect((await balanceOf(api, accountId)).available).toBe(wholeHstToUnits(5));
  });
});
