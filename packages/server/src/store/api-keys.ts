import type { Queryable } from './db.js';

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
