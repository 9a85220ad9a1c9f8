import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { knownMigrations } from '../../src/store/migrate.js';
import { openPglite } from '../../src/store/pglite.js';
import { cleanEnv, runCli, serve } from './run-cli.js';

/** `coinop migrate status|apply` and `serve --no-migrate` (issue 16), on an embedded database. */
describe('coinop migrate', () => {
  let dataDir: string;
  let files: string[];
  const ports = ['--api-port', '0', '--auth-port', '0', '--web-port', '0'];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-migrate-'));
    files = (await knownMigrations()).map((m) => m.file);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('lists pending migrations (exit 3) and serve --no-migrate refuses to start on them', async () => {
    const status = await runCli(['migrate', 'status', '--data-dir', dataDir]);
    expect(status.stdout.trim().split('\n')).toEqual(files.map((f) => `pending  ${f}`));
    expect(status.stderr).toBe(
      `coinop: migrations ${files.length} pending: run coinop migrate apply\n`,
    );
    expect(status.code).toBe(3);
    // Asking created nothing: the embedded database is made by apply or serve.
    await expect(stat(join(dataDir, 'pglite'))).rejects.toThrow(/ENOENT/);

    const refused = await runCli(['serve', '--no-migrate', '--data-dir', dataDir, ...ports]);
    // Review-ops 16: the count and the first and last, not every name on one line.
    expect(refused.stderr).toBe(
      `coinop: the database lacks ${files.length} migrations, ${files[0]} to ` +
        `${files[files.length - 1]}: run coinop migrate apply first (this process does not ` +
        'migrate: --no-migrate)\n',
    );
    expect(refused.code).toBe(1);
    // The environment variable says the same as the flag.
    const byEnv = await runCli(
      ['serve', '--data-dir', dataDir, ...ports],
      cleanEnv({ COINOP_NO_MIGRATE: 'true' }),
    );
    expect(byEnv.stderr).toMatch(/^coinop: the database lacks \d+ migrations, 001_initial.sql to /);
    expect(byEnv.code).toBe(1);
  });

  it('applies them once; then status exits 0 and serve --no-migrate starts', async () => {
    const apply = await runCli(['migrate', 'apply'], cleanEnv({ COINOP_DATA_DIR: dataDir }));
    expect(apply.stdout.trim().split('\n')).toEqual(files.map((f) => `applied  ${f}`));
    expect(apply.code).toBe(0);
    const again = await runCli(['migrate', 'apply', '--data-dir', dataDir]);
    expect(again.stdout).toBe('nothing to apply: the schema is current\n');
    expect(again.code).toBe(0);

    const status = await runCli(['migrate', 'status', '--data-dir', dataDir]);
    expect(status.stdout.trim().split('\n')).toEqual(
      files.map((f) => `applied  ${f}  checksum ok`),
    );
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);

    const server = await serve(['--no-migrate', '--data-dir', dataDir, ...ports]);
    const ready = await fetch(`${server.url}/readyz`);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: 'ok', migrations: 'current' },
    });
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('refuses a schema newer than the code: status exits 4, serve and apply exit naming the files', async () => {
    const db = await openPglite(join(dataDir, 'pglite'));
    await db.query(
      "INSERT INTO schemaversion (version, name, md5) VALUES (999, '999_from_the_future.sql', 'a')",
    );
    await db.close();

    const status = await runCli(['migrate', 'status', '--data-dir', dataDir]);
    expect(status.stdout.trim().split('\n').at(-1)).toBe(
      'unknown  999_from_the_future.sql  applied by a newer coinop',
    );
    expect(status.stderr).toBe(
      'coinop: the schema is not this coinop’s: see changed and unknown above\n',
    );
    expect(status.code).toBe(4);

    const refusal =
      'coinop: the database has migrations this coinop does not know: 999_from_the_future.sql ' +
      '(a newer coinop applied them): upgrade coinop to run on this database\n';
    const served = await runCli(['serve', '--data-dir', dataDir, ...ports]);
    expect(served.stderr).toBe(refusal);
    expect(served.code).toBe(1);
    const apply = await runCli(['migrate', 'apply', '--data-dir', dataDir]);
    expect(apply.stderr).toBe(refusal);
    expect(apply.code).toBe(4);
  });

  it('refuses to start on a migration changed after it was applied, naming the file', async () => {
    const db = await openPglite(join(dataDir, 'pglite'));
    await db.query('DELETE FROM schemaversion WHERE version = 999');
    await db.query("UPDATE schemaversion SET md5 = 'f00d' WHERE version = 3");
    await db.close();
    const served = await runCli(['serve', '--data-dir', dataDir, ...ports]);
    expect(served.stderr).toMatch(
      /^coinop: migration 003_signing_key_next\.sql was changed after it was applied to this database \(checksum f00d recorded, [0-9a-f]{32} now\): restore the file as it was/,
    );
    expect(served.code).toBe(1);
    const status = await runCli(['migrate', 'status', '--data-dir', dataDir]);
    expect(status.stdout).toMatch(
      /^changed {2}003_signing_key_next\.sql {2}checksum f00d recorded, [0-9a-f]{32} in the file$/m,
    );
    expect(status.code).toBe(4);
  });
});
