import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import {
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SecretBox } from '../../src/credentials/secret-box.js';
import { ManualClock } from '../../src/ids.js';
import { SigningKeys } from '../../src/credentials/signing-keys.js';
import type { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { pgliteDb } from '../../src/store/pglite.js';
import {
  ensureServerSecret,
  sealStoredSecrets,
  SecretsUnreadableError,
  signingKeyContext,
} from '../../src/credentials/sealed-secrets.js';
import { insertSigningKey } from '../../src/store/signin-keys.js';
import { openTestDb, storeVariants } from '@coinop/testkit/db';
import { testSecretBox } from '@coinop/testkit/secrets';

const POLICY = { rotationDays: 30, tokenTtlSeconds: 86_400 };
const SECRET_NAMES = ['write_token_key', 'cli_poll_token_key'];

/** Every value of every row of the two tables that hold secrets, as bytes. */
async function rawRows(db: Db): Promise<Buffer> {
  const rows = [
    ...(await db.query('SELECT * FROM server_secrets')),
    ...(await db.query('SELECT * FROM signing_keys')),
  ];
  return Buffer.concat(
    rows.flatMap((row) =>
      Object.values(row).map((v) =>
        v instanceof Uint8Array ? Buffer.from(v) : Buffer.from(String(v), 'utf8'),
      ),
    ),
  );
}

/** The ways a private key or an HMAC key could appear in plain text. */
function plainForms(secret: Buffer): Buffer[] {
  return [secret, Buffer.from(secret.toString('hex')), Buffer.from(secret.toString('base64'))];
}

/** A PKCS#8 PEM's DER bytes. */
function derOf(pem: string): Buffer {
  return Buffer.from(pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''), 'base64');
}

/** What the earlier versions stored: the HMAC keys' bytes and signing keys' PEM, as they are. */
async function writePlaintextRows(db: Db, now: Date) {
  const secrets = new Map<string, Buffer>();
  for (const name of SECRET_NAMES) {
    const value = randomBytes(32);
    await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2)', [name, value]);
    secrets.set(name, value);
  }
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(publicKey);
  const publicJwk = { kty: jwk.kty, n: jwk.n, e: jwk.e };
  const kid = await calculateJwkThumbprint(publicJwk);
  const pem = await exportPKCS8(privateKey);
  await insertSigningKey(
    db,
    {
      kid,
      publicJwk: JSON.stringify(publicJwk),
      sealedPrivateKey: pem,
      maxTtlSeconds: 86_400,
      createdAt: now,
    },
    now,
  );
  return { secrets, kid, pem, publicKey };
}

