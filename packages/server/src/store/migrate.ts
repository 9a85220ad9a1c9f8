import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import Postgrator from 'postgrator';
import type { Db, Queryable, Transaction } from './db.js';
import { AdvisoryLocks } from './advisory-locks.js';

/**
 * Where this coinop's migration files are: the one place that knows. A migration is
 * `NNN_what_it_does.sql`, applied whole (one script of any number of statements).
 */
export function migrationsDir(): URL {
  return new URL('../../src/store/migrations/', import.meta.url);
}

/**
 * The table recording applied migrations: version, name, md5 checksum, run_at. Postgrator's own
 * default name, so its CLI pointed at the database reads the same record.
 */
export const MIGRATIONS_TABLE = 'schemaversion';
/** What coinop before postgrator recorded (names only); adopted, then dropped, on first apply. */
const LEGACY_TABLE = 'schema_migrations';
const FILE_NAME = /^(\d+)_[a-z0-9_]+\.sql$/;

/** One migration file this code knows. */
export interface Migration {
  readonly version: number;
  /** Its file name, `014_chain_play_locks.sql`: what messages and the record name it by. */
  readonly file: string;
  /** md5 of its text with line ends made LF, so a checkout's line-end setting changes nothing. */
  readonly checksum: string;
  readonly sql: string;
}

/** A migration the database records: `checksum` null when none was recorded (old runner's). */
export interface AppliedMigration {
  readonly version: number;
  readonly file: string;
  readonly checksum: string | null;
}

/** How the database's record compares with the migrations this code knows. */
export interface MigrationState {
  /** Known and applied as they are now. */
  readonly applied: readonly Migration[];
  /** Known, not applied yet. */
  readonly pending: readonly Migration[];
  /** Applied under a known version, but the file was changed since (or another file has it). */
  readonly changed: readonly {
    readonly migration: Migration;
    readonly recorded: AppliedMigration;
  }[];
  /** Applied but unknown to this code: a newer coinop applied them. */
  readonly unknown: readonly AppliedMigration[];
  /** Recorded only by the old runner (`schema_migrations`): the next apply adopts the record. */
  readonly legacy: boolean;
}

/** Why the database cannot be migrated or served as it is; the message says what to do. */
export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

/** The migrations this code knows, in version order. */
export async function knownMigrations(): Promise<Migration[]> {
  const dir = migrationsDir();
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const file of files) {
    const version = FILE_NAME.exec(file)?.[1];
    if (version === undefined) {
      throw new TypeError(`migration ${file}: name it NNN_what_it_does.sql (digits, a-z, 0-9, _)`);
    }
    const sql = await readFile(new URL(file, dir), 'utf8');
    const migration = { version: Number(version), file, checksum: checksumOf(sql), sql };
    const clash = migrations.find((m) => m.version === migration.version);
    if (clash) throw new TypeError(`migrations ${clash.file} and ${file} share a version`);
    migrations.push(migration);
  }
  return migrations;
}

/** The checksum postgrator records: md5 hex of the text, line ends made LF first. */
export function checksumOf(sql: string): string {
  return createHash('md5')
    .update(sql.replace(/\r\n|\r/g, '\n'), 'utf8')
    .digest('hex');
}

/** Compares the database's record with `known`. Reads only; an empty database has all pending. */
export async function migrationState(
  db: Queryable,
  known: readonly Migration[],
): Promise<MigrationState> {
  const { recorded, legacy } = await recordedMigrations(db);
  const byVersion = new Map(recorded.map((r) => [r.version, r]));
  const knownVersions = new Set(known.map((m) => m.version));
  const applied: Migration[] = [];
  const pending: Migration[] = [];
  const changed: { migration: Migration; recorded: AppliedMigration }[] = [];
  for (const migration of known) {
    const record = byVersion.get(migration.version);
    if (record === undefined) pending.push(migration);
    else if (
      record.file !== migration.file ||
      (record.checksum !== null && record.checksum !== migration.checksum)
    ) {
      changed.push({ migration, recorded: record });
    } else applied.push(migration);
  }
  const unknown = recorded.filter((r) => !knownVersions.has(r.version));
  return { applied, pending, changed, unknown, legacy };
}

/**
 * Throws a MigrationError when this code must not run on the database: a migration changed after
 * it was applied, migrations a newer coinop applied, or (with `pendingToo`, for a process that
 * does not migrate) migrations not applied yet.
 */
export function assertRunnable(state: MigrationState, { pendingToo = false } = {}): void {
  const [change] = state.changed;
  if (change) {
    const { migration, recorded } = change;
    const what =
      recorded.file === migration.file
        ? `was changed after it was applied to this database (checksum ${recorded.checksum} ` +
          `recorded, ${migration.checksum} now)`
        : `has the version of ${recorded.file}, which this database applied`;
    throw new MigrationError(
      `migration ${migration.file} ${what}: restore the file as it was, and put a change to ` +
        'the schema in a new migration',
    );
  }
  if (state.unknown.length > 0) {
    throw new MigrationError(
      `the database has migrations this coinop does not know: ` +
        `${state.unknown.map((m) => m.file).join(', ')} (a newer coinop applied them): upgrade ` +
        'coinop to run on this database',
    );
  }
  const newestApplied = Math.max(0, ...state.applied.map((m) => m.version));
  const late = state.pending.find((m) => m.version < newestApplied);
  if (late) {
    throw new MigrationError(
      `migration ${late.file} is not applied, but a later one is: give it a version after ` +
        'the last applied migration',
    );
  }
  if (pendingToo && (state.pending.length > 0 || state.legacy)) {
    const what =
      state.pending.length > 0
        ? `lacks ${migrationRange(state.pending.map((m) => m.file))}`
        : 'has its migrations recorded by an older coinop, to adopt';
    throw new MigrationError(
      `the database ${what}: run coinop migrate apply first (this process does not migrate: ` +
        '--no-migrate)',
    );
  }
}

