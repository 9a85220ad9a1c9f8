/**
 * The operator's secrets key in its text form, below both its readers: config checks it at
 * start, credentials/ (the secret box) decodes it to seal and open the stored secrets.
 */

/** The operator key is 32 bytes: AES-256. */
export const SECRETS_KEY_BYTES = 32;

/**
 * The operator key from its text form: 64 hex digits, or base64 / base64url of 32 bytes (what
 * `openssl rand -hex 32` and `openssl rand -base64 32` print). Null when it is neither.
 */
export function decodeSecretsKey(text: string): Uint8Array | null {
  const value = text;
  if (/^[0-9a-f]{64}$/i.test(value)) return Buffer.from(value, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) {
    const url = value.replace(/=$/, '').replace(/\+/g, '-').replace(/\//g, '_');
    const bytes = Buffer.from(url, 'base64url');
    // Base64 of 32 bytes ends in a character whose low two bits are zero; others are typos.
    if (bytes.length === SECRETS_KEY_BYTES && b64(bytes) === url) return bytes;
  }
  return null;
}

function b64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}
