import { CoinopError } from '@coinop/core';
import type { StoredAvatar } from '../store/profiles.js';
import { readImageSize } from './cover-check.js';
import { decodeImageDataUrl, imageEtag } from './cover-uploads.js';

/** Uploaded avatars: at most this many bytes once decoded (a 512 px photo is well under). */
export const AVATAR_MAX_BYTES = 512 * 1024;
/** The longest `image` data URL that can decode within the limit (base64 is 4/3). */
export const AVATAR_MAX_CHARS = Math.ceil(AVATAR_MAX_BYTES / 3) * 4 + 32;
/** Smaller is a blur in a 40 px circle on a high-density screen; larger is waste. */
export const AVATAR_MIN_PIXELS = 64;
export const AVATAR_MAX_PIXELS = 2048;

const AVATAR_TYPES = new Map([
  ['png', 'image/png'],
  ['jpg', 'image/jpeg'],
  ['webp', 'image/webp'],
] as const);

function refused(reason: string, message: string, details: object = {}): CoinopError {
  return new CoinopError('avatar_invalid', message, {
    details: { field: 'image', reason, ...details },
  });
}

/**
 * Decodes an avatar data URL and checks it with the cover upload's checks: the declared type,
 * the byte limit, that the bytes are the image they claim (the format read from the bytes, not
 * the label) and its size. Throws `avatar_invalid` saying which check failed.
 */
export function decodeAvatarImage(playerId: string, dataUrl: string): StoredAvatar {
  let decoded: ReturnType<typeof decodeImageDataUrl>;
  try {
    decoded = decodeImageDataUrl(dataUrl, {
      field: 'image',
      contentTypes: [...AVATAR_TYPES.values()],
      maxBytes: AVATAR_MAX_BYTES,
    });
  } catch (error) {
    if (!(error instanceof CoinopError)) throw error;
    const tooLarge = typeof error.details?.['bytes'] === 'number';
    throw refused(tooLarge ? 'too_large' : 'not_data_url', error.message, error.details ?? {});
  }
  const { bytes } = decoded;
  const image = readImageSize(bytes);
  const contentType = image === null ? undefined : AVATAR_TYPES.get(image.type as 'png');
  if (image === null || contentType === undefined) {
    throw refused(
      'not_image',
      `image must be a PNG, JPEG or WebP picture, found ${image?.type ?? 'something else'}`,
    );
  }
  if (contentType !== decoded.contentType) {
    throw refused(
      'not_image',
      `image is labelled ${decoded.contentType} but its bytes are ${contentType}`,
    );
  }
  const { width, height } = image;
  const within = (n: number) => n >= AVATAR_MIN_PIXELS && n <= AVATAR_MAX_PIXELS;
  if (!within(width) || !within(height)) {
    throw refused(
      'wrong_size',
      `image must be ${AVATAR_MIN_PIXELS} to ${AVATAR_MAX_PIXELS} pixels on each side, ` +
        `found ${width}x${height}`,
      { width, height },
    );
  }
  return { playerId, contentType, bytes, width, height, etag: imageEtag(bytes) };
}
