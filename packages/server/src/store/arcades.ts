import type { Clock, Ids } from '@coinop/core';
import { AdvisoryLocks } from './advisory-locks.js';
import type { Db } from './db.js';
import { insertAccount } from './ledger.js';

/** The installation's arcade: the party that mints HST and takes its share of every play. */

export interface ArcadeRecord {
  id: string;
  name: string;
  accountId: string;
  mintAccountId: string;
}

/** Finds the installation's arcade and mint account, creating both on first start. */
export async function ensureArcade(db: Db, clock: Clock, ids: Ids): Promise<ArcadeRecord> {
  return db.transaction(async (tx) => {
    // Serialises first start across processes sharing one database.
    await tx.query('SELECT pg_advisory_xact_lock($1)', [AdvisoryLocks.arcade]);
    const found = await tx.query<{ id: string; name: string; account_id: string }>(
      'SELECT id, name, account_id FROM arcades ORDER BY created_at LIMIT 1',
    );
    const mint = await tx.query<{ id: string }>(
      "SELECT id FROM accounts WHERE kind = 'mint' ORDER BY created_at LIMIT 1",
    );
    const now = clock.now();
    let mintAccountId = mint[0]?.id;
    if (!mintAccountId) {
      mintAccountId = ids.next();
      await insertAccount(tx, mintAccountId, 'mint', now);
    }
    const row = found[0];
    if (row) return { id: row.id, name: row.name, accountId: row.account_id, mintAccountId };
    const arcade = { id: ids.next(), name: 'coinop', accountId: ids.next(), mintAccountId };
    await insertAccount(tx, arcade.accountId, 'arcade', now);
    await tx.query(
      'INSERT INTO arcades (id, name, account_id, created_at) VALUES ($1, $2, $3, $4)',
      [arcade.id, arcade.name, arcade.accountId, now],
    );
    return arcade;
  });
}
