import { afterEach, describe, expect, it } from 'vitest';
import { uuidIds } from '../../src/ids.js';
import {
  CACHE_CHANNEL,
  notifyClientRevoked,
  notifyGameChanged,
  parseCacheNotice,
} from '../../src/store/cache-notices.js';
import { revokeClient } from '../../src/store/developer-games.js';
import { insertLeaderboard } from '../../src/store/games.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { openTestDb, storeVariants } from '@coinop/testkit/db';
import { within } from '@coinop/testkit/poll';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('cache notices', () => {
  it('parses what it sends and nothing else', () => {
    expect(parseCacheNotice('game:g1')).toEqual({ kind: 'game', gameId: 'g1' });
    expect(parseCacheNotice('client_revoked:c1')).toEqual({
      kind: 'client_revoked',
      clientId: 'c1',
    });
    for (const bad of ['', 'game', 'game:', 'tier:t1', ':g1']) {
      expect(parseCacheNotice(bad)).toBeNull();
    }
  });
});

describe.each(storeVariants())('cache invalidation across processes on %s', (variant) => {
  let api: TestApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('delivers a notice when its transaction commits, and none when it rolls back', async () => {
    const db = await openTestDb(variant);
    const received: string[] = [];
    const stop = await db.listen(CACHE_CHANNEL, (payload) => received.push(payload));
    try {
      await expect(
        db.transaction(async (tx) => {
          await notifyGameChanged(tx, 'rolled-back');
          throw new Error('the change fails');
        }),
      ).rejects.toThrow('the change fails');
      await db.transaction(async (tx) => {
        await notifyGameChanged(tx, 'g1');
        // Not before the commit: a process told now would reload the game unchanged.
        await sleep(100);
        expect(received).toEqual([]);
      });
      await db.transaction((tx) => notifyClientRevoked(tx, 'c1'));
      await within(1000, async () => received.length === 2);
      await sleep(100);
      expect(received).toEqual(['game:g1', 'client_revoked:c1']);
    } finally {
      await stop();
      await db.close();
    }
  });

  /**
   * What another API process does: change the game in storage and announce it, without touching
   * this process's caches. A long cache TTL shows that only the notice refreshes them.
   */
  async function addTierElsewhere(game: GameFixture, announce: boolean): Promise<void> {
    await api!.db.transaction(async (tx) => {
      await insertLeaderboard(tx, api!.clock, uuidIds, game.gameId, {
        name: `Added ${announce ? 'and announced' : 'quietly'}`,
        costUnits: 5n,
        leadersMax: 10,
      });
      if (announce) await notifyGameChanged(tx, game.gameId);
    });
  }
  const tierCount = async (game: GameFixture) =>
    (await api!.app.arcade.reads.gameView(game.gameId)).leaderboards.length;

  it("drops a game another process changed within a second, not at the cache's expiry", async () => {
    api = await buildTestApi(variant, { gameCacheTtlMs: 600_000 });
    const game = await gameWithTiers(api, { costs: [1, 10] });
    expect(await tierCount(game)).toBe(2);
    const ref = await api.app.arcade.games.get(game.gameId);

    await addTierElsewhere(game, false);
    await sleep(300);
    expect(await tierCount(game)).toBe(2);
    expect(await api.app.arcade.games.get(game.gameId)).toBe(ref);

    await addTierElsewhere(game, true);
    const tookMs = await within(1000, async () => (await tierCount(game)) === 4);
    expect(tookMs).toBeLessThan(1000);
    expect((await api.app.arcade.games.get(game.gameId)).leaderboards).toHaveLength(4);
  });

  it('refuses a client another process revoked within a second', async () => {
    api = await buildTestApi(variant);
    const game = await gameWithTiers(api);
    const revoked = api.app.arcade.revokedClients;
    expect(revoked.has(game.clientId)).toBe(false);
    await api.db.transaction(async (tx) => {
      await revokeClient(tx, api!.clock, game.gameId, game.clientId);
      await notifyClientRevoked(tx, game.clientId);
    });
    await within(1000, async () => revoked.has(game.clientId));
  });

  it.runIf(variant === 'postgres')(
    'drops every cache when the listening connection comes back, as notices may have been lost',
    async () => {
      api = await buildTestApi(variant, { gameCacheTtlMs: 600_000 });
      const game = await gameWithTiers(api, { costs: [1, 10] });
      expect(await tierCount(game)).toBe(2);
      // Changes whose notices this process never hears.
      await addTierElsewhere(game, false);
      await revokeClient(api.db, api.clock, game.gameId, game.clientId);
      const [killed] = await api.db.query<{ killed: boolean }>(
        `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
         WHERE datname = current_database() AND query = $1`,
        [`LISTEN "${CACHE_CHANNEL}"`],
      );
      expect(killed?.killed).toBe(true);
      await within(3000, async () => (await tierCount(game)) === 3);
      await within(1000, async () => api!.app.arcade.revokedClients.has(game.clientId));
    },
  );
});
