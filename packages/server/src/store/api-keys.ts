import type { Queryable } from './db.js';

/** Developers' API keys as stored (the hash, never the key): found by prefix, listed, revoked. */

/** A developer's API keys as the developer sees them: never the secret, only its prefix. */
export interface ApiKeySummary {
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
}

interface ApiKeyRow {
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
}

const toSummary = (r: ApiKeyRow): ApiKeySummary => ({
  prefix: r.prefix,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/** A live (not revoked) API key: whose it is and the hash of the whole key. */
export interface ApiKeyRecord {
  prefix: string;
  developerId: string;
  secretHash: Uint8Array;
}

/** Finds an API key by its public prefix (the part before the first '.'), unless revoked. */
export async function findLiveApiKey(q: Queryable, prefix: string): Promise<ApiKeyRecord | null> {
  const rows = await q.query<{ prefix: string; developer_id: string; secret_hash: Uint8Array }>(
    'SELECT prefix, developer_id, secret_hash FROM api_keys WHERE prefix = $1 AND revoked_at IS NULL',
    [prefix],
    'api_keys_find_live',
  );
  const r = rows[0];
  return r ? { prefix: r.prefix, developerId: r.developer_id, secretHash: r.secret_hash } : null;
}

/** Stores a new API key: its public prefix and the hash of the whole key, never the key itself. */
export async function insertApiKey(
  q: Queryable,
  key: { prefix: string; developerId: string; secretHash: Uint8Array; createdAt: Date },
): Promise<void> {
  await q.query(
    'INSERT INTO api_keys (prefix, developer_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)',
    [key.prefix, key.developerId, key.secretHash, key.createdAt],
  );
}

/** Every key of the developer, live and revoked, oldest first. */
export async function listApiKeys(q: Queryable, developerId: string): Promise<ApiKeySummary[]> {
  const rows = await q.query<ApiKeyRow>(
    `SELECT prefix, created_at, revoked_at FROM api_keys
     WHERE developer_id = $1 ORDER BY created_at, prefix`,
    [developerId],
  );
  return rows.map(toSummary);
}

export async function countLiveApiKeys(q: Queryable, developerId: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM api_keys WHERE developer_id = $1 AND revoked_at IS NULL',
    [developerId],
  );
  return row?.n ?? 0;
}

/**
 * Revokes the developer's key with this prefix (a second revoke keeps the first date). Null when
 * the developer has no such key.
 */
export async function revokeApiKey(
  q: Queryable,
  developerId: string,
  prefix: string,
  now: Date,
): Promise<ApiKeySummary | null> {
  const rows = await q.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $3)
     WHERE developer_id = $1 AND prefix = $2
     RETURNING prefix, created_at, revoked_at`,
    [developerId, prefix, now],
  );
  return rows[0] ? toSummary(rows[0]) : null;
}
