import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../config.js';
import type { Db } from '../store/db.js';
import type { MigrationState } from '../store/migrate.js';
import { CliError } from './cli-error.js';
import { addConfigFlags, loadCliConfig } from './config-flags.js';

/**
 * `coinop migrate status|apply`: the schema as a deploy step, before the `serve --no-migrate`
 * processes start. The database is the one `serve` would open with the same flags.
 */

/** Exit codes of `migrate`, besides 1 (cannot reach the database) and 2 (usage). */
export const MigrateExitCodes = {
  /** Migrations are pending: `coinop migrate apply` applies them. */
  pending: 3,
  /** The schema is not this code's (changed or unknown migrations): apply cannot fix it. */
  mismatch: 4,
} as const;

export function addMigrateCommand(program: Command): void {
  const group = program
    .command('migrate')
    .description(
      'the database schema: list the migrations or apply the pending ones (serve applies them ' +
        'at start unless --no-migrate)',
    );
  const status = group
    .command('status')
    .description(
      'list applied, pending, changed and unknown migrations; exit 0 when current, 3 when some ' +
        'are pending, 4 when the schema is not this coinop’s',
    );
  const statusInput = addConfigFlags(status, ['databaseUrl', 'dataDir']);
  status.action(async (values: Record<string, string | undefined>) => {
    const config = await loadCliConfig(statusInput(values));
    // Asking must not create: an embedded database that does not exist yet has every
    // migration pending, and stays absent until `apply` or `serve` makes it.
    if (config.databaseUrl === null && !(await embeddedDatabaseExists(config))) {
      const { knownMigrations } = await import('../store/migrate.js');
      reportStatus({ ...NO_DATABASE, pending: await knownMigrations() });
      return;
    }
    await withDatabase(config, showStatus);
  });
  const apply = group
    .command('apply')
    .description('apply the pending migrations, each in its own transaction; exit 4 when refused');
  const applyInput = addConfigFlags(apply, ['databaseUrl', 'dataDir']);
  apply.action(async (values: Record<string, string | undefined>) => {
    await withDatabase(await loadCliConfig(applyInput(values)), applyPending);
  });
}

async function withDatabase(config: Config, work: (db: Db) => Promise<void>): Promise<void> {
  const { openDatabase } = await import('../main.js');
  const db = await openDatabase(config);
  try {
    await work(db);
  } finally {
    await db.close();
  }
}

const NO_DATABASE: MigrationState = {
  applied: [],
  pending: [],
  changed: [],
  unknown: [],
  legacy: false,
};

async function embeddedDatabaseExists(config: Config): Promise<boolean> {
  const { PGLITE_DIR } = await import('../main.js');
  return stat(join(config.dataDir, PGLITE_DIR)).then(
    () => true,
    () => false,
  );
}

async function showStatus(db: Db): Promise<void> {
  const { knownMigrations, migrationState } = await import('../store/migrate.js');
  reportStatus(await migrationState(db, await knownMigrations()));
}

function reportStatus(state: MigrationState): void {
  for (const line of statusLines(state)) process.stdout.write(`${line}\n`);
  if (state.changed.length > 0 || state.unknown.length > 0) {
    throw new CliError(
      'the schema is not this coinop’s: see changed and unknown above',
      MigrateExitCodes.mismatch,
    );
  }
  if (state.pending.length > 0 || state.legacy) {
    const what = state.pending.length > 0 ? `${state.pending.length} pending` : 'to adopt';
    throw new CliError(`migrations ${what}: run coinop migrate apply`, MigrateExitCodes.pending);
  }
}

/** One line per migration, in version order: its state, its file, what its checksum says. */
export function statusLines(state: MigrationState): string[] {
  const applied = state.legacy ? 'recorded without a checksum (adopted on apply)' : 'checksum ok';
  const lines: [number, string][] = [
    ...state.applied.map((m): [number, string] => [m.version, `applied  ${m.file}  ${applied}`]),
    ...state.changed.map(({ migration, recorded }): [number, string] => [
      migration.version,
      `changed  ${migration.file}  ` +
        (recorded.file === migration.file
          ? `checksum ${recorded.checksum} recorded, ${migration.checksum} in the file`
          : `its version was applied as ${recorded.file}`),
    ]),
    ...state.pending.map((m): [number, string] => [m.version, `pending  ${m.file}`]),
    ...state.unknown.map((m): [number, string] => [
      m.version,
      `unknown  ${m.file}  applied by a newer coinop`,
    ]),
  ];
  return lines.sort(([a], [b]) => a - b).map(([, line]) => line);
}

async function applyPending(db: Db): Promise<void> {
  const { migrate, MigrationError } = await import('../store/migrate.js');
  let applied: string[];
  try {
    applied = await migrate(db);
  } catch (error) {
    if (error instanceof MigrationError) {
      throw new CliError(error.message, MigrateExitCodes.mismatch);
    }
    throw error;
  }
  for (const file of applied) process.stdout.write(`applied  ${file}\n`);
  if (applied.length === 0) process.stdout.write('nothing to apply: the schema is current\n');
}
