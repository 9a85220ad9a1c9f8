import { decodeJwt } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { formatHst, wholeHstToUnits } from '@coinop/core';
import { readHst } from '@coinop/protocol';
import { TEST_ADMIN_TOKEN, buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { auditLedger, insertAccount } from '../../src/store/ledger.js';
import { findGameClient, insertGame } from '../../src/store/games.js';
import { secretMatches } from '../../src/credentials/secrets.js';
import { uuidIds } from '../../src/ids.js';
import { fundedPlayer, gameWithTiers, writeToken } from '@coinop/testkit/arcade';

const AUTH = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';
/** What an account reference may be, as a refusal says it: the schema's description. */
const ACCOUNT_REF_TEXT =
  'is not valid: it must be an account id, the id of a player, developer or arcade (its ' +
  "account), the word `arcade` (this arcade's own account, which funds the operator's " +
  'tournament guarantees), or the wallet address of a player or developer (409 ' +
  'account_ambiguous when the wallet has both)';
/** What a player reference may be: an id, or the wallet of a player. */
const PLAYER_REF_TEXT = 'is not valid: it must be a player id, or the wallet address of a player';

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
      ['POST', `/admin/games/${UNKNOWN_ID}/unpublish`],
      ['GET', '/admin/games'],
      ['GET', '/admin/developers'],
      ['GET', `/admin/players/${UNKNOWN_ID}`],
      ['GET', `/admin/players/0x${'b'.repeat(40)}`],
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
      ['missing', {}, 'wallet is required'],
      [
        'not hex',
        { wallet: `0x${'g'.repeat(40)}` },
        'wallet must be a wallet address: 0x followed by 40 hex digits',
      ],
      [
        'too short',
        { wallet: '0x1234' },
        'wallet must be a wallet address: 0x followed by 40 hex digits',
      ],
      [
        'no 0x',
        { wallet: 'a'.repeat(42) },
        'wallet must be a wallet address: 0x followed by 40 hex digits',
      ],
      ['a number', { wallet: 12 }, 'wallet must be a string'],
      [
        'with an unknown field',
        { wallet: wallet(), role: 'admin' },
        'role is not a field this request takes',
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
        message: 'gameId must be a UUID',
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
      const first = await post('/admin/players', { wallet: address });
      expect(first.statusCode).toBe(201);
      const res = await post('/admin/players', {
        wallet: address.replace('0x', '0X').toUpperCase().replace('0X', '0x'),
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'wallet_already_registered',
        message: `wallet ${address} already belongs to player ${first.json().playerId}`,
        details: { field: 'wallet', wallet: address, playerId: first.json().playerId },
      });
    });

    it.each([
      [{ name: 'x' }, 'wallet is required'],
      [{ wallet: '0x12' }, 'wallet must be a wallet address: 0x followed by 40 hex digits'],
      [{ wallet: wallet(), name: '' }, 'name must not be empty'],
      [{ wallet: wallet(), name: '   ' }, 'name must not be blank'],
      [{ wallet: wallet(), name: 'x'.repeat(101) }, 'name must be at most 100 characters long'],
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
      expect(first.json()).toEqual({ transferId: expect.any(String), balance: '12.5' });
      mintedUnits += 1_250_000_000n;

      const tiny = await mint(playerId, 0.00000001);
      expect(tiny.json()).toMatchObject({ balance: '12.50000001' });
      mintedUnits += 1n;

      const text = await mint(playerId, '0.1');
      expect(text.json()).toMatchObject({ balance: '12.60000001' });
      mintedUnits += 10_000_000n;

      const [player] = await api.db.query<{ account_id: string }>(
        'SELECT account_id FROM players WHERE id = $1',
        [playerId],
      );
      const balance = await get(`/admin/hst/balances/${playerId}`);
      expect(balance.statusCode).toBe(200);
      expect(balance.json()).toEqual({
        accountId: player?.account_id,
        balance: '12.60000001',
        pending: '0',
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
      expect((await mint(developerId, 3)).json()).toMatchObject({ balance: '3' });
      mintedUnits += 300_000_000n;
      expect((await get(`/admin/hst/balances/${developerId}`)).json()).toMatchObject({
        balance: '3',
        pending: '0',
      });
    });

    it('mints to the arcade by arcade id', async () => {
      const before = await get(`/admin/hst/balances/${api.app.arcade.record.id}`);
      const balance = readHst(before.json<{ balance: string }>().balance).units!;
      const res = await mint(api.app.arcade.record.id, 1);
      expect(res.json()).toMatchObject({ balance: formatHst(balance + 100_000_000n) });
      mintedUnits += 100_000_000n;
      // The word `arcade` names the same account (the console reads the guarantee's funds so).
      const byWord = await get('/admin/hst/balances/arcade');
      expect(byWord.statusCode, byWord.body).toBe(200);
      expect(byWord.json()).toEqual({
        accountId: api.app.arcade.record.accountId,
        balance: formatHst(balance + 100_000_000n),
        pending: '0',
      });
      expect((await mint('arcade', 2)).json()).toMatchObject({
        balance: formatHst(balance + 300_000_000n),
      });
      mintedUnits += 200_000_000n;
    });

    it('treats a repeated transferId as the same mint', async () => {
      const playerId = await createPlayer();
      const transferId = uuidIds.next();
      const once = await post('/admin/hst/mints', { accountId: playerId, amount: 5, transferId });
      const twice = await post('/admin/hst/mints', { accountId: playerId, amount: 5, transferId });
      expect(once.json()).toEqual({ transferId, balance: '5' });
      expect(twice.json()).toEqual({ transferId, balance: '5' });
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
      expect(balance.json()).toMatchObject({ balance: '0' });
    });

    it.each([
      [{ accountId: UNKNOWN_ID }, 'amount is required'],
      [{ accountId: UNKNOWN_ID, amount: true }, 'amount must be a number'],
      [{ amount: 1 }, 'accountId is required'],
      [{ accountId: 'player-1', amount: 1 }, `accountId ${ACCOUNT_REF_TEXT}`],
      [{ accountId: '0x1234', amount: 1 }, `accountId ${ACCOUNT_REF_TEXT}`],
      [{ accountId: UNKNOWN_ID, amount: 1, transferId: 'x' }, 'transferId must be a UUID'],
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
        message: `accountId ${ACCOUNT_REF_TEXT}`,
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
      const minted = formatHst(mintedUnits);
      expect(mintedUnits).toBeGreaterThan(0n);
      expect(res.json()).toEqual({
        debitsPosted: minted,
        creditsPosted: minted,
        debitsPending: '0',
        creditsPending: '0',
        minted,
        vaultHeld: '0',
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
      [{ cost: 1.5 }, 'cost must be a whole number'],
      [{ cost: -1 }, 'cost must be at least 0'],
      [{ cost: '5' }, 'cost must be a whole number'],
      [{ cost: 1_000_000_001 }, 'cost must be at most 1000000000'],
      [{ name: '' }, 'name must not be empty'],
      [{ leadersMax: 0 }, 'leadersMax must be at least 1'],
      [{ leadersMax: 101 }, 'leadersMax must be at most 100'],
      [{ gameId: 'g' }, 'gameId must be a UUID'],
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

  describe('accounts named by wallet', () => {
    it('mints to and reads the balance of a player, and of a developer, by wallet', async () => {
      const playerWallet = wallet();
      const playerRes = await post('/admin/players', { wallet: playerWallet });
      const { playerId } = playerRes.json<{ playerId: string }>();
      const minted = await mint(playerWallet.toUpperCase().replace('0X', '0x'), 2.5);
      expect(minted.statusCode).toBe(201);
      expect(minted.json()).toMatchObject({ balance: '2.5' });
      mintedUnits += 250_000_000n;
      const byWallet = await get(`/admin/hst/balances/${playerWallet}`);
      expect(byWallet.json()).toEqual((await get(`/admin/hst/balances/${playerId}`)).json());
      expect(byWallet.json()).toMatchObject({ balance: '2.5', pending: '0' });

      const developerWallet = wallet();
      const { developerId } = (await post('/admin/developers', { wallet: developerWallet })).json();
      expect((await mint(developerWallet, 1)).json()).toMatchObject({ balance: '1' });
      mintedUnits += 100_000_000n;
      expect((await get(`/admin/hst/balances/${developerId}`)).json()).toMatchObject({
        balance: '1',
      });
    });

    it('refuses a wallet that is both a player and a developer, naming both ids', async () => {
      const both = wallet();
      const { playerId } = (await post('/admin/players', { wallet: both })).json();
      const { developerId } = (await post('/admin/developers', { wallet: both })).json();
      const expected = {
        code: 'account_ambiguous',
        message:
          `wallet ${both} is both player ${playerId} and developer ${developerId}: give the id ` +
          'of the one you mean',
        details: { wallet: both, playerId, developerId },
      };
      const minted = await mint(both, 1);
      expect(minted.statusCode).toBe(409);
      expect(minted.json()).toMatchObject(expected);
      const balance = await get(`/admin/hst/balances/${both}`);
      expect(balance.statusCode).toBe(409);
      expect(balance.json()).toMatchObject(expected);
      // By id, each is still reachable.
      expect((await get(`/admin/hst/balances/${playerId}`)).statusCode).toBe(200);
    });

    it('is 404 account_not_found for a wallet nobody has', async () => {
      const nobody = wallet();
      const res = await get(`/admin/hst/balances/${nobody}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'account_not_found',
        message: `no player or developer has wallet ${nobody}`,
      });
      expect((await mint(nobody, 1)).statusCode).toBe(404);
    });
  });

  describe('GET /admin/players/:player', () => {
    it('finds a player by id and by wallet, with its balance', async () => {
      const address = wallet();
      const { playerId } = (
        await post('/admin/players', { wallet: address, name: 'Grace' })
      ).json();
      await mint(playerId, 4.25);
      mintedUnits += 425_000_000n;
      const [row] = await api.db.query<{ account_id: string }>(
        'SELECT account_id FROM players WHERE id = $1',
        [playerId],
      );
      const expected = {
        playerId,
        wallet: address,
        name: 'Grace',
        accountId: row?.account_id,
        balance: '4.25',
        pending: '0',
        createdAt: api.clock.now().toISOString(),
      };
      const byId = await get(`/admin/players/${playerId}`);
      expect(byId.statusCode).toBe(200);
      expect(byId.json()).toEqual(expected);
      const byWallet = await get(`/admin/players/${address.toUpperCase().replace('0X', '0x')}`);
      expect(byWallet.json()).toEqual(expected);
    });

    it('mints a player token for a player named by wallet', async () => {
      const address = wallet();
      const { playerId } = (await post('/admin/players', { wallet: address })).json();
      const res = await post(`/admin/players/${address}/token`, { ttl: 60 });
      expect(res.statusCode).toBe(201);
      const claims = decodeJwt(res.json<{ access_token: string }>().access_token);
      expect(Object.values(claims)).toContain(playerId);
      expect(claims.exp! - claims.iat!).toBe(60);
      const nobody = wallet();
      expect((await post(`/admin/players/${nobody}/token`, {})).json()).toMatchObject({
        status: 404,
        code: 'player_not_found',
        message: `no player has wallet ${nobody}`,
      });
    });

    it('is 404 player_not_found by id and by wallet, and 400 for anything else', async () => {
      const byId = await get(`/admin/players/${UNKNOWN_ID}`);
      expect(byId.statusCode).toBe(404);
      expect(byId.json()).toMatchObject({
        code: 'player_not_found',
        message: `no player has id ${UNKNOWN_ID}`,
      });
      const nobody = wallet();
      const byWallet = await get(`/admin/players/${nobody}`);
      expect(byWallet.json()).toMatchObject({
        status: 404,
        code: 'player_not_found',
        message: `no player has wallet ${nobody}`,
      });
      const bad = await get('/admin/players/ada');
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({
        code: 'validation_failed',
        message: `player ${PLAYER_REF_TEXT}`,
      });
    });
  });

  describe('GET /admin/developers', () => {
    it('lists developers newest first with their games, a page at a time', async () => {
      const older = await createDeveloper();
      api.clock.advance(1_000);
      const gameId = await createGame();
      const [owner] = await api.db.query<{ developer_id: string; wallet: string }>(
        `SELECT g.developer_id, d.wallet FROM games g JOIN developers d ON d.id = g.developer_id
         WHERE g.id = $1`,
        [gameId],
      );
      const first = await get('/admin/developers?limit=1');
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        developers: [
          {
            developerId: owner?.developer_id,
            wallet: owner?.wallet,
            accountId: expect.any(String),
            games: 1,
            balance: '0',
            pending: '0',
            createdAt: api.clock.now().toISOString(),
          },
        ],
        next: owner?.developer_id,
      });
      const second = await get(`/admin/developers?limit=1&before=${owner?.developer_id}`);
      expect(second.json().developers).toEqual([
        expect.objectContaining({ developerId: older.developerId, games: 0 }),
      ]);
      // Issue 17: the console finds one by wallet or id, with its earnings.
      const mint = await post('/admin/hst/mints', { accountId: older.developerId, amount: '2.5' });
      expect(mint.statusCode).toBe(201);
      for (const search of [older.developerId, owner!.wallet.toUpperCase().replace('0X', '0x')]) {
        const found = await get(`/admin/developers?search=${search}`);
        expect(found.json().developers, search).toEqual([
          expect.objectContaining({
            developerId: search === older.developerId ? older.developerId : owner?.developer_id,
          }),
        ]);
      }
      const byId = await get(`/admin/developers?search=${older.developerId}`);
      expect(byId.json().developers[0]).toMatchObject({ balance: '2.5', pending: '0' });
    });

    it.each([
      ['limit=0', 'limit must be a whole number from 1 to 100'],
      ['limit=101', 'limit must be a whole number from 1 to 100'],
      ['before=x', 'before must be a UUID'],
    ])('refuses ?%s naming the field', async (query, message) => {
      const res = await get(`/admin/developers?${query}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message });
    });
  });

  describe('GET /admin/games and POST /admin/games/:gameId/unpublish', () => {
    const stateOf = async (gameId: string) => {
      const res = await get('/admin/games?limit=100');
      expect(res.statusCode).toBe(200);
      const games = res.json<{ games: { gameId: string }[] }>().games;
      return games.find((g) => g.gameId === gameId);
    };

    it('lists each game with its state as it is published, suspended, resumed, unpublished', async () => {
      const gameId = await createGame();
      const createdAt = api.clock.now().toISOString();
      const [owner] = await api.db.query<{ developer_id: string; wallet: string }>(
        `SELECT g.developer_id, d.wallet FROM games g JOIN developers d ON d.id = g.developer_id
         WHERE g.id = $1`,
        [gameId],
      );
      const base = {
        gameId,
        name: 'Admin test game',
        developerId: owner?.developer_id,
        developerWallet: owner?.wallet,
        tiers: 1,
        createdAt,
        // The operator's default (--payout-hold 0): the game sets none.
        payoutHoldSeconds: 0,
      };
      expect(await stateOf(gameId)).toEqual({
        ...base,
        state: 'unpublished',
        publishedAt: null,
        suspendedAt: null,
      });
      api.clock.advance(1_000);
      await post(`/admin/games/${gameId}/publish`);
      const publishedAt = api.clock.now().toISOString();
      expect(await stateOf(gameId)).toMatchObject({ state: 'published', publishedAt });
      await post('/admin/leaderboards', { gameId, name: 'Pro', cost: 5 });
      api.clock.advance(1_000);
      await post(`/admin/games/${gameId}/suspend`);
      expect(await stateOf(gameId)).toMatchObject({
        state: 'suspended',
        tiers: 2,
        publishedAt,
        suspendedAt: api.clock.now().toISOString(),
      });
      await post(`/admin/games/${gameId}/resume`);
      expect(await stateOf(gameId)).toMatchObject({ state: 'published', suspendedAt: null });

      const unpublished = await post(`/admin/games/${gameId}/unpublish`);
      expect(unpublished.statusCode).toBe(200);
      expect(unpublished.json()).toEqual({
        ...base,
        tiers: 2,
        state: 'unpublished',
        publishedAt: null,
        suspendedAt: null,
      });
      // Idempotent.
      expect((await post(`/admin/games/${gameId}/unpublish`)).json()).toEqual(unpublished.json());
      expect(await stateOf(gameId)).toEqual(unpublished.json());
    });

    it('unpublished: open plays keep settling; only its developer and testers open new ones', async () => {
      const game = await gameWithTiers(api, { costs: [1] });
      const tier = game.tiers[0]!.id;
      const token = await writeToken(api, game);
      const gameCall = (path: string, payload: object) =>
        api.app.inject({
          method: 'POST',
          url: `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`,
          headers: { authorization: `Bearer ${token}` },
          payload,
        });
      const player = await fundedPlayer(api, 3);
      const own = await fundedPlayer(api, 3, 'dev', game.developerWallet);
      mintedUnits += 600_000_000n;
      const opened = await gameCall('play', { playerId: player.playerId, leaderboardId: tier });
      expect(opened.statusCode).toBe(200);

      expect((await post(`/admin/games/${game.gameId}/unpublish`)).json()).toMatchObject({
        state: 'unpublished',
      });
      const catalog = await api.app.inject({ method: 'GET', url: '/catalog/games' });
      expect(JSON.stringify(catalog.json())).not.toContain(game.gameId);

      const refused = await gameCall('play', { playerId: player.playerId, leaderboardId: tier });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ code: 'player_not_tester' });
      const developers = await gameCall('play', { playerId: own.playerId, leaderboardId: tier });
      expect(developers.statusCode).toBe(200);

      const scored = await gameCall('score', {
        playId: opened.json().id,
        leaderboardId: tier,
        score: 10,
      });
      expect(scored.statusCode).toBe(200);
      const after = await get(`/admin/players/${player.playerId}`);
      // 3 - 1, and 0.7 back: nobody led the tier when the play began.
      expect(after.json()).toMatchObject({ balance: '2.7', pending: '0' });
    });

    it('pages newest first with limit and before', async () => {
      const a = await createGame();
      api.clock.advance(1_000);
      const b = await createGame();
      api.clock.advance(1_000);
      const c = await createGame();
      const first = (await get('/admin/games?limit=2')).json();
      expect(first.games.map((g: { gameId: string }) => g.gameId)).toEqual([c, b]);
      expect(first.next).toBe(b);
      const second = (await get(`/admin/games?limit=2&before=${first.next}`)).json();
      expect(second.games[0].gameId).toBe(a);
    });

    it('is 404 game_not_found for an unknown game', async () => {
      const res = await post(`/admin/games/${UNKNOWN_ID}/unpublish`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'game_not_found',
        message: `game ${UNKNOWN_ID} does not exist`,
      });
    });
  });
});