/**
 * Applies the migrations this database has not seen, in version order, each whole in its own
 * transaction under an advisory lock, so several processes starting at once migrate once.
 * Refuses (MigrationError) a changed migration or a schema newer than this code. Returns the
 * files applied.
 */
export async function migrate(db: Db): Promise<string[]> {
  const known = await knownMigrations();
  const applied: string[] = [];
  for (;;) {
    const next = await db.transaction(async (tx) => {
      // Held to the transaction's end; the record is read again under it, so a migration another
      // process applied meanwhile is seen as applied.
      await tx.query('SELECT pg_advisory_xact_lock($1)', [AdvisoryLocks.migrations]);
      const postgrator = postgratorFor(tx, known);
      await adoptLegacyRecord(tx, postgrator, known);
      const state = await migrationState(tx, known);
      assertRunnable(state);
      const migration = state.pending[0];
      if (migration === undefined) return null;
      await postgrator.migrate(String(migration.version));
      return migration.file;
    });
    if (next === null) return applied;
    applied.push(next);
  }
}

/**
 * For a process that does not migrate (`serve --no-migrate`): throws a MigrationError unless the
 * database has exactly the migrations this code knows, as they are.
 */
export async function assertMigrated(db: Queryable): Promise<void> {
  assertRunnable(await migrationState(db, await knownMigrations()), { pendingToo: true });
}

/** Postgrator over one transaction, given the known migrations rather than reading a directory. */
function postgratorFor(tx: Transaction, known: readonly Migration[]): Postgrator {
  const postgrator = new Postgrator({
    driver: 'pg',
    schemaTable: MIGRATIONS_TABLE,
    validateChecksums: true,
    execQuery: async (sql) => ({ rows: await tx.query(sql) }),
    // A file runs whole: PGlite's exec and node-postgres' simple protocol take several statements.
    execSqlScript: (sql) => tx.exec(sql),
  });
  // Our files are named NNN_name.sql, not postgrator's NNN.do.name.sql; its other steps (record,
  // checksum check, running) take migrations from here.
  postgrator.getMigrations = () => {
    const migrations = known.map((m) => ({
      version: m.version,
      action: 'do' as const,
      filename: m.file,
      name: m.file,
      md5: m.checksum,
      getSql: () => m.sql,
    }));
    Object.assign(postgrator, { migrations });
    return Promise.resolve(migrations);
  };
  return postgrator;
}

/**
 * Moves the old runner's record (`schema_migrations`: names only) into postgrator's table, with
 * each known file's checksum as it is now, then drops the old table. Run under the lock.
 */
async function adoptLegacyRecord(
  tx: Transaction,
  postgrator: Postgrator,
  known: readonly Migration[],
): Promise<void> {
  if (!(await tableExists(tx, LEGACY_TABLE))) return;
  // Migrating to version 0 only creates postgrator's table: nothing is at or below 0.
  await postgrator.migrate('0');
  const rows = await tx.query<{ name: string; applied_at: Date }>(
    `SELECT name, applied_at FROM ${LEGACY_TABLE} ORDER BY name`,
  );
  for (const row of rows) {
    const version = Number(FILE_NAME.exec(row.name)?.[1]);
    if (!Number.isInteger(version)) continue;
    const file = known.find((m) => m.version === version && m.file === row.name);
    await tx.query(
      `INSERT INTO ${MIGRATIONS_TABLE} (version, name, md5, run_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (version) DO NOTHING`,
      [version, row.name, file?.checksum ?? null, row.applied_at],
    );
  }
  await tx.query(`DROP TABLE ${LEGACY_TABLE}`);
}

async function recordedMigrations(
  db: Queryable,
): Promise<{ recorded: AppliedMigration[]; legacy: boolean }> {
  if (await tableExists(db, MIGRATIONS_TABLE)) {
    const rows = await db.query<{
      version: bigint | number;
      name: string | null;
      md5: string | null;
    }>(`SELECT version, name, md5 FROM ${MIGRATIONS_TABLE} WHERE version > 0 ORDER BY version`);
    const recorded = rows.map((r) => ({
      version: Number(r.version),
      file: r.name ?? String(r.version),
      checksum: r.md5,
    }));
    return { recorded, legacy: false };
  }
  if (await tableExists(db, LEGACY_TABLE)) {
    const rows = await db.query<{ name: string }>(`SELECT name FROM ${LEGACY_TABLE}`);
    const recorded = rows.map((r) => ({
      version: Number(FILE_NAME.exec(r.name)?.[1] ?? NaN),
      file: r.name,
      checksum: null,
    }));
    // The old record has no checksums: adoption records the files' checksums as they are now.
    return { recorded: recorded.filter((r) => Number.isInteger(r.version)), legacy: true };
  }
  return { recorded: [], legacy: false };
}

async function tableExists(db: Queryable, table: string): Promise<boolean> {
  const [row] = await db.query<{ found: boolean }>('SELECT to_regclass($1) IS NOT NULL AS found', [
    table,
  ]);
  return row?.found === true;
}

/** Pending migrations for a message: one by name, more by count with the first and the last. */
function migrationRange(files: string[]): string {
  if (files.length === 1) return `migration ${files[0]}`;
  return `${files.length} migrations, ${files[0]} to ${files[files.length - 1]}`;
}
