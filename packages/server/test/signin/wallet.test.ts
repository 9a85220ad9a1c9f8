import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSiweMessage, parseSiweMessage } from 'viem/siwe';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';

describe.each(storeVariants())('wallet sign-in (EIP-4361) on %s', (variant) => {
  let s: TestSignin;
  beforeAll(async () => {
    s = await buildTestSignin(variant);
  });
  afterAll(() => s.close());

  const challenge = async (address: string) => {
    const res = await s.auth.inject({
      method: 'POST',
      url: '/wallet/challenge',
      payload: { address },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ message: string; nonce: string; expiresAt: string }>();
  };
  const verify = (message: string, signature: string) =>
    s.auth.inject({ method: 'POST', url: '/wallet/verify', payload: { message, signature } });
  const players = async () =>
    (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM players'))[0]!.n;
  const usedNonces = async () =>
    (
      await s.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM wallet_challenges WHERE used_at IS NOT NULL',
      )
    )[0]!.n;

  it('issues a standard EIP-4361 message for this service', async () => {
    const wallet = newWallet();
    const got = await challenge(wallet.address.toLowerCase());
    const fields = parseSiweMessage(got.message);
    const now = s.clock.now();
    expect(fields).toEqual({
      address: wallet.address,
      domain: s.config.authIssuer,
      uri: `https://${s.config.authIssuer}/`,
      version: '1',
      chainId: 1,
      nonce: got.nonce,
      issuedAt: now,
      expirationTime: new Date(now.getTime() + 300_000),
      statement: 'Sign in to coinop with this wallet. Signing is free and sends no transaction.',
    });
    expect(got.nonce).toMatch(/^[0-9a-f]{32}$/);
    expect(got.expiresAt).toBe(new Date(now.getTime() + 300_000).toISOString());
  });

  it('creates the player on the first sign-in and finds it on the next', async () => {
    const wallet = newWallet();
    const before = await players();
    const first = await walletSignIn(s.auth, wallet);
    expect(first).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      // A web session token: fifteen minutes, renewed by the web app.
      expires_in: 900,
      playerId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const second = await walletSignIn(s.auth, wallet);
    expect(second.playerId).toBe(first.playerId);
    expect(await players()).toBe(before + 1);
    const [row] = await s.db.query<{ wallet: string }>('SELECT wallet FROM players WHERE id = $1', [
      first.playerId,
    ]);
    expect(row!.wallet).toBe(wallet.address.toLowerCase());
  });

  describe('refuses, with a clear 4xx and nothing stored', () => {
    it('a replayed nonce', async () => {
      const wallet = newWallet();
      const { message } = await challenge(wallet.address);
      const signature = await wallet.signMessage({ message });
      expect((await verify(message, signature)).statusCode).toBe(200);
      const playersBefore = await players();
      const replay = await verify(message, signature);
      expect(replay.statusCode).toBe(409);
      expect(replay.json()).toMatchObject({
        code: 'nonce_used',
        message: `nonce ${parseSiweMessage(message).nonce} has already signed in once`,
      });
      expect(await players()).toBe(playersBefore);
    });

    it('an expired challenge', async () => {
      const wallet = newWallet();
      const { message, nonce, expiresAt } = await challenge(wallet.address);
      const signature = await wallet.signMessage({ message });
      s.clock.advance(300_000);
      const [players0, used0] = [await players(), await usedNonces()];
      const res = await verify(message, signature);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        code: 'challenge_expired',
        message: `the challenge with nonce ${nonce} expired at ${expiresAt}`,
      });
      expect([await players(), await usedNonces()]).toEqual([players0, used0]);
    });

    it('a signature by another address', async () => {
      const wallet = newWallet();
      const other = newWallet();
      const { message } = await challenge(wallet.address);
      const signature = await other.signMessage({ message });
      const [players0, used0] = [await players(), await usedNonces()];
      const res = await verify(message, signature);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        code: 'invalid_signature',
        message: `signature was not made by ${wallet.address} over this message`,
      });
      expect([await players(), await usedNonces()]).toEqual([players0, used0]);
      // The challenge is still good for its rightful owner.
      expect((await verify(message, await wallet.signMessage({ message }))).statusCode).toBe(200);
    });

    it('a message for another domain', async () => {
      const wallet = newWallet();
      const { nonce } = await challenge(wallet.address);
      const message = createSiweMessage({
        address: wallet.address,
        chainId: 1,
        domain: 'evil.example.com',
        uri: 'https://evil.example.com/',
        version: '1',
        nonce,
        issuedAt: s.clock.now(),
      });
      const [players0, used0] = [await players(), await usedNonces()];
      const res = await verify(message, await wallet.signMessage({ message }));
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        code: 'wrong_domain',
        message: `message is for evil.example.com (https://evil.example.com/), not this sign-in service ${s.config.authIssuer}`,
      });
      expect([await players(), await usedNonces()]).toEqual([players0, used0]);
    });

    it('a message changed after it was issued, or never issued', async () => {
      const wallet = newWallet();
      const { message } = await challenge(wallet.address);
      const edited = message.replace(
        /Expiration Time: .*/,
        'Expiration Time: 2099-01-01T00:00:00.000Z',
      );
      const res = await verify(edited, await wallet.signMessage({ message: edited }));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid_siwe_message');

      const invented = message.replace(/Nonce: \w+/, 'Nonce: abcdef0123456789');
      const unknown = await verify(invented, await wallet.signMessage({ message: invented }));
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({
        code: 'challenge_not_found',
        message: 'nonce abcdef0123456789 was not issued here',
      });

      const prose = await verify('hello', await wallet.signMessage({ message: 'hello' }));
      expect(prose.statusCode).toBe(400);
      expect(prose.json()).toMatchObject({
        code: 'invalid_siwe_message',
        details: { field: 'message' },
      });
    });

    it('malformed addresses and signatures', async () => {
      for (const address of ['0x123', 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266', 42, '']) {
        const res = await s.auth.inject({
          method: 'POST',
          url: '/wallet/challenge',
          payload: { address },
        });
        expect({ address, status: res.statusCode, code: res.json().code }).toEqual({
          address,
          status: 400,
          code: 'validation_failed',
        });
      }
      // Mixed case with a wrong EIP-55 checksum.
      const badChecksum = '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
      const checksum = await s.auth.inject({
        method: 'POST',
        url: '/wallet/challenge',
        payload: { address: badChecksum },
      });
      expect(checksum.statusCode).toBe(400);
      expect(checksum.json()).toMatchObject({
        code: 'validation_failed',
        message: `address ${badChecksum} has a wrong EIP-55 checksum`,
        details: { field: 'address' },
      });

      const wallet = newWallet();
      const { message } = await challenge(wallet.address);
      const good = await wallet.signMessage({ message });
      const used0 = await usedNonces();
      for (const signature of [
        '0x',
        '0x1234',
        'nothex',
        `0x${'00'.repeat(65)}`,
        good.slice(0, -2),
      ]) {
        const res = await verify(message, signature);
        expect({ signature, status: res.statusCode, code: res.json().code }).toEqual({
          signature,
          status: signature.startsWith('0x') && signature.length > 4 ? 401 : 400,
          code:
            signature.startsWith('0x') && signature.length > 4
              ? 'invalid_signature'
              : 'validation_failed',
        });
      }
      expect(await usedNonces()).toBe(used0);
    });
  });
});

