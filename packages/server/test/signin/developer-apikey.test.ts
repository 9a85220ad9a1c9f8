import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeVariants } from '@coinop/testkit/db';
import { verifyApiKey } from '../../src/credentials/api-keys.js';
import { API_KEYS_LIVE_MAX } from '../../src/credentials/api-keys.js';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';

describe.each(storeVariants())('developer API keys with a player token on %s', (variant) => {
  let s: TestSignin;
  beforeAll(async () => {
    s = await buildTestSignin(variant);
  });
  afterAll(() => s.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string) =>
    s.api.inject({
      method,
      url,
      ...(token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }),
    });

  it('creates the developer on first use, lists and revokes keys', async () => {
    const wallet = newWallet();
    const { access_token } = await walletSignIn(s.auth, wallet);

    const empty = await call('GET', '/developer/apikey', access_token);
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ keys: [] });

    const first = await call('POST', '/developer/apikey', access_token);
    expect(first.statusCode).toBe(201);
    const created = first.json<{ apiKey: string; prefix: string; createdAt: string }>();
    expect(created).toEqual({
      apiKey: expect.stringMatching(/^ck_[\w-]{8}\.[\w-]{43}$/),
      prefix: created.apiKey.split('.')[0],
      createdAt: s.clock.now().toISOString(),
    });
    const developers = await s.db.query<{ id: string }>(
      'SELECT id FROM developers WHERE wallet = $1',
      [wallet.address.toLowerCase()],
    );
    expect(developers).toHaveLength(1);
    expect((await verifyApiKey(s.db, created.apiKey)).developerId).toBe(developers[0]!.id);
    const stored = await s.db.query<{ secret_hash: Uint8Array }>(
      'SELECT secret_hash FROM api_keys WHERE prefix = $1',
      [created.prefix],
    );
    expect(Buffer.from(stored[0]!.secret_hash).toString()).not.toContain(created.apiKey);

    s.clock.advance(1000);
    const second = (await call('POST', '/developer/apikey', access_token)).json();
    expect(
      await s.db.query('SELECT id FROM developers WHERE wallet = $1', [
        wallet.address.toLowerCase(),
      ]),
    ).toHaveLength(1);

    const listed = await call('GET', '/developer/apikey', access_token);
    expect(listed.json()).toEqual({
      keys: [
        { prefix: created.prefix, createdAt: created.createdAt, revokedAt: null },
        { prefix: second.prefix, createdAt: second.createdAt, revokedAt: null },
      ],
    });

    s.clock.advance(1000);
    const revoked = await call('DELETE', `/developer/apikey/${created.prefix}`, access_token);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toEqual({
      prefix: created.prefix,
      createdAt: created.createdAt,
      revokedAt: s.clock.now().toISOString(),
    });
    await expect(verifyApiKey(s.db, created.apiKey)).rejects.toMatchObject({
      code: 'invalid_api_key',
    });
    // The revoked key can no longer register games.
    const refused = await s.api.inject({
      method: 'POST',
      url: '/game/create',
      headers: { 'api-key': created.apiKey },
      payload: {},
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('invalid_api_key');
    expect((await verifyApiKey(s.db, second.apiKey)).developerId).toBe(developers[0]!.id);

    s.clock.advance(1000);
    const again = await call('DELETE', `/developer/apikey/${created.prefix}`, access_token);
    expect(again.json().revokedAt).toBe(revoked.json().revokedAt);
  });

  it("refuses no token, a bad token, and another developer's key", async () => {
    const none = await call('POST', '/developer/apikey');
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('missing_bearer_token');
    const bad = await call('GET', '/developer/apikey', 'not.a.token');
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({
      code: 'invalid_player_token',
      details: { reason: 'malformed' },
    });

    const alice = await walletSignIn(s.auth, newWallet());
    const bob = await walletSignIn(s.auth, newWallet());
    const key = (await call('POST', '/developer/apikey', alice.access_token)).json();
    const stolen = await call('DELETE', `/developer/apikey/${key.prefix}`, bob.access_token);
    expect(stolen.statusCode).toBe(404);
    expect(stolen.json()).toMatchObject({
      code: 'api_key_not_found',
      message: `you have no API key with prefix ${key.prefix}`,
    });
    expect((await verifyApiKey(s.db, key.apiKey)).keyPrefix).toBe(key.prefix);
  });

  it(`allows at most ${API_KEYS_LIVE_MAX} live keys`, async () => {
    const { access_token } = await walletSignIn(s.auth, newWallet());
    let last = '';
    for (let i = 0; i < API_KEYS_LIVE_MAX; i++) {
      const res = await call('POST', '/developer/apikey', access_token);
      expect(res.statusCode).toBe(201);
      last = res.json().prefix;
    }
    const over = await call('POST', '/developer/apikey', access_token);
    expect(over.statusCode).toBe(409);
    expect(over.json().code).toBe('api_key_limit_reached');
    await call('DELETE', `/developer/apikey/${last}`, access_token);
    expect((await call('POST', '/developer/apikey', access_token)).statusCode).toBe(201);
  });
});
