import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCli } from './run-cli.js';

/**
 * Operator review, finding 13: `serve` against a database it cannot reach said only
 * `coinop: connect ECONNREFUSED 127.0.0.1:1`. It now names the server, the database and the flag,
 * and still never the password.
 */

describe('serve with a database it cannot reach', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-no-database-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('names host:port/database and --database-url, never the password', async () => {
    const ports = ['--api-port', '0', '--auth-port', '0', '--web-port', '0'];
    const url = 'postgres://coinop:hunter2@127.0.0.1:1/nope';
    const byFlag = await runCli(
      ['serve', '--database-url', url, '--data-dir', dataDir, ...ports],
      cleanEnv(),
      undefined,
      30_000,
    );
    expect(byFlag.stderr).toBe(
      'coinop: cannot open the database at 127.0.0.1:1/nope (--database-url / DATABASE_URL): ' +
        'connect ECONNREFUSED 127.0.0.1:1\n',
    );
    expect(byFlag.code).toBe(1);
    expect(byFlag.stdout + byFlag.stderr).not.toContain('hunter2');
  });
});
