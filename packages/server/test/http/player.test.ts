import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import { approvalMessage, type ApprovalFields } from '@coinop/protocol';
import { wholeHstToUnits } from '@coinop/core';
import { publish } from '../../src/services/admin.js';
import { applyTransfers } from '../../src/store/ledger.js';
import { storeVariants } from '@coinop/testkit/db';
import { balanceOf, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  type TestSignin,
  testApiOf,
  walletPlayer,
  type WalletPlayer,
} from '@coinop/testkit/signin';

type SignedInPlayer = WalletPlayer;

const nonce = () => randomUUID();

describe.each(storeVariants())('client-side play by a signed-in player on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  let gameName: string;

  beforeAll(async () => {
    s = await buildTestSignin(variant, { faucetHst: 100 });
    api = testApiOf(s);
    game = await gameWithTiers(api, { costs: [2, 10], scoreDisplay: 'NORMAL' });
    await publish(s.api.arcade, game.gameId);
    gameName = (await s.api.arcade.reads.gameView(game.gameId)).game.name;
  });
  afterAll(() => s.close());
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
    await expectRankTreeConsistent(s.db);
  });

  const signedInPlayer = (fundHst = 0) => walletPlayer(s, fundHst);

  const post = (player: SignedInPlayer, url: string, payload: object) =>
    s.api.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${player.token}` },
      payload,
    });

  async function signed(signer: PrivateKeyAccount, fields: ApprovalFields) {
    return {
      nonce: fields.nonce,
      signature: await signer.signMessage({ message: approvalMessage(fields) }),
    };
  }

  async function playBody(signer: PrivateKeyAccount, tier = game.tiers[0]!, n = nonce()) {
    return {
      leaderboardId: tier.id,
      ...(await signed(signer, {
        kind: 'play',
        gameId: game.gameId,
        gameName,
        leaderboardId: tier.id,
        tierName: tier.name,
        costUnits: tier.costUnits,
        nonce: n,
      })),
    };
  }

  async function scoreBody(signer: PrivateKeyAccount, playId: string, score: number, n = nonce()) {
    return {
      playId,
      score,
      ...(await signed(signer, {
        kind: 'score',
        gameId: game.gameId,
        gameName,
        playId,
        score,
        nonce: n,
      })),
    };
  }

  const countRows = async (sql: string, params: unknown[]) =>
    Number((await s.db.query<{ n: string }>(sql, params))[0]!.n);

  it('GET /player/me answers the player, the balance and the faucet', async () => {
    const player = await signedInPlayer(7);
    const res = await s.api.inject({
      method: 'GET',
      url: '/player/me',
      headers: { authorization: `Bearer ${player.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      playerId: player.playerId,
      wallet: player.wallet.address.toLowerCase(),
      name: `${player.wallet.address.slice(0, 6)}…${player.wallet.address.slice(-4)}`,
      avatar: expect.stringMatching(/^(data:|https?:)/),
      balance: '7',
      pending: '0',
      pendingPayouts: '0',
      pendingPayoutsReleaseAt: null,
      faucet: { amount: '100', destination: 'ledger' },
    });
    const anonymous = await s.api.inject({ method: 'GET', url: '/player/me' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().code).toBe('missing_bearer_token');
  });

  it('the faucet grants test HST up to ten grants', async () => {
    const player = await signedInPlayer(950);
    const first = await post(player, '/player/faucet', {});
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      destination: 'ledger',
      transferId: expect.any(String),
      balance: '1050',
    });
    const second = await post(player, '/player/faucet', {});
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({
      code: 'faucet_limit_reached',
      message: 'the faucet tops up players holding less than 1000 HST; you hold 1050',
    });
    expect((await balanceOf(api, player.accountId)).available).toBe(wholeHstToUnits(1050));
  });

  it('checks the faucet ceiling with the account locked, so a grant racing it is counted', async () => {
    const player = await signedInPlayer(950);
    // Another grant of 100 HST holds the player's account locked, not yet committed.
    let locked!: () => void;
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const grant = api.db.transaction(async (tx) => {
      await applyTransfers(
        tx,
        [
          {
            id: randomUUID(),
            kind: 'posted',
            debitAccountId: api.app.arcade.record.mintAccountId,
            creditAccountId: player.accountId,
            amount: wholeHstToUnits(100),
            pendingId: null,
            reason: 'mint',
            playId: null,
          },
        ],
        new Date(),
      );
      locked();
      await gate;
    });
    await holding;
    const faucet = post(player, '/player/faucet', {});
    // Long enough for the faucet call to read (the old code read the balance outside the lock).
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await grant;
    const res = await faucet;
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      'the faucet tops up players holding less than 1000 HST; you hold 1050',
    );
    expect((await balanceOf(api, player.accountId)).available).toBe(wholeHstToUnits(1050));
  });

  it('a play signed by the player locks the cost and records the signature; a retry is charged once', async () => {
    const player = await signedInPlayer(5);
    const body = await playBody(player.wallet);
    const res = await post(player, `/player/games/${game.gameId}/plays`, body);
    expect(res.statusCode).toBe(201);
    const play = res.json<{ id: string; cost: number; playerId: string; status: string }>();
    expect(play).toMatchObject({
      cost: 2,
      playerId: player.playerId,
      leaderboardId: game.tiers[0]!.id,
      status: 'open',
    });
    expect(await balanceOf(api, player.accountId)).toMatchObject({
      available: wholeHstToUnits(3),
      pending: wholeHstToUnits(2),
    });
    const approvals = await s.db.query<{
      kind: string;
      wallet: string;
      message: string;
      signature: string;
    }>('SELECT kind, wallet, message, signature FROM wallet_approvals WHERE subject_id = $1', [
      play.id,
    ]);
    expect(approvals).toEqual([
      {
        kind: 'play',
        wallet: player.wallet.address.toLowerCase(),
        message: approvalMessage({
          kind: 'play',
          gameId: game.gameId,
          gameName,
          leaderboardId: game.tiers[0]!.id,
          tierName: game.tiers[0]!.name,
          costUnits: wholeHstToUnits(2),
          nonce: body.nonce,
        }),
        signature: body.signature,
      },
    ]);

    const retry = await post(player, `/player/games/${game.gameId}/plays`, body);
    expect(retry.statusCode).toBe(201);
    expect(retry.json<{ id: string }>().id).toBe(play.id);
    expect((await balanceOf(api, player.accountId)).pending).toBe(wholeHstToUnits(2));
  });

  it('refuses a play signed by another wallet, or for other fields, and records nothing', async () => {
    const player = await signedInPlayer(50);
    const stranger = newWallet();
    const forged = await post(
      player,
      `/player/games/${game.gameId}/plays`,
      await playBody(stranger),
    );
    expect(forged.statusCode).toBe(403);
    expect(forged.json()).toMatchObject({
      code: 'invalid_approval_signature',
      message: expect.stringContaining(`wallet ${player.wallet.address.toLowerCase()}`),
    });
    // Signed for the 2 HST tier, sent for the 10 HST one.
    const swapped = { ...(await playBody(player.wallet)), leaderboardId: game.tiers[1]!.id };
    const res = await post(player, `/player/games/${game.gameId}/plays`, swapped);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('invalid_approval_signature');
    const garbage = await post(player, `/player/games/${game.gameId}/plays`, {
      ...(await playBody(player.wallet)),
      signature: '0x1234',
    });
    expect(garbage.statusCode).toBe(403);

    expect(
      await countRows('SELECT count(*) AS n FROM plays WHERE player_id = $1', [player.playerId]),
    ).toBe(0);
    expect(
      await countRows('SELECT count(*) AS n FROM wallet_approvals WHERE player_id = $1', [
        player.playerId,
      ]),
    ).toBe(0);
    expect(await balanceOf(api, player.accountId)).toMatchObject({
      available: wholeHstToUnits(50),
      pending: 0n,
    });
  });

  it('refuses a play the player cannot pay for, recording nothing', async () => {
    const player = await signedInPlayer(1);
    const res = await post(
      player,
      `/player/games/${game.gameId}/plays`,
      await playBody(player.wallet),
    );
    expect(res.statusCode).toBe(402);
    expect(res.json().code).toBe('insufficient_funds');
    expect(
      await countRows('SELECT count(*) AS n FROM plays WHERE player_id = $1', [player.playerId]),
    ).toBe(0);
    expect(
      await countRows('SELECT count(*) AS n FROM wallet_approvals WHERE player_id = $1', [
        player.playerId,
      ]),
    ).toBe(0);
  });

  it('a game not in the arcade cannot be played', async () => {
    const unpublished = await gameWithTiers(api, { costs: [1], published: false });
    const player = await signedInPlayer(5);
    const res = await post(player, `/player/games/${unpublished.gameId}/plays`, {
      leaderboardId: unpublished.tiers[0]!.id,
      nonce: nonce(),
      signature: '0x00',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'game_not_found' });
  });

  it('issue 17: its developer plays an unpublished game in preview, approved and charged', async () => {
    const developer = await signedInPlayer(5);
    const preview = await gameWithTiers(api, {
      costs: [1],
      published: false,
      developerWallet: developer.wallet.address,
    });
    const view = (await s.api.arcade.reads.gameView(preview.gameId)).game;
    const tier = preview.tiers[0]!;
    const body = async (who: SignedInPlayer) => ({
      leaderboardId: tier.id,
      ...(await signed(who.wallet, {
        kind: 'play',
        gameId: preview.gameId,
        gameName: view.name,
        leaderboardId: tier.id,
        tierName: tier.name,
        costUnits: tier.costUnits,
        nonce: nonce(),
      })),
    });
    const opened = await post(
      developer,
      `/player/games/${preview.gameId}/plays`,
      await body(developer),
    );
    expect(opened.statusCode).toBe(201);
    expect(await balanceOf(api, developer.accountId)).toMatchObject({
      available: wholeHstToUnits(4),
      pending: wholeHstToUnits(1),
    });
    // Anyone else: the game is not there, and nothing is recorded.
    const stranger = await signedInPlayer(5);
    const refused = await post(
      stranger,
      `/player/games/${preview.gameId}/plays`,
      await body(stranger),
    );
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'game_not_found' });
    expect(
      await countRows('SELECT count(*) AS n FROM plays WHERE player_id = $1', [stranger.playerId]),
    ).toBe(0);
  });

  it('a signed score settles the play, ranks the player and records the signature', async () => {
    const player = await signedInPlayer(10);
    const developerBefore = await balanceOf(api, game.developerAccountId);
    const play = (
      await post(player, `/player/games/${game.gameId}/plays`, await playBody(player.wallet))
    ).json<{ id: string }>();
    const body = await scoreBody(player.wallet, play.id, 123_456);
    const res = await post(player, `/player/games/${game.gameId}/scores`, body);
    expect(res.statusCode).toBe(200);
    const result = res.json<{
      playId: string;
      score: number;
      leaderRank: number;
      leaders: { playerId: string; score: number }[];
    }>();
    expect(result).toMatchObject({
      playId: play.id,
      score: 123_456,
      leaderRank: 1,
      isWinner: true,
    });
    expect(result.leaders[0]).toMatchObject({ playerId: player.playerId, score: 123_456 });
    // Nobody led the board when the play began: the leaders' 70 % of the 2 HST comes back to
    // the player (10 - 2 + 1.4), and the developer and the arcade take their shares.
    expect(await balanceOf(api, player.accountId)).toMatchObject({
      available: 940_000_000n,
      pending: 0n,
    });
    const developerAfter = await balanceOf(api, game.developerAccountId);
    expect(developerAfter.available).toBeGreaterThan(developerBefore.available);
    expect(
      await s.db.query(
        'SELECT kind, signature FROM wallet_approvals WHERE subject_id = $1 ORDER BY created_at, kind',
        [play.id],
      ),
    ).toEqual([
      { kind: 'play', signature: expect.any(String) },
      { kind: 'score', signature: body.signature },
    ]);

    const retry = await post(player, `/player/games/${game.gameId}/scores`, body);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({ playId: play.id, score: 123_456, leaderRank: 1 });
    const again = await post(
      player,
      `/player/games/${game.gameId}/scores`,
      await scoreBody(player.wallet, play.id, 999_999),
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('play_already_scored');
  });

  it("refuses a score for another player's play, and one signed for another score", async () => {
    const owner = await signedInPlayer(10);
    const other = await signedInPlayer(10);
    const play = (
      await post(owner, `/player/games/${game.gameId}/plays`, await playBody(owner.wallet))
    ).json<{ id: string }>();

    const theft = await post(
      other,
      `/player/games/${game.gameId}/scores`,
      await scoreBody(other.wallet, play.id, 5),
    );
    expect(theft.statusCode).toBe(403);
    expect(theft.json()).toMatchObject({
      code: 'play_of_another_player',
      message: `play ${play.id} belongs to another player; a player scores only their own plays`,
    });
    const inflated = { ...(await scoreBody(owner.wallet, play.id, 5)), score: 5000 };
    const res = await post(owner, `/player/games/${game.gameId}/scores`, inflated);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('invalid_approval_signature');

    const rows = await s.db.query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [
      play.id,
    ]);
    expect(rows).toEqual([{ status: 'open' }]);
    expect(await countRows('SELECT count(*) AS n FROM scores WHERE play_id = $1', [play.id])).toBe(
      0,
    );
    expect(
      await countRows(
        "SELECT count(*) AS n FROM wallet_approvals WHERE kind = 'score' AND subject_id = $1",
        [play.id],
      ),
    ).toBe(0);
  });

  it('a signed payment moves HST to the developer once per nonce', async () => {
    const player = await signedInPlayer(3);
    const developerBefore = (await balanceOf(api, game.developerAccountId)).available;
    const n = nonce();
    const body = {
      amount: 1.5,
      ...(await signed(player.wallet, {
        kind: 'purchase',
        gameId: game.gameId,
        gameName,
        amountUnits: 150_000_000n,
        nonce: n,
      })),
    };
    const res = await post(player, `/player/games/${game.gameId}/purchases`, body);
    expect(res.statusCode).toBe(201);
    const { txid } = res.json<{ txid: string }>();
    expect(res.json()).toEqual({ txid, amount: '1.5' });
    const retry = await post(player, `/player/games/${game.gameId}/purchases`, body);
    expect(retry.json()).toEqual({ txid, amount: '1.5' });

    expect((await balanceOf(api, player.accountId)).available).toBe(150_000_000n);
    expect((await balanceOf(api, game.developerAccountId)).available - developerBefore).toBe(
      150_000_000n,
    );
    expect(
      await s.db.query(
        'SELECT game_id, player_id, amount_units FROM game_purchases WHERE transfer_id = $1',
        [txid],
      ),
    ).toEqual([{ game_id: game.gameId, player_id: player.playerId, amount_units: 150_000_000n }]);
    expect(
      await s.db.query('SELECT kind FROM wallet_approvals WHERE subject_id = $1', [txid]),
    ).toEqual([{ kind: 'purchase' }]);

    const tooMuch = {
      amount: 2,
      ...(await signed(player.wallet, {
        kind: 'purchase',
        gameId: game.gameId,
        gameName,
        amountUnits: wholeHstToUnits(2),
        nonce: nonce(),
      })),
    };
    const refused = await post(player, `/player/games/${game.gameId}/purchases`, tooMuch);
    expect(refused.statusCode).toBe(402);
    expect(refused.json().code).toBe('insufficient_funds');
    expect(
      await countRows('SELECT count(*) AS n FROM game_purchases WHERE player_id = $1', [
        player.playerId,
      ]),
    ).toBe(1);
    expect(
      await countRows(
        "SELECT count(*) AS n FROM wallet_approvals WHERE kind = 'purchase' AND player_id = $1",
        [player.playerId],
      ),
    ).toBe(1);
  });
});
