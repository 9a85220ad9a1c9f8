import type { Queryable } from './db.js';

/** Storage of CLI login requests (table `cli_logins`), shared by every sign-in process. */

export type CliLoginStatus = 'pending' | 'approved' | 'denied' | 'collected';

export interface CliLoginRecord {
  requestorId: string;
  description: string;
  /** The game the login signs in to, when the client named one. */
  gameId: string | null;
  userCode: string;
  status: CliLoginStatus;
  playerId: string | null;
  lastPolledAt: Date | null;
  createdAt: Date;
  expiresAt: Date;
  decidedAt: Date | null;
}

interface CliLoginRow {
  requestor_id: string;
  description: string;
  game_id: string | null;
  user_code: string;
  status: CliLoginStatus;
  player_id: string | null;
  last_polled_at: Date | null;
  created_at: Date;
  expires_at: Date;
  decided_at: Date | null;
}

const COLUMNS =
  'requestor_id, description, game_id, user_code, status, player_id, last_polled_at, created_at, ' +
  'expires_at, decided_at';

const toRecord = (r: CliLoginRow): CliLoginRecord => ({
  requestorId: r.requestor_id,
  description: r.description,
  gameId: r.game_id,
  userCode: r.user_code,
  status: r.status,
  playerId: r.player_id,
  lastPolledAt: r.last_polled_at,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  decidedAt: r.decided_at,
});

export async function insertCliLogin(
  q: Queryable,
  login: Pick<
    CliLoginRecord,
    'requestorId' | 'description' | 'gameId' | 'userCode' | 'createdAt' | 'expiresAt'
  >,
): Promise<void> {
  await q.query(
    `INSERT INTO cli_logins
       (requestor_id, description, game_id, user_code, status, created_at, expires_at)
     VALUES ($1, $2, $3, $4, 'pending', $5, $6)`,
    [
      login.requestorId,
      login.description,
      login.gameId,
      login.userCode,
      login.createdAt,
      login.expiresAt,
    ],
  );
}

/** The request, or null; `forUpdate` locks its row until the transaction `q` ends. */
export async function findCliLogin(
  q: Queryable,
  requestorId: string,
  forUpdate = false,
): Promise<CliLoginRecord | null> {
  const rows = await q.query<CliLoginRow>(
    `SELECT ${COLUMNS} FROM cli_logins WHERE requestor_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [requestorId],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

export async function recordCliLoginPoll(
  q: Queryable,
  requestorId: string,
  now: Date,
): Promise<void> {
  await q.query('UPDATE cli_logins SET last_polled_at = $2 WHERE requestor_id = $1', [
    requestorId,
    now,
  ]);
}

/**
 * Approves (with the player) or denies a pending, unexpired request. Returns the updated request,
 * or null when it was no longer pending or had expired (someone else decided first).
 */
export async function decideCliLogin(
  q: Queryable,
  requestorId: string,
  decision: { status: 'approved'; playerId: string } | { status: 'denied' },
  now: Date,
): Promise<CliLoginRecord | null> {
  const playerId = decision.status === 'approved' ? decision.playerId : null;
  const rows = await q.query<CliLoginRow>(
    `UPDATE cli_logins SET status = $2, player_id = $3, decided_at = $4
     WHERE requestor_id = $1 AND status = 'pending' AND expires_at > $4
     RETURNING ${COLUMNS}`,
    [requestorId, decision.status, playerId, now],
  );
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Marks an approved request collected; returns its player, or null if another poll got it. */
export async function collectCliLogin(
  q: Queryable,
  requestorId: string,
  now: Date,
): Promise<string | null> {
  const rows = await q.query<{ player_id: string }>(
    `UPDATE cli_logins SET status = 'collected', last_polled_at = $2
     WHERE requestor_id = $1 AND status = 'approved' AND expires_at > $2
     RETURNING player_id`,
    [requestorId, now],
  );
  return rows[0]?.player_id ?? null;
}

/** Deletes up to `limit` requests that expired before `before`; returns how many. */
export async function purgeCliLogins(q: Queryable, before: Date, limit: number): Promise<number> {
  const rows = await q.query<{ requestor_id: string }>(
    `DELETE FROM cli_logins WHERE requestor_id IN (
       SELECT requestor_id FROM cli_logins WHERE expires_at < $1 LIMIT $2)
     RETURNING requestor_id`,
    [before, limit],
  );
  return rows.length;
}
