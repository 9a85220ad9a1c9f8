import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { SECRETS_KEY_BYTES } from '../config-secrets-key.js';

/**
 * Envelope encryption of the secrets coinop stores (token signing keys, HMAC keys) under the
 * operator's secrets key: AES-256-GCM from node:crypto, a fresh 96-bit IV per value.
 *
 * A sealed value is ASCII text, `sealed.v1.<keyId>.<iv>.<ciphertext>.<tag>` (base64url parts),
 * so it fits a text or a bytea column and says which format and which key made it. The
 * additional authenticated data is the header plus a context naming what the value is (say
 * `server_secret:write_token_key`), so a ciphertext copied onto another row does not open.
 */

/** Every sealed value starts with this; a stored secret without it is plaintext. */
export const SEALED_PREFIX = 'sealed.';
const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12; // NIST SP 800-38D's recommended IV length for GCM.
const TAG_BYTES = 16;
const KEY_ID_BYTES = 8;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Why a sealed value did not open. */
export type UnsealReason = 'malformed' | 'unknown_version' | 'wrong_key' | 'tampered';

/** A stored value that cannot be opened with this key; `keyId` is the key it names, if any. */
export class UnsealError extends Error {
  override readonly name = 'UnsealError';
  readonly reason: UnsealReason;
  readonly keyId: string | null;

  constructor(reason: UnsealReason, message: string, keyId: string | null = null) {
    super(message);
    this.reason = reason;
    this.keyId = keyId;
  }
}

/**
 * Seals and opens values under one operator key. The cipher key and the key id are derived from
 * it with HKDF-SHA256 under distinct labels, so neither use of the key weakens the other.
 */
export class SecretBox {
  /** Names the key in every value it seals; being derived one-way, it reveals nothing. */
  readonly keyId: string;
  readonly #key: KeyObject;

  constructor(key: Uint8Array) {
    if (key.length !== SECRETS_KEY_BYTES) {
      throw new TypeError(`a secrets key is ${SECRETS_KEY_BYTES} bytes, got ${key.length}`);
    }
    const derive = (label: string, bytes: number) =>
      Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), label, bytes));
    this.#key = createSecretKey(derive(`coinop secrets ${VERSION} aes-256-gcm`, 32));
    this.keyId = derive('coinop secrets key id', KEY_ID_BYTES).toString('hex');
  }

  /** Encrypts `plaintext` as a value that opens only with this key and the same `context`. */
  seal(plaintext: Uint8Array, context: string): string {
    const header = `${SEALED_PREFIX}${VERSION}.${this.keyId}`;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.#key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(header, context));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return [header, b64(iv), b64(ciphertext), b64(cipher.getAuthTag())].join('.');
  }

  /**
   * The plaintext of a value `seal` made with this key and `context`. Throws UnsealError when the
   * value is not a sealed value, names another version or key, or fails authentication.
   */
  open(sealed: string, context: string): Buffer {
    const parts = sealed.split('.');
    if (parts.length !== 6 || `${parts[0]}.` !== SEALED_PREFIX) {
      throw new UnsealError('malformed', `not a sealed value (expected ${SEALED_PREFIX}…)`);
    }
    const [prefix, version, keyId, iv, ciphertext, tag] = parts as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (version !== VERSION) {
      throw new UnsealError(
        'unknown_version',
        `sealed with format ${version}, this reads ${VERSION}`,
      );
    }
    if (keyId !== this.keyId) {
      throw new UnsealError(
        'wrong_key',
        `sealed under key ${keyId}, not under this key (${this.keyId})`,
        keyId,
      );
    }
    if (![iv, ciphertext, tag].every((p) => BASE64URL.test(p))) {
      throw new UnsealError('malformed', 'a sealed value has parts that are not base64url', keyId);
    }
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
      throw new UnsealError('malformed', 'a sealed value has a bad IV or tag length', keyId);
    }
    const decipher = createDecipheriv(ALGORITHM, this.#key, ivBytes, {
      authTagLength: TAG_BYTES,
    });
    decipher.setAAD(additionalData(`${prefix}.${version}.${keyId}`, context));
    decipher.setAuthTag(tagBytes);
    try {
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]);
    } catch {
      throw new UnsealError(
        'tampered',
        `a value sealed under key ${keyId} fails authentication as ${context}: altered, or moved from another row`,
        keyId,
      );
    }
  }
}

/** Whether a stored value is sealed (else it is plaintext from before encryption at rest). */
export function isSealed(stored: string | Uint8Array): boolean {
  const text = typeof stored === 'string' ? stored : Buffer.from(stored).toString('latin1');
  return text.startsWith(SEALED_PREFIX);
}

function additionalData(header: string, context: string): Buffer {
  return Buffer.from(`${header}|${context}`, 'utf8');
}

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}