describe.each(storeVariants())('secrets at rest on %s', (variant) => {
  let db: Db;
  let box: SecretBox;
  const clock = new ManualClock();

  beforeEach(async () => {
    db = await openTestDb(variant);
    box = testSecretBox();
  });
  afterEach(() => db.close());

  it('stores the HMAC keys and the signing keys sealed: no row holds them in plain text', async () => {
    const hmacKeys = await Promise.all(
      SECRET_NAMES.map(async (name) => Buffer.from(await ensureServerSecret(db, name, 32, box))),
    );
    const keys = new SigningKeys(db, clock, box, POLICY);
    await keys.ensureActive();
    await keys.rotate(); // A retired key, an active one and the next one.
    const stored = await db.query<{ kid: string; private_pkcs8: string }>(
      'SELECT kid, private_pkcs8 FROM signing_keys',
    );
    expect(stored).toHaveLength(3);

    const raw = await rawRows(db);
    expect(raw.includes('PRIVATE KEY')).toBe(false);
    for (const key of hmacKeys) {
      for (const form of plainForms(key)) expect(raw.includes(form)).toBe(false);
    }
    for (const { kid, private_pkcs8: sealed } of stored) {
      expect(sealed.startsWith(`sealed.v1.${box.keyId}.`)).toBe(true);
      const pem = box.open(sealed, signingKeyContext(kid)).toString('utf8');
      expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
      for (const form of plainForms(derOf(pem))) expect(raw.includes(form)).toBe(false);
    }
    const values = await db.query<{ value: Uint8Array }>('SELECT value FROM server_secrets');
    for (const { value } of values) {
      expect(Buffer.from(value).toString('latin1')).toMatch(
        new RegExp(`^sealed\\.v1\\.${box.keyId}\\.`),
      );
    }
    // A second start on the same database gets the same keys back.
    for (const [i, name] of SECRET_NAMES.entries()) {
      expect(Buffer.from(await ensureServerSecret(db, name, 32, box)).equals(hmacKeys[i]!)).toBe(
        true,
      );
    }
  });

  it('seals the plaintext rows of an earlier version once, with several processes starting at once', async () => {
    const old = await writePlaintextRows(db, clock.now());

    const counts = await Promise.all([
      sealStoredSecrets(db, box),
      sealStoredSecrets(db, box),
      sealStoredSecrets(db, box),
    ]);
    expect(counts.sort()).toEqual([0, 0, 3]);

    const raw = await rawRows(db);
    expect(raw.includes('PRIVATE KEY')).toBe(false);
    for (const form of plainForms(derOf(old.pem))) expect(raw.includes(form)).toBe(false);
    for (const secret of old.secrets.values()) {
      for (const form of plainForms(secret)) expect(raw.includes(form)).toBe(false);
    }
    // The same secrets, sealed: write tokens and player tokens issued before still verify.
    for (const [name, secret] of old.secrets) {
      expect(Buffer.from(await ensureServerSecret(db, name, 32, box)).equals(secret)).toBe(true);
    }
    const { kid, key } = await new SigningKeys(db, clock, box, POLICY).signingKey(60);
    expect(kid).toBe(old.kid);
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid }).sign(key);
    await expect(jwtVerify(token, old.publicKey)).resolves.toBeDefined();

    // Idempotent: a later start finds nothing to seal and rewrites nothing.
    expect(await sealStoredSecrets(db, box)).toBe(0);
    expect((await rawRows(db)).equals(raw)).toBe(true);
  });

  it('refuses a database sealed under another key, and writes nothing', async () => {
    const other = testSecretBox();
    await ensureServerSecret(db, 'write_token_key', 32, other);
    // A row still in plain text beside it must stay so: the refusal seals nothing.
    const plain = randomBytes(32);
    await db.query('INSERT INTO server_secrets (name, value) VALUES ($1, $2)', ['aa_plain', plain]);
    const before = await rawRows(db);

    const error = await sealStoredSecrets(db, box).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretsUnreadableError);
    expect(error).toMatchObject({
      row: 'server_secret:write_token_key',
      reason: 'wrong_key',
      keyId: other.keyId,
      message: `server_secret:write_token_key: sealed under key ${other.keyId}, not under this key (${box.keyId})`,
    });
    expect((await rawRows(db)).equals(before)).toBe(true);
    await expect(ensureServerSecret(db, 'write_token_key', 32, box)).rejects.toMatchObject({
      reason: 'wrong_key',
    });
    expect(await sealStoredSecrets(db, other)).toBe(1);
  });

  it('refuses a sealed value copied onto another row', async () => {
    await Promise.all(SECRET_NAMES.map((name) => ensureServerSecret(db, name, 32, box)));
    const keys = new SigningKeys(db, clock, box, POLICY);
    await keys.ensureActive();
    expect(await sealStoredSecrets(db, box)).toBe(0);

    // Someone with write access to the database swaps the two HMAC keys' values.
    await db.query(
      `UPDATE server_secrets SET value = (SELECT value FROM server_secrets WHERE name = $2)
       WHERE name = $1`,
      ['cli_poll_token_key', 'write_token_key'],
    );
    await expect(sealStoredSecrets(db, box)).rejects.toMatchObject({
      row: 'server_secret:cli_poll_token_key',
      reason: 'tampered',
    });
    await db.query('DELETE FROM server_secrets WHERE name = $1', ['cli_poll_token_key']);
    expect(await sealStoredSecrets(db, box)).toBe(0);

    // The same between signing keys: the next key's value on the active key's row.
    const rows = await db.query<{ kid: string; private_pkcs8: string }>(
      'SELECT kid, private_pkcs8 FROM signing_keys ORDER BY activated_at NULLS LAST',
    );
    const [active, next] = rows as [(typeof rows)[0], (typeof rows)[0]];
    await db.query('UPDATE signing_keys SET private_pkcs8 = $2 WHERE kid = $1', [
      active.kid,
      next.private_pkcs8,
    ]);
    await expect(sealStoredSecrets(db, box)).rejects.toMatchObject({
      row: `signing_key:${active.kid}`,
      reason: 'tampered',
    });
    await expect(new SigningKeys(db, clock, box, POLICY).signingKey(60)).rejects.toMatchObject({
      reason: 'tampered',
    });
  });
});

describe('the embedded database on disk', () => {
  it('holds no HMAC key or private key in plain text anywhere in its files', async () => {
    const pg = new PGlite();
    const db = pgliteDb(pg);
    try {
      await migrate(db);
      const box = testSecretBox();
      const hmacKeys = await Promise.all(
        SECRET_NAMES.map(async (name) => Buffer.from(await ensureServerSecret(db, name, 32, box))),
      );
      const keys = new SigningKeys(db, new ManualClock(), box, POLICY);
      await keys.ensureActive();
      const rows = await db.query<{ kid: string; private_pkcs8: string; public_jwk: string }>(
        'SELECT kid, private_pkcs8, public_jwk FROM signing_keys',
      );
      // Written out to the heap files first: a row that lives only in the WAL may straddle a WAL
      // page boundary, where a page header splits it and no scan would find it whole.
      await db.query('CHECKPOINT');
      const files = Buffer.from(await (await pg.dumpDataDir('none')).arrayBuffer());

      // The scan sees what is stored: the public keys are there.
      for (const row of rows) {
        expect(files.includes((JSON.parse(row.public_jwk) as { n: string }).n)).toBe(true);
      }
      expect(files.includes('PRIVATE KEY')).toBe(false);
      for (const key of hmacKeys) {
        for (const form of plainForms(key)) expect(files.includes(form)).toBe(false);
      }
      for (const row of rows) {
        const pem = box.open(row.private_pkcs8, signingKeyContext(row.kid)).toString('utf8');
        for (const form of plainForms(derOf(pem))) expect(files.includes(form)).toBe(false);
      }
    } finally {
      await pg.close();
    }
  });
});
