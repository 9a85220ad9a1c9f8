import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestDatabase } from '@coinop/testkit/db';
import { tableDigests } from '@coinop/testkit/invariants';
import { copyOrder, copyPgliteToPostgres } from '../../src/store/copy-to-postgres.js';
import { migrate } from '../../src/store/migrate.js';
import { openPglite } from '../../src/store/pglite.js';
import { openPostgres } from '../../src/store/postgres.js';

/**
 * The copy behind `coinop db copy` (issue 16), read in small batches. Needs DATABASE_URL; see
 * test/cli/db-copy.test.ts for why it skips without it.
 */
const DATABASE_URL = process.env['DATABASE_URL'];
const title = DATABASE_URL
  ? 'copying PGlite to Postgres'
  : 'copying PGlite to Postgres (skipped: needs DATABASE_URL, a Postgres server)';

describe.skipIf(!DATABASE_URL)(title, () => {
  it('copies a table over many batches, a row referencing one in another batch', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coinop-copy-'));
    const target = await createTestDatabase();
    try {
      const source = await openPglite(dir);
      await migrate(source);
      const mint = '00000000-0000-7000-8000-000000000001';
      const player = '00000000-0000-7000-8000-000000000002';
      await source.query(
        `INSERT INTO accounts (id, kind, debits_posted, credits_posted, created_at)
         VALUES ($1, 'mint', 3000, 0, now()), ($2, 'player', 0, 3000, now())`,
        [mint, player],
      );
      // A pending transfer first, thousands after it, and its post last: pages apart.
      await source.query(
        `INSERT INTO transfers (id, kind, debit_account_id, credit_account_id, amount, reason,
                                created_at)
         SELECT ('00000000-0000-7000-9000-' || lpad(g::text, 12, '0'))::uuid,
                CASE WHEN g = 1 THEN 'pending' ELSE 'posted' END, $1, $2, g, 'mint',
                timestamptz '2026-01-01 00:00:00.123456+00' + g * interval '1 microsecond'
           FROM generate_series(1, 3000) g`,
        [mint, player],
      );
      await source.query(
        `INSERT INTO transfers (id, kind, debit_account_id, credit_account_id, amount, pending_id,
                                reason, created_at)
         VALUES ('00000000-0000-7000-9000-999999999999', 'post_pending', $1, $2, 0,
                 '00000000-0000-7000-9000-000000000001', 'mint', now())`,
        [mint, player],
      );
      const [size] = await source.query<{ pages: number }>(
        "SELECT (pg_relation_size('transfers') / 8192)::int AS pages",
      );
      expect(size?.pages).toBeGreaterThan(20);
      const before = await source.transaction((tx) => tableDigests(tx));
      await source.close();

      const report = await copyPgliteToPostgres(dir, target.url, { batchPages: 2 });
      expect(report.tables.find((t) => t.table === 'transfers')).toEqual({
        table: 'transfers',
        rows: 3001,
      });
      expect(report.tables.findIndex((t) => t.table === 'accounts')).toBeLessThan(
        report.tables.findIndex((t) => t.table === 'transfers'),
      );
      const copied = await openPostgres(target.url, 2);
      try {
        expect(await copied.transaction((tx) => tableDigests(tx))).toEqual(before);
      } finally {
        await copied.close();
      }
    } finally {
      await target.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the order of the copy', () => {
  const table = (name: string) => ({ name, columns: ['id'] });

  it('puts every referenced table first, and names a cycle', () => {
    const order = copyOrder(
      [table('scores'), table('plays'), table('accounts'), table('transfers')],
      new Map([
        ['scores', new Set(['plays'])],
        ['plays', new Set(['accounts', 'transfers'])],
        ['transfers', new Set(['accounts'])],
      ]),
    );
    expect(order.map((t) => t.name)).toEqual(['accounts', 'transfers', 'plays', 'scores']);
    expect(() =>
      copyOrder(
        [table('a'), table('b'), table('c')],
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['a'])],
        ]),
      ),
    ).toThrow(new TypeError('foreign keys form a cycle among a, b'));
  });
});
