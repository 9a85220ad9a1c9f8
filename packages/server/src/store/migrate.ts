import { readdir, readFile } from 'node:fs/promises';
import type { Db } from './db.js';
import { AdvisoryLocks } from './advisory-locks.js';

const MIGRATIONS_DIR = new URL('../../src/store/migrations/', import.meta.url);
// Serialises migrations when several coinop processes start at once.
const MIGRATION_LOCK_ID = AdvisoryLocks.migrations;

/**
 * Applies the versioned SQL files in `migrations/` that this database has not seen, in name
 * order, each in its own transaction. Returns the names applied.
 */
export async function migrate(db: Db): Promise<string[]> {
  const files = await knownMigrations();
  await db.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
  try {
    await db.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = new Set(
      (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
    );
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(new URL(file, MIGRATIONS_DIR), 'utf8');
      await db.transaction(async (tx) => {
        for (const statement of splitStatements(sql)) await tx.query(statement);
        await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      });
      applied.push(file);
    }
    return applied;
  } finally {
    await db.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
  }
}

/** The migrations this code knows, in order. */
export async function knownMigrations(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
}

/**
 * Whether the database has exactly the migrations this code knows: none missing (not migrated
 * yet) and none unknown (a newer coinop migrated it).
 */
export async function migrationState(
  db: Pick<Db, 'query'>,
  known: readonly string[],
): Promise<{ missing: string[]; unknown: string[] }> {
  const applied = new Set(
    (await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
  );
  const knownSet = new Set(known);
  return {
    missing: known.filter((name) => !applied.has(name)),
    unknown: [...applied].filter((name) => !knownSet.has(name)).sort(),
  };
}

/** Splits a migration on semicolons at line ends; our migrations keep one statement per block. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
