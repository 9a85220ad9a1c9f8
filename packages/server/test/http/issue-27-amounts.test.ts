import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import { approvalMessage, type Tournament } from '@coinop/protocol';
import { createDeveloper } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';
import { storeVariants } from '@coinop/testkit/db';
import { balanceOf, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';

/**
 * Issue 27 finding 5: the approval text was built from a JavaScript number. For a round whose
 * entry fee is 0.00000007 HST the server took only `Lock: 7e-8 HST` and refused the documented
 * `Lock: 0.00000007 HST` (403 invalid_approval_signature); for a fee of 1000000000.00000001 it
 * took `Lock: 1000000000 HST` and then locked 1000000000.00000001. Now the documented text,
 * exact to the unit, is the only one taken, and exactly that is locked; a payment likewise.
 */

const HST = 100_000_000n;

/** Fees as the developer wrote them, their base units, and the text a JS number prints. */
const FEES = [
  { fee: '0.00000001', units: 1n, numberText: '1e-8' },
  { fee: '0.00000007', units: 7n, numberText: '7e-8' },
  { fee: '1000000000.00000001', units: 1_000_000_000n * HST + 1n, numberText: '1000000000' },
] as const;

describe.each(storeVariants())('what a player signs is what is taken, on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  let gameName: string;
  const rounds = new Map<string, Tournament>();
  let player: { wallet: PrivateKeyAccount; token: string; playerId: string; accountId: string };

  beforeAll(async () => {
    s = await buildTestSignin(variant, { faucetHst: 0 });
    api = testApiOf(s);
    game = await gameWithTiers(api, { costs: [1] });
    gameName = (await s.api.arcade.reads.gameView(game.gameId)).game.name;
    const { apiKey } = await createDeveloper(s.api.arcade, game.developerWallet);
    for (const { fee } of FEES) {
      const res = await s.api.inject({
        method: 'POST',
        url: `/developer/games/${game.gameId}/tournaments`,
        headers: { 'api-key': apiKey },
        payload: {
          name: `Cup at ${fee}`,
          entryFee: fee,
          startsAt: s.clock.now().toISOString(),
          durationSeconds: 3600,
          payoutTable: { topPercent: 50 },
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      const tournament = res.json<Tournament>();
      expect(tournament.entryFee).toBe(fee);
      rounds.set(fee, tournament);
    }
    const wallet = newWallet();
    const { access_token, playerId } = await walletSignIn(s.auth, wallet);
    // Two mints (each at most 10^9 HST): 2,000,000,000 HST.
    for (let i = 0; i < 2; i++) {
      await mintHst(s.api.arcade, { id: playerId, amountUnits: 1_000_000_000n * HST });
    }
    const { accountId } = await s.api.arcade.reads.player(playerId);
    player = { wallet, token: access_token, playerId, accountId };
  });
  afterAll(async () => {
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  const post = (url: string, payload: object) =>
    s.api.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${player.token}` },
      payload,
    });
  const rowCount = async (table: 'plays' | 'wallet_approvals' | 'game_purchases') =>
    Number(
      (
        await s.db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE player_id = $1`, [
          player.playerId,
        ])
      )[0]!.n,
    );

  /** The round's play approval as documented, and the same with the amount a JS number prints. */
  function playTexts(fee: (typeof FEES)[number], nonce: string) {
    const round = rounds.get(fee.fee)!.currentRound!;
    const documented = approvalMessage({
      kind: 'play',
      gameId: game.gameId,
      gameName,
      leaderboardId: round.id,
      tierName: round.boardName,
      costUnits: fee.units,
      nonce,
    });
    return {
      roundId: round.id,
      documented,
      fromNumber: documented.replace(`\nLock: ${fee.fee} HST\n`, `\nLock: ${fee.numberText} HST\n`),
    };
  }

  it.each(FEES)(
    'a round whose fee is $fee HST: the number text is refused, the documented one locks exactly',
    async (fee) => {
      const nonce = randomUUID();
      const { roundId, documented, fromNumber } = playTexts(fee, nonce);
      expect(documented).toContain(`\nLock: ${fee.fee} HST\n`);
      expect(fromNumber).not.toBe(documented);
      const before = await balanceOf(api, player.accountId);
      const playsBefore = await rowCount('plays');
      const approvalsBefore = await rowCount('wallet_approvals');

      const refused = await post(`/player/games/${game.gameId}/plays`, {
        leaderboardId: roundId,
        nonce,
        signature: await player.wallet.signMessage({ message: fromNumber }),
      });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({
        code: 'invalid_approval_signature',
        details: { field: 'signature' },
      });
      expect(await balanceOf(api, player.accountId)).toEqual(before);
      expect(await rowCount('plays')).toBe(playsBefore);
      expect(await rowCount('wallet_approvals')).toBe(approvalsBefore);

      const signature = await player.wallet.signMessage({ message: documented });
      const opened = await post(`/player/games/${game.gameId}/plays`, {
        leaderboardId: roundId,
        nonce,
        signature,
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const playId = opened.json<{ id: string }>().id;
      expect(
        await s.db.query(
          `SELECT p.cost_units, a.message, a.signature
             FROM plays p JOIN wallet_approvals a ON a.subject_id = p.id AND a.kind = 'play'
            WHERE p.id = $1`,
          [playId],
        ),
      ).toEqual([{ cost_units: fee.units, message: documented, signature }]);
      expect(await balanceOf(api, player.accountId)).toEqual({
        ...before,
        available: before.available - fee.units,
        pending: before.pending + fee.units,
      });
    },
  );

  it('the player reads their balance exact to the unit, past what a JSON number holds', async () => {
    // 2,000,000,000 HST less the three fees: 1 + 7 + 100000000000000001 units locked.
    const res = await s.api.inject({
      method: 'GET',
      url: '/player/me',
      headers: { authorization: `Bearer ${player.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      balance: '999999999.99999991',
      pending: '1000000000.00000009',
    });
  });

  it.each([
    { amount: '0.00000007', units: 7n, numberText: '7e-8' },
    { amount: 7e-8, units: 7n, numberText: '7e-8' },
    { amount: '900000000.00000001', units: 900_000_000n * HST + 1n, numberText: '900000000' },
  ])(
    'a payment of $amount HST: the number text is refused, the documented one pays exactly',
    async ({ amount, units, numberText }) => {
      const nonce = randomUUID();
      const documented = approvalMessage({
        kind: 'purchase',
        gameId: game.gameId,
        gameName,
        amountUnits: units,
        nonce,
      });
      const exact = typeof amount === 'string' ? amount : '0.00000007';
      expect(documented).toContain(`\nPay: ${exact} HST\n`);
      const fromNumber = documented.replace(`Pay: ${exact} HST`, `Pay: ${numberText} HST`);
      const developer = await balanceOf(api, game.developerAccountId);
      const purchases = await rowCount('game_purchases');

      const refused = await post(`/player/games/${game.gameId}/purchases`, {
        amount,
        nonce,
        signature: await player.wallet.signMessage({ message: fromNumber }),
      });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'invalid_approval_signature' });
      expect(await rowCount('game_purchases')).toBe(purchases);

      const paid = await post(`/player/games/${game.gameId}/purchases`, {
        amount,
        nonce,
        signature: await player.wallet.signMessage({ message: documented }),
      });
      expect(paid.statusCode, paid.body).toBe(201);
      const { txid } = paid.json<{ txid: string }>();
      expect(paid.json()).toEqual({ txid, amount: exact });
      expect(
        await s.db.query('SELECT amount_units FROM game_purchases WHERE transfer_id = $1', [txid]),
      ).toEqual([{ amount_units: units }]);
      expect((await balanceOf(api, game.developerAccountId)).available).toBe(
        developer.available + units,
      );
    },
  );
});
