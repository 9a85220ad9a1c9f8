import { randomBytes } from 'node:crypto';
import { isSealed, UnsealError, type SecretBox, type UnsealReason } from './secret-box.js';
import type { Db, Queryable } from '../store/db.js';
import {
  insertServerSecretOnce,
  listServerSecrets,
  listSigningKeyPrivates,
  lockStoredSecrets,
  updateServerSecret,
  updateSigningKeyPrivate,
} from '../store/server-secrets.js';

/**
 * The secrets at rest (tables `server_secrets` and `signing_keys`) are sealed under the
 * operator's secrets key; see docs/operating/secrets.md. Each value is bound to its row by
 * context, so a ciphertext moved onto another row does not open.
 */

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
    await lockStoredSecrets(tx);
    let sealed = 0;
    const secrets = await listServerSecrets(tx);
    for (const { name, value } of secrets) {
      const context = serverSecretContext(name);
      if (isSealed(value)) {
        openStored(box, value, context);
        continue;
      }
      await updateServerSecret(tx, name, sealedBytes(box.seal(value, context)));
      sealed += 1;
    }
    const keys = await listSigningKeyPrivates(tx);
    for (const { kid, private_pkcs8: stored } of keys) {
      const context = signingKeyContext(kid);
      if (isSealed(stored)) {
        openStored(box, stored, context);
        continue;
      }
      await updateSigningKeyPrivate(tx, kid, box.seal(Buffer.from(stored, 'utf8'), context));
      sealed += 1;
    }
    return sealed;
  });
}

/**
 * The named server secret, created with `bytes` random bytes if absent, stored sealed under
 * `box`. Insert-then-select, so processes starting together on one database all end up with the
 * same value. Throws SecretsUnreadableError when the stored value does not open.
 */
export async function ensureServerSecret(
  q: Queryable,
  name: string,
  bytes: number,
  box: SecretBox,
): Promise<Uint8Array> {
  const context = serverSecretContext(name);
  const stored = await insertServerSecretOnce(
    q,
    name,
    sealedBytes(box.seal(randomBytes(bytes), context)),
  );
  return new Uint8Array(openStored(box, stored, context));
}
