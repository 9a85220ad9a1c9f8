import type { Queryable } from './db.js';
import { normalizeWallet, type DeveloperRecord } from './parties.js';

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

export async function findDeveloperByWallet(
  q: Queryable,
  wallet: string,
): Promise<DeveloperRecord | null> {
  const rows = await q.query<{ id: string; wallet: string; account_id: string; created_at: Date }>(
    'SELECT id, wallet, account_id, created_at FROM developers WHERE wallet = $1',
    [normalizeWallet(wallet)],
  );
  const r = rows[0];
  return r
    ? { id: r.id, wallet: r.wallet, accountId: r.account_id, createdAt: r.created_at }
    : null;
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
