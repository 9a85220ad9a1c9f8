import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, storeVariants } from '@coinop/testkit/db';
import { cleanEnv, runCli } from './run-cli.js';

/**
 * Operator review, finding 5: on Postgres, `serve` with an operator key file sealed under another
 * secrets key printed its refusal and then never exited (what the API's bootstrap had started
 * kept the event loop alive), so systemd saw a running unit. A refused start exits 2, at once.
 */

const VAULT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
/** Well under the 40 s the reviewer waited; a start on a busy machine takes a few seconds. */
const EXIT_WITHIN_MS = 30_000;

describe.each(storeVariants())('a refused start in chain mode (%s)', (variant) => {
  let dir: string;
  let databaseArgs: string[];
  let dropDatabase: () => Promise<void> = async () => undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coinop-refused-start-'));
    databaseArgs = ['--data-dir', join(dir, 'data')];
    if (variant === 'postgres') {
      const database = await createTestDatabase();
      dropDatabase = database.drop;
      databaseArgs.push('--database-url', database.url);
    }
  });
  afterAll(async () => {
    await dropDatabase();
    await rm(dir, { recursive: true, force: true });
  });

  it(`exits 2 naming the operator key file that does not open (${variant})`, async () => {
    const otherKey = join(dir, 'other-secrets-key');
    await writeFile(otherKey, randomBytes(32).toString('hex'), { mode: 0o600 });
    const keyFile = join(dir, 'operator.key');
    const generated = await runCli([
      'admin',
      'chain',
      'operator-key',
      'generate',
      '--out',
      keyFile,
      '--secrets-key-file',
      otherKey,
    ]);
    expect(generated.code).toBe(0);
    const secretsKey = join(dir, 'secrets-key');
    await writeFile(secretsKey, randomBytes(32).toString('hex'), { mode: 0o600 });

    const started = Date.now();
    const run = await runCli(
      [
        'serve',
        '--api-port',
        '0',
        '--auth-port',
        '0',
        '--web-port',
        '0',
        ...databaseArgs,
        '--secrets-key-file',
        secretsKey,
        '--chain-rpc-url',
        'http://127.0.0.1:1',
        '--chain-vault-address',
        VAULT,
        '--chain-operator-key-file',
        keyFile,
      ],
      cleanEnv({ COINOP_ADMIN_TOKEN: randomBytes(24).toString('base64url') }),
      undefined,
      EXIT_WITHIN_MS,
    );
    expect(run.stderr).toBe(
      'coinop: --chain-operator-key-file (COINOP_CHAIN_OPERATOR_KEY_FILE): the operator key ' +
        `file ${keyFile} does not open with this secrets key (wrong_key)\n`,
    );
    expect(run.code).toBe(2);
    expect(Date.now() - started).toBeLessThan(EXIT_WITHIN_MS);
  }, 60_000);
});
