import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { readOperatorKey } from '../../src/chain/operator-key.js';
import { SecretBox } from '../../src/credentials/secret-box.js';
import { cleanEnv, runCli } from '../cli/run-cli.js';

/**
 * The operator's signing key at rest: `coinop admin chain operator-key generate|import` seal it
 * with the secrets key into a 0600 file that prints and logs only the address; serve opens it.
 */

let dir: string;
let secretsKeyFile: string;
let box: SecretBox;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'coinop-operator-key-'));
  const key = randomBytes(32);
  secretsKeyFile = join(dir, 'secrets-key');
  await writeFile(secretsKeyFile, key.toString('hex'), { mode: 0o600 });
  box = new SecretBox(key);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the operator key file', () => {
  it('imports a key from stdin, sealed, mode 0600, printing only the address', async () => {
    const privateKey = generatePrivateKey();
    const { address } = privateKeyToAccount(privateKey);
    const out = join(dir, 'imported.key');
    const run = await runCli(
      [
        'admin',
        'chain',
        'operator-key',
        'import',
        '--out',
        out,
        '--secrets-key-file',
        secretsKeyFile,
      ],
      cleanEnv(),
      `${privateKey}\n`,
    );
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ file: out, address });
    expect(run.stdout).not.toContain(privateKey.slice(2));
    const text = await readFile(out, 'utf8');
    expect(text.toLowerCase()).not.toContain(privateKey.slice(2).toLowerCase());
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect((await readOperatorKey(out, box)).address).toBe(address);

    // Never overwritten.
    const again = await runCli(
      [
        'admin',
        'chain',
        'operator-key',
        'import',
        '--out',
        out,
        '--secrets-key-file',
        secretsKeyFile,
      ],
      cleanEnv(),
      generatePrivateKey(),
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `coinop: ${out} exists already; remove it first to replace the operator key\n`,
    );
    expect((await readOperatorKey(out, box)).address).toBe(address);
  });

  it('generates a key, printing its address', async () => {
    const out = join(dir, 'generated.key');
    const run = await runCli([
      'admin',
      'chain',
      'operator-key',
      'generate',
      '--out',
      out,
      '--secrets-key-file',
      secretsKeyFile,
    ]);
    expect(run.code).toBe(0);
    const { address } = JSON.parse(run.stdout) as { address: string };
    expect((await readOperatorKey(out, box)).address).toBe(address);
  });

  // Issue 28: `--out /etc/coinop/operator.key`, as the docs write it, failed with ENOENT on a
  // machine without /etc/coinop.
  it('makes the directory of --out when it is missing, for its owner only', async () => {
    const parent = join(dir, 'etc', 'coinop');
    const out = join(parent, 'operator.key');
    const run = await runCli([
      'admin',
      'chain',
      'operator-key',
      'generate',
      '--out',
      out,
      '--secrets-key-file',
      secretsKeyFile,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const { address } = JSON.parse(run.stdout) as { address: string };
    expect((await readOperatorKey(out, box)).address).toBe(address);
    expect((await stat(parent)).mode & 0o777).toBe(0o700);
    expect((await stat(out)).mode & 0o777).toBe(0o600);
  });

  // Operator review, finding 6: run as chain.md showed it (no --secrets-key-file), generate made
  // ./.coinop/secrets-key and sealed the key with it, so the real server could not open the file.
  it('refuses to run without a secrets key, making none, and names --secrets-key-file', async () => {
    const cwd = await mkdtemp(join(dir, 'cwd-'));
    const out = join(cwd, 'operator.key');
    const run = await runCli(
      ['admin', 'chain', 'operator-key', 'generate', '--out', out],
      cleanEnv(),
      undefined,
      undefined,
      cwd,
    );
    const defaultKey = join(cwd, '.coinop', 'secrets-key');
    expect(run.stderr).toBe(
      'coinop: no secrets key: give the one coinop serve uses, --secrets-key-file ' +
        `(COINOP_SECRETS_KEY_FILE) or COINOP_SECRETS_KEY (${defaultKey} does not exist, and ` +
        'this command never makes one); see docs/operating/secrets.md\n',
    );
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    await expect(stat(defaultKey)).rejects.toThrow(/ENOENT/);
    await expect(stat(out)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a bad key, and a file another secrets key sealed, naming the file only', async () => {
    const bad = await runCli(
      [
        'admin',
        'chain',
        'operator-key',
        'import',
        '--out',
        join(dir, 'bad.key'),
        '--secrets-key-file',
        secretsKeyFile,
      ],
      cleanEnv(),
      'not a key',
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe(
      'coinop: the operator key must be 64 hex digits (a secp256k1 private key)\n',
    );

    const out = join(dir, 'other.key');
    const privateKey = generatePrivateKey();
    await runCli(
      [
        'admin',
        'chain',
        'operator-key',
        'import',
        '--out',
        out,
        '--secrets-key-file',
        secretsKeyFile,
      ],
      cleanEnv(),
      privateKey,
    );
    const otherBox = new SecretBox(randomBytes(32));
    const error = await readOperatorKey(out, otherBox).catch((e: unknown) => e as Error);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      `the operator key file ${out} does not open with this secrets key (wrong_key)`,
    );
    expect((error as Error).message).not.toContain(privateKey.slice(2));
    const missing = await readOperatorKey(join(dir, 'none.key'), box).catch(
      (e: unknown) => e as Error,
    );
    expect((missing as Error).message).toBe(
      `cannot read the operator key file ${join(dir, 'none.key')} (ENOENT)`,
    );
  });
});
