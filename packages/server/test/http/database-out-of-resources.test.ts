import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, writeToken } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseOutOfResources } from '../../src/store/errors.js';

/**
 * A database that answers but has no room (SQLSTATE class 53: disk full, out of memory) refused a
 * play with 500 `internal_error`, as if coinop had a bug. Now it is 503 `service_unavailable`
 * with Retry-After, nothing of the play is written, and the play goes through once the database
 * has room again. The lack is raised by the database itself, from a trigger, on every store.
 */

describe.each(storeVariants())('a database out of resources, on %s', (variant) => {
  let api: TestApi | null = null;
  afterEach(async () => {
    await api?.close();
    api = null;
  });

  it('answers a play 503 with Retry-After, writes nothing, and plays once there is room', async () => {
    api = await buildTestApi(variant);
    const game = await gameWithTiers(api, { costs: [1] });
    const token = await writeToken(api, game);
    const player = await fundedPlayer(api, 5);
    const play = () =>
      api!.app.inject({
        method: 'POST',
        url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
        headers: { authorization: `Bearer ${token}` },
        payload: { playerId: player.playerId, leaderboardId: game.tiers[0]!.id },
      });
    const plays = async () =>
      Number((await api!.db.query<{ n: string }>('SELECT count(*) AS n FROM plays'))[0]!.n);

    await api.db.query(`
      CREATE FUNCTION coinop_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'could not extend file "base/16384/2619": No space left on device'
          USING ERRCODE = 'disk_full';
      END $$`);
    await api.db.query(`
      CREATE TRIGGER coinop_test_disk_full BEFORE INSERT ON plays
      FOR EACH ROW EXECUTE FUNCTION coinop_test_disk_full()`);

    await expect(api.db.query(`INSERT INTO plays (id) VALUES (gen_random_uuid())`)).rejects.toEqual(
      expect.objectContaining({
        constructor: DatabaseOutOfResources,
        reason: 'could not extend file "base/16384/2619": No space left on device (SQLSTATE 53100)',
      }),
    );
    const refused = await play();
    expect(refused.statusCode, refused.body).toBe(503);
    expect(refused.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused.json()).toMatchObject({
      code: 'service_unavailable',
      message: `the database is out of resources; retry in ${refused.headers['retry-after']} s`,
    });
    expect(refused.body).not.toContain('No space left');
    expect(await plays()).toBe(0);
    await expectLedgerBalanced(api.db);

    await api.db.query('DROP TRIGGER coinop_test_disk_full ON plays');
    const played = await play();
    expect(played.statusCode, played.body).toBe(200);
    expect(await plays()).toBe(1);
    await expectLedgerBalanced(api.db);
  });
});
