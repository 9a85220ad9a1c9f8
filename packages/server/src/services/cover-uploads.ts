import { createHash } from 'node:crypto';
import { CoinopError, type Clock } from '@coinop/core';
import type { Queryable } from '../store/db.js';
import { saveCover, type StoredCover } from '../store/cover-uploads.js';
import { updateGame, type GameRecord } from '../store/games.js';
import { inspectCover } from './cover-check.js';

/** Uploaded covers: at most this many bytes once decoded. */
export const COVER_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
/** The longest `coverImage` data URL that can decode within the limit (base64 is 4/3). */
export const COVER_UPLOAD_MAX_CHARS = Math.ceil(COVER_UPLOAD_MAX_BYTES / 3) * 4 + 32;

/** A checked cover upload, ready to store. */
export type CoverUpload = Omit<StoredCover, 'gameId' | 'updatedAt'>;

const UPLOAD_TYPES = new Map([
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
] as const);

/**
 * Decodes an upload sent as a `data:<type>;base64,…` URL of one of `contentTypes`, refusing
 * (`validation_failed`, naming `field`) another form, another type or more than `maxBytes`.
 * Covers and avatars both take their uploads this way.
 */
export function decodeImageDataUrl(
  dataUrl: string,
  rule: { field: string; contentTypes: readonly string[]; maxBytes: number },
): { contentType: string; bytes: Buffer } {
  const match = /^data:([a-z/]+);base64,([A-Za-z0-9+/]*={0,2})$/.exec(dataUrl);
  const contentType = match?.[1];
  if (!match?.[2] || contentType === undefined || !rule.contentTypes.includes(contentType)) {
    const forms = rule.contentTypes.map((t) => `data:${t};base64,…`).join(' or ');
    throw new CoinopError('validation_failed', `${rule.field} must be a ${forms} URL`, {
      details: { field: rule.field },
    });
  }
  const bytes = Buffer.from(match[2], 'base64');
  if (bytes.length > rule.maxBytes) {
    throw new CoinopError(
      'validation_failed',
      `${rule.field} must be at most ${rule.maxBytes} bytes, got ${bytes.length}`,
      { details: { field: rule.field, bytes: bytes.length } },
    );
  }
  return { contentType, bytes };
}

/** An HTTP entity tag for an uploaded image: a digest of its bytes. */
export function imageEtag(bytes: Uint8Array): string {
  return `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 22)}"`;
}

/**
 * Decodes a `coverImage` data URL and checks it like a `coverUrl` (a 1920×1080 image), but only
 * PNG and JPEG. Errors name the field `coverImage`.
 */
export function decodeCoverImage(dataUrl: string): CoverUpload {
  return decodeUploadedImage(dataUrl, 'coverImage');
}

/**
 * Decodes an uploaded image's data URL with the cover's checks: PNG or JPEG, at most
 * `COVER_UPLOAD_MAX_BYTES`, 1920×1080. Errors name `field` (screenshots use them too).
 */
export function decodeUploadedImage(dataUrl: string, field: string): CoverUpload {
  const { bytes } = decodeImageDataUrl(dataUrl, {
    field,
    contentTypes: ['image/png', 'image/jpeg'],
    maxBytes: COVER_UPLOAD_MAX_BYTES,
  });
  const image = asUploadField(field, () => inspectCover(bytes));
  const contentType = UPLOAD_TYPES.get(image.type as 'png' | 'jpg');
  if (!contentType) {
    throw new CoinopError(
      'cover_not_image',
      `${field} must be a PNG or JPEG image, found ${image.type}`,
      {
        details: { field, type: image.type },
      },
    );
  }
  return { contentType, bytes, width: image.width, height: image.height, etag: imageEtag(bytes) };
}

/** Where an uploaded cover is served; the version query changes with the image, for caches. */
export function uploadedCoverUrl(
  webOrigin: string | undefined,
  gameId: string,
  etag: string,
): string {
  const path = `/api/catalog/games/${gameId}/cover?v=${etag.replace(/"/g, '')}`;
  return webOrigin === undefined ? path : `${webOrigin}${path}`;
}

/** Stores the upload as the game's cover and points the game's `coverUrl` at it. */
export async function storeUploadedCover(
  tx: Queryable,
  clock: Clock,
  webOrigin: string | undefined,
  gameId: string,
  upload: CoverUpload,
): Promise<GameRecord> {
  await saveCover(tx, clock, { gameId, ...upload });
  const coverUrl = uploadedCoverUrl(webOrigin, gameId, upload.etag);
  const game = await updateGame(tx, clock, gameId, { coverUrl });
  if (!game) throw new Error(`game ${gameId} vanished while its cover was stored`);
  return game;
}

/** Runs a cover check, reporting its failures against `field` instead of `coverUrl`. */
function asUploadField<T>(field: string, check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof CoinopError)) throw error;
    throw new CoinopError(error.code, error.message.replace(/^coverUrl\b/, field), {
      details: { ...error.details, field },
      cause: error,
    });
  }
}
