import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, stat } from 'node:fs/promises';
import { createFileOnce } from '../data-dir-files.js';
import { join, resolve } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { ENV_ONLY, FLAG_ENV, type Config } from '../config.js';
import type { SecretsUnreadableError } from './sealed-secrets.js';
import { decodeSecretsKey, SECRETS_KEY_BYTES } from '../config-secrets-key.js';
import { SecretBox } from './secret-box.js';

/** The generated secrets key's file inside the data directory. */
export const SECRETS_KEY_FILE = 'secrets-key';

const FILE_FLAG = `${FLAG_ENV.secretsKeyFile[0]} (${FLAG_ENV.secretsKeyFile[1]})`;
const GIVE_KEY = `${FILE_FLAG} or ${ENV_ONLY.secretsKey}`;
const DOCS = 'see docs/operating/secrets.md';

/** The secrets key of this process and where it came from, for messages. */
export interface SecretsKey {
  readonly box: SecretBox;
  /**
   * `environment`: COINOP_SECRETS_KEY; `file`: --secrets-key-file; `data-dir`: the file in the
   * data directory; `generated`: that file, written by this start.
   */
  readonly source: 'environment' | 'file' | 'data-dir' | 'generated';
  /** The file it was read from or written to; null from the environment. */
  readonly path: string | null;
  /** The file's permission bits; 0 from the environment. */
  readonly mode: number;
}

/** The secrets key is missing, unreadable or does not open the database's secrets. */
export class SecretsKeyError extends Error {
  override readonly name = 'SecretsKeyError';
}

/**
 * The secrets key from COINOP_SECRETS_KEY, from --secrets-key-file, or from
 * `<dataDir>/secrets-key`, generated there (mode 0600) on first start. The file appears whole or
 * not at all (written aside, then hard-linked into place), so processes starting together share
 * one key and none reads half of it. With `generate: false` (local tools that seal something for
 * a server elsewhere) a missing key is refused instead: a key made here would not be the server's.
 */
export async function loadSecretsKey(
  config: Config,
  { generate = true }: { generate?: boolean } = {},
): Promise<SecretsKey> {
  if (config.secretsKey !== null) {
    return {
      box: boxOf(config.secretsKey, ENV_ONLY.secretsKey),
      source: 'environment',
      path: null,
      mode: 0,
    };
  }
  if (config.secretsKeyFile !== null) {
    return readKeyFile(config.secretsKeyFile, 'file', `${FILE_FLAG} ${config.secretsKeyFile}`);
  }
  const path = join(config.dataDir, SECRETS_KEY_FILE);
  if (await exists(path)) return readKeyFile(path, 'data-dir', path);
  if (!generate) {
    throw new SecretsKeyError(
      `no secrets key: give the one coinop serve uses, ${GIVE_KEY} (${resolve(path)} does not ` +
        `exist, and this command never makes one); ${DOCS}`,
    );
  }
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const fresh = randomBytes(SECRETS_KEY_BYTES);
  if (await createFileOnce(path, `${fresh.toString('hex')}\n`)) {
    return { box: new SecretBox(fresh), source: 'generated', path, mode: 0o600 };
  }
  return readKeyFile(path, 'data-dir', path);
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

async function readKeyFile(
  path: string,
  source: 'file' | 'data-dir',
  named: string,
): Promise<SecretsKey> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SecretsKeyError(`${named}: cannot read the secrets key: ${(error as Error).message}`);
  }
  return {
    // A file's trailing newline is not part of the key.
    box: boxOf(text.replace(/\r?\n$/, ''), named),
    source,
    path,
    mode: (await stat(path)).mode & 0o777,
  };
}

function boxOf(text: string, named: string): SecretBox {
  const key = decodeSecretsKey(text);
  if (key === null) {
    throw new SecretsKeyError(
      `${named} must hold a 32-byte key as 64 hex digits or base64 (openssl rand -hex 32)`,
    );
  }
  return new SecretBox(key);
}

/** Where the key came from, as the messages say it. */
function describeKey(key: SecretsKey): string {
  switch (key.source) {
    case 'environment':
      return `the key in ${ENV_ONLY.secretsKey} (${key.box.keyId})`;
    case 'file':
      return `the key in ${key.path} (${key.box.keyId}) from ${FILE_FLAG}`;
    case 'data-dir':
      return `the key in ${key.path} (${key.box.keyId})`;
    case 'generated':
      return `the key generated just now (${key.box.keyId}), as none was given`;
  }
}

/** Why start-up stops when the stored secrets do not open, and what the operator should do. */
export function refusal(key: SecretsKey, error: SecretsUnreadableError): SecretsKeyError {
  return new SecretsKeyError(refusalReason(key, error) + removalNote(key));
}

function refusalReason(key: SecretsKey, error: SecretsUnreadableError): string {
  // `signing_key:<kid>` reads as "signing key <kid>".
  const [kind = '', id = ''] = error.row.split(':', 2);
  const what = `${kind.replace(/_/g, ' ')} ${id}`;
  switch (error.reason) {
    case 'wrong_key':
      return (
        `the secrets in the database are sealed under key ${error.keyId}, not under ` +
        `${describeKey(key)}: give the key they were sealed with in ${GIVE_KEY} (${DOCS})`
      );
    case 'tampered':
    case 'malformed':
      return (
        `the ${what} in the database does not open under ${describeKey(key)}: it was altered ` +
        `or copied from another row; restore the database from a backup (${DOCS})`
      );
    case 'unknown_version':
      return (
        `the ${what} in the database is sealed in a format this coinop does not read: run the ` +
        `coinop version that wrote it, or a newer one (${DOCS})`
      );
    case 'plaintext':
      return `${error.message} (${DOCS})`;
  }
}

/** What a refused start says of a key it generated: `discardGeneratedKey` removes it. */
function removalNote(key: SecretsKey): string {
  return key.source === 'generated' ? `; the key generated in ${key.path} is removed again` : '';
}

/**
 * Removes the key this start generated when the start is refused before the key sealed anything:
 * left behind, the next start would take it for the operator's.
 */
export async function discardGeneratedKey(key: SecretsKey): Promise<void> {
  if (key.source === 'generated' && key.path !== null) await rm(key.path, { force: true });
}

/** Whether the key is a file in the data directory, beside the database it protects. */
export function isSecretsKeyBesideData(key: SecretsKey): boolean {
  return key.source === 'generated' || key.source === 'data-dir';
}

/**
 * One warning when the key lives in the data directory, beside the database it protects, or its
 * file is readable by others. A development arcade's one warning names the first itself
 * (`development: true`), so only a loose file is said here then.
 */
export function warnAboutSecretsKey(
  log: Pick<FastifyBaseLogger, 'warn'>,
  key: SecretsKey,
  { development = false }: { readonly development?: boolean } = {},
): void {
  const loose =
    key.mode & 0o077 ? ` (readable by others: mode ${key.mode.toString(8)}; chmod 600 it)` : '';
  if (isSecretsKeyBesideData(key) && !development) {
    const verb = key.source === 'generated' ? 'generated a new' : 'using the';
    log.warn(
      `${verb} secrets key in ${key.path}${loose}; it encrypts the token signing keys in the ` +
        `database: back it up apart from the database, or give ${GIVE_KEY}`,
    );
  } else if (loose !== '') {
    log.warn(`the secrets key file ${key.path} is${loose}`);
  }
}
