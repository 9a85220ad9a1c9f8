import {
  calculateJwkThumbprint,
  createLocalJWKSet,
  errors as joseErrors,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importPKCS8,
  type CryptoKey,
  type JWK,
  type JWTVerifyGetKey,
} from 'jose';
import type { Clock } from '@coinop/core';
import type { SecretBox } from './secret-box.js';
import type { Db } from '../store/db.js';
import { openStored, signingKeyContext } from './sealed-secrets.js';
import {
  activateSigningKey,
  deleteAllSigningKeys,
  deleteUnpublishedSigningKeys,
  findActiveSigningKey,
  findNextSigningKey,
  insertSigningKey,
  listPublishedSigningKeys,
  lockSigningKeys,
  raiseSigningKeyMaxTtl,
  retireActiveSigningKey,
  type SigningKeyRecord,
} from '../store/signin-keys.js';

/** The one algorithm player tokens are signed with (the published validator uses jwks-rsa). */
export const PLAYER_TOKEN_ALG = 'RS256';
const RSA_MODULUS_BITS = 2048;
const DAY_MS = 86_400_000;

/**
 * How long a retired key stays published beyond its longest token: covers a process that read
 * the key as active just before another retired it, and verifiers whose clocks run behind.
 */
export const KEY_RETIREMENT_GRACE_SECONDS = 300;

/** A public signing key as the JWKS publishes it. */
export type PublicSigningJwk = JWK & { kid: string; alg: 'RS256'; use: 'sig' };

export interface SigningKeyPolicy {
  /** A key this old is replaced the next time a token is signed. */
  readonly rotationDays: number;
  /** The lifetime of ordinary tokens; a new key starts out covering it. */
  readonly tokenTtlSeconds: number;
}

/**
 * The player-token signing keys, kept in storage (private halves sealed under the secrets key) so
 * every process signs with the same active key and a restart keeps every issued token valid.
 * Rotation runs under a database lock: on schedule (lazily, when a token is signed with a key
 * older than the policy allows) or on demand.
 */
export class SigningKeys {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #secrets: SecretBox;
  readonly #policy: SigningKeyPolicy;
  /** Imported private keys by kid; the rows themselves are re-read for every token. */
  readonly #imported = new Map<string, Promise<CryptoKey>>();

  constructor(db: Db, clock: Clock, secrets: SecretBox, policy: SigningKeyPolicy) {
    this.#db = db;
    this.#clock = clock;
    this.#secrets = secrets;
    this.#policy = policy;
  }

