import { randomBytes } from 'node:crypto';
import type { AccountKind } from '@coinop/core';
import type { SecretBox } from '../credentials/secret-box.js';
import type { Queryable } from './db.js';
import { openStored, sealedBytes, serverSecretContext } from './sealed-secrets.js';

/** Storage the operator side needs: id resolution, server secrets, demo look-ups. */

/**
 * The ledger account an operator means by `id`: the account itself, or the account of the
 * player, developer or arcade with that id. Null when nothing has that id.
 */
export async function resolveAccount(
  q: Queryable,
  id: string,
): Promise<{ accountId: string; kind: AccountKind } | null> {
  const rows = await q.query<{ id: string; kind: AccountKind }>(
    `SELECT a.id, a.kind FROM accounts a
     WHERE a.id = $1
        OR a.id = (SELECT account_id FROM players WHERE id = $1)
        OR a.id = (SELECT account_id FROM developers WHERE id = $1)
        OR a.id = (SELECT account_id FROM arcades WHERE id = $1)
     LIMIT 1`,
    [id],
  );
  const row = rows[0];
  return row ? { accountId: row.id, kind: row.kind } : null;
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
  await q.query(
    'INSERT INTO server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING',
    [name, sealedBytes(box.seal(randomBytes(bytes), context))],
  );
  const [row] = await q.query<{ value: Uint8Array }>(
    'SELECT value FROM server_secrets WHERE name = $1',
    [name],
  );
  if (!row) throw new Error(`server secret ${name} vanished after insert`);
  return new Uint8Array(openStored(box, row.value, context));
}

/** A developer's game by exact name, for the demo seed. */
export async function findGameIdByName(
  q: Queryable,
  developerId: string,
  name: string,
): Promise<string | null> {
  const rows = await q.query<{ id: string }>(
    'SELECT id FROM games WHERE developer_id = $1 AND name = $2 ORDER BY created_at LIMIT 1',
    [developerId, name],
  );
  return rows[0]?.id ?? null;
}

export async function countGameClients(q: Queryable, gameId: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM game_clients WHERE game_id = $1 AND revoked_at IS NULL',
    [gameId],
  );
  return row?.n ?? 0;
}
