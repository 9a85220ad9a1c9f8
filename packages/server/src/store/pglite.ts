import { PGlite, types } from '@electric-sql/pglite';
import type { Db, Queryable } from './db.js';

const parsers = {
  [types.INT8]: (value: string) => BigInt(value),
};

/**
 * The embedded database: Postgres compiled to WebAssembly, file-backed in `dataDir` (or in memory
 * when `dataDir` is undefined, for tests). One connection, so transactions run one at a time.
 */
export async function openPglite(dataDir: string | undefined): Promise<Db> {
  const pg = dataDir === undefined ? new PGlite({ parsers }) : new PGlite(dataDir, { parsers });
  await pg.waitReady;
  const run = async <Row>(q: Pick<PGlite, 'query'>, sql: string, params?: unknown[]) =>
    (await q.query<Row>(sql, params)).rows;

  return {
    dialect: 'pglite',
    query: (sql, params) => run(pg, sql, params),
    transaction: (work) =>
      pg.transaction(async (tx) => {
        const wrapped: Queryable = { query: (sql, params) => run(tx, sql, params) };
        return work(wrapped);
      }),
    close: () => pg.close(),
  };
}
