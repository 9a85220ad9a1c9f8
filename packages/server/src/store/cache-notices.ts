import type { Queryable } from './db.js';

/**
 * The channel on which a change to something the API processes cache is announced: every process
 * sharing the database LISTENs to it (`CacheSync`) and drops what the change made stale.
 */
export const CACHE_CHANNEL = 'coinop_cache';

/**
 * What changed: a game (its row, its tiers), a game client that was revoked, or a board whose
 * scores changed outside the score path (a void: its copies and its open plays' leaders).
 */
export type CacheNotice =
  | { readonly kind: 'game'; readonly gameId: string }
  | { readonly kind: 'client_revoked'; readonly clientId: string }
  | { readonly kind: 'board'; readonly leaderboardId: string };

const KINDS: readonly CacheNotice['kind'][] = ['game', 'client_revoked', 'board'];

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

/** Announces that a board's scores changed (a void); in the voiding transaction, as above. */
export async function notifyBoardChanged(tx: Queryable, leaderboardId: string): Promise<void> {
  await notify(tx, { kind: 'board', leaderboardId });
}

async function notify(tx: Queryable, notice: CacheNotice): Promise<void> {
  const id =
    notice.kind === 'game'
      ? notice.gameId
      : notice.kind === 'board'
        ? notice.leaderboardId
        : notice.clientId;
  await tx.query('SELECT pg_notify($1, $2)', [CACHE_CHANNEL, `${notice.kind}:${id}`]);
}

/** The notice a payload on `CACHE_CHANNEL` carries; null for one this code does not know. */
export function parseCacheNotice(payload: string): CacheNotice | null {
  const colon = payload.indexOf(':');
  const kind = payload.slice(0, colon) as CacheNotice['kind'];
  const id = payload.slice(colon + 1);
  if (colon < 0 || id === '' || !KINDS.includes(kind)) return null;
  if (kind === 'board') return { kind, leaderboardId: id };
  return kind === 'game' ? { kind, gameId: id } : { kind, clientId: id };
}
