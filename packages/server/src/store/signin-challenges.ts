import type { Queryable } from './db.js';

/** Storage of wallet sign-in challenges (EIP-4361 messages and their single-use nonces). */

export interface ChallengeRecord {
  nonce: string;
  /** Lower-case 0x address the message was issued for. */
  address: string;
  message: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

interface ChallengeRow {
  nonce: string;
  address: string;
  message: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export async function insertChallenge(
  q: Queryable,
  challenge: Omit<ChallengeRecord, 'usedAt'>,
): Promise<void> {
  await q.query(
    `INSERT INTO wallet_challenges (nonce, address, message, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [
      challenge.nonce,
      challenge.address,
      challenge.message,
      challenge.createdAt,
      challenge.expiresAt,
    ],
  );
}

export async function findChallenge(q: Queryable, nonce: string): Promise<ChallengeRecord | null> {
  const rows = await q.query<ChallengeRow>(
    `SELECT nonce, address, message, created_at, expires_at, used_at
     FROM wallet_challenges WHERE nonce = $1`,
    [nonce],
    'wallet_challenges_find',
  );
  const r = rows[0];
  return r
    ? {
        nonce: r.nonce,
        address: r.address,
        message: r.message,
        createdAt: r.created_at,
        expiresAt: r.expires_at,
        usedAt: r.used_at,
      }
    : null;
}

/**
 * Spends the nonce: true for the one caller that marks it used while it is unexpired, false for
 * every other (a replay, or a race lost to another process).
 */
export async function useChallenge(q: Queryable, nonce: string, now: Date): Promise<boolean> {
  const rows = await q.query<{ nonce: string }>(
    `UPDATE wallet_challenges SET used_at = $2
     WHERE nonce = $1 AND used_at IS NULL AND expires_at > $2 RETURNING nonce`,
    [nonce, now],
    'wallet_challenges_use',
  );
  return rows.length === 1;
}

/** Deletes up to `limit` challenges that expired before `before`; returns how many. */
export async function purgeChallenges(q: Queryable, before: Date, limit: number): Promise<number> {
  const rows = await q.query<{ nonce: string }>(
    `DELETE FROM wallet_challenges WHERE nonce IN (
       SELECT nonce FROM wallet_challenges WHERE expires_at < $1 LIMIT $2)
     RETURNING nonce`,
    [before, limit],
  );
  return rows.length;
}
