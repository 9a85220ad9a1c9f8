import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '@coinop/testkit/app';
import {
  fundedPlayer,
  gameWithTiers,
  playAndScore,
  type GameFixture,
} from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';
import type { DeveloperDailyStats } from '@coinop/protocol';

/**
 * A game's own stats count what its developer was credited as the daily chart does: a held share
 * once its hold is released, never while it can still be voided. (Before, the game's stats
 * counted posted transfers only, so a game with a payout hold showed 0 earned for ever.)
 */

const HOLD_SECONDS = 600;

describe.each(storeVariants())("a game's earnings with a payout hold on %s", (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  let token: string;

  const get = async (url: string) => {
    const res = await s.api.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown>;
  };
  const earned = async () => (await get(`/developer/games/${game.gameId}/stats`))['hstEarned'];
  const charted = async () => {
    const stats = (await get(
      `/developer/stats/daily?days=1&gameId=${game.gameId}`,
    )) as unknown as DeveloperDailyStats;
    return stats.games[0]?.days.map((d) => d.hstEarned);
  };

  beforeAll(async () => {
    s = await buildTestSignin(variant, { payoutHoldSeconds: HOLD_SECONDS });
    api = testApiOf(s);
    const wallet = newWallet();
    game = await gameWithTiers(api, { costs: [10], developerWallet: wallet.address });
    token = (await walletSignIn(s.auth, wallet)).access_token;
    await playAndScore(api, game, (await fundedPlayer(api, 20)).playerId, 3);
  });
  afterAll(async () => {
    if (s) await expectLedgerBalanced(s.db);
    await s?.close();
  });

  it('counts nothing while the share is held', async () => {
    expect(await earned()).toBe('0');
    expect(await charted()).toEqual(['0']);
  });

  it('counts the share once its hold is released, as the daily chart does', async () => {
    s.clock.advance((HOLD_SECONDS + 1) * 1000);
    // The developer's 20 %: 2 of 10 (with no leaders on the board yet, the leaders' 70 % went
    // back to the player, not to the developer).
    expect(await s.api.arcade.releaseHeldPayouts()).toBeGreaterThan(0);
    expect(await earned()).toBe('2');
    expect(await charted()).toEqual(['2']);
  });
});
