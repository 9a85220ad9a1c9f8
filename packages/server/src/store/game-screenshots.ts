import type { Clock } from '@coinop/core';
import type { Queryable } from './db.js';

/** A screenshot a developer uploaded for a game's page (migration 033). */
export interface StoredScreenshot {
  readonly id: string;
  readonly gameId: string;
  readonly position: number;
  readonly altText: string;
  readonly contentType: 'image/png' | 'image/jpeg';
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** A digest of the bytes, quoted as an HTTP entity tag. */
  readonly etag: string;
  readonly createdAt: Date;
}

/** A screenshot without its bytes, as a list shows it. */
export type ScreenshotSummary = Omit<StoredScreenshot, 'bytes'>;

interface ScreenshotRow {
  id: string;
  game_id: string;
  position: number;
  alt_text: string;
  content_type: StoredScreenshot['contentType'];
  width: number;
  height: number;
  etag: string;
  created_at: Date;
}

const SUMMARY_COLUMNS =
  'id, game_id, position, alt_text, content_type, width, height, etag, created_at';

const toSummary = (r: ScreenshotRow): ScreenshotSummary => ({
  id: r.id,
  gameId: r.game_id,
  position: r.position,
  altText: r.alt_text,
  contentType: r.content_type,
  width: r.width,
  height: r.height,
  etag: r.etag,
  createdAt: r.created_at,
});

/** A game's screenshots in display order, without their bytes. */
export async function listScreenshots(q: Queryable, gameId: string): Promise<ScreenshotSummary[]> {
  const rows = await q.query<ScreenshotRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM game_screenshots WHERE game_id = $1 ORDER BY position`,
    [gameId],
    'game_screenshots_list',
  );
  return rows.map(toSummary);
}

export async function findScreenshot(
  q: Queryable,
  gameId: string,
  id: string,
): Promise<StoredScreenshot | null> {
  const rows = await q.query<ScreenshotRow & { bytes: Uint8Array }>(
    `SELECT ${SUMMARY_COLUMNS}, bytes FROM game_screenshots WHERE game_id = $1 AND id = $2`,
    [gameId, id],
    'game_screenshots_find',
  );
  const r = rows[0];
  return r ? { ...toSummary(r), bytes: r.bytes } : null;
}

/**
 * Locks the game's row and counts its screenshots, so two uploads at once cannot both pass the
 * limit; call inside the transaction that inserts. The next position follows the last one.
 */
export async function lockScreenshotSlots(
  tx: Queryable,
  gameId: string,
): Promise<{ count: number; nextPosition: number }> {
  await tx.query('SELECT id FROM games WHERE id = $1 FOR UPDATE', [gameId]);
  const rows = await tx.query<{ count: bigint | number; next_position: number }>(
    `SELECT count(*) AS count, coalesce(max(position) + 1, 0)::integer AS next_position
     FROM game_screenshots WHERE game_id = $1`,
    [gameId],
  );
  return { count: Number(rows[0]?.count ?? 0), nextPosition: rows[0]?.next_position ?? 0 };
}

export async function insertScreenshot(
  tx: Queryable,
  clock: Clock,
  shot: Omit<StoredScreenshot, 'createdAt'>,
): Promise<ScreenshotSummary> {
  const rows = await tx.query<ScreenshotRow>(
    `INSERT INTO game_screenshots
       (id, game_id, position, alt_text, content_type, bytes, width, height, etag, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     RETURNING ${SUMMARY_COLUMNS}`,
    [
      shot.id,
      shot.gameId,
      shot.position,
      shot.altText,
      shot.contentType,
      shot.bytes,
      shot.width,
      shot.height,
      shot.etag,
      clock.now(),
    ],
  );
  if (!rows[0]) throw new Error('insert returned no row');
  return toSummary(rows[0]);
}

/** Deletes one screenshot; false when the game has no such screenshot. */
export async function deleteScreenshot(q: Queryable, gameId: string, id: string): Promise<boolean> {
  const rows = await q.query<{ id: string }>(
    'DELETE FROM game_screenshots WHERE game_id = $1 AND id = $2 RETURNING id',
    [gameId, id],
  );
  return rows.length > 0;
}
