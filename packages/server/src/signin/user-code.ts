import { randomInt, timingSafeEqual } from 'node:crypto';

/**
 * User codes as RFC 8628 §6.1 suggests: 8 letters from 20 consonants (no vowels, so no words;
 * no look-alikes), shown as XXXX-XXXX. 20^8 ≈ 2.6 × 10^10 codes per request.
 */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LETTERS = 8;

export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < LETTERS; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The canonical XXXX-XXXX form of what a person typed (any case, dashes, spaces), or null. */
export function normalizeUserCode(input: string): string | null {
  const letters = input.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== LETTERS || ![...letters].every((c) => ALPHABET.includes(c))) return null;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

/** Whether `input` is `expected` once normalised, compared in constant time. */
export function userCodeMatches(input: string, expected: string): boolean {
  const normalized = normalizeUserCode(input);
  if (normalized === null || normalized.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(normalized), Buffer.from(expected));
}
