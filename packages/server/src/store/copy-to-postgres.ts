import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Queryable } from './db.js';
import {
  MIGRATIONS_TABLE,
  MigrationError,
  assertRunnable,
  knownMigrations,
  migrate,
  migrationState,
} from './migrate.js';
import { pgliteDb } from './pglite.js';
import { openPostgres } from './postgres.js';

/**
 * Moves an embedded arcade (PGlite) into a Postgres database: every table's rows, in one
 * transaction on the target, table by table in an order its foreign keys accept, each table in
 * one `COPY … FROM STDIN` fed in batches read from the source with `COPY … TO`. Rows travel in
 * Postgres' own text format, so every value (bigint, bytea, microsecond timestamps) arrives as it
 * was, without passing through JavaScript types.
 */

/**
 * Pages (8 kB each) of a source table read per batch: 8 MB at a time whatever the table's size,
 * few enough round trips that a big table copies at COPY's speed.
 */
const COPY_BATCH_PAGES = 1024;

/** Why the copy cannot start or was rolled back; the message says what to do. */
export class CopyRefusedError extends Error {
  override readonly name = 'CopyRefusedError';
}

/** What was copied: each table's rows, in the order copied. */
export interface CopyReport {
  readonly tables: readonly { readonly table: string; readonly rows: number }[];
  readonly sequences: number;
}

/**
 * Copies the PGlite database in `pgliteDir` into the Postgres of `targetUrl`. The target must be
 * empty or hold only coinop's schema with no rows (a fresh database, or one a failed copy left):
 * it is migrated first, then refused if any table has a row. The source must not be in use: PGlite
 * marks an open database with `postmaster.pid`, and a copy of a running arcade would miss writes.
 */
export async function copyPgliteToPostgres(
  pgliteDir: string,
  targetUrl: string,
  { batchPages = COPY_BATCH_PAGES }: { readonly batchPages?: number } = {},
): Promise<CopyReport> {
  if (!existsSync(join(pgliteDir, 'PG_VERSION'))) {
    throw new CopyRefusedError(`no embedded database in ${pgliteDir}`);
  }
  if (existsSync(join(pgliteDir, 'postmaster.pid'))) {
    throw new CopyRefusedError(
      `the embedded database in ${pgliteDir} is in use (postmaster.pid): stop coinop serve ` +
        'first. If none runs on it (one was killed), start and stop coinop serve once on it to ' +
        'close it cleanly',
    );
  }
  const source = new PGlite(pgliteDir);
  try {
    await source.waitReady;
    const sourceDb = pgliteDb(source);
    const known = await knownMigrations();
    try {
      assertRunnable(await migrationState(sourceDb, known), { pendingToo: true });
    } catch (error) {
      if (!(error instanceof MigrationError)) throw error;
      throw new CopyRefusedError(
        `the embedded database is not at this coinop's schema: ${error.message} (with ` +
          '--data-dir naming it)',
      );
    }
    await prepareTarget(targetUrl);
    await useIsoFormats(sourceDb);
    const tables = copyOrder(await tablesOf(sourceDb), await foreignKeysOf(sourceDb));
    const sequences = await sequencesOf(sourceDb);
    return await copyInto(targetUrl, source, sourceDb, tables, sequences, batchPages);
  } finally {
    await source.close();
  }
}

