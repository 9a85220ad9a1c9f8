import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRoundedNumber } from '../../src/listener/json-numbers.js';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer } from '@coinop/testkit/arcade';

describe('firstRoundedNumber', () => {
  it.each([
    ['{"a":1,"b":12.5,"c":-0.1,"d":0.30000000000000004}', null],
    ['{"a":1e-8,"b":1E5,"c":100000000000000000000,"d":5e-324}', null],
    ['{"score":0.1234567890123456}', null],
    ['{"a":"1.0000000000000000000001"}', null],
    ['{"a":"x\\"1.0000000000000000000001"}', null],
    ['{"a":1.10000000000000000000}', null],
    ['{"amount":1.0000000000000000000001}', '1.0000000000000000000001'],
    ['[1, 2, 123456789012345678901234567890]', '123456789012345678901234567890'],
    ['{"a":9007199254740993}', '9007199254740993'],
    ['{"a":1e400}', '1e400'],
  ])('%s → %s', (json, expected) => {
    expect(firstRoundedNumber(json)).toBe(expected);
  });
});

describe('a JSON body with a number a double cannot hold', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await buildTestApi('pglite');
  });
  afterAll(() => api.close());

  // Issue 12: `1.0000000000000000000001` minted 1 HST instead of being refused.
  it('is refused whole, quoting the number, and mints nothing', async () => {
    const { playerId, accountId } = await fundedPlayer(api, 0);
    const res = await api.app.inject({
      method: 'POST',
      url: '/admin/hst/mints',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      payload: `{"accountId":"${playerId}","amount":1.0000000000000000000001}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: { in: 'body', number: '1.0000000000000000000001' },
    });
    const [row] = await api.db.query<{ credits_posted: string }>(
      'SELECT credits_posted::text FROM accounts WHERE id = $1',
      [accountId],
    );
    expect(row?.credits_posted).toBe('0');
  });

  it.each([
    [' 12', 'amount must not have spaces around it, got " 12"'],
    ['1e23', 'amount must be written out without an exponent, got 1e23'],
    [1e23, 'amount must be at most 92233720368.54775807 HST, got 1e+23'],
    ['1.000000001', 'amount must have at most 8 decimals, got 1.000000001'],
  ])('an amount of %j is refused saying why', async (amount, message) => {
    const { playerId } = await fundedPlayer(api, 0);
    const res = await api.app.inject({
      method: 'POST',
      url: '/admin/hst/mints',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { accountId: playerId, amount },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_amount', message });
  });

  it('still reads malformed and empty JSON as malformed_json', async () => {
    for (const payload of ['{"a":', '']) {
      const res = await api.app.inject({
        method: 'POST',
        url: '/oauth/writetoken',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().code).toBe('malformed_json');
    }
  });
});
