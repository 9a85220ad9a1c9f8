import type { Queryable } from './db.js';

/**
 * The channel on which a change to something the API processes cache is announced: every process
 * sharing the database LISTENs to it (`CacheSync`) and drops what the change made stale.
 */
export const CACHE_CHANNEL = 'coinop_cache';

/** What changed: a game (its row, its tiers), or a game client that was revoked. */
export type CacheNotice =
  | { readonly kind: 'game'; readonly gameId: string }
  | { readonly kind: 'client_revoked'; readonly clientId: string };

const KINDS: readonly CacheNotice['kind'][] = ['game', 'client_revoked'];

/**
 * Announces that the game changed. Give it the transaction that changes the game: Postgres
 * delivers a NOTIFY when its transaction commits, so a change rolled back announces nothing and
 * no process reloads the game before the change is visible.
 */
export async function notifyGameChanged(tx: Queryable, gameId: string): Promise<void> {
  await notify(tx, { kind: 'game', gameId });
}

/** Announces that the game client was revoked; in the revoking transaction, as above. */
export async function notifyClientRevoked(tx: Queryable, clientId: string): Promise<void> {
  await notify(tx, { kind: 'client_revoked', clientId });
}

async function notify(tx: Queryable, notice: CacheNotice): Promise<void> {
  const id = notice.kind === 'game' ? notice.gameId : notice.clientId;
  await tx.query('SELECT pg_notify($1, $2)', [CACHE_CHANNEL, `${notice.kind}:${id}`]);
}

/** The notice a payload on `CACHE_CHANNEL` carries; null for one this code does not know. */
export function parseCacheNotice(payload: string): CacheNotice | null {
  const colon = payload.indexOf(':');
  const kind = payload.slice(0, colon) as CacheNotice['kind'];
  const id = payload.slice(colon + 1);
  if (colon < 0 || id === '' || !KINDS.includes(kind)) return null;
  return kind === 'game' ? { kind, gameId: id } : { kind, clientId: id };
}
