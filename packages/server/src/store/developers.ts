import type { Clock, Ids } from '@coinop/core';
import type { Db, Queryable } from './db.js';
import { insertAccount } from './ledger.js';
import { normalizeWallet } from './players.js';

/** Developers: a wallet that registers games and is paid its share of their plays. */

export interface DeveloperRecord {
  id: string;
  wallet: string;
  accountId: string;
  createdAt: Date;
}

/** Creates the developer of a wallet, or returns the one it already has. */
export async function ensureDeveloper(
  db: Db,
  clock: Clock,
  ids: Ids,
  wallet: string,
): Promise<DeveloperRecord> {
  const normalized = normalizeWallet(wallet);
  return db.transaction(async (tx) => {
    const now = clock.now();
    const accountId = ids.next();
    const id = ids.next();
    await insertAccount(tx, accountId, 'developer', now);
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO developers (id, wallet, account_id, created_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (wallet) DO NOTHING RETURNING id`,
      [id, normalized, accountId, now],
    );
    if (inserted.length === 1) return { id, wallet: normalized, accountId, createdAt: now };
    // The wallet already had a developer: drop the account made for the one we did not create.
    await tx.query('DELETE FROM accounts WHERE id = $1', [accountId]);
    const [row] = await tx.query<{ id: string; account_id: string; created_at: Date }>(
      'SELECT id, account_id, created_at FROM developers WHERE wallet = $1',
      [normalized],
    );
    if (!row) throw new Error(`developer for ${normalized} vanished`);
    return { id: row.id, wallet: normalized, accountId: row.account_id, createdAt: row.created_at };
  });
}

export async function findDeveloper(q: Queryable, id: string): Promise<DeveloperRecord | null> {
  const rows = await q.query<{ id: string; wallet: string; account_id: string; created_at: Date }>(
    'SELECT id, wallet, account_id, created_at FROM developers WHERE id = $1',
    [id],
  );
  const r = rows[0];
  return r
    ? { id: r.id, wallet: r.wallet, accountId: r.account_id, createdAt: r.created_at }
    : null;
}

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
