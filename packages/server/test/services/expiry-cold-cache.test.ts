import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';

describe.each(storeVariants())('the expiry sweep on a cold game cache on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;

  beforeEach(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [1] });
  });
  afterEach(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  // On PGlite (one session) the sweep once read a game it did not remember from inside its
  // transaction, and waited for itself forever.
  it('settles a play whose game this process no longer remembers', async () => {
    const token = await writeToken(api, game);
    const alice = await fundedPlayer(api, 10);
    const res = await api.app.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
      headers: { authorization: `Bearer ${token}` },
      payload: { playerId: alice.playerId, leaderboardId: game.tiers[0]!.id },
    });
    expect(res.statusCode).toBe(200);
    api.app.arcade.games.invalidate(game.gameId);
    api.clock.advance(api.config.playTtlSeconds * 1000);
    expect(await api.app.arcade.settleExpiredPlays()).toBe(1);
    const [row] = await api.db.query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [
      res.json().id,
    ]);
    expect(row?.status).toBe('expired');
  });
});
