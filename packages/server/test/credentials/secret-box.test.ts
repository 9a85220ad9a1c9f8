import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeSecretsKey } from '../../src/config-secrets-key.js';
import {
  isSealed,
  SecretBox,
  UnsealError,
  type UnsealReason,
} from '../../src/credentials/secret-box.js';

const CONTEXT = 'server_secret:write_token_key';

/** The reason and message `open` refuses with, or null when it opens. */
function refusal(box: SecretBox, sealed: string, context = CONTEXT) {
  try {
    box.open(sealed, context);
    return null;
  } catch (error) {
    if (!(error instanceof UnsealError)) throw error;
    return { reason: error.reason, message: error.message, keyId: error.keyId };
  }
}

/** `sealed` with part `index` (0 prefix, 1 version, 2 key id, 3 iv, 4 ciphertext, 5 tag) replaced. */
function withPart(sealed: string, index: number, value: string): string {
  const parts = sealed.split('.');
  parts[index] = value;
  return parts.join('.');
}

/** The same base64url bytes with one bit of the first byte flipped. */
function flipBit(part: string): string {
  const bytes = Buffer.from(part, 'base64url');
  bytes[0]! ^= 0x01;
  return bytes.toString('base64url');
}

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));
  const plaintext = randomBytes(32);

  it('round-trips any value, a fresh IV each time, and names its format and key', () => {
    for (const value of [plaintext, Buffer.alloc(0), Buffer.from('-----BEGIN PRIVATE KEY-----')]) {
      const once = box.seal(value, CONTEXT);
      const twice = box.seal(value, CONTEXT);
      expect(once).not.toBe(twice);
      expect(once).toMatch(
        new RegExp(`^sealed\\.v1\\.${box.keyId}\\.[\\w-]{16}\\.[\\w-]*\\.[\\w-]{22}$`),
      );
      expect(box.open(once, CONTEXT).equals(value)).toBe(true);
      expect(box.open(twice, CONTEXT).equals(value)).toBe(true);
      expect(isSealed(once)).toBe(true);
      expect(isSealed(Buffer.from(once, 'latin1'))).toBe(true);
    }
  });

  it('opens what this format sealed before: a value written today opens in every later version', () => {
    // Key 00 01 … 1f. Changing how v1 derives keys or lays out values fails here, not in the
    // field, where it would stop every coinop whose database it sealed from starting.
    const fixed = new SecretBox(Buffer.from(Array.from({ length: 32 }, (_, i) => i)));
    expect(fixed.keyId).toBe('80552a1329b802be');
    const sealed = 'sealed.v1.80552a1329b802be.beBHb8cYRjkyFKpn.atipqqQY.j_3m3YabeNEo8qjHiCvPJg';
    expect(fixed.open(sealed, CONTEXT).toString('utf8')).toBe('coinop');
  });

  it('derives the key id from the key: the same key gives the same id, another key another', () => {
    const key = randomBytes(32);
    expect(new SecretBox(key).keyId).toBe(new SecretBox(Buffer.from(key)).keyId);
    expect(new SecretBox(key).keyId).toMatch(/^[0-9a-f]{16}$/);
    expect(new SecretBox(randomBytes(32)).keyId).not.toBe(new SecretBox(key).keyId);
    // The id is not a prefix of the key, nor of its hash: it tells nothing about the key.
    expect(key.toString('hex')).not.toContain(new SecretBox(key).keyId);
  });

  it('refuses every altered part: version, iv, ciphertext, tag, key id', () => {
    const sealed = box.seal(plaintext, CONTEXT);
    const [, , , iv, ciphertext, tag] = sealed.split('.') as string[];
    const tampered = (reason: UnsealReason) => ({
      reason,
      message: `a value sealed under key ${box.keyId} fails authentication as ${CONTEXT}: altered, or moved from another row`,
      keyId: box.keyId,
    });
    expect(refusal(box, withPart(sealed, 3, flipBit(iv!)))).toEqual(tampered('tampered'));
    expect(refusal(box, withPart(sealed, 4, flipBit(ciphertext!)))).toEqual(tampered('tampered'));
    expect(refusal(box, withPart(sealed, 5, flipBit(tag!)))).toEqual(tampered('tampered'));
    // A value cut short: its ciphertext loses a byte.
    const shorter = Buffer.from(ciphertext!, 'base64url').subarray(1).toString('base64url');
    expect(refusal(box, withPart(sealed, 4, shorter))).toEqual(tampered('tampered'));
    expect(refusal(box, withPart(sealed, 1, 'v2'))).toEqual({
      reason: 'unknown_version',
      message: 'sealed with format v2, this reads v1',
      keyId: null,
    });
    // Naming another key does not make another key's value open, nor this one's.
    expect(refusal(box, withPart(sealed, 2, '0123456789abcdef'))).toEqual({
      reason: 'wrong_key',
      message: `sealed under key 0123456789abcdef, not under this key (${box.keyId})`,
      keyId: '0123456789abcdef',
    });
  });

  it('refuses a value sealed under another key, naming both keys', () => {
    const other = new SecretBox(randomBytes(32));
    const sealed = other.seal(plaintext, CONTEXT);
    expect(refusal(box, sealed)).toEqual({
      reason: 'wrong_key',
      message: `sealed under key ${other.keyId}, not under this key (${box.keyId})`,
      keyId: other.keyId,
    });
    // Relabelled with this key's id, it still fails: the id is authenticated, the key is not it.
    expect(refusal(box, withPart(sealed, 2, box.keyId))).toMatchObject({ reason: 'tampered' });
  });

  it('refuses a value moved to another row (another context)', () => {
    const sealed = box.seal(plaintext, 'server_secret:write_token_key');
    for (const context of [
      'server_secret:cli_poll_token_key',
      'signing_key:write_token_key',
      'server_secret:write_token_key ',
      '',
    ]) {
      expect(refusal(box, sealed, context)).toMatchObject({ reason: 'tampered' });
    }
    expect(refusal(box, sealed, 'server_secret:write_token_key')).toBeNull();
  });

  it('refuses what is not a sealed value', () => {
    const sealed = box.seal(plaintext, CONTEXT);
    const malformed = [
      '',
      '-----BEGIN PRIVATE KEY-----\nMIIE...',
      plaintext.toString('latin1'),
      sealed.replace(/^sealed\./, 'seal.'),
      `${sealed}.extra`,
      sealed.split('.').slice(0, 5).join('.'),
      withPart(sealed, 3, 'not base64!'),
      withPart(sealed, 3, Buffer.alloc(8).toString('base64url')),
      withPart(sealed, 5, Buffer.alloc(12).toString('base64url')),
    ];
    for (const value of malformed) {
      expect(refusal(box, value), value).toMatchObject({ reason: 'malformed' });
    }
    expect(isSealed('-----BEGIN PRIVATE KEY-----')).toBe(false);
    expect(isSealed(randomBytes(32).fill(0x41, 0, 1))).toBe(false);
  });

  it('takes a 32-byte key only (a shorter one is our own bug)', () => {
    for (const bytes of [0, 16, 31, 33, 64]) {
      expect(() => new SecretBox(randomBytes(bytes))).toThrow(
        new TypeError(`a secrets key is 32 bytes, got ${bytes}`),
      );
    }
  });
});

describe('decodeSecretsKey', () => {
  const key = randomBytes(32);

  it('reads 64 hex digits, base64 and base64url of 32 bytes', () => {
    const forms = [
      key.toString('hex'),
      key.toString('hex').toUpperCase(),
      key.toString('base64'),
      key.toString('base64').replace(/=$/, ''),
      key.toString('base64url'),
    ];
    for (const form of forms) {
      expect(Buffer.from(decodeSecretsKey(form) ?? []).toString('hex'), form).toBe(
        key.toString('hex'),
      );
    }
  });

  it('refuses anything else, surrounding spaces included', () => {
    const hex = key.toString('hex');
    const base64 = key.toString('base64');
    const refused = [
      '',
      hex.slice(1),
      `${hex}0`,
      `${hex.slice(1)}g`,
      ` ${hex}`,
      `${hex}\n`,
      ` ${base64}`,
      randomBytes(31).toString('base64'),
      randomBytes(33).toString('base64'),
      // The last character of base64 of 32 bytes carries two unused bits, which must be zero.
      `${base64.slice(0, 42)}B=`,
      `${base64.slice(0, 43)}==`,
    ];
    for (const value of refused) expect(decodeSecretsKey(value), JSON.stringify(value)).toBeNull();
  });
});