/** Migrates the target to this code's schema, then refuses it if any coinop table has a row. */
async function prepareTarget(url: string): Promise<void> {
  const target = await openPostgres(url, 2);
  try {
    await migrate(target);
    for (const { name } of await tablesOf(target)) {
      const [row] = await target.query<{ any: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM ${quote(name)}) AS any`,
      );
      if (row?.any) {
        throw new CopyRefusedError(
          `the target database is not empty (table ${name} has rows): copy into a new database`,
        );
      }
    }
  } finally {
    await target.close();
  }
}

async function copyInto(
  url: string,
  source: PGlite,
  sourceDb: Queryable,
  tables: readonly Table[],
  sequences: readonly Sequence[],
  batchPages: number,
): Promise<CopyReport> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await useIsoFormats({ query: async (sql) => (await client.query(sql)).rows as never[] });
    const report: { table: string; rows: number }[] = [];
    for (const table of tables) {
      const columns = table.columns.map(quote).join(', ');
      await pipeline(
        Readable.from(batchesOf(source, sourceDb, table, columns, batchPages)),
        client.query(copyFrom(`COPY ${quote(table.name)} (${columns}) FROM STDIN`)),
      );
      const sourceRows = await countRows(sourceDb, table.name);
      const [copied] = (await client.query(`SELECT count(*)::text AS n FROM ${quote(table.name)}`))
        .rows as { n: string }[];
      if (Number(copied?.n) !== sourceRows) {
        throw new CopyRefusedError(
          `table ${table.name}: ${sourceRows} rows in the source, ${copied?.n} copied; nothing ` +
            'was committed',
        );
      }
      report.push({ table: table.name, rows: sourceRows });
    }
    for (const sequence of sequences) {
      await client.query('SELECT setval($1::regclass, $2::bigint, $3)', [
        quote(sequence.name),
        sequence.lastValue,
        sequence.isCalled,
      ]);
    }
    await client.query('COMMIT');
    return { tables: report, sequences: sequences.length };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** A table's rows in COPY text format, read `batchPages` pages at a time. */
async function* batchesOf(
  source: PGlite,
  sourceDb: Queryable,
  table: Table,
  columns: string,
  batchPages: number,
): AsyncGenerator<Buffer> {
  const [size] = await sourceDb.query<{ pages: number }>(
    `SELECT (pg_relation_size($1::regclass) / current_setting('block_size')::int)::int AS pages`,
    [quote(table.name)],
  );
  const pages = size?.pages ?? 0;
  for (let first = 0; first === 0 || first < pages; first += batchPages) {
    const last = first + batchPages;
    // The last batch has no upper bound, so no row is missed whatever the size said.
    const range =
      last >= pages
        ? `ctid >= '(${first},0)'::tid`
        : `ctid >= '(${first},0)'::tid AND ctid < '(${last},0)'::tid`;
    const result = await source.query(
      `COPY (SELECT ${columns} FROM ${quote(table.name)} WHERE ${range}) TO '/dev/blob'`,
    );
    if (result.blob && result.blob.size > 0) yield Buffer.from(await result.blob.arrayBuffer());
  }
}

/** Dates, intervals and bytea written and read in one format on both sides. */
async function useIsoFormats(db: Queryable): Promise<void> {
  await db.query("SET DateStyle = 'ISO, YMD'");
  await db.query("SET IntervalStyle = 'iso_8601'");
  await db.query("SET bytea_output = 'hex'");
  await db.query("SET TimeZone = 'UTC'");
}

interface Table {
  readonly name: string;
  /** Stored columns in table order; generated ones are computed again by the target. */
  readonly columns: readonly string[];
}

interface Sequence {
  readonly name: string;
  readonly lastValue: string;
  readonly isCalled: boolean;
}

/** coinop's tables in the schema it uses, but the migrations' record (the target has its own). */
async function tablesOf(db: Queryable): Promise<Table[]> {
  const rows = await db.query<{ name: string; columns: string[] }>(
    `SELECT c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                           AND a.attgenerated = ''
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p')
        AND c.relname <> $1
      GROUP BY c.relname
      ORDER BY c.relname`,
    [MIGRATIONS_TABLE],
  );
  return rows.map((r) => ({ name: r.name, columns: r.columns }));
}

/** Each table's foreign keys, as the tables they reference (itself excluded). */
async function foreignKeysOf(db: Queryable): Promise<Map<string, Set<string>>> {
  const rows = await db.query<{ child: string; parent: string }>(
    `SELECT DISTINCT child.relname AS child, parent.relname AS parent
       FROM pg_constraint c
       JOIN pg_class child ON child.oid = c.conrelid
       JOIN pg_class parent ON parent.oid = c.confrelid
      WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
        AND c.conrelid <> c.confrelid`,
  );
  const references = new Map<string, Set<string>>();
  for (const { child, parent } of rows) {
    const parents = references.get(child) ?? new Set<string>();
    parents.add(parent);
    references.set(child, parents);
  }
  return references;
}

/**
 * The tables with every referenced table before the tables referencing it (a table referencing
 * itself is copied in one COPY statement, whose foreign keys are checked at its end).
 */
export function copyOrder(
  tables: readonly Table[],
  references: ReadonlyMap<string, ReadonlySet<string>>,
): Table[] {
  const ordered: Table[] = [];
  const done = new Set<string>();
  let remaining = [...tables];
  while (remaining.length > 0) {
    const ready = remaining.filter((t) =>
      [...(references.get(t.name) ?? [])].every((parent) => done.has(parent)),
    );
    if (ready.length === 0) {
      throw new TypeError(
        `foreign keys form a cycle among ${remaining.map((t) => t.name).join(', ')}`,
      );
    }
    for (const table of ready) {
      ordered.push(table);
      done.add(table.name);
    }
    remaining = remaining.filter((t) => !done.has(t.name));
  }
  return ordered;
}

async function sequencesOf(db: Queryable): Promise<Sequence[]> {
  const names = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c
      WHERE c.relkind = 'S' AND c.relnamespace = current_schema()::regnamespace
      ORDER BY c.relname`,
  );
  const sequences: Sequence[] = [];
  for (const { name } of names) {
    const [state] = await db.query<{ last_value: string; is_called: boolean }>(
      `SELECT last_value::text AS last_value, is_called FROM ${quote(name)}`,
    );
    if (state) {
      sequences.push({ name, lastValue: state.last_value, isCalled: state.is_called });
    }
  }
  return sequences;
}

async function countRows(db: Queryable, table: string): Promise<number> {
  const [row] = await db.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${quote(table)}`);
  return Number(row?.n ?? 0);
}

/** An identifier quoted, so any name is taken literally. */
function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
