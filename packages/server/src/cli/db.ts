import { join } from 'node:path';
import type { Command } from 'commander';
import { CliError, ExitCodes } from './cli-error.js';
import { addConfigFlags, loadCliConfig } from './config-flags.js';

/**
 * `coinop db copy --to <postgres url>`: moves the embedded arcade of `--data-dir` to Postgres
 * (docs/operating/postgres.md). The server must be stopped; the source is only read.
 */
export function addDbCommands(program: Command): void {
  const group = program.command('db').description('move the arcade between databases');
  const copy = group
    .command('copy')
    .description(
      'copy the embedded database of --data-dir into an empty Postgres database, in one ' +
        'transaction (stop coinop serve first)',
    )
    .requiredOption('--to <url>', 'the Postgres database to copy into (empty or just migrated)');
  const configInput = addConfigFlags(copy, ['dataDir']);
  copy.action(async (values: Record<string, string | undefined>) => {
    const to = postgresUrl(values['to'] ?? '');
    const config = await loadCliConfig(configInput(values));
    const { PGLITE_DIR } = await import('../main.js');
    const { copyPgliteToPostgres, CopyRefusedError } = await import('../store/copy-to-postgres.js');
    let report;
    try {
      report = await copyPgliteToPostgres(join(config.dataDir, PGLITE_DIR), to);
    } catch (error) {
      if (error instanceof CopyRefusedError) throw new CliError(error.message, ExitCodes.failure);
      throw error;
    }
    for (const { table, rows } of report.tables) process.stdout.write(`${table}: ${rows} rows\n`);
    process.stdout.write(
      `copied ${report.tables.length} tables and ${report.sequences} sequences in one ` +
        'transaction. Start coinop serve --database-url with the same secrets key and admin ' +
        `token: keep --data-dir ${config.dataDir} (its secrets-key and admin-token files) or ` +
        'give --secrets-key-file and --admin-token\n',
    );
  });
}

function postgresUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError('--to must be a postgres:// URL', ExitCodes.usage);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new CliError(`--to must be a postgres:// URL, got ${url.protocol}`, ExitCodes.usage);
  }
  return value;
}
