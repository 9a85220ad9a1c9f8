import {
  isSealed,
  UnsealError,
  type SecretBox,
  type UnsealReason,
} from '../credentials/secret-box.js';
import type { Db } from './db.js';
import { lockSigningKeys } from './signin-keys.js';
import { AdvisoryLocks } from './advisory-locks.js';

/**
 * The secrets at rest (tables `server_secrets` and `signing_keys`) are sealed under the
 * operator's secrets key; see docs/operating/secrets.md. Each value is bound to its row by
 * context, so a ciphertext moved onto another row does not open.
 */

// One process at a time checks and seals the stored secrets.
const SEAL_LOCK_ID = AdvisoryLocks.sealedSecrets;

/** What binds a server secret's sealed value to its row. */
export function serverSecretContext(name: string): string {
  return `server_secret:${name}`;
}

/** What binds a signing key's sealed private half to its row. */
export function signingKeyContext(kid: string): string {
  return `signing_key:${kid}`;
}

/** A stored secret that does not open with the configured key. */
export class SecretsUnreadableError extends Error {
  override readonly name = 'SecretsUnreadableError';
  /** The row, e.g. `server_secret:write_token_key` or `signing_key:<kid>`. */
  readonly row: string;
  readonly reason: UnsealReason | 'plaintext';
  /** The key the value names, when it names one. */
  readonly keyId: string | null;

  constructor(
    row: string,
    reason: UnsealReason | 'plaintext',
    message: string,
    keyId: string | null,
  ) {
    super(message);
    this.row = row;
    this.reason = reason;
    this.keyId = keyId;
  }
}

/** Opens a stored value, or throws SecretsUnreadableError naming its row. */
export function openStored(box: SecretBox, stored: string | Uint8Array, context: string): Buffer {
  const text = typeof stored === 'string' ? stored : Buffer.from(stored).toString('latin1');
  if (!isSealed(text)) {
    throw new SecretsUnreadableError(
      context,
      'plaintext',
      `${context} is stored unencrypted: start coinop serve once to encrypt it`,
      null,
    );
  }
  try {
    return box.open(text, context);
  } catch (error) {
    if (!(error instanceof UnsealError)) throw error;
    throw new SecretsUnreadableError(
      context,
      error.reason,
      `${context}: ${error.message}`,
      error.keyId,
    );
  }
}

/** A sealed value as the bytea column `server_secrets.value` holds it (its ASCII bytes). */
export function sealedBytes(sealed: string): Buffer {
  return Buffer.from(sealed, 'latin1');
}

/**
 * At start: opens every sealed secret, proving the key fits, and seals in place any a version
 * before encryption at rest stored as plaintext. One transaction under a lock, so processes
 * starting together seal each row once; a value that does not open rolls it all back and throws
 * SecretsUnreadableError. Returns how many rows it sealed.
 */
export async function sealStoredSecrets(db: Db, box: SecretBox): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEAL_LOCK_ID]);
    // Rotation inserts and deletes keys under this lock; hold it so the rows stay put meanwhile.
    await lockSigningKeys(tx);
    let sealed = 0;
    const secrets = await tx.query<{ name: string; value: Uint8Array }>(
      'SELECT name, value FROM server_secrets ORDER BY name',
    );
    for (const { name, value } of secrets) {
      const context = serverSecretContext(name);
      if (isSealed(value)) {
        openStored(box, value, context);
        continue;
      }
      await tx.query('UPDATE server_secrets SET value = $2 WHERE name = $1', [
        name,
        sealedBytes(box.seal(value, context)),
      ]);
      sealed += 1;
    }
    const keys = await tx.query<{ kid: string; private_pkcs8: string }>(
      'SELECT kid, private_pkcs8 FROM signing_keys ORDER BY kid',
    );
    for (const { kid, private_pkcs8: stored } of keys) {
      const context = signingKeyContext(kid);
      if (isSealed(stored)) {
        openStored(box, stored, context);
        continue;
      }
      await tx.query('UPDATE signing_keys SET private_pkcs8 = $2 WHERE kid = $1', [
        kid,
        box.seal(Buffer.from(stored, 'utf8'), context),
      ]);
      sealed += 1;
    }
    return sealed;
  });
}
