import { describe, expect, it } from 'vitest';
import { createTestDatabase, openEmptyDb, storeVariants } from '@coinop/testkit/db';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/postgres.js';
import {
  assertMigrated,
  checksumOf,
  knownMigrations,
  migrate,
  migrationState,
  MigrationError,
} from '../../src/store/migrate.js';

/** Migrations by postgrator (issue 16): checksums, the old runner's record, refusals. */

interface Recorded {
  version: string;
  name: string;
  md5: string;
}

async function recorded(db: Db): Promise<Recorded[]> {
  return db.query<Recorded>(
    'SELECT version::text AS version, name, md5 FROM schemaversion WHERE version > 0 ORDER BY schemaversion.version',
  );
}

describe.each(storeVariants())('migrations on %s', (variant) => {
  it('applies every migration once, each recorded with its file checksum', async () => {
    const db = await openEmptyDb(variant);
    try {
      const known = await knownMigrations();
      expect(known.map((m) => m.file)).toContain('014_chain_play_locks.sql');
      expect(await migrate(db)).toEqual(known.map((m) => m.file));
      expect(await recorded(db)).toEqual(
        known.map((m) => ({ version: String(m.version), name: m.file, md5: checksumOf(m.sql) })),
      );
      expect(await migrate(db)).toEqual([]);
      const state = await migrationState(db, known);
      expect(state.pending).toEqual([]);
      expect(state.applied).toHaveLength(known.length);
      await assertMigrated(db);
      // The schema is there: a table of the last migration answers.
      expect(await db.query('SELECT count(*)::int AS n FROM chain_play_locks')).toEqual([{ n: 0 }]);
    } finally {
      await db.close();
    }
  });

  it('adopts a database the old runner migrated (schema_migrations), applying nothing again', async () => {
    const db = await openEmptyDb(variant);
    try {
      const known = await knownMigrations();
      // What coinop before postgrator left: the schema, and the names of the files it ran.
      await db.query(
        `CREATE TABLE schema_migrations (
           name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      for (const m of known) {
        await db.transaction(async (tx) => {
          await tx.exec(m.sql);
          await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [m.file]);
        });
      }
      const before = await migrationState(db, known);
      expect(before).toMatchObject({ legacy: true, pending: [], changed: [], unknown: [] });
      await expect(assertMigrated(db)).rejects.toThrow(
        'the database has its migrations recorded by an older coinop, to adopt: run coinop ' +
          'migrate apply first (this process does not migrate: --no-migrate)',
      );

      expect(await migrate(db)).toEqual([]);
      expect(await recorded(db)).toEqual(
        known.map((m) => ({ version: String(m.version), name: m.file, md5: m.checksum })),
      );
      expect(await db.query("SELECT to_regclass('schema_migrations') AS t")).toEqual([{ t: null }]);
      const after = await migrationState(db, known);
      expect(after).toMatchObject({ legacy: false, pending: [], changed: [], unknown: [] });
      expect(after.applied).toHaveLength(known.length);
    } finally {
      await db.close();
    }
  });

  it('refuses a migration changed after it was applied, naming the file', async () => {
    const db = await openEmptyDb(variant);
    try {
      await migrate(db);
      const [m] = (await knownMigrations()).filter((k) => k.version === 3);
      await db.query("UPDATE schemaversion SET md5 = 'f00d' WHERE version = 3");
      const refusal =
        `migration 003_signing_key_next.sql was changed after it was applied to this database ` +
        `(checksum f00d recorded, ${m?.checksum} now): restore the file as it was, and put a ` +
        'change to the schema in a new migration';
      await expect(migrate(db)).rejects.toThrow(new MigrationError(refusal));
      await expect(assertMigrated(db)).rejects.toThrow(refusal);
    } finally {
      await db.close();
    }
  });

  it('refuses a schema newer than the code, naming the unknown migrations', async () => {
    const db = await openEmptyDb(variant);
    try {
      await migrate(db);
      await db.query(
        "INSERT INTO schemaversion (version, name, md5) VALUES (998, '998_next.sql', 'a'), " +
          "(999, '999_after.sql', 'b')",
      );
      const refusal =
        'the database has migrations this coinop does not know: 998_next.sql, 999_after.sql ' +
        '(a newer coinop applied them): upgrade coinop to run on this database';
      await expect(migrate(db)).rejects.toThrow(refusal);
      await expect(assertMigrated(db)).rejects.toThrow(refusal);
    } finally {
      await db.close();
    }
  });

  it('without migrating, refuses a database with migrations pending, naming them', async () => {
    const db = await openEmptyDb(variant);
    try {
      await migrate(db);
      // The last two this code knows, whichever they are.
      const [before, last] = (await knownMigrations()).slice(-2);
      await db.query('DELETE FROM schemaversion WHERE version IN ($1, $2)', [
        before!.version,
        last!.version,
      ]);
      await expect(assertMigrated(db)).rejects.toThrow(
        `the database lacks 2 migrations, ${before!.file} to ${last!.file}: run ` +
          'coinop migrate apply first (this process does not migrate: --no-migrate)',
      );
      const empty = await openEmptyDb(variant);
      try {
        await expect(assertMigrated(empty)).rejects.toThrow(
          /lacks \d+ migrations, 001_initial\.sql to \d+_\w+\.sql: run /,
        );
      } finally {
        await empty.close();
      }
    } finally {
      await db.close();
    }
  });
});

describe.runIf(storeVariants().includes('postgres'))('migrations by several processes', () => {
  it('apply once when processes start together on one Postgres', async () => {
    const database = await createTestDatabase();
    const pools = await Promise.all([1, 2, 3].map(() => openPostgres(database.url, 2)));
    try {
      const known = await knownMigrations();
      const applied = await Promise.all(pools.map((db) => migrate(db)));
      expect(applied.flat().sort()).toEqual(known.map((m) => m.file));
      expect(await recorded(pools[0]!)).toHaveLength(known.length);
    } finally {
      await Promise.all(pools.map((db) => db.close()));
      await database.drop();
    }
  });
});
