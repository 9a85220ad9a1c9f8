import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * API keys, client secrets and the admin token are 256-bit random strings, so a single SHA-256
 * is enough to store them (no password-style stretching needed: nothing to brute-force).
 */
export function generateSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

/** A short random public id, e.g. a client id or an API key prefix. */
export function generatePublicId(prefix: string, bytes = 9): string {
  return `${prefix}_${randomBytes(bytes).toString('base64url')}`;
}

export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Constant-time comparison of a presented secret with a stored hash. */
export function secretMatches(presented: string, storedHash: Uint8Array): boolean {
  const candidate = hashSecret(presented);
  return candidate.length === storedHash.length && timingSafeEqual(candidate, storedHash);
}