describe.each(storeVariants())('wallet sign-in from the arcade web app on %s', (variant) => {
  const WEB = 'https://arcade.example.com';
  let s: TestSignin;
  beforeAll(async () => {
    s = await buildTestSignin(variant, { webOrigins: [WEB] });
  });
  afterAll(() => s.close());

  const challengeFrom = async (origin: string, address: string) => {
    const res = await s.auth.inject({
      method: 'POST',
      url: '/wallet/challenge',
      headers: { origin },
      payload: { address },
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ message: string }>().message;
  };

  it('names the web origin the page asked from, so the wallet sees the site it is on', async () => {
    const wallet = newWallet();
    const message = await challengeFrom(WEB, wallet.address);
    expect(parseSiweMessage(message)).toMatchObject({
      domain: 'arcade.example.com',
      uri: `${WEB}/`,
    });
    const res = await s.auth.inject({
      method: 'POST',
      url: '/wallet/verify',
      payload: { message, signature: await wallet.signMessage({ message }) },
    });
    expect(res.statusCode).toBe(200);
  });

  it('names the sign-in service for any other origin', async () => {
    const message = await challengeFrom('https://evil.example.com', newWallet().address);
    expect(parseSiweMessage(message)).toMatchObject({
      domain: s.config.authIssuer,
      uri: `https://${s.config.authIssuer}/`,
    });
  });
});

describe.each(storeVariants())('wallet sign-in without --web-origin on %s', (variant) => {
  let s: TestSignin;
  beforeAll(async () => {
    s = await buildTestSignin(variant, { webPort: 8082 });
  });
  afterAll(() => s.close());

  it("names the web listener's own address when the page is served from it", async () => {
    const ask = async (origin: string) => {
      const res = await s.auth.inject({
        method: 'POST',
        url: '/wallet/challenge',
        headers: { origin },
        payload: { address: newWallet().address },
      });
      return parseSiweMessage(res.json<{ message: string }>().message);
    };
    expect(await ask('http://127.0.0.1:8082')).toMatchObject({
      domain: '127.0.0.1:8082',
      uri: 'http://127.0.0.1:8082/',
    });
    expect(await ask('http://127.0.0.1:9999')).toMatchObject({ domain: s.config.authIssuer });
  });
});
