import { PGlite, types } from '@electric-sql/pglite';
import type { Db, Queryable } from './db.js';

const parsers = {
  [types.INT8]: (value: string) => BigInt(value),
};

/**
 * The embedded database: Postgres compiled to WebAssembly, file-backed in `dataDir` (or in memory
 * when `dataDir` is undefined, for tests). `loadDataDir` starts it from a dumped data directory.
 * One connection, so transactions run one at a time.
 */
export async function openPglite(
  dataDir: string | undefined,
  options: { loadDataDir?: Blob } = {},
): Promise<Db> {
  const pg = new PGlite({ parsers, ...(dataDir === undefined ? {} : { dataDir }), ...options });
  await pg.waitReady;
  return pgliteDb(pg);
}

/** Our Db surface over an open PGlite instance. */
export function pgliteDb(pg: PGlite): Db {
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
