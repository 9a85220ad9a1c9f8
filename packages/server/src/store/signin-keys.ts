import type { Queryable } from './db.js';
import { AdvisoryLocks } from './advisory-locks.js';

/** Storage of the RS256 keys that sign player tokens (table `signing_keys`). */

export interface SigningKeyRecord {
  kid: string;
  /** The public half as a JWK (JSON text). */
  publicJwk: string;
  /**
   * The private half, PKCS#8 PEM sealed under the secrets key (credentials/sealed-secrets.ts). Column
   * `private_pkcs8`, which held the PEM itself before encryption at rest.
   */
  sealedPrivateKey: string;
  maxTtlSeconds: number;
  createdAt: Date;
  /** When it started signing; null for the next key. */
  activatedAt: Date | null;
  retiredAt: Date | null;
}

interface SigningKeyRow {
  kid: string;
  public_jwk: string;
  private_pkcs8: string;
  max_ttl_seconds: number;
  created_at: Date;
  activated_at: Date | null;
  retired_at: Date | null;
}

const COLUMNS =
  'kid, public_jwk, private_pkcs8, max_ttl_seconds, created_at, activated_at, retired_at';
// Serialises key creation and rotation across processes.
const SIGNING_KEYS_LOCK_ID = AdvisoryLocks.signingKeys;

const toRecord = (r: SigningKeyRow): SigningKeyRecord => ({
  kid: r.kid,
  publicJwk: r.public_jwk,
  sealedPrivateKey: r.private_pkcs8,
  maxTtlSeconds: r.max_ttl_seconds,
  createdAt: r.created_at,
  activatedAt: r.activated_at,
  retiredAt: r.retired_at,
});

/** Holds the key-rotation lock until the transaction `tx` ends. */
export async function lockSigningKeys(tx: Queryable): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [SIGNING_KEYS_LOCK_ID]);
}

/** The one key that signs now, or null before the first start. */
export async function findActiveSigningKey(q: Queryable): Promise<SigningKeyRecord | null> {
  const rows = await q.query<SigningKeyRow>(
    `SELECT ${COLUMNS} FROM signing_keys WHERE retired_at IS NULL AND activated_at IS NOT NULL`,
    [],
    'signing_keys_active',
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** The key published to sign after the next rotation, or null. */
export async function findNextSigningKey(q: Queryable): Promise<SigningKeyRecord | null> {
  const rows = await q.query<SigningKeyRow>(
    `SELECT ${COLUMNS} FROM signing_keys WHERE activated_at IS NULL`,
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Makes the next key the active one. */
export async function activateSigningKey(q: Queryable, kid: string, now: Date): Promise<void> {
  await q.query('UPDATE signing_keys SET activated_at = $2 WHERE kid = $1', [kid, now]);
}

/** Inserts a key: active from `activatedAt`, or the next key when that is null. */
export async function insertSigningKey(
  q: Queryable,
  key: Omit<SigningKeyRecord, 'retiredAt' | 'activatedAt'>,
  activatedAt: Date | null,
): Promise<void> {
  await q.query(
    `INSERT INTO signing_keys (kid, alg, public_jwk, private_pkcs8, max_ttl_seconds, created_at,
                               activated_at)
     VALUES ($1, 'RS256', $2, $3, $4, $5, $6)`,
    [key.kid, key.publicJwk, key.sealedPrivateKey, key.maxTtlSeconds, key.createdAt, activatedAt],
  );
}

/** Retires the active key; returns its kid, or null when none was active. */
export async function retireActiveSigningKey(q: Queryable, now: Date): Promise<string | null> {
  const rows = await q.query<{ kid: string }>(
    `UPDATE signing_keys SET retired_at = $1
     WHERE retired_at IS NULL AND activated_at IS NOT NULL RETURNING kid`,
    [now],
  );
  return rows[0]?.kid ?? null;
}

/**
 * Records that `kid` signs a token living `ttlSeconds`, so the key stays published at least that
 * long after it retires. Only ever raises the value.
 */
export async function raiseSigningKeyMaxTtl(
  q: Queryable,
  kid: string,
  ttlSeconds: number,
): Promise<void> {
  await q.query(
    'UPDATE signing_keys SET max_ttl_seconds = GREATEST(max_ttl_seconds, $2) WHERE kid = $1',
    [kid, ttlSeconds],
  );
}

/**
 * Keys a verifier may meet at `now`: the active one, the next one (published ahead of its first
 * token), and each retired one until retired_at + max_ttl_seconds + `graceSeconds`. The active key
 * first, then the next, then the latest retired.
 */
export async function listPublishedSigningKeys(
  q: Queryable,
  now: Date,
  graceSeconds: number,
): Promise<{ kid: string; publicJwk: string }[]> {
  const rows = await q.query<{ kid: string; public_jwk: string }>(
    `SELECT kid, public_jwk FROM signing_keys
     WHERE retired_at IS NULL
        OR retired_at + (max_ttl_seconds + $2) * interval '1 second' > $1
     ORDER BY CASE WHEN retired_at IS NOT NULL THEN 2 WHEN activated_at IS NULL THEN 1 ELSE 0 END,
              retired_at DESC, created_at DESC, kid`,
    [now, graceSeconds],
    'signing_keys_published',
  );
  return rows.map((r) => ({ kid: r.kid, publicJwk: r.public_jwk }));
}

/** Deletes retired keys that no live token can name any more; returns how many. */
export async function deleteUnpublishedSigningKeys(
  q: Queryable,
  now: Date,
  graceSeconds: number,
): Promise<number> {
  const rows = await q.query<{ kid: string }>(
    `DELETE FROM signing_keys
     WHERE retired_at IS NOT NULL
       AND retired_at + (max_ttl_seconds + $2) * interval '1 second' <= $1
     RETURNING kid`,
    [now, graceSeconds],
  );
  return rows.length;
}

/** Deletes every key, active, next and retired alike (a revocation); returns their kids. */
export async function deleteAllSigningKeys(q: Queryable): Promise<string[]> {
  const rows = await q.query<{ kid: string }>('DELETE FROM signing_keys RETURNING kid');
  return rows.map((r) => r.kid).sort();
}
