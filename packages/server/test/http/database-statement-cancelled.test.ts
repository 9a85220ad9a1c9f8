import pg from 'pg';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import {
  balanceOf,
  fundedPlayer,
  gameWithTiers,
  playAndScore,
  writeToken,
} from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced, recordCounts } from '@coinop/testkit/invariants';
import { afterEach, describe, expect, it } from 'vitest';
import { StatementCancelled } from '../../src/store/errors.js';

/**
 * A statement the database cancels (an operator's statement_timeout or lock_timeout expired, or a
 * cancel by hand) answered 500 `internal_error`, as if coinop had a bug, and a cancelled batch of
 * plays was run again one play at a time, each waiting out the same timeout. Now every request of
 * the batch is answered 503 `service_unavailable` with Retry-After, nothing of it is written, and
 * the same request goes through once the database is free again.
 */

let api: TestApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

const CANCEL_PLAYS = `
  CREATE FUNCTION coinop_test_cancel() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    RAISE EXCEPTION 'canceling statement due to statement timeout' USING ERRCODE = 'query_canceled';
  END $$`;

describe.each(storeVariants())('a statement the database cancels, on %s', (variant) => {
  it('answers the play and the score 503 with Retry-After, writes nothing, and both go through after', async () => {
    api = await buildTestApi(variant);
    const game = await gameWithTiers(api, { costs: [1] });
    const headers = { authorization: `Bearer ${await writeToken(api, game)}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const leaderboardId = game.tiers[0]!.id;
    const player = await fundedPlayer(api, 5);
    const play = () =>
      api!.app.inject({
        method: 'POST',
        url: `${base}/play`,
        headers,
        payload: { playerId: player.playerId, leaderboardId },
      });
    await api.db.query(CANCEL_PLAYS);

    await api.db.query(
      `CREATE TRIGGER coinop_test_cancel BEFORE INSERT ON plays
       FOR EACH ROW EXECUTE FUNCTION coinop_test_cancel()`,
    );
    await expect(api.db.query(`INSERT INTO plays (id) VALUES (gen_random_uuid())`)).rejects.toEqual(
      expect.objectContaining({
        constructor: StatementCancelled,
        reason: 'canceling statement due to statement timeout (SQLSTATE 57014)',
      }),
    );
    const refusedPlay = await play();
    expect(refusedPlay.statusCode, refusedPlay.body).toBe(503);
    expect(refusedPlay.headers['retry-after']).toMatch(/^\d+$/);
    expect(refusedPlay.json()).toMatchObject({
      code: 'service_unavailable',
      message: `the database did not finish in time; retry in ${refusedPlay.headers['retry-after']} s`,
    });
    expect(refusedPlay.body).not.toContain('57014');
    expect(await recordCounts(api.db)).toMatchObject({ plays: 0, scores: 0 });
    expect(await balanceOf(api, player.accountId)).toMatchObject({
      available: 500_000_000n,
      pending: 0n,
    });
    await api.db.query('DROP TRIGGER coinop_test_cancel ON plays');

    const played = await play();
    expect(played.statusCode, played.body).toBe(200);
    const playId = played.json<{ id: string }>().id;
    const transfersAfterPlay = (await recordCounts(api.db))['transfers'];

    await api.db.query(
      `CREATE TRIGGER coinop_test_cancel BEFORE INSERT ON scores
       FOR EACH ROW EXECUTE FUNCTION coinop_test_cancel()`,
    );
    const score = () =>
      api!.app.inject({
        method: 'POST',
        url: `${base}/score`,
        headers,
        payload: { playId, leaderboardId, score: 42 },
      });
    const refusedScore = await score();
    expect(refusedScore.statusCode, refusedScore.body).toBe(503);
    expect(refusedScore.json()).toMatchObject({ code: 'service_unavailable' });
    // The play's cost stays locked and nothing was settled.
    expect(await recordCounts(api.db)).toMatchObject({
      plays: 1,
      scores: 0,
      transfers: transfersAfterPlay,
    });
    await api.db.query('DROP TRIGGER coinop_test_cancel ON scores');

    const scored = await score();
    expect(scored.statusCode, scored.body).toBe(200);
    expect(await recordCounts(api.db)).toMatchObject({ plays: 1, scores: 1 });
    await expectLedgerBalanced(api.db);
  });
});

describe('timeouts an operator sets on Postgres', () => {
  it.runIf(process.env['DATABASE_URL'])(
    'a lock_timeout and a statement_timeout on Postgres: every play of the batch is answered 503 at once, and they go through once the database is free',
    async () => {
      api = await buildTestApi(
        'postgres',
        {},
        {
          postgresOptions: '-c lock_timeout=300 -c statement_timeout=3000',
        },
      );
      const game = await gameWithTiers(api, { costs: [1] });
      const headers = { authorization: `Bearer ${await writeToken(api, game)}` };
      const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
      const leaderboardId = game.tiers[0]!.id;
      const players = await Promise.all([1, 2, 3].map(() => fundedPlayer(api!, 5)));
      const playAll = () =>
        Promise.all(
          players.map((player) =>
            api!.app.inject({
              method: 'POST',
              url: `${base}/play`,
              headers: { ...headers, 'idempotency-key': `play-${player.playerId}` },
              payload: { playerId: player.playerId, leaderboardId },
            }),
          ),
        );
      const [{ name }] = await api.db.query<{ name: string }>('SELECT current_database() AS name');
      const url = new URL(process.env['DATABASE_URL']!);
      url.pathname = `/${name}`;
      const locker = new pg.Client({ connectionString: url.toString() });
      await locker.connect();
      try {
        // Another session holds a lock that every new play's insert must wait for.
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE plays IN SHARE MODE');
        const locked = await playAll();
        expect(locked.map((r) => [r.statusCode, r.json<{ message: string }>().message])).toEqual(
          players.map(() => [
            503,
            `the database did not finish in time; retry in ${locked[0]!.headers['retry-after']} s`,
          ]),
        );
        await locker.query('ROLLBACK');
        expect(await recordCounts(api.db)).toMatchObject({ plays: 0 });

        // A statement that runs past statement_timeout is cancelled the same way. The sequence
        // (not rolled back with the statement) counts the statements that tried to insert a play.
        await api.db.query('CREATE SEQUENCE coinop_test_tries');
        await api.db.query(`
          CREATE FUNCTION coinop_test_slow() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            PERFORM nextval('coinop_test_tries');
            PERFORM pg_sleep(10);
            RETURN NEW;
          END $$`);
        await api.db.query(`
          CREATE TRIGGER coinop_test_slow BEFORE INSERT ON plays
          FOR EACH ROW EXECUTE FUNCTION coinop_test_slow()`);
        const slow = await playAll();
        expect(slow.map((r) => [r.statusCode, r.json<{ code: string }>().code])).toEqual(
          players.map(() => [503, 'service_unavailable']),
        );
        // One try per batch: a cancelled batch is not run again play by play, each waiting out
        // the timeout once more (which made 4 tries of a batch of 3).
        const [{ tries }] = await api.db.query<{ tries: string }>(
          'SELECT last_value AS tries FROM coinop_test_tries',
        );
        expect(Number(tries)).toBeGreaterThanOrEqual(1);
        expect(Number(tries)).toBeLessThanOrEqual(players.length);
        await api.db.query('DROP TRIGGER coinop_test_slow ON plays');
        expect(await recordCounts(api.db)).toMatchObject({ plays: 0 });

        // The same requests, repeated with their idempotency keys, play once each.
        const played = await playAll();
        expect(played.map((r) => r.statusCode)).toEqual([200, 200, 200]);
        expect(await recordCounts(api.db)).toMatchObject({ plays: 3 });
        await playAndScore(api, game, players[0]!.playerId, 7);
        await expectLedgerBalanced(api.db);
      } finally {
        await locker.end();
      }
    },
  );
});