  /**
   * Makes sure an active key exists (creating or rotating it as the policy says) and a next key
   * is already published, so the next rotation signs with a key verifiers have fetched.
   */
  async ensureActive(): Promise<string> {
    const kid = (await this.#current()).kid;
    if (!(await findNextSigningKey(this.#db))) await this.#replace(false);
    return kid;
  }

  /**
   * The key to sign a token living `ttlSeconds` with. Records the lifetime first, so the key is
   * never unpublished while the token may still be presented.
   */
  async signingKey(ttlSeconds: number): Promise<{ kid: string; key: CryptoKey }> {
    const record = await this.#current();
    if (ttlSeconds > record.maxTtlSeconds) {
      await raiseSigningKeyMaxTtl(this.#db, record.kid, ttlSeconds);
    }
    return { kid: record.kid, key: await this.#privateKey(record) };
  }

  /** Retires the active key now and starts signing with a new one (`coinop admin keys rotate`). */
  async rotate(): Promise<{ kid: string; retiredKid: string | null }> {
    const { kid, retiredKid } = await this.#replace(true);
    return { kid, retiredKid };
  }

  /**
   * After a leak: deletes every key (the active one, the next one, which may have leaked with
   * it, and the retired ones still published) and signs with a new one from now on, a new next
   * key published beside it. Every player token signed before stops validating here at once, and
   * at game servers once their JWKS cache expires: players sign in again.
   */
  async revokeAll(): Promise<{ kid: string; revokedKids: string[] }> {
    const { kid, revokedKids } = await this.#replace(true, { revokeAll: true });
    return { kid, revokedKids };
  }

  /** The public keys verifiers need: the active one, the next one, and retired ones in use. */
  async publishedKeys(): Promise<PublicSigningJwk[]> {
    const rows = await listPublishedSigningKeys(
      this.#db,
      this.#clock.now(),
      KEY_RETIREMENT_GRACE_SECONDS,
    );
    return rows.map((row) => ({
      ...(JSON.parse(row.publicJwk) as JWK),
      kid: row.kid,
      alg: PLAYER_TOKEN_ALG,
      use: 'sig',
    }));
  }

  /**
   * A key source for `validatePlayerToken` that reads the published keys from storage, so a key
   * rotated by another process or retired past its window is seen at once.
   */
  keySource(): JWTVerifyGetKey {
    return async (header, token) => {
      const keys = await this.publishedKeys();
      try {
        return await createLocalJWKSet({ keys })(header, token);
      } catch (error) {
        if (error instanceof joseErrors.JWKSNoMatchingKey) {
          throw new joseErrors.JWKSNoMatchingKey(`no published signing key has kid ${header.kid}`);
        }
        throw error;
      }
    };
  }

  async #current(): Promise<SigningKeyRecord> {
    const active = await findActiveSigningKey(this.#db);
    if (active && !this.#isDue(active)) return active;
    await this.#replace(false);
    // Whichever key is active now, ours or one another process made meanwhile, is the one to use.
    const fresh = await findActiveSigningKey(this.#db);
    if (!fresh) throw new Error('no active signing key after rotation');
    return fresh;
  }

  #isDue(key: SigningKeyRecord): boolean {
    // A key ages from when it began signing, not from when it was published as the next one.
    const ageMs = this.#clock.now().getTime() - (key.activatedAt ?? key.createdAt).getTime();
    return ageMs >= this.#policy.rotationDays * DAY_MS;
  }

  /**
   * Under the lock: when `force`, or when no key is active or the active one is due, retires it
   * and activates the published next key (or a new one when there is none); then makes sure a
   * next key is published. Leaves a fresh active key alone (another process got there first).
   * Also deletes retired keys that no live token can name. With `revokeAll`, deletes every key
   * first, so the new active key is a fresh one and so is the next.
   */
  async #replace(
    force: boolean,
    { revokeAll = false } = {},
  ): Promise<{ kid: string; retiredKid: string | null; revokedKids: string[] }> {
    return this.#db.transaction(async (tx) => {
      await lockSigningKeys(tx);
      const now = this.#clock.now();
      // A revocation leaves no key at all: what follows makes a new active and next key.
      const revokedKids = revokeAll ? await deleteAllSigningKeys(tx) : [];
      const current = await findActiveSigningKey(tx);
      let kid = current?.kid ?? null;
      let retiredKid: string | null = null;
      if (!current || force || this.#isDue(current)) {
        retiredKid = await retireActiveSigningKey(tx, now);
        const next = await findNextSigningKey(tx);
        if (next) {
          await activateSigningKey(tx, next.kid, now);
          kid = next.kid;
        } else {
          const fresh = await generateSigningKey(this.#secrets, this.#policy.tokenTtlSeconds, now);
          await insertSigningKey(tx, fresh, now);
          kid = fresh.kid;
        }
      }
      if (!(await findNextSigningKey(tx))) {
        await insertSigningKey(
          tx,
          await generateSigningKey(this.#secrets, this.#policy.tokenTtlSeconds, now),
          null,
        );
      }
      await deleteUnpublishedSigningKeys(tx, now, KEY_RETIREMENT_GRACE_SECONDS);
      if (kid === null) throw new TypeError('no active signing key after rotation');
      return { kid, retiredKid, revokedKids };
    });
  }

  #privateKey(record: SigningKeyRecord): Promise<CryptoKey> {
    let key = this.#imported.get(record.kid);
    if (!key) {
      const pem = openStored(this.#secrets, record.sealedPrivateKey, signingKeyContext(record.kid));
      key = importPKCS8(pem.toString('utf8'), PLAYER_TOKEN_ALG);
      this.#imported.set(record.kid, key);
    }
    return key;
  }
}

/**
 * A new RSA key pair, its private half sealed under `secrets`; its kid is the RFC 7638
 * thumbprint of the public key.
 */
async function generateSigningKey(
  secrets: SecretBox,
  maxTtlSeconds: number,
  createdAt: Date,
): Promise<Omit<SigningKeyRecord, 'retiredAt' | 'activatedAt'>> {
  const { publicKey, privateKey } = await generateKeyPair(PLAYER_TOKEN_ALG, {
    modulusLength: RSA_MODULUS_BITS,
    extractable: true,
  });
  const jwk = await exportJWK(publicKey);
  const publicJwk = { kty: jwk.kty, n: jwk.n, e: jwk.e };
  const kid = await calculateJwkThumbprint(publicJwk);
  const pem = Buffer.from(await exportPKCS8(privateKey), 'utf8');
  return {
    kid,
    publicJwk: JSON.stringify(publicJwk),
    sealedPrivateKey: secrets.seal(pem, signingKeyContext(kid)),
    maxTtlSeconds,
    createdAt,
  };
}
