import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/credentials/secret-box.js';
import { loadSecretsKey, SecretsKeyError } from '../../src/credentials/secrets-key.js';
import { ConfigError, loadConfig, testConfig } from '../../src/config.js';

describe('the secrets key settings', () => {
  const hex = randomBytes(32).toString('hex');

  it('default to none: the key is then generated into the data directory', () => {
    expect(loadConfig({}, {})).toMatchObject({ secretsKeyFile: null, secretsKey: null });
  });

  it('read the file from the flag over the environment, and the key from the environment only', () => {
    expect(
      loadConfig({ secretsKeyFile: 'flag-key' }, { COINOP_SECRETS_KEY_FILE: 'env-key' }),
    ).toMatchObject({ secretsKeyFile: resolve('flag-key'), secretsKey: null });
    expect(loadConfig({}, { COINOP_SECRETS_KEY_FILE: '/etc/coinop/key' })).toMatchObject({
      secretsKeyFile: '/etc/coinop/key',
    });
    expect(loadConfig({}, { COINOP_SECRETS_KEY: hex })).toMatchObject({ secretsKey: hex });
  });

  it.each([
    ['abc', 3],
    [` ${hex}`, 65],
    [hex.slice(2), 62],
    [randomBytes(16).toString('base64'), 24],
  ])('refuse COINOP_SECRETS_KEY=%j, naming the variable', (value, length) => {
    expect(() => loadConfig({}, { COINOP_SECRETS_KEY: value })).toThrow(
      new ConfigError(
        'COINOP_SECRETS_KEY must be 32 bytes as 64 hex digits or base64 (openssl rand -hex 32), ' +
          `got ${length} characters that are neither`,
      ),
    );
  });

  it('refuse a key given both ways', () => {
    expect(() => loadConfig({ secretsKeyFile: 'key' }, { COINOP_SECRETS_KEY: hex })).toThrow(
      new ConfigError(
        'give the secrets key once: --secrets-key-file (COINOP_SECRETS_KEY_FILE) or ' +
          'COINOP_SECRETS_KEY, not both',
      ),
    );
  });
});

describe('loadSecretsKey', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'coinop-secrets-key-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('takes the key from the environment, writing nothing', async () => {
    const key = randomBytes(32);
    const loaded = await loadSecretsKey(
      testConfig({ dataDir: dir, secretsKey: key.toString('base64') }),
    );
    expect(loaded).toMatchObject({ source: 'environment', path: null });
    expect(loaded.box.keyId).toBe(new SecretBox(key).keyId);
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes the key from --secrets-key-file, its trailing newline aside', async () => {
    const key = randomBytes(32);
    const path = join(dir, 'key');
    await writeFile(path, `${key.toString('hex')}\n`, { mode: 0o640 });
    const loaded = await loadSecretsKey(testConfig({ dataDir: dir, secretsKeyFile: path }));
    expect(loaded).toMatchObject({ source: 'file', path, mode: 0o640 });
    expect(loaded.box.keyId).toBe(new SecretBox(key).keyId);
    expect((await readdir(dir)).sort()).toEqual(['key']);
  });

  it('refuses a missing or malformed key file, naming the flag and the file', async () => {
    const path = join(dir, 'key');
    const config = testConfig({ dataDir: dir, secretsKeyFile: path });
    await expect(loadSecretsKey(config)).rejects.toThrow(
      new SecretsKeyError(
        `--secrets-key-file (COINOP_SECRETS_KEY_FILE) ${path}: cannot read the secrets key: ` +
          `ENOENT: no such file or directory, open '${path}'`,
      ),
    );
    for (const text of ['', 'not a key\n', `${randomBytes(31).toString('hex')}\n`]) {
      await writeFile(path, text);
      await expect(loadSecretsKey(config)).rejects.toThrow(
        new SecretsKeyError(
          `--secrets-key-file (COINOP_SECRETS_KEY_FILE) ${path} must hold a 32-byte key as 64 ` +
            'hex digits or base64 (openssl rand -hex 32)',
        ),
      );
    }
  });

  it('generates one key into the data directory (mode 0600), then reads it', async () => {
    const dataDir = join(dir, 'data');
    const first = await loadSecretsKey(testConfig({ dataDir }));
    const path = join(dataDir, 'secrets-key');
    expect(first).toMatchObject({ source: 'generated', path, mode: 0o600 });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    const text = await readFile(path, 'utf8');
    expect(text).toMatch(/^[0-9a-f]{64}\n$/);
    expect(first.box.keyId).toBe(new SecretBox(Buffer.from(text.trim(), 'hex')).keyId);

    await chmod(path, 0o644);
    const second = await loadSecretsKey(testConfig({ dataDir }));
    expect(second).toMatchObject({ source: 'data-dir', path, mode: 0o644 });
    expect(second.box.keyId).toBe(first.box.keyId);
    expect(await readdir(dataDir)).toEqual(['secrets-key']);
  });

  it('gives processes starting together one key, none of them reading it half-written', async () => {
    const config = testConfig({ dataDir: dir });
    const loaded = await Promise.all(Array.from({ length: 12 }, () => loadSecretsKey(config)));
    expect(loaded.filter((k) => k.source === 'generated')).toHaveLength(1);
    expect(new Set(loaded.map((k) => k.box.keyId)).size).toBe(1);
    expect(await readdir(dir)).toEqual(['secrets-key']);
  });

  it('refuses a data directory key file that is not a key, naming the file', async () => {
    const path = join(dir, 'secrets-key');
    await writeFile(path, '');
    await expect(loadSecretsKey(testConfig({ dataDir: dir }))).rejects.toThrow(
      new SecretsKeyError(
        `${path} must hold a 32-byte key as 64 hex digits or base64 (openssl rand -hex 32)`,
      ),
    );
  });
});
