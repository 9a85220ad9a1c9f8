import { CoinopError } from '@coinop/core';
import type { Queryable } from './db.js';
import { PgErrorCodes, pgErrorCode } from './postgres-errors.js';

/** Players' chosen names, uploaded avatars and the operator's resets (031_profiles.sql). */

/**
 * Gives the player a name they chose. Throws `name_taken` when another player holds a name with
 * the same key: a chosen one (the unique index decides a race) or one the operator gave (compared
 * in lower case). Returns false when no player has the id.
 */
export async function claimName(
  q: Queryable,
  input: { playerId: string; name: string; key: string },
): Promise<boolean> {
  let rows: { id: string }[];
  try {
    rows = await q.query<{ id: string }>(
      `UPDATE players SET name = $2, name_key = $3
       WHERE id = $1 AND NOT EXISTS (
         SELECT 1 FROM players o WHERE o.id <> $1 AND (o.name_key = $3 OR lower(o.name) = $3))
       RETURNING id`,
      [input.playerId, input.name, input.key],
    );
  } catch (error) {
    if (pgErrorCode(error) === PgErrorCodes.uniqueViolation) throw nameTaken(input.name);
    throw error;
  }
  if (rows.length > 0) return true;
  const exists = await q.query('SELECT 1 FROM players WHERE id = $1', [input.playerId]);
  if (exists.length === 0) return false;
  throw nameTaken(input.name);
}

function nameTaken(name: string): CoinopError {
  return new CoinopError('name_taken', `another player is already called ${name}`, {
    details: { field: 'name' },
  });
}

/** Whether the player's name is one they chose (`name_key` set). */
export async function nameChosen(q: Queryable, playerId: string): Promise<boolean> {
  const rows = await q.query<{ chosen: boolean }>(
    'SELECT name_key IS NOT NULL AS chosen FROM players WHERE id = $1',
    [playerId],
  );
  return rows[0]?.chosen ?? false;
}

/** An avatar uploaded to the arcade, checked to be a PNG, JPEG or WebP of a fitting size. */
export interface StoredAvatar {
  readonly playerId: string;
  readonly contentType: 'image/png' | 'image/jpeg' | 'image/webp';
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** A digest of the bytes, quoted as an HTTP entity tag. */
  readonly etag: string;
}

/** Stores the avatar and points the player's `avatar_url` at it, in the caller's transaction. */
export async function saveAvatar(
  q: Queryable,
  avatar: StoredAvatar,
  avatarUrl: string,
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO player_avatars (player_id, content_type, bytes, width, height, etag, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (player_id) DO UPDATE SET content_type = EXCLUDED.content_type,
       bytes = EXCLUDED.bytes, width = EXCLUDED.width, height = EXCLUDED.height,
       etag = EXCLUDED.etag, updated_at = EXCLUDED.updated_at`,
    [
      avatar.playerId,
      avatar.contentType,
      avatar.bytes,
      avatar.width,
      avatar.height,
      avatar.etag,
      now,
    ],
  );
  await q.query('UPDATE players SET avatar_url = $2 WHERE id = $1', [avatar.playerId, avatarUrl]);
}

/** Drops the player's uploaded avatar and URL; answers whether there was one. */
export async function removeAvatar(q: Queryable, playerId: string): Promise<boolean> {
  const removed = await q.query('DELETE FROM player_avatars WHERE player_id = $1 RETURNING 1', [
    playerId,
  ]);
  const cleared = await q.query(
    'UPDATE players SET avatar_url = NULL WHERE id = $1 AND avatar_url IS NOT NULL RETURNING 1',
    [playerId],
  );
  return removed.length > 0 || cleared.length > 0;
}

export async function findAvatar(q: Queryable, playerId: string): Promise<StoredAvatar | null> {
  const rows = await q.query<{
    content_type: StoredAvatar['contentType'];
    bytes: Uint8Array;
    width: number;
    height: number;
    etag: string;
  }>(
    `SELECT content_type, bytes, width, height, etag FROM player_avatars WHERE player_id = $1`,
    [playerId],
    'player_avatars_find',
  );
  const r = rows[0];
  return r
    ? {
        playerId,
        contentType: r.content_type,
        bytes: r.bytes,
        width: r.width,
        height: r.height,
        etag: r.etag,
      }
    : null;
}

/**
 * The operator's reset: the name back to `defaultName` (no longer chosen), the avatar removed,
 * and a record of what was there and why. In the caller's transaction, after locking the player.
 */
export async function recordProfileReset(
  q: Queryable,
  input: {
    id: string;
    playerId: string;
    previousName: string;
    defaultName: string;
    reason: string;
    now: Date;
  },
): Promise<{ removedAvatar: boolean }> {
  const removedAvatar = await removeAvatar(q, input.playerId);
  await q.query('UPDATE players SET name = $2, name_key = NULL WHERE id = $1', [
    input.playerId,
    input.defaultName,
  ]);
  await q.query(
    `INSERT INTO player_profile_resets (id, player_id, previous_name, removed_avatar, reason,
       reset_at) VALUES ($1, $2, $3, $4, $5, $6)`,
    [input.id, input.playerId, input.previousName, removedAvatar, input.reason, input.now],
  );
  return { removedAvatar };
}

/** Locks the player's row for a profile change, answering its name (null: no such player). */
export async function lockPlayerName(q: Queryable, playerId: string): Promise<string | null> {
  const rows = await q.query<{ name: string }>(
    'SELECT name FROM players WHERE id = $1 FOR UPDATE',
    [playerId],
  );
  return rows[0]?.name ?? null;
}

/**
 * The boards (and their games) a player ever played on: where their name may be shown, in a
 * board's leaders or a play remembered by the score path.
 */
export async function boardsPlayedBy(
  q: Queryable,
  playerId: string,
): Promise<{ leaderboardId: string; gameId: string }[]> {
  const rows = await q.query<{ leaderboard_id: string; game_id: string }>(
    'SELECT DISTINCT leaderboard_id, game_id FROM plays WHERE player_id = $1',
    [playerId],
  );
  return rows.map((r) => ({ leaderboardId: r.leaderboard_id, gameId: r.game_id }));
}
