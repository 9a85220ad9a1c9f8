import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_TOKEN, buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { gameWithTiers, writeToken } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { auditLedger } from '../../src/store/ledger.js';

/**
 * Issue 27, the admin API: balances, the audit's sums and a mint's answer were JSON numbers of
 * HST, built with `Number(...)`, so past 2^53 base units (about 90 million HST) they came back
 * rounded: the largest mint, 999999999.99999999 HST, read as 1000000000. Every amount of an admin
 * answer is now an exact decimal string written from base units, from 1 unit to the largest.
 */

const HST = 100_000_000n;
/** The largest mint (at most 1,000,000,000 HST, 8 decimals): 99999999999999999 units > 2^53. */
const LARGEST_MINT = '999999999.99999999';
const LARGEST_MINT_UNITS = 1_000_000_000n * HST - 1n;
const AUTH = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
/** The only JSON numbers an admin answer may hold that are not counts: scores and their stats. */
const SCORE_FIELDS = ['best', 'computed', 'mad', 'maxScore', 'median', 'minScore', 'score'];

interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  [key: string]: unknown;
}

/** Every field typed `number` (not `integer`) in a schema, by name, following `$ref`s. */
function numberFields(schema: unknown, components: Record<string, JsonSchema>): Set<string> {
  const found = new Set<string>();
  const seen = new Set<unknown>();
  const walk = (node: unknown, name: string) => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return;
    seen.add(node);
    const s = node as JsonSchema;
    if (s.$ref) walk(components[s.$ref.split('/').pop()!], name);
    if ([s.type].flat().includes('number')) found.add(name);
    for (const [field, child] of Object.entries(s.properties ?? {})) walk(child, field);
    for (const key of ['items', 'anyOf', 'oneOf', 'allOf', 'additionalProperties']) {
      for (const child of [s[key]].flat()) walk(child, name);
    }
  };
  walk(schema, '(body)');
  return found;
}

describe.each(storeVariants())('admin amounts exact to the unit on %s', (variant) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await buildTestApi(variant);
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  const post = (url: string, payload: object) =>
    api.app.inject({ method: 'POST', url, headers: AUTH, payload });
  const get = async (url: string) => {
    const res = await api.app.inject({ method: 'GET', url, headers: AUTH });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('documents no admin answer with HST as a JSON number: every number is a score', async () => {
    const doc = (await api.app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>>;
      components: { schemas: Record<string, JsonSchema> };
    }>();
    const numbers: string[] = [];
    const scores: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!path.startsWith('/admin/')) continue;
      for (const [method, { responses }] of Object.entries(operations)) {
        for (const [status, { content }] of Object.entries(responses)) {
          if (!status.startsWith('2')) continue;
          for (const { schema } of Object.values(content ?? {}) as { schema?: unknown }[]) {
            for (const field of numberFields(schema, doc.components.schemas)) {
              const where = `${method} ${path} ${status}: ${field}`;
              (SCORE_FIELDS.includes(field) ? scores : numbers).push(where);
            }
          }
        }
      }
    }
    expect(numbers).toEqual([]);
    // The walk finds the numbers there are: the scores of the review queue, among others.
    expect(scores).toContain('get /admin/reviews 200: score');
  });

  it('mints the largest amount and reads it back exactly everywhere, with the audit to the unit', async () => {
    expect((await get('/admin/hst/audit')).minted).toBe('0');
    const wallet = `0x${'ab'.repeat(20)}`;
    const created = await post('/admin/players', { wallet, name: 'Whale' });
    const { playerId } = created.json<{ playerId: string }>();
    const { developerId } = (
      await post('/admin/developers', { wallet: `0x${'cd'.repeat(20)}` })
    ).json();

    const minted = await post('/admin/hst/mints', { accountId: playerId, amount: LARGEST_MINT });
    expect(minted.statusCode, minted.body).toBe(201);
    expect(minted.json().balance).toBe(LARGEST_MINT);
    // The raw body has the string, not a number a client would parse into a double.
    expect(minted.body).toContain(`"balance":"${LARGEST_MINT}"`);
    const toDeveloper = await post('/admin/hst/mints', {
      accountId: developerId,
      amount: LARGEST_MINT,
    });
    expect(toDeveloper.json().balance).toBe(LARGEST_MINT);
    // The smallest amount, as a JSON number: 1e-8 in a double, one unit in the ledger.
    const dust = await post('/admin/hst/mints', { accountId: 'arcade', amount: 0.00000001 });
    expect(dust.json().balance).toBe('0.00000001');

    const player = await get(`/admin/players/${wallet}`);
    expect(player).toMatchObject({ playerId, name: 'Whale', balance: LARGEST_MINT, pending: '0' });
    expect((await get(`/admin/players?search=${wallet}`)).players).toEqual([player]);
    expect((await get(`/admin/hst/balances/${wallet}`)).balance).toBe(LARGEST_MINT);
    expect((await get(`/admin/developers?search=${developerId}`)).developers[0]).toMatchObject({
      developerId,
      balance: LARGEST_MINT,
      pending: '0',
    });
    expect((await get('/admin/hst/balances/arcade')).balance).toBe('0.00000001');

    // Two largest mints and a unit: 199999999999999999 units, each sum to the unit.
    const total = '1999999999.99999999';
    expect(await get('/admin/hst/audit')).toEqual({
      debitsPosted: total,
      creditsPosted: total,
      debitsPending: '0',
      creditsPending: '0',
      minted: total,
      vaultHeld: '0',
      balanced: true,
    });
    const ledger = await auditLedger(api.db);
    expect(ledger.minted).toBe(2n * LARGEST_MINT_UNITS + 1n);
  });

  it('shows a locked play on a balance past 2^53 units: both amounts exact', async () => {
    const game = await gameWithTiers(api, { costs: [1] });
    const wallet = `0x${'ef'.repeat(20)}`;
    const { playerId } = (await post('/admin/players', { wallet })).json<{ playerId: string }>();
    expect(
      (await post('/admin/hst/mints', { accountId: wallet, amount: LARGEST_MINT })).statusCode,
    ).toBe(201);
    const opened = await api.app.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
      headers: { authorization: `Bearer ${await writeToken(api, game)}` },
      payload: { playerId, leaderboardId: game.tiers[0]!.id },
    });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(await get(`/admin/players/${playerId}`)).toMatchObject({
      balance: '999999998.99999999',
      pending: '1',
    });
    expect(await get(`/admin/hst/balances/${playerId}`)).toMatchObject({
      balance: '999999998.99999999',
      pending: '1',
    });
    const audit = await get('/admin/hst/audit');
    expect(audit).toMatchObject({ debitsPending: '1', creditsPending: '1', balanced: true });
    const settings = await get(`/admin/games/${game.gameId}/settings`);
    expect(settings.tiers[0]).toMatchObject({ cost: '1', formattedCostString: '1 HST' });
  });

  it('refuses the largest mint as a JSON number, which a double cannot hold, and mints nothing', async () => {
    const wallet = `0x${'12'.repeat(20)}`;
    const { playerId } = (await post('/admin/players', { wallet })).json<{ playerId: string }>();
    const res = await api.app.inject({
      method: 'POST',
      url: '/admin/hst/mints',
      headers: { ...AUTH, 'content-type': 'application/json' },
      payload: `{"accountId":"${playerId}","amount":${LARGEST_MINT}}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      details: { in: 'body', number: LARGEST_MINT },
    });
    expect(await get(`/admin/players/${playerId}`)).toMatchObject({ balance: '0', pending: '0' });
  });
});
