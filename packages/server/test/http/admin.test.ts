import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { wholeHstToUnits } from '@coinop/core';
import { TEST_ADMIN_TOKEN, buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { auditLedger, insertAccount } from '../../src/store/ledger.js';
import { findGameClient, insertGame } from '../../src/store/games.js';
import { secretMatches } from '../../src/credentials/secrets.js';
import { uuidIds } from '../../src/ids.js';

const AUTH = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';

let walletCounter = 0;
/** A fresh wallet address per call, so tests do not collide on the unique wallet columns. */
function wallet(): string {
  walletCounter += 1;
  return `0x${walletCounter.toString(16).padStart(40, 'a')}`;
}

describe.each(storeVariants())('admin API on %s', (variant) => {
  let api: TestApi;
  let mintedUnits = 0n;

  beforeAll(async () => {
    api = await buildTestApi(variant);
  });
  afterAll(() => api.close());
  afterEach(async () => {
    // Every test leaves the books balanced.
    const audit = await auditLedger(api.db);
    expect(audit.balanced).toBe(true);
  });

  const post = (url: string, payload?: Record<string, unknown>, headers = AUTH) =>
    api.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
  const get = (url: string, headers = AUTH) => api.app.inject({ method: 'GET', url, headers });

  async function createDeveloper(): Promise<{ developerId: string; apiKey: string }> {
    const res = await post('/admin/developers', { wallet: wallet() });
    expect(res.statusCode).toBe(201);
    return res.json();
  }

  async function createGame(): Promise<string> {
    const { developerId } = await createDeveloper();
    const game = await api.db.transaction((tx) =>
      insertGame(
        tx,
        api.clock,
        uuidIds,
        api.app.arcade.record.id,
        {
          developerId,
          name: 'Admin test game',
          description: 'a game',
          category: '',
          developerInfo: '',
          tagLine: '',
          url: '',
          coverUrl: '',
          scoreDisplay: 'NORMAL',
          prodDomain: null,
        },
        [{ name: 'Practice', costUnits: wholeHstToUnits(1), leadersMax: 10 }],
      ),
    );
    return game.id;
  }

  async function createPlayer(): Promise<string> {
    const res = await post('/admin/players', { wallet: wallet() });
    expect(res.statusCode).toBe(201);
    return res.json<{ playerId: string }>().playerId;
  }

  async function mint(accountId: string, amount: unknown) {
    const res = await post('/admin/hst/mints', { accountId, amount });
    return res;
  }

  describe('authentication', () => {
    const routes = [
      ['POST', '/admin/developers'],
      ['POST', `/admin/games/${UNKNOWN_ID}/clients`],
      ['POST', '/admin/players'],
      ['POST', '/admin/hst/mints'],
      ['GET', `/admin/hst/balances/${UNKNOWN_ID}`],
      ['GET', '/admin/hst/audit'],
      ['GET', '/admin/hst/audit?chain=true'],
      ['POST', `/admin/games/${UNKNOWN_ID}/publish`],
      ['POST', '/admin/leaderboards'],
      ['GET', '/admin/chain'],
      ['GET', '/admin/chain/deposits'],
      ['GET', '/admin/chain/withdrawals'],
      ['POST', `/admin/chain/deposits/0x${'ab'.repeat(32)}:0/credit`],
    ] as const;

    it.each(routes)('%s %s without a token is 401 missing_bearer_token', async (method, url) => {
      const res = await api.app.inject({ method, url });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({
        code: 'missing_bearer_token',
        message: 'the admin API needs an Authorization: Bearer <admin token> header',
      });
    });

    it.each(routes)('%s %s with a wrong token is 401 invalid_admin_token', async (method, url) => {
      const res = await api.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}x` },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        code: 'invalid_admin_token',
        message: 'the bearer token is not the admin token',
      });
    });

    it('takes only the Bearer scheme', async () => {
      const res = await get('/admin/hst/audit', { authorization: `Basic ${TEST_ADMIN_TOKEN}` });
      expect(res.json()).toMatchObject({ status: 401, code: 'missing_bearer_token' });
      const lower = await get('/admin/hst/audit', { authorization: `bearer ${TEST_ADMIN_TOKEN}` });
      expect(lower.statusCode).toBe(200);
    });

    it('leaves routes outside /admin alone', async () => {
      const res = await api.app.inject({ method: 'GET', url: '/nope' });
      expect(res.json()).toMatchObject({ code: 'route_not_found' });
    });
  });

  describe('POST /admin/developers', () => {
    it('creates a developer and a new API key, stored only as a hash', async () => {
      const address = wallet();
      const res = await post('/admin/developers', {
        wallet: address.toUpperCase().replace('0X', '0x'),
      });
      expect(res.statusCode).toBe(201);
      const body = res.json<{ developerId: string; apiKey: string }>();
      expect(Object.keys(body).sort()).toEqual(['apiKey', 'developerId']);
      expect(body.apiKey).toMatch(/^ck_[\w-]+\.[\w-]+$/);
      const rows = await api.db.query<{ wallet: string; secret_hash: Uint8Array }>(
        `SELECT d.wallet, k.secret_hash FROM developers d JOIN api_keys k ON k.developer_id = d.id
         WHERE d.id = $1`,
        [body.developerId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]?.wallet).toBe(address);
      expect(secretMatches(body.apiKey, rows[0]!.secret_hash)).toBe(true);
    });

    it('gives the same developer a second key for the same wallet', async () => {
      const address = wallet();
      const first = (await post('/admin/developers', { wallet: address })).json();
      const second = (await post('/admin/developers', { wallet: address })).json();
      expect(second.developerId).toBe(first.developerId);
      expect(second.apiKey).not.toBe(first.apiKey);
    });

    it.each([
      ['missing', {}, "wallet must have required property 'wallet'"],
      [
        'not hex',
        { wallet: `0x${'g'.repeat(40)}` },
        'wallet must match pattern "^0x[0-9a-fA-F]{40}$"',
      ],
      ['too short', { wallet: '0x1234' }, 'wallet must match pattern "^0x[0-9a-fA-F]{40}$"'],
      ['no 0x', { wallet: 'a'.repeat(42) }, 'wallet must match pattern "^0x[0-9a-fA-F]{40}$"'],
      ['a number', { wallet: 12 }, 'wallet must be string'],
      [
        'with an unknown field',
        { wallet: wallet(), role: 'admin' },
        'role must NOT have additional properties',
      ],
    ])('rejects a wallet %s naming the field', async (_case, payload, message) => {
      const res = await post('/admin/developers', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message });
    });
  });

  describe('POST /admin/games/:gameId/clients', () => {
    it('issues a client whose secret the arcade recognises', async () => {
      const gameId = await createGame();
      const res = await post(`/admin/games/${gameId}/clients`);
      expect(res.statusCode).toBe(201);
      const body = res.json<{ clientId: string; clientSecret: string }>();
      expect(body.clientId).toMatch(/^cid_/);
      expect(body.clientSecret).toMatch(/^csec_/);
      const stored = await findGameClient(api.db, body.clientId);
      expect(stored?.gameId).toBe(gameId);
      expect(secretMatches(body.clientSecret, stored!.secretHash)).toBe(true);
    });

    it('is 404 game_not_found for an unknown game', async () => {
      const res = await post(`/admin/games/${UNKNOWN_ID}/clients`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'game_not_found',
        message: `game ${UNKNOWN_ID} does not exist`,
      });
    });

    it('is 400 naming gameId when it is not a UUID', async () => {
      const res = await post('/admin/games/nope/clients');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        message: 'gameId must match format "uuid"',
      });
    });
  });

  describe('POST /admin/players', () => {
    it('creates a player with a name', async () => {
      const address = wallet();
      const res = await post('/admin/players', { wallet: address, name: 'Ada' });
      expect(res.statusCode).toBe(201);
      const { playerId } = res.json<{ playerId: string }>();
      const [row] = await api.db.query<{ wallet: string; name: string }>(
        'SELECT wallet, name FROM players WHERE id = $1',
        [playerId],
      );
      expect(row).toEqual({ wallet: address, name: 'Ada' });
    });

    it('is 409 wallet_already_registered for a second player on one wallet', async () => {
      const address = wallet();
      expect((await post('/admin/players', { wallet: address })).statusCode).toBe(201);
      const res = await post('/admin/players', {
        wallet: address.replace('0x', '0X').toUpperCase().replace('0X', '0x'),
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'wallet_already_registered',
        message: `wallet ${address} already has a player`,
      });
    });

    it.each([
      [{ name: 'x' }, "wallet must have required property 'wallet'"],
      [{ wallet: '0x12' }, 'wallet must match pattern "^0x[0-9a-fA-F]{40}$"'],
      [{ wallet: wallet(), name: '' }, 'name must NOT have fewer than 1 characters'],
      [{ wallet: wallet(), name: '   ' }, 'name must match pattern "\\S"'],
      [{ wallet: wallet(), name: 'x'.repeat(101) }, 'name must NOT have more than 100 characters'],
    ])('rejects %j naming the field', async (payload, message) => {
      const res = await post('/admin/players', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message });
    });
  });

  describe('HST mint, balance and audit', () => {
    it('mints exact amounts and reports the balance in HST', async () => {
      const playerId = await createPlayer();
      const first = await mint(playerId, 12.5);
      expect(first.statusCode).toBe(201);
      expect(first.json()).toEqual({ transferId: expect.any(String), balance: 12.5 });
      mintedUnits += 1_250_000_000n;

      const tiny = await mint(playerId, 0.00000001);
      expect(tiny.json()).toMatchObject({ balance: 12.50000001 });
      mintedUnits += 1n;

      const text = await mint(playerId, '0.1');
      expect(text.json()).toMatchObject({ balance: 12.60000001 });
      mintedUnits += 10_000_000n;

      const [player] = await api.db.query<{ account_id: string }>(
        'SELECT account_id FROM players WHERE id = $1',
        [playerId],
      );
      const balance = await get(`/admin/hst/balances/${playerId}`);
      expect(balance.statusCode).toBe(200);
      expect(balance.json()).toEqual({
        accountId: player?.account_id,
        balance: 12.60000001,
        pending: 0,
      });
      const byAccount = await get(`/admin/hst/balances/${player?.account_id}`);
      expect(byAccount.json()).toEqual(balance.json());

      const [transfer] = await api.db.query<{ amount: bigint; reason: string; kind: string }>(
        'SELECT amount, reason, kind FROM transfers WHERE id = $1',
        [first.json<{ transferId: string }>().transferId],
      );
      expect(transfer).toEqual({ amount: 1_250_000_000n, reason: 'mint', kind: 'posted' });
    });

    it('mints to a developer by developer id', async () => {
      const { developerId } = await createDeveloper();
      expect((await mint(developerId, 3)).json()).toMatchObject({ balance: 3 });
      mintedUnits += 300_000_000n;
      expect((await get(`/admin/hst/balances/${developerId}`)).json()).toMatchObject({
        balance: 3,
        pending: 0,
      });
    });

    it('mints to the arcade by arcade id', async () => {
      const before = await get(`/admin/hst/balances/${api.app.arcade.record.id}`);
      const { balance } = before.json<{ balance: number }>();
      const res = await mint(api.app.arcade.record.id, 1);
      expect(res.json()).toMatchObject({ balance: balance + 1 });
      mintedUnits += 100_000_000n;
    });

    it('treats a repeated transferId as the same mint', async () => {
      const playerId = await createPlayer();
      const transferId = uuidIds.next();
      const once = await post('/admin/hst/mints', { accountId: playerId, amount: 5, transferId });
      const twice = await post('/admin/hst/mints', { accountId: playerId, amount: 5, transferId });
      expect(once.json()).toEqual({ transferId, balance: 5 });
      expect(twice.json()).toEqual({ transferId, balance: 5 });
      mintedUnits += 500_000_000n;
      const other = await post('/admin/hst/mints', { accountId: playerId, amount: 6, transferId });
      expect(other.statusCode).toBe(409);
      expect(other.json()).toMatchObject({
        code: 'transfer_exists_with_different_fields',
        message: `transfer ${transferId} already exists with different fields`,
      });
    });

    it.each([
      [1.000000001, 'amount must have at most 8 decimals, got 1.000000001'],
      ['1.000000001', 'amount must have at most 8 decimals, got 1.000000001'],
      [0, 'amount must be greater than 0'],
      ['0.00000000', 'amount must be greater than 0'],
      [-1, 'amount must not be negative, got -1'],
      ['abc', 'amount must be an amount of HST such as 12 or 0.5, got abc'],
      [1_000_000_001, 'amount must be at most 1000000000 HST per mint'],
    ])('rejects amount %j with 400 invalid_amount', async (amount, message) => {
      const playerId = await createPlayer();
      const res = await mint(playerId, amount);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'invalid_amount',
        message,
        details: { field: 'amount' },
      });
      const balance = await get(`/admin/hst/balances/${playerId}`);
      expect(balance.json()).toMatchObject({ balance: 0 });
    });

    it.each([
      [{ accountId: UNKNOWN_ID }, "amount must have required property 'amount'"],
      [{ accountId: UNKNOWN_ID, amount: true }, 'amount must be number'],
      [{ amount: 1 }, "accountId must have required property 'accountId'"],
      [{ accountId: 'player-1', amount: 1 }, 'accountId must match format "uuid"'],
      [
        { accountId: UNKNOWN_ID, amount: 1, transferId: 'x' },
        'transferId must match format "uuid"',
      ],
    ])('rejects %j with 400 naming the field', async (payload, message) => {
      const res = await post('/admin/hst/mints', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message });
    });

    it('is 404 account_not_found for an id that is nobody', async () => {
      const message = `no account, player, developer or arcade has id ${UNKNOWN_ID}`;
      const minted = await mint(UNKNOWN_ID, 1);
      expect(minted.statusCode).toBe(404);
      expect(minted.json()).toMatchObject({ code: 'account_not_found', message });
      const balance = await get(`/admin/hst/balances/${UNKNOWN_ID}`);
      expect(balance.statusCode).toBe(404);
      expect(balance.json()).toMatchObject({ code: 'account_not_found', message });
      const bad = await get('/admin/hst/balances/nobody');
      expect(bad.json()).toMatchObject({
        status: 400,
        message: 'accountId must match format "uuid"',
      });
    });

    it('refuses to mint into the mint account', async () => {
      const mintId = api.app.arcade.record.mintAccountId;
      const res = await mint(mintId, 1);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        message: `accountId ${mintId} is the mint account; mint to a player, developer or arcade`,
        details: { field: 'accountId' },
      });
    });

    it('refuses to mint into a chain vault account: it moves only HST that moved on chain', async () => {
      const vaultId = uuidIds.next();
      await api.db.transaction((tx) => insertAccount(tx, vaultId, 'vault', api.clock.now()));
      const res = await mint(vaultId, 1);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        code: 'validation_failed',
        message: `accountId ${vaultId} is the vault account; mint to a player, developer or arcade`,
      });
    });

    it('audits every account: balanced, with the total minted', async () => {
      const res = await get('/admin/hst/audit');
      expect(res.statusCode).toBe(200);
      const minted = Number(mintedUnits) / 1e8;
      expect(mintedUnits).toBeGreaterThan(0n);
      expect(res.json()).toEqual({
        debitsPosted: minted,
        creditsPosted: minted,
        debitsPending: 0,
        creditsPending: 0,
        minted,
        vaultHeld: 0,
        balanced: true,
      });
      expect((await get('/admin/hst/audit?chain=false')).json()).toEqual(res.json());
    });

    it('refuses ?chain=true without chain mode, and a chain that is not true or false', async () => {
      const res = await get('/admin/hst/audit?chain=true');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'chain_mode_off',
        message:
          'this arcade runs without a chain vault (--chain-vault-address): there is no vault to ' +
          'reconcile with',
      });
      for (const bad of ['yes', '1', 'TRUE', '', 'true&chain=false']) {
        const refused = await get(`/admin/hst/audit?chain=${bad}`);
        expect(refused.statusCode, bad).toBe(400);
        expect(refused.json(), bad).toMatchObject({
          code: 'validation_failed',
          message: expect.stringContaining('chain'),
        });
      }
    });
  });

  describe('POST /admin/games/:gameId/publish', () => {
    it('publishes once and keeps the first publishedAt', async () => {
      const gameId = await createGame();
      const first = await post(`/admin/games/${gameId}/publish`);
      expect(first.statusCode).toBe(200);
      const game = first.json();
      expect(game).toMatchObject({
        id: gameId,
        name: 'Admin test game',
        scoreDisplay: 'NORMAL',
        publishedAt: api.clock.now().toISOString(),
      });
      api.clock.advance(60_000);
      const again = await post(`/admin/games/${gameId}/publish`);
      expect(again.json().publishedAt).toBe(game.publishedAt);
    });

    it('is 404 game_not_found for an unknown game', async () => {
      const res = await post(`/admin/games/${UNKNOWN_ID}/publish`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'game_not_found' });
    });
  });

  describe('POST /admin/leaderboards', () => {
    it('adds a tier in whole HST and refreshes the game cache', async () => {
      const gameId = await createGame();
      const cached = await api.app.arcade.games.get(gameId);
      expect(cached.leaderboards.map((b) => b.name)).toEqual(['Practice']);

      const res = await post('/admin/leaderboards', { gameId, name: 'Whales', cost: 250 });
      expect(res.statusCode).toBe(201);
      const { id } = res.json<{ id: string }>();
      const [row] = await api.db.query<{ name: string; cost_units: bigint; leaders_max: number }>(
        'SELECT name, cost_units, leaders_max FROM leaderboards WHERE id = $1',
        [id],
      );
      expect(row).toEqual({ name: 'Whales', cost_units: 25_000_000_000n, leaders_max: 10 });

      const fresh = await api.app.arcade.games.get(gameId);
      expect(fresh.leaderboards.map((b) => [b.name, b.costUnits, b.leadersMax])).toEqual([
        ['Practice', 100_000_000n, 10],
        ['Whales', 25_000_000_000n, 10],
      ]);
    });

    it('takes leadersMax and a free tier', async () => {
      const gameId = await createGame();
      const res = await post('/admin/leaderboards', {
        gameId,
        name: 'Free',
        cost: 0,
        leadersMax: 3,
      });
      expect(res.statusCode).toBe(201);
      const [row] = await api.db.query<{ cost_units: bigint; leaders_max: number }>(
        'SELECT cost_units, leaders_max FROM leaderboards WHERE id = $1',
        [res.json<{ id: string }>().id],
      );
      expect(row).toEqual({ cost_units: 0n, leaders_max: 3 });
    });

    it.each([
      [{ cost: 1.5 }, 'cost must be integer'],
      [{ cost: -1 }, 'cost must be >= 0'],
      [{ cost: '5' }, 'cost must be integer'],
      [{ cost: 1_000_000_001 }, 'cost must be <= 1000000000'],
      [{ name: '' }, 'name must NOT have fewer than 1 characters'],
      [{ leadersMax: 0 }, 'leadersMax must be >= 1'],
      [{ leadersMax: 101 }, 'leadersMax must be <= 100'],
      [{ gameId: 'g' }, 'gameId must match format "uuid"'],
    ])('rejects %j with 400 naming the field', async (change, message) => {
      const payload = { gameId: UNKNOWN_ID, name: 'Tier', cost: 5, ...change };
      const res = await post('/admin/leaderboards', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message });
    });

    it('is 404 game_not_found for an unknown game', async () => {
      const res = await post('/admin/leaderboards', { gameId: UNKNOWN_ID, name: 'T', cost: 1 });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'game_not_found',
        message: `game ${UNKNOWN_ID} does not exist`,
      });
    });
  });
});
