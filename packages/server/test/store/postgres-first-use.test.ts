import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '@coinop/testkit/db';
import { StatementCancelled } from '../../src/store/errors.js';
import { openPostgres } from '../../src/store/postgres.js';

/**
 * The play path's ordered connection pipelines its statements. When the first use of a named
 * statement failed while it was being made (a lock_timeout as its Parse waited for the table's
 * lock), the statements sent behind it failed with "prepared statement … does not exist", which
 * the API answered 500. Now they wait for the first use's answer and each fails, or succeeds, on
 * its own.
 */
describe('the first use of a named statement on the ordered connection, on Postgres', () => {
  it.runIf(process.env['DATABASE_URL'])(
    'makes the statements behind a first use that timed out wait, so each is cancelled or runs on its own',
    async () => {
      const database = await createTestDatabase();
      const url = new URL(database.url);
      url.searchParams.set('options', '-c lock_timeout=200');
      const db = await openPostgres(url.toString(), 2);
      const locker = new pg.Client({ connectionString: database.url });
      try {
        await db.query('CREATE TABLE first_use (n int)');
        await db.query('INSERT INTO first_use VALUES (1), (2)');
        const read = () =>
          db.ordered.query<{ n: number }>(
            'SELECT sum(n)::int AS n FROM first_use',
            [],
            'first_use',
          );
        // The ordered connection is open; no statement named 'first_use' is made on it yet.
        await db.ordered.query('SELECT 1', [], 'first_use_connect');

        await locker.connect();
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE first_use IN ACCESS EXCLUSIVE MODE');
        const results = await Promise.allSettled([read(), read(), read()]);
        expect(
          results.map((r) =>
            r.status === 'rejected' && r.reason instanceof StatementCancelled ? r.reason.reason : r,
          ),
        ).toEqual([
          'canceling statement due to lock timeout (SQLSTATE 55P03)',
          'canceling statement due to lock timeout (SQLSTATE 55P03)',
          'canceling statement due to lock timeout (SQLSTATE 55P03)',
        ]);
        await locker.query('ROLLBACK');

        expect(await Promise.all([read(), read(), read()])).toEqual([
          [{ n: 3 }],
          [{ n: 3 }],
          [{ n: 3 }],
        ]);
      } finally {
        await locker.end().catch(() => undefined);
        await db.close();
        await database.drop();
      }
    },
  );
});
