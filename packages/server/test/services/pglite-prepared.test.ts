import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/store/db.js';
import { pgConstraint, pgErrorCode } from '../../src/store/postgres-errors.js';
import { openPglite } from '../../src/store/pglite.js';

// The PGlite adapter runs named statements through its own prepared-statement path; these
// check that it answers exactly as PGlite's own query does.
describe('named statements on PGlite', () => {
  let db: Db;

  beforeEach(async () => {
    db = await openPglite(undefined);
    await db.query(
      'CREATE TABLE t (id uuid PRIMARY KEY, n bigint NOT NULL, tags text[], at timestamptz)',
    );
  });
  afterEach(async () => {
    await db.close();
  });

  const sql = `SELECT $1::bigint AS big, $2::uuid[] AS ids, $3::timestamptz AS at,
                      $4::text AS missing, json_build_object('k', $5::int) AS doc,
                      $6::boolean AS flag, $7::float8 AS score`;
  const params = [
    '9007199254740993',
    ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'],
    new Date('2026-01-02T03:04:05.678Z'),
    null,
    7,
    true,
    12.5,
  ];

  it('answers a named statement as the unnamed one, every time', async () => {
    const plain = await db.query(sql, params);
    expect(plain[0]?.['big']).toBe(9007199254740993n);
    for (let i = 0; i < 7; i++) {
      expect(await db.query(sql, params, 'prepared_types')).toEqual(plain);
    }
    const inTx = await db.transaction((tx) => tx.query(sql, params, 'prepared_types'));
    expect(inTx).toEqual(plain);
  });

  it('reports constraint errors with their code and keeps working after them', async () => {
    const insert = 'INSERT INTO t (id, n, tags, at) VALUES ($1, $2, $3, $4) RETURNING n';
    const id = '00000000-0000-4000-8000-00000000000a';
    expect(await db.query(insert, [id, 5n, ['a', 'b'], new Date()], 'insert_t')).toEqual([
      { n: 5n },
    ]);
    const error = await db.query(insert, [id, 6n, null, null], 'insert_t').catch((e) => e);
    expect(pgErrorCode(error)).toBe('23505');
    expect(pgConstraint(error)).toBe('t_pkey');
    // A failed named statement inside a transaction rolls it back.
    await expect(
      db.transaction(async (tx) => {
        await tx.query('UPDATE t SET n = 99', [], 'update_t');
        await tx.query(insert, [id, 7n, null, null], 'insert_t');
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await db.query('SELECT n, tags FROM t', [], 'read_t')).toEqual([
      { n: 5n, tags: ['a', 'b'] },
    ]);
  });
});
