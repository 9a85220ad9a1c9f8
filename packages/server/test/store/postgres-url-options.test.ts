import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/store/postgres.js';
import { createTestDatabase } from '@coinop/testkit/db';

/**
 * Settings an operator puts in DATABASE_URL (`?options=-c statement_timeout=…`) reach every
 * connection coinop opens: the pool's and the play path's ordered one, which sets its own plan
 * settings and used to replace the URL's with them.
 */
describe('DATABASE_URL options on Postgres', () => {
  it.runIf(process.env['DATABASE_URL'])(
    'reach the ordered connection beside its own plan settings, and the pool',
    async () => {
      const database = await createTestDatabase();
      const url = new URL(database.url);
      url.searchParams.set('options', '-c statement_timeout=4321 -c lock_timeout=1234');
      const db = await openPostgres(url.toString(), 2);
      try {
        const show = `SELECT current_setting('statement_timeout') AS statement_timeout,
                             current_setting('lock_timeout') AS lock_timeout,
                             current_setting('plan_cache_mode') AS plan_cache_mode`;
        expect(await db.ordered.query(show, [], 'url_options_ordered')).toEqual([
          {
            statement_timeout: '4321ms',
            lock_timeout: '1234ms',
            plan_cache_mode: 'force_generic_plan',
          },
        ]);
        expect(await db.query(show)).toEqual([
          { statement_timeout: '4321ms', lock_timeout: '1234ms', plan_cache_mode: 'auto' },
        ]);
      } finally {
        await db.close();
        await database.drop();
      }
    },
  );
});
