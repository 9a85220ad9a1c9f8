import { uuidToBytes16 } from '@coinop/contracts';
import { gameWithTiers } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { getAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_WINDOW_SECONDS } from '../../src/chain/chain-play-requests.js';
import { chainConfigFor, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * Asking to lock a play from the wallet over HTTP: what the web app is given to call the vault
 * with, who may read it, and bad input refused with a 4xx naming the problem, recording nothing.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

describe.each(storeVariants())('plays locked on chain over HTTP on %s', (variant) => {
  let s: TestSignin | null = null;
  afterEach(async () => {
    await s?.close();
    s = null;
  });

  async function arcade(chainMode = true) {
    const vault = await chain.newVault();
    s = await buildTestSignin(
      variant,
      chainMode ? { chain: chainConfigFor(chain, vault, { confirmations: 0 }) } : {},
    );
    if (chainMode) await s.api.arcade.chain!.runOnce();
    const api = { app: s.api, db: s.db, clock: s.clock, config: s.config, close: () => s!.close() };
    const game = await gameWithTiers(api, { costs: [5, 0] });
    const session = await walletSignIn(s.auth, newWallet());
    return {
      s,
      vault: vault.vault,
      game,
      headers: { authorization: `Bearer ${session.access_token}` },
    };
  }

  const countRequests = async (t: TestSignin) =>
    Number(
      (await t.db.query<{ n: number | bigint }>('SELECT count(*) AS n FROM chain_play_locks'))[0]
        ?.n,
    );

  it('gives a play id and the amount to lock, and shows it to its player only', async () => {
    const { s, vault, game, headers } = await arcade();
    const res = await s.api.inject({
      method: 'POST',
      url: `/player/games/${game.gameId}/chain-plays`,
      headers,
      payload: { leaderboardId: game.tiers[0]!.id },
    });
    expect(res.statusCode).toBe(201);
    const body = res.json<{ playId: string; lockBy: string }>();
    expect(body).toEqual({
      playId: body.playId,
      playIdBytes16: uuidToBytes16(body.playId),
      gameId: game.gameId,
      leaderboardId: game.tiers[0]!.id,
      amount: '5',
      amountUnits: '500000000',
      chainId: chain.chainId,
      vault: getAddress(vault),
      token: getAddress(chain.hst),
      lockBy: new Date(s.clock.now().getTime() + LOCK_WINDOW_SECONDS * 1000).toISOString(),
      state: 'requested',
      refundReason: null,
      lockTxHash: null,
      settleTxHash: null,
      play: null,
    });
    const again = await s.api.inject({
      method: 'GET',
      url: `/player/chain-plays/${body.playId}`,
      headers,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(body);
    const other = await walletSignIn(s.auth, newWallet());
    const theirs = await s.api.inject({
      method: 'GET',
      url: `/player/chain-plays/${body.playId}`,
      headers: { authorization: `Bearer ${other.access_token}` },
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'chain_play_not_found' });
  });

  it('refuses bad input with a 4xx naming the problem, recording nothing', async () => {
    const { s, game, headers } = await arcade();
    const post = (gameId: string, payload: object) =>
      s.api.inject({
        method: 'POST',
        url: `/player/games/${gameId}/chain-plays`,
        headers,
        payload,
      });
    const cases: [string, object, number, string][] = [
      [game.gameId, {}, 400, 'validation_failed'],
      [game.gameId, { leaderboardId: 'nope' }, 400, 'validation_failed'],
      [game.gameId, { leaderboardId: game.tiers[0]!.id, extra: 1 }, 400, 'validation_failed'],
      [game.gameId, { leaderboardId: crypto.randomUUID() }, 422, 'leaderboard_not_in_game'],
      [game.gameId, { leaderboardId: game.tiers[1]!.id }, 400, 'validation_failed'],
      [crypto.randomUUID(), { leaderboardId: game.tiers[0]!.id }, 404, 'game_not_found'],
    ];
    for (const [gameId, payload, status, code] of cases) {
      const res = await post(gameId, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json(), JSON.stringify(payload)).toMatchObject({ code });
    }
    expect(await countRequests(s)).toBe(0);
  });

  it('answers 409 chain_mode_off without chain mode', async () => {
    const { s, game, headers } = await arcade(false);
    const res = await s.api.inject({
      method: 'POST',
      url: `/player/games/${game.gameId}/chain-plays`,
      headers,
      payload: { leaderboardId: game.tiers[0]!.id },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'chain_mode_off' });
    expect(await countRequests(s)).toBe(0);
  });
});
