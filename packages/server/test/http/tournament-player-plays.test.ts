import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalMessage, type Tournament } from '@coinop/protocol';
import { wholeHstToUnits } from '@coinop/core';
import { createDeveloper } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';
import { storeVariants } from '@coinop/testkit/db';
import { balanceOf, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';

/**
 * Issue 18: the web app's plays on a round (a signed approval naming the round's board) count as
 * entries like any; a play locked on chain is refused on a round.
 */
describe.each(storeVariants())('a signed-in player on a tournament round on %s', (variant) => {
  let s: TestSignin;
  let game: GameFixture;
  let tournament: Tournament;

  beforeAll(async () => {
    s = await buildTestSignin(variant, { faucetHst: 0 });
    const api = testApiOf(s);
    game = await gameWithTiers(api, { costs: [1] });
    const { apiKey } = await createDeveloper(s.api.arcade, game.developerWallet);
    const res = await s.api.inject({
      method: 'POST',
      url: `/developer/games/${game.gameId}/tournaments`,
      headers: { 'api-key': apiKey },
      payload: {
        name: 'Web Cup',
        entryFee: '0.5',
        startsAt: s.clock.now().toISOString(),
        durationSeconds: 3600,
        maxAttempts: 1,
        payoutTable: { topPercent: 50 },
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    tournament = res.json<Tournament>();
  });
  afterAll(async () => {
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  it('opens a signed play on the round, then refuses the attempt after the last', async () => {
    const wallet = newWallet();
    const { access_token, playerId } = await walletSignIn(s.auth, wallet);
    await mintHst(s.api.arcade, { id: playerId, amountUnits: wholeHstToUnits(5) });
    const round = tournament.currentRound!;
    const gameName = (await s.api.arcade.reads.gameView(game.gameId)).game.name;
    const body = async () => {
      const nonce = randomUUID();
      const message = approvalMessage({
        kind: 'play',
        gameId: game.gameId,
        gameName,
        leaderboardId: round.id,
        tierName: round.boardName,
        costUnits: 50_000_000n,
        nonce,
      });
      return {
        leaderboardId: round.id,
        nonce,
        signature: await wallet.signMessage({ message }),
      };
    };
    const first = await s.api.inject({
      method: 'POST',
      url: `/player/games/${game.gameId}/plays`,
      headers: { authorization: `Bearer ${access_token}` },
      payload: await body(),
    });
    expect(first.statusCode, first.body).toBe(201);
    const second = await s.api.inject({
      method: 'POST',
      url: `/player/games/${game.gameId}/plays`,
      headers: { authorization: `Bearer ${access_token}` },
      payload: await body(),
    });
    expect(second.statusCode, second.body).toBe(409);
    expect(second.json()).toMatchObject({
      code: 'tournament_attempts_exhausted',
      details: { field: 'leaderboardId', maxAttempts: 1 },
    });
    const player = await s.api.arcade.reads.player(playerId);
    const api = testApiOf(s);
    expect((await balanceOf(api, player.accountId)).available).toBe(
      wholeHstToUnits(5) - 50_000_000n,
    );

    const chain = await s.api.inject({
      method: 'POST',
      url: `/player/games/${game.gameId}/chain-plays`,
      headers: { authorization: `Bearer ${access_token}` },
      payload: { leaderboardId: tournament.id },
    });
    expect(chain.statusCode, chain.body).toBe(409);
    expect(chain.json()).toMatchObject({
      code: 'tournament_chain_play_refused',
      details: { field: 'leaderboardId' },
    });
  });
});
