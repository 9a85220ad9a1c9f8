import { randomBytes } from 'node:crypto';

/** Bytes in a play's seed: 256 bits, more than any game's randomness needs. */
export const PLAY_SEED_BYTES = 32;

/**
 * A new play's seed (issue 30): 32 bytes from the system's cryptographic generator (OpenSSL's,
 * in user space: about a microsecond), as 64 lowercase hex characters. The game derives the
 * run's randomness from it and its verifier replays the run with it, so it must be unpredictable
 * before the play opens: never `Math.random`.
 */
export function drawPlaySeed(): string {
  return randomBytes(PLAY_SEED_BYTES).toString('hex');
}
