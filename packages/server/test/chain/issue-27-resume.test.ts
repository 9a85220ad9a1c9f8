import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChainConfig } from '../../src/config.js';
import { HST, newChainArcade, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * Issue 27: `coinop admin chain resume` (POST /admin/chain/resume) and the surplus routes refuse
 * what would be unsafe or is malformed, each with a 4xx naming the problem: a `fromBlock` above
 * the fork, out of range, or given for a halt that is not a reorganisation; a resume while the
 * RPC still answers another chain; nothing to resume; bad bodies and ids; chain mode off. On a
 * real Anvil, every store.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

const CONFIRMATIONS = 1;
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const TX = `0x${'ab'.repeat(32)}`;

describe.each(storeVariants())('issue 27: resume and surplus refusals, on %s', (variant) => {
  let api: TestApi | null = null;
  afterEach(async () => {
    if (api) {
      await expectLedgerBalanced(api.db);
      await api.close();
    }
    api = null;
  });

  async function arcadeOnNewVault(overrides: Partial<ChainConfig> = {}) {
    const arcade = await newChainArcade(chain, variant, {
      confirmations: CONFIRMATIONS,
      reconcileIntervalMs: 0,
      ...overrides,
    });
    api = arcade.api;
    return arcade;
  }
  const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await api!.app.inject({
      method,
      url,
      headers: admin,
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
  const resume = (body: object) => call('POST', '/admin/chain/resume', body);

  it('answers chain_mode_off without a vault', async () => {
    api = await buildTestApi(variant);
    for (const [method, url, body] of [
      ['POST', '/admin/chain/resume', { by: 'ops', reason: 'x' }],
      ['GET', '/admin/chain/halts', undefined],
      ['GET', '/admin/chain/surplus', undefined],
      ['POST', `/admin/chain/surplus/${TX}:0/credit`, { accountId: 'arcade' }],
      ['POST', `/admin/chain/surplus/${TX}:0/sweep`, { to: `0x${'12'.repeat(20)}` }],
      ['POST', `/admin/chain/surplus/${TX}:0/cover`, { note: 'x' }],
    ] as const) {
      const res = await call(method, url, body);
      expect(res, url).toMatchObject({ status: 409, body: { code: 'chain_mode_off' } });
    }
  });

  it('refuses malformed bodies and ids, and what names nothing', async () => {
    const { watcher } = await arcadeOnNewVault();
    await watcher.runOnce();
    const bad: [string, object, string][] = [
      ['/admin/chain/resume', { reason: 'x' }, 'by'],
      ['/admin/chain/resume', { by: 'ops' }, 'reason'],
      ['/admin/chain/resume', { by: '', reason: 'x' }, 'by'],
      ['/admin/chain/resume', { by: 'ops', reason: 'x'.repeat(2001) }, 'reason'],
      ['/admin/chain/resume', { by: 'ops', reason: 'x', fromBlock: -1 }, 'fromBlock'],
      ['/admin/chain/resume', { by: 'ops', reason: 'x', fromBlock: '7' }, 'fromBlock'],
      [
        '/admin/chain/resume',
        { by: 'ops', reason: 'x', acceptShortfall: '1.123456789' },
        'acceptShortfall',
      ],
      ['/admin/chain/resume', { by: 'ops', reason: 'x', acceptShortfall: 5 }, 'acceptShortfall'],
      ['/admin/chain/resume', { by: 'ops', reason: 'x', force: true }, 'force'],
      [`/admin/chain/surplus/${TX}:0/credit`, {}, 'accountId'],
      [`/admin/chain/surplus/${TX}:0/cover`, { note: '' }, 'note'],
      [`/admin/chain/surplus/${TX}:0/sweep`, {}, 'to'],
      [`/admin/chain/surplus/0x12:0/credit`, { accountId: 'arcade' }, 'surplus'],
      [`/admin/chain/surplus/${TX}/credit`, { accountId: 'arcade' }, 'surplus'],
    ];
    for (const [url, body, field] of bad) {
      const res = await call('POST', url, body);
      expect(res, `${url} ${JSON.stringify(body).slice(0, 80)}`).toMatchObject({
        status: 400,
        body: { code: 'validation_failed' },
      });
      expect(res.body.message, url).toContain(field);
    }
    expect(
      await call('POST', `/admin/chain/surplus/${TX}:0/sweep`, { to: '0x1234' }),
    ).toMatchObject({ status: 400, body: { code: 'validation_failed', details: { field: 'to' } } });
    for (const action of ['credit', 'sweep', 'cover'] as const) {
      const body = {
        credit: { accountId: 'arcade' },
        sweep: { to: `0x${'12'.repeat(20)}` },
        cover: { note: 'x' },
      }[action];
      expect(await call('POST', `/admin/chain/surplus/${TX}:3/${action}`, body)).toMatchObject({
        status: 404,
        body: {
          code: 'surplus_not_found',
          message: `no HST transfer to the vault ${TX}:3 was recorded as surplus`,
        },
      });
    }
    expect(await call('GET', '/admin/chain/surplus?status=lost')).toMatchObject({ status: 400 });
    expect(await call('GET', '/admin/chain/halts?limit=0')).toMatchObject({ status: 400 });
    expect(await resume({ by: 'ops', reason: 'nothing wrong' })).toMatchObject({
      status: 409,
      body: { code: 'chain_not_halted' },
    });
    expect(await call('GET', '/admin/chain/halts')).toEqual({ status: 200, body: { halts: [] } });
  });

  it('validates fromBlock against the chain after a reorganisation, and refuses it otherwise', async () => {
    const { api, vault, startBlock, watcher } = await arcadeOnNewVault();
    const player = await fundedPlayer(api, 0);
    const first = await chain.deposit(vault, chain.players[0]!, player.accountId, 2n * HST);
    await chain.mine(2);
    const second = await chain.deposit(vault, chain.players[0]!, player.accountId, 3n * HST);
    await chain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 2 });
    const head = await chain.head();
    // Both deposits' blocks are replaced.
    await chain.reorg(Number(head - first.blockNumber) + 1);
    expect(await watcher.runOnce()).toEqual({ outcome: 'halted' });
    const checkpoint = (await call('GET', '/admin/chain')).body.checkpointBlock as number;

    const aboveFork = await resume({
      by: 'ops',
      reason: 'x',
      fromBlock: Number(second.blockNumber),
    });
    expect(aboveFork).toMatchObject({
      status: 409,
      body: {
        code: 'block_not_on_chain',
        details: { blockNumber: Number(first.blockNumber) },
        message: expect.stringMatching(
          new RegExp(
            `^block ${first.blockNumber} was recorded with hash 0x[0-9a-f]{64} \\(deposit ` +
              `${first.txHash}:${first.logIndex}\\) and the chain has 0x[0-9a-f]{64} there now: ` +
              `the fork is below it; resume from block ${first.blockNumber} or lower$`,
          ),
        ),
      },
    });
    for (const fromBlock of [checkpoint + 1, Number(startBlock) - 1]) {
      expect(await resume({ by: 'ops', reason: 'x', fromBlock })).toMatchObject({
        status: 400,
        body: {
          code: 'validation_failed',
          details: { field: 'fromBlock' },
          message: `fromBlock must be between the vault's start block ${startBlock} and the block the chain replaced, ${checkpoint}; got ${fromBlock}`,
        },
      });
    }
    expect(
      await resume({ by: 'ops', reason: 'x', fromBlock: Number(first.blockNumber) }),
    ).toMatchObject({
      status: 200,
      body: { state: 'resuming' },
    });
    // Read again: both deposits are gone, 5 HST short; fromBlock is for reorganisations only.
    await watcher.runOnce();
    expect((await call('GET', '/admin/chain')).body).toMatchObject({
      state: 'halted',
      halt: { cause: 'shortfall', shortfall: '5' },
    });
    expect(
      await resume({ by: 'ops', reason: 'x', fromBlock: Number(first.blockNumber) }),
    ).toMatchObject({
      status: 400,
      body: { code: 'validation_failed', details: { field: 'fromBlock' } },
    });
    // The rewind forgot nothing the ledger needs: the deposits stay recorded and credited.
    expect((await call('GET', '/admin/chain/deposits')).body.deposits).toHaveLength(2);
  });

  it("halts on an RPC answering another chain id, and resumes only once it answers the vault's own", async () => {
    const { api, vault, watcher } = await arcadeOnNewVault();
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 2n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    const setChainId = (id: number) =>
      chain.admin.request({ method: 'anvil_setChainId', params: [id] } as never);
    await setChainId(4242);
    try {
      expect(await watcher.runOnce()).toEqual({ outcome: 'halted' });
      expect((await call('GET', '/admin/chain')).body).toMatchObject({
        state: 'halted',
        halt: {
          cause: 'chain_mismatch',
          detail: `the RPC answers chain 4242, not chain ${chain.chainId} the vault is watched on`,
        },
      });
      expect(await resume({ by: 'ops', reason: 'x' })).toMatchObject({
        status: 409,
        body: {
          code: 'chain_mismatch',
          details: { chainId: 4242, recordedChainId: chain.chainId },
        },
      });
    } finally {
      await setChainId(chain.chainId);
    }
    expect(await resume({ by: 'ops', reason: 'the balancer had a testnet node' })).toMatchObject({
      status: 200,
      body: { state: 'resumed', reconciliation: { reconciled: true } },
    });
    await watcher.runOnce();
    expect((await call('GET', '/admin/chain')).body).toMatchObject({
      state: 'running',
      halt: null,
    });
  });
});
