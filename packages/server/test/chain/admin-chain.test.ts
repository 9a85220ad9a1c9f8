import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { availableUnits, MAX_UNITS } from '@coinop/core';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { getAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { depositTransferId } from '../../src/chain/deposit-ids.js';
import { testConfig, type ChainConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { findAccount } from '../../src/store/ledger.js';
import { runCli } from '../cli/run-cli.js';
import {
  chainConfigFor,
  HST,
  newChainArcade,
  startArcadeChain,
  type ArcadeChain,
} from '../fixtures/chain.js';

/**
 * The operator's view of the chain watcher: `GET /admin/chain`, the deposits, and crediting a
 * held deposit, over the admin API and through `coinop admin chain`.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe.each(storeVariants())('the chain admin API on %s', (variant) => {
  let api: TestApi | null = null;
  afterEach(async () => {
    if (api) {
      await expectLedgerBalanced(api.db);
      await api.close();
    }
    api = null;
  });

  async function arcadeOnNewVault(overrides: Partial<ChainConfig> = {}) {
    const arcade = await newChainArcade(chain, variant, overrides);
    api = arcade.api;
    return arcade;
  }

  const get = (url: string) => api!.app.inject({ method: 'GET', url, headers: admin });
  const credit = (deposit: string, body: object) =>
    api!.app.inject({
      method: 'POST',
      url: `/admin/chain/deposits/${deposit}/credit`,
      headers: admin,
      payload: body,
    });
  const unitsOf = async (accountId: string) => {
    const account = await findAccount(api!.db, accountId);
    return account ? availableUnits(account) : null;
  };

  it('answers {enabled: false} without chain mode', async () => {
    api = await buildTestApi(variant);
    const res = await get('/admin/chain');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ enabled: false });
    expect((await get('/admin/chain/deposits')).json()).toEqual({ deposits: [] });
  });

  it('reports chain, vault, checkpoint, head and lag, and the held deposits', async () => {
    const { api, vault, startBlock, watcher } = await arcadeOnNewVault({ confirmations: 2 });
    const before = await get('/admin/chain');
    expect(before.json()).toEqual({
      enabled: true,
      rpcUrl: chain.anvil.rpcUrl,
      chainId: null,
      vaultAddress: vault,
      tokenAddress: null,
      vaultAccountId: null,
      confirmations: 2,
      startBlock: Number(startBlock),
      state: 'starting',
      checkpointBlock: null,
      headBlock: null,
      headSeenAt: null,
      lagBlocks: null,
      reorg: null,
      halt: null,
      reconciliation: null,
      lastError: null,
      vaultHeld: '0',
      held: { count: 0, amount: '0' },
    });

    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 5n * HST);
    await chain.deposit(vault, chain.players[0]!, randomUUID(), 4n * HST + 1n);
    await chain.mine(2);
    await watcher.runOnce();
    const head = Number(await chain.head());
    const res = await get('/admin/chain');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      enabled: true,
      rpcUrl: chain.anvil.rpcUrl,
      chainId: chain.chainId,
      vaultAddress: vault,
      tokenAddress: chain.hst,
      vaultAccountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      confirmations: 2,
      startBlock: Number(startBlock),
      state: 'running',
      checkpointBlock: head - 2,
      headBlock: head,
      headSeenAt: api.clock.now().toISOString(),
      lagBlocks: 2,
      reorg: null,
      halt: null,
      // The watcher's first round reconciles the vault with the ledger: held deposits explained.
      reconciliation: {
        at: api.clock.now().toISOString(),
        blockNumber: head - 2,
        unexplained: '0',
        acceptedShortfall: '0',
      },
      surplus: Object.fromEntries(
        ['unsolicited', 'credited', 'swept', 'covered'].map((s) => [s, { count: 0, amount: '0' }]),
      ),
      lastError: null,
      vaultHeld: '5',
      held: { count: 1, amount: '4.00000001' },
      withdrawals: {
        operatorAddress: null,
        waiting: 'no operator key: withdrawals are queued, not sent',
        lastError: null,
        queued: { count: 0, amount: '0' },
        sent: { count: 0, amount: '0' },
        paid: { count: 0, amount: '0' },
        failed: { count: 0, amount: '0' },
      },
      playLocks: Object.fromEntries(
        ['requested', 'open', 'refund_due', 'sent', 'settled', 'refunded', 'reclaimed'].map(
          (state) => [state, { count: 0, amount: '0' }],
        ),
      ),
    });
    const vaultAccount = await findAccount(api.db, res.json().vaultAccountId);
    expect(vaultAccount).toMatchObject({
      kind: 'vault',
      debitsPosted: 5n * HST,
      creditsPosted: 0n,
    });
  });

  it('shows a halt after a reorganisation deeper than the confirmations', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 1 });
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[1]!, player.accountId, HST);
    await chain.mine(1);
    await watcher.runOnce();
    const { checkpointBlock } = (await get('/admin/chain')).json();
    await chain.reorg(3);
    expect(await watcher.runOnce()).toEqual({ outcome: 'halted' });
    expect((await get('/admin/chain')).json()).toMatchObject({
      state: 'halted',
      checkpointBlock,
      reorg: {
        detectedAt: api.clock.now().toISOString(),
        blockNumber: checkpointBlock,
        recordedHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        chainHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      },
      // Nothing leaves the vault until an operator resumes (issue 27).
      halt: {
        cause: 'reorg',
        blockNumber: checkpointBlock,
        haltedAt: api.clock.now().toISOString(),
        resume: null,
        resumedAt: null,
      },
    });
  });

  it('lists deposits newest first, and the held ones alone', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 0 });
    const player = await fundedPlayer(api, 0);
    const nobody = randomUUID();
    const first = await chain.deposit(vault, chain.players[0]!, player.accountId, HST);
    const second = await chain.deposit(vault, chain.players[1]!, nobody, 2n * HST);
    await watcher.runOnce();

    const all = await get('/admin/chain/deposits');
    expect(all.statusCode).toBe(200);
    expect(all.json().deposits).toEqual([
      {
        chainId: chain.chainId,
        vaultAddress: vault,
        txHash: second.txHash,
        logIndex: second.logIndex,
        blockNumber: Number(second.blockNumber),
        blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        accountId: nobody,
        from: getAddress(chain.players[1]!.account.address),
        amount: '2',
        status: 'held',
        heldReason: 'unknown_account',
        transferId: depositTransferId(chain.chainId, second.txHash, second.logIndex),
        creditedAccountId: null,
        seenAt: api.clock.now().toISOString(),
        creditedAt: null,
      },
      expect.objectContaining({
        txHash: first.txHash,
        accountId: player.accountId,
        amount: '1',
        status: 'credited',
        heldReason: null,
        creditedAccountId: player.accountId,
        creditedAt: api.clock.now().toISOString(),
      }),
    ]);
    const held = await get('/admin/chain/deposits?status=held');
    expect(held.json().deposits.map((d: { txHash: string }) => d.txHash)).toEqual([second.txHash]);
    const one = await get('/admin/chain/deposits?limit=1');
    expect(one.json().deposits).toHaveLength(1);
    for (const bad of ['limit=0', 'limit=501', 'limit=ten', 'status=lost']) {
      const res = await get(`/admin/chain/deposits?${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json(), bad).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('credits a held deposit to an account once, and refuses what it cannot credit', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 0 });
    const player = await fundedPlayer(api, 0);
    const other = await fundedPlayer(api, 0);
    const held = await chain.deposit(vault, chain.players[0]!, randomUUID(), 4n * HST);
    const whale = chain.players[2]!;
    await chain.mint(whale, MAX_UNITS + 1n);
    const huge = await chain.deposit(vault, whale, player.accountId, MAX_UNITS + 1n);
    const stray = await chain.deposit(vault, chain.players[1]!, randomUUID(), HST);
    await watcher.runOnce();
    const strayKey = `${stray.txHash}:${stray.logIndex}`;
    const key = `${held.txHash}:${held.logIndex}`;

    // By the player's id: the deposit goes to the player's account.
    const res = await credit(key, { accountId: player.playerId });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      txHash: held.txHash,
      status: 'credited',
      heldReason: 'unknown_account',
      creditedAccountId: player.accountId,
      creditedAt: api.clock.now().toISOString(),
      transferId: depositTransferId(chain.chainId, held.txHash, held.logIndex),
    });
    expect(await unitsOf(player.accountId)).toBe(4n * HST);
    // Again to the same account: the same answer, nothing moves.
    const again = await credit(key.toUpperCase().replace('0X', '0x'), {
      accountId: player.accountId,
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(res.json());
    expect(await unitsOf(player.accountId)).toBe(4n * HST);
    expect((await get('/admin/chain')).json().held).toEqual({
      count: 2,
      amount: '92233720369.54775808',
    });

    const refusals: [string, object, number, object][] = [
      [
        key,
        { accountId: other.accountId },
        409,
        {
          code: 'deposit_already_credited',
          message: `deposit ${key} was already credited to account ${player.accountId}`,
        },
      ],
      [
        `0x${'ab'.repeat(32)}:0`,
        { accountId: player.accountId },
        404,
        {
          code: 'deposit_not_found',
          message: `no deposit 0x${'ab'.repeat(32)}:0 was read from the vault`,
        },
      ],
      [
        `${huge.txHash}:${huge.logIndex}`,
        { accountId: player.accountId },
        400,
        {
          code: 'invalid_amount',
          message:
            `deposit ${huge.txHash}:${huge.logIndex} of 9223372036854775808 units is not an ` +
            'amount a balance holds (1 unit to 92233720368.54775807 HST): it cannot be credited',
        },
      ],
      [strayKey, { accountId: randomUUID() }, 404, { code: 'account_not_found' }],
      [
        strayKey,
        { accountId: api.app.arcade.record.id },
        400,
        {
          code: 'validation_failed',
          message: `account ${api.app.arcade.record.id} is the arcade account; a deposit goes to a player or a developer`,
          details: { field: 'accountId' },
        },
      ],
      [held.txHash, { accountId: player.accountId }, 400, { code: 'validation_failed' }],
      [`${held.txHash}:-1`, { accountId: player.accountId }, 400, { code: 'validation_failed' }],
      [key, { accountId: 'nobody' }, 400, { code: 'validation_failed' }],
      [key, { accountId: player.accountId, chainId: 0 }, 400, { code: 'validation_failed' }],
      [key, { accountId: player.accountId, extra: 1 }, 400, { code: 'validation_failed' }],
    ];
    for (const [deposit, body, status, problem] of refusals) {
      const refused = await credit(deposit, body);
      expect(refused.statusCode, `${deposit} ${JSON.stringify(body)}`).toBe(status);
      expect(refused.json(), `${deposit} ${JSON.stringify(body)}`).toMatchObject(problem);
    }
    expect(await unitsOf(player.accountId)).toBe(4n * HST);
    expect(await unitsOf(other.accountId)).toBe(0n);
  });
});

describe('coinop serve in chain mode, and coinop admin chain (PGlite on disk)', () => {
  let dataDir: string;
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  // Six runs of the built CLI, each a process start: slow on a busy machine, so a longer budget.
  it('credits deposits as they get deep enough; the CLI shows them and credits a held one', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-chain-'));
    const vault = await chain.newVault();
    server = await startServer(
      testConfig({
        apiPort: 0,
        dataDir,
        adminToken: 'chain-admin',
        services: ['api'],
        chain: chainConfigFor(chain, vault, { confirmations: 1 }),
      }),
    );
    const cli = async (...args: string[]) => {
      const run = await runCli([
        'admin',
        'chain',
        ...args,
        '--server',
        server!.url,
        '--admin-token',
        'chain-admin',
      ]);
      return { ...run, json: run.stdout === '' ? null : JSON.parse(run.stdout) };
    };
    const arcade = server.api.arcade;
    const { playerId } = await (async () => {
      const res = await server.api.inject({
        method: 'POST',
        url: '/admin/players',
        headers: { authorization: 'Bearer chain-admin' },
        payload: { wallet: chain.players[0]!.account.address },
      });
      return res.json<{ playerId: string }>();
    })();
    const [{ account_id: accountId } = { account_id: '' }] = await arcade.db.query<{
      account_id: string;
    }>('SELECT account_id FROM players WHERE id = $1', [playerId]);

    await chain.deposit(vault.vault, chain.players[0]!, accountId, 3n * HST);
    const stray = await chain.deposit(vault.vault, chain.players[0]!, randomUUID(), HST);
    await chain.mine(1);
    const balance = async () => availableUnits((await findAccount(arcade.db, accountId))!);
    await expect.poll(balance, { timeout: 10_000 }).toBe(3n * HST);
    await expect
      .poll(async () => (await cli('status')).json?.held, { timeout: 5_000 })
      .toEqual({ count: 1, amount: '1' });

    const status = await cli('status');
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(status.json).toMatchObject({
      enabled: true,
      chainId: chain.chainId,
      vaultAddress: vault.vault,
      state: 'running',
      vaultHeld: '3',
    });
    const held = await cli('deposits', '--held');
    expect(held.code).toBe(0);
    expect(held.json.deposits).toEqual([
      expect.objectContaining({ txHash: stray.txHash, status: 'held', amount: '1' }),
    ]);
    expect((await cli('deposits', '--limit', '5')).json.deposits).toHaveLength(2);

    const credited = await cli(
      'credit-held',
      `${stray.txHash}:${stray.logIndex}`,
      '--account',
      playerId,
    );
    expect(credited).toMatchObject({ code: 0, stderr: '' });
    expect(credited.json).toMatchObject({ status: 'credited', creditedAccountId: accountId });
    expect(await balance()).toBe(4n * HST);
    const twice = await cli(
      'credit-held',
      `${stray.txHash}:${stray.logIndex}`,
      '--account',
      randomUUID(),
    );
    expect(twice).toMatchObject({ code: 1, stdout: '' });
    expect(twice.stderr).toMatch(/^coinop: account [0-9a-f-]{36} does not exist\n$/);
    expect((await cli('deposits', '--held')).json.deposits).toEqual([]);
    await expectLedgerBalanced(arcade.db);
  });
});
