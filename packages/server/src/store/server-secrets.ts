import type { Queryable } from './db.js';
import { lockSigningKeys } from './signin-keys.js';
import { AdvisoryLocks } from './advisory-locks.js';

/**
 * The rows of the secrets at rest (tables `server_secrets` and `signing_keys`), as credentials/
 * seals them: the store keeps and returns the sealed values, and never makes, seals or opens one.
 */

// One process at a time checks and seals the stored secrets.
const SEAL_LOCK_ID = AdvisoryLocks.sealedSecrets;

/**
 * Holds, until the transaction ends, the lock under which the stored secrets are checked and
 * sealed, and the signing keys' lock: rotation inserts and deletes keys under it, so the rows
 * stay put meanwhile.
 */
export async function lockStoredSecrets(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [SEAL_LOCK_ID]);
  await lockSigningKeys(tx);
}

/** Every server secret's stored value, by name. */
export async function listServerSecrets(
  q: Queryable,
): Promise<{ name: string; value: Uint8Array }[]> {
  return q.query<{ name: string; value: Uint8Array }>(
    'SELECT name, value FROM server_secrets ORDER BY name',
  );
}

export async function updateServerSecret(
  q: Queryable,
  name: string,
  value: Uint8Array,
): Promise<void> {
  await q.query('UPDATE server_secrets SET value = $2 WHERE name = $1', [name, value]);
}

/** Every signing key's stored private half, by key id. */
export async function listSigningKeyPrivates(
  q: Queryable,
): Promise<{ kid: string; private_pkcs8: string }[]> {
  return q.query<{ kid: string; private_pkcs8: string }>(
    'SELECT kid, private_pkcs8 FROM signing_keys ORDER BY kid',
  );
}

export async function updateSigningKeyPrivate(
  q: Queryable,
  kid: string,
  stored: string,
): Promise<void> {
  await q.query('UPDATE signing_keys SET private_pkcs8 = $2 WHERE kid = $1', [kid, stored]);
}

/**
 * Stores the named server secret unless one is stored already, and returns the stored value:
 * insert-then-select, so processes starting together on one database all read the same one.
 */
export async function insertServerSecretOnce(
  q: Queryable,
  name: string,
  value: Uint8Array,
): Promise<Uint8Array> {
  await q.query(
    'INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
    [name, value],
  );
  const [row] = await q.query<{ value: Uint8Array }>(
    'SELECT value FROM server_secrets WHERE name = $1',
    [name],
  );
  if (!row) throw new Error(`server secret ${name} vanished after insert`);
  return row.value;
}
