import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SignJWT,
  base64url,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importPKCS8,
  jwtVerify,
} from 'jose';
import { CoinopError } from '@coinop/core';
import { storeVariants } from '@coinop/testkit/db';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import {
  buildTestSignin,
  gameSignIn,
  newWallet,
  portOf,
  walletSignIn,
  type TestSignin,
} from '@coinop/testkit/signin';
import {
  validatePlayerToken,
  type PlayerTokenCheck,
} from '../../src/credentials/validate-player-token.js';
import { SigningKeys } from '../../src/credentials/signing-keys.js';
import { signingKeyContext } from '../../src/credentials/sealed-secrets.js';
import { buildAuth } from '../../src/signin/app.js';
import { uuidIds } from '../../src/ids.js';

const DAY_MS = 86_400_000;

describe.each(storeVariants())('player tokens and JWKS on %s', (variant) => {
  let s: TestSignin;
  beforeAll(async () => {
    s = await buildTestSignin(variant);
  });
  afterAll(() => s.close());

  const keys = () =>
    new SigningKeys(s.db, s.clock, s.secrets, { rotationDays: 30, tokenTtlSeconds: 86_400 });
  const check = (now = s.clock.now()): PlayerTokenCheck => ({
    keys: keys().keySource(),
    authIssuer: s.config.authIssuer,
    claimsNamespace: s.config.claimsNamespace,
    now,
  });
  const jwks = async () =>
    (await s.auth.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json<{
      keys: { kid: string; kty: string; alg: string; use: string; n: string; e: string }[];
    }>();
  const admin = (url: string, payload?: object) =>
    s.api.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      ...(payload === undefined ? {} : { payload }),
    });
  const refusal = async (token: string | undefined, at?: Date) => {
    try {
      await validatePlayerToken(token, check(at));
    } catch (error) {
      if (!(error instanceof CoinopError)) throw error;
      return { code: error.code, message: error.message, reason: error.details?.['reason'] };
    }
    throw new Error('token was accepted');
  };

  it('publishes RS256 public keys only', async () => {
    const { keys: published } = await jwks();
    expect(published.length).toBeGreaterThanOrEqual(1);
    for (const key of published) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    }
  });

  it('validates a sign-in token with jose against the live JWKS on a real listener', async () => {
    const session = await walletSignIn(s.auth, newWallet());
    // A second sign-in process on the same storage, listening: it publishes the same keys.
    const other = await buildAuth(s.config, {
      db: s.db,
      clock: s.clock,
      ids: uuidIds,
      secrets: s.secrets,
    });
    const url = await other.listen({ host: '127.0.0.1', port: 0 });
    try {
      expect(url).toBe(`http://127.0.0.1:${portOf(other)}`);
      const remote = createRemoteJWKSet(new URL(`${url}/.well-known/jwks.json`));
      const { payload, protectedHeader } = await jwtVerify(session.access_token, remote, {
        algorithms: ['RS256'],
        issuer: `https://${s.config.authIssuer}/`,
        currentDate: s.clock.now(),
      });
      expect(protectedHeader.kid).toBe((await jwks()).keys[0]!.kid);
      expect(payload[`https://${s.config.claimsNamespace}/playerId`]).toBe(session.playerId);
      const valid = await validatePlayerToken(session.access_token, {
        keys: remote,
        authIssuer: s.config.authIssuer,
        claimsNamespace: s.config.claimsNamespace,
        now: s.clock.now(),
      });
      expect(valid.playerId).toBe(session.playerId);
    } finally {
      await other.close();
    }
  });

  it('keeps tokens valid across a restart and a key rotation, until they expire', async () => {
    const before = await walletSignIn(s.auth, newWallet());
    const oldKid = decodeProtectedHeader(before.access_token).kid;
    await s.restart();
    expect((await validatePlayerToken(before.access_token, check())).playerId).toBe(
      before.playerId,
    );

    // The key a rotation makes active was already published as the next key, so verifiers
    // that cached the JWKS know it before it signs anything.
    const publishedBefore = (await jwks()).keys.map((k) => k.kid);
    expect(publishedBefore).toHaveLength(2);
    expect(publishedBefore[0]).toBe(oldKid);
    const rotated = await admin('/admin/keys/rotate');
    expect(rotated.statusCode).toBe(200);
    expect(rotated.json()).toEqual({ kid: publishedBefore[1], retiredKid: oldKid });
    const newKid = rotated.json().kid;
    const publishedAfter = (await jwks()).keys.map((k) => k.kid);
    expect(publishedAfter).toEqual([newKid, expect.any(String), oldKid]);
    const nextKid = publishedAfter[1];
    expect(new Set(publishedAfter).size).toBe(3);

    const after = await walletSignIn(s.auth, newWallet());
    expect(decodeProtectedHeader(after.access_token).kid).toBe(newKid);
    await s.restart();
    for (const token of [before, after]) {
      expect((await validatePlayerToken(token.access_token, check())).playerId).toBe(
        token.playerId,
      );
    }

    // The retired key is published until its last token (a day) plus the grace has passed.
    s.clock.advance(DAY_MS);
    expect((await jwks()).keys.map((k) => k.kid)).toEqual([newKid, nextKid, oldKid]);
    s.clock.advance(301_000);
    expect((await jwks()).keys.map((k) => k.kid)).toEqual([newKid, nextKid]);
    expect(await refusal(before.access_token)).toMatchObject({ code: 'invalid_player_token' });
  });

  it('keeps a retired key published as long as an admin-minted token it signed', async () => {
    const [player] = await s.db.query<{ id: string }>('SELECT id FROM players LIMIT 1');
    const minted = await admin(`/admin/players/${player!.id}/token`, { ttl: 10 * 86_400 });
    expect(minted.statusCode).toBe(201);
    expect(Object.keys(minted.json())).toEqual(['access_token']);
    const token = minted.json().access_token as string;
    const claims = decodeJwt(token);
    expect(claims.exp! - claims.iat!).toBe(10 * 86_400);
    const kid = decodeProtectedHeader(token).kid!;

    await admin('/admin/keys/rotate');
    s.clock.advance(9 * DAY_MS);
    expect((await jwks()).keys.map((k) => k.kid)).toContain(kid);
    expect((await validatePlayerToken(token, check())).playerId).toBe(player!.id);
    s.clock.advance(DAY_MS + 301_000);
    expect((await jwks()).keys.map((k) => k.kid)).not.toContain(kid);

    const oneSecond = await admin(`/admin/players/${player!.id}/token`, { ttl: 1 });
    const short = oneSecond.json().access_token as string;
    expect((await validatePlayerToken(short, check())).playerId).toBe(player!.id);
    expect(await refusal(short, new Date(s.clock.now().getTime() + 1000))).toMatchObject({
      reason: 'expired',
    });

    const tooLong = await admin(`/admin/players/${player!.id}/token`, { ttl: 31 * 86_400 });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({
      code: 'validation_failed',
      message: 'ttl must be at most 2592000 seconds, got 2678400',
    });
    const nobody = await admin('/admin/players/01890000-0000-7000-8000-000000000000/token', {});
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json().code).toBe('player_not_found');
  });

  it('rotates on schedule, when a key older than --key-rotation-days would sign', async () => {
    await admin('/admin/keys/rotate');
    const first = await walletSignIn(s.auth, newWallet());
    const firstKid = decodeProtectedHeader(first.access_token).kid;
    s.clock.advance(30 * DAY_MS - 10 * 60_000);
    const same = await walletSignIn(s.auth, newWallet());
    expect(decodeProtectedHeader(same.access_token).kid).toBe(firstKid);
    s.clock.advance(10 * 60_000);
    const next = await walletSignIn(s.auth, newWallet());
    expect(decodeProtectedHeader(next.access_token).kid).not.toBe(firstKid);
    expect((await validatePlayerToken(next.access_token, check())).playerId).toBe(next.playerId);
    // The retired key still verifies the tokens it signed a moment ago.
    expect((await validatePlayerToken(same.access_token, check())).playerId).toBe(same.playerId);
  });

  it('revokes every key after a leak: the tokens issued before are refused at once', async () => {
    const before = await walletSignIn(s.auth, newWallet());
    // A rotation first: a retired key still published, as it would be after one.
    await admin('/admin/keys/rotate');
    const published = (await jwks()).keys.map((k) => k.kid).sort();
    expect(published.length).toBeGreaterThanOrEqual(3);
    // Only the admin token revokes: no credential, a player's web session or game token, or a
    // wrong admin token, is refused.
    const gameToken = await gameSignIn(s.auth, newWallet());
    for (const headers of [
      {},
      { authorization: `Bearer ${before.access_token}` },
      { authorization: `Bearer ${gameToken.access_token}` },
      { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` },
    ]) {
      const res = await s.api.inject({ method: 'POST', url: '/admin/keys/revoke', headers });
      expect(res.statusCode).toBe(401);
    }
    expect((await jwks()).keys.map((k) => k.kid).sort()).toEqual(published);

    const revoked = await admin('/admin/keys/revoke');
    expect(revoked.statusCode, revoked.body).toBe(200);
    const { kid, revokedKids } = revoked.json<{ kid: string; revokedKids: string[] }>();
    // The active key, the next one and every retired one, published or not.
    expect(revokedKids).toEqual(expect.arrayContaining(published));
    expect(revokedKids).not.toContain(kid);
    const after = (await jwks()).keys.map((k) => k.kid);
    expect(after).toHaveLength(2);
    expect(after[0]).toBe(kid);
    expect(after.filter((k) => revokedKids.includes(k))).toEqual([]);
    expect(await refusal(before.access_token)).toMatchObject({
      code: 'invalid_player_token',
      reason: 'unknown_kid',
    });
    // The arcade's own routes refuse the old web session too.
    const mine = await s.api.inject({
      method: 'GET',
      url: '/player/allowances',
      headers: { authorization: `Bearer ${before.access_token}` },
    });
    expect(mine.statusCode).toBe(401);
    // A new sign-in is signed by the new key, and works.
    const fresh = await walletSignIn(s.auth, newWallet());
    expect(decodeProtectedHeader(fresh.access_token).kid).toBe(kid);
    expect((await validatePlayerToken(fresh.access_token, check())).playerId).toBe(fresh.playerId);
  });

  describe('refuses forged and broken tokens with invalid_player_token', () => {
    let good: string;
    let playerId: string;
    beforeAll(async () => {
      const session = await walletSignIn(s.auth, newWallet());
      good = session.access_token;
      playerId = session.playerId;
    });
    const parts = () => good.split('.') as [string, string, string];
    const encode = (value: object) => base64url.encode(JSON.stringify(value));

    it('a missing token', async () => {
      for (const token of [undefined, '', '  ']) {
        expect(await refusal(token)).toEqual({
          code: 'missing_bearer_token',
          message: 'a player token is required: send Authorization: Bearer <player access token>',
          reason: undefined,
        });
      }
    });

    it('alg: none', async () => {
      const [h, p] = parts();
      const decoded = JSON.parse(new TextDecoder().decode(base64url.decode(h))) as object;
      const none = `${encode({ ...decoded, alg: 'none' })}.${p}.`;
      expect(await refusal(none)).toEqual({
        code: 'invalid_player_token',
        message: 'player tokens are signed with RS256 only',
        reason: 'algorithm',
      });
    });

    it('HS256 signed with the public key', async () => {
      const { kid } = decodeProtectedHeader(good);
      const publicJwk = (await jwks()).keys.find((k) => k.kid === kid)!;
      const secret = new TextEncoder().encode(JSON.stringify(publicJwk));
      const forged = await new SignJWT(decodeJwt(good))
        .setProtectedHeader({ alg: 'HS256', kid })
        .sign(secret);
      expect(await refusal(forged)).toMatchObject({ reason: 'algorithm' });
    });

    it('an unknown kid, and a key that is not ours', async () => {
      const { privateKey, publicKey } = await generateKeyPair('RS256');
      const claims = decodeJwt(good);
      const stranger = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'not-a-published-kid' })
        .sign(privateKey);
      expect(await refusal(stranger)).toEqual({
        code: 'invalid_player_token',
        message:
          'player token names an unknown signing key: no published signing key has kid not-a-published-kid',
        reason: 'unknown_kid',
      });
      // Our kid, a stranger's signature.
      const { kid } = decodeProtectedHeader(good);
      const impostor = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid })
        .sign(privateKey);
      expect(await refusal(impostor)).toMatchObject({ reason: 'signature' });
      expect(await exportJWK(publicKey)).toHaveProperty('n');
    });

    it('a wrong iss, an expired exp, a tampered payload, no playerId', async () => {
      const signWithOurs = async (claims: Record<string, unknown>) => {
        const [row] = await s.db.query<{ kid: string; private_pkcs8: string }>(
          'SELECT kid, private_pkcs8 FROM signing_keys WHERE retired_at IS NULL',
        );
        const pem = s.secrets.open(row!.private_pkcs8, signingKeyContext(row!.kid));
        const key = await importPKCS8(pem.toString('utf8'), 'RS256');
        return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: row!.kid }).sign(key);
      };
      const claims = decodeJwt(good);
      const wrongIss = await signWithOurs({ ...claims, iss: 'https://elsewhere.example.com/' });
      expect(await refusal(wrongIss)).toEqual({
        code: 'invalid_player_token',
        message: `player token was not issued by https://${s.config.authIssuer}/`,
        reason: 'issuer',
      });
      const noSlash = await signWithOurs({ ...claims, iss: `https://${s.config.authIssuer}` });
      expect(await refusal(noSlash)).toMatchObject({ reason: 'issuer' });

      const later = new Date((claims.exp! + 1) * 1000);
      expect(await refusal(good, later)).toEqual({
        code: 'invalid_player_token',
        message: 'player token has expired; sign in again',
        reason: 'expired',
      });

      const [h, , sig] = parts();
      const tampered = `${h}.${encode({ ...claims, [`https://${s.config.claimsNamespace}/playerId`]: '01890000-0000-7000-8000-000000000000' })}.${sig}`;
      expect(await refusal(tampered)).toMatchObject({ reason: 'signature' });

      const noPlayer = await signWithOurs({
        ...claims,
        [`https://${s.config.claimsNamespace}/playerId`]: undefined,
      });
      expect(await refusal(noPlayer)).toMatchObject({ reason: 'claims' });
      expect(await refusal('not.a.jwt')).toMatchObject({ reason: 'malformed' });
      expect((await validatePlayerToken(good, check())).playerId).toBe(playerId);
    });
  });
});
