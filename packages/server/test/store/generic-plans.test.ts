import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidIds } from '../../src/ids.js';
import { GENERIC_PLAN_SETTINGS, type Db } from '../../src/store/db.js';
import { WRITE_SCORES_SQL } from '../../src/store/score-batch.js';
import { openTestDb, storeVariants } from '@coinop/testkit/db';

// The score write is planned once, without its arrays (`Db.ordered`). With Postgres's default
// join choices that plan hash-joins whole tables while they are a few thousand rows: every batch
// then read every best and count-tree bucket of the board.
describe.each(storeVariants())('the score write planned without its values, on %s', (variant) => {
  let db: Db;

  beforeEach(async () => {
    db = await openTestDb(variant);
  });
  afterEach(() => db.close());

  /** The generic plan of the score write, with `settings` in force, over a board of `players`. */
  async function genericPlan(settings: Readonly<Record<string, string>>, players: number) {
    const board = uuidIds.next();
    return db.transaction(async (tx) => {
      // The rows need no board, players or scores behind them: foreign keys are off for this
      // transaction (the database is this test's own).
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query(
        `INSERT INTO leaders (leaderboard_id, player_id, score, rank_key, score_id, achieved_at)
         SELECT $1, gen_random_uuid(), n, n, gen_random_uuid(), now()
         FROM generate_series(1, $2::int) n`,
        [board, players],
      );
      await tx.query(
        `INSERT INTO rank_buckets (leaderboard_id, level, bucket, players)
         SELECT $1, level, n, 1 FROM generate_series(1, $2::int) n, generate_series(1, 8) level`,
        [board, players],
      );
      await tx.query('ANALYZE leaders');
      await tx.query('ANALYZE rank_buckets');
      for (const [name, value] of Object.entries(settings)) {
        await tx.query(`SET LOCAL ${name} = ${value}`);
      }
      await tx.query(`PREPARE write_scores AS ${WRITE_SCORES_SQL}`);
      // $1 to $47 are arrays, $48 to $51 counts, $52 to $60 arrays again ($60: the plays'
      // payout release times, issue 30).
      const args = [
        ...Array.from({ length: 47 }, () => `'{}'`),
        ...['0', '0', '0', '0'],
        ...Array.from({ length: 9 }, () => `'{}'`),
      ];
      const plan = await tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN EXECUTE write_scores(${args.join(', ')})`,
      );
      await tx.query('DEALLOCATE write_scores');
      return plan.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it('looks each best and bucket up by key, never scanning the board', async () => {
    const plan = await genericPlan(GENERIC_PLAN_SETTINGS, 50);
    expect(plan).not.toMatch(/Seq Scan on (leaders|rank_buckets|plays|accounts|leaderboards)\b/);
    expect(plan).toMatch(/Index Scan using leaders_pkey on leaders/);
    expect(plan).toMatch(/Index Scan using rank_buckets_pkey on rank_buckets/);
  });

  it('would scan them with only generic planning switched on (why the settings exist)', async () => {
    const plan = await genericPlan({ plan_cache_mode: 'force_generic_plan' }, 50);
    expect(plan).toMatch(/Seq Scan on (leaders|rank_buckets)\b/);
  });
});
