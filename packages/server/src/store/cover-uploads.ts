import type { Clock } from '@coinop/core';
import type { Queryable } from './db.js';

/** A cover image uploaded to the arcade, checked to be a 1920×1080 PNG or JPEG. */
export interface StoredCover {
  readonly gameId: string;
  readonly contentType: 'image/png' | 'image/jpeg';
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** A digest of the bytes, quoted as an HTTP entity tag. */
  readonly etag: string;
  readonly updatedAt: Date;
}

export async function saveCover(
  q: Queryable,
  clock: Clock,
  cover: Omit<StoredCover, 'updatedAt'>,
): Promise<void> {
  await q.query(
    `INSERT INTO game_covers (game_id, content_type, bytes, width, height, etag, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (game_id) DO UPDATE SET content_type = EXCLUDED.content_type,
       bytes = EXCLUDED.bytes, width = EXCLUDED.width, height = EXCLUDED.height,
       etag = EXCLUDED.etag, updated_at = EXCLUDED.updated_at`,
    [
      cover.gameId,
      cover.contentType,
      cover.bytes,
      cover.width,
      cover.height,
      cover.etag,
      clock.now(),
    ],
  );
}

/** Drops a game's uploaded cover, when the developer points it at a URL instead. */
export async function deleteCover(q: Queryable, gameId: string): Promise<void> {
  await q.query('DELETE FROM game_covers WHERE game_id = $1', [gameId]);
}

export async function findCover(q: Queryable, gameId: string): Promise<StoredCover | null> {
  const rows = await q.query<{
    game_id: string;
    content_type: StoredCover['contentType'];
    bytes: Uint8Array;
    width: number;
    height: number;
    etag: string;
    updated_at: Date;
  }>(
    `SELECT game_id, content_type, bytes, width, height, etag, updated_at
     FROM game_covers WHERE game_id = $1`,
    [gameId],
    'game_covers_find',
  );
  const r = rows[0];
  return r
    ? {
        gameId: r.game_id,
        contentType: r.content_type,
        bytes: r.bytes,
        width: r.width,
        height: r.height,
        etag: r.etag,
        updatedAt: r.updated_at,
      }
    : null;
}
