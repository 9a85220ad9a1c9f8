import { randomUUID } from 'node:crypto';
import { arcadeVaultAbi, hstAbi, uuidToBytes16 } from '@coinop/contracts';
import { availableUnits } from '@coinop/core';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChainConfig } from '../../src/config.js';
import { findPlayLock } from '../../src/store/chain-play-locks.js';
import { findWithdrawal } from '../../src/store/chain-withdrawals.js';
import { findAccount } from '../../src/store/ledger.js';
import {
  HST,
  newChainArcade,
  operatorSender,
  startArcadeChain,
  type ArcadeChain,
} from '../fixtures/chain.js';

/**
 * Issue 27, finding 2: withdrawals were paid while the watcher was halted on a reorganisation.
 * A deposit was credited, the chain reverted below it and mined on: `GET /admin/chain` said
 * halted, `audit --chain` said the vault held 100 HST less than the ledger, and a withdrawal of
 * those 100 HST was still paid on chain within seconds, out of other players' tokens. Here, on a
 * real Anvil and every store, the same withdrawal stays queued (reserved, not sent, not paid)
 * while the vault is halted, through the operator's resume after a reorganisation (the watcher
 * reads the chain again and finds the shortfall), until the shortfall is covered and the operator
 * resumes: then it is paid exactly once. A shortfall the watcher's reconciliation finds (HST the
 * operator key paid out outside coinop) halts the refund of a play lock the same way.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

const CONFIRMATIONS = 2;
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

describe.each(storeVariants())(
  'issue 27: no HST leaves while the vault is halted, on %s',
  (variant) => {
    let api: TestApi | null = null;
    afterEach(async () => {
      if (api) {
        await expectLedgerBalanced(api.db);
        await api.close();
      }
      api = null;
    });

    async function arcadeOnNewVault(overrides: Partial<ChainConfig> = {}) {
      // The watcher reconciles every round here, as it does every minute by default.
      const arcade = await newChainArcade(chain, variant, {
        confirmations: CONFIRMATIONS,
        reconcileIntervalMs: 0,
        ...overrides,
      });
      api = arcade.api;
      return { ...arcade, sender: operatorSender(chain, arcade) };
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
    const status = async () => (await call('GET', '/admin/chain')).body;
    const audit = async () => (await call('GET', '/admin/hst/audit?chain=true')).body;
    const hstOf = (address: Address) =>
      chain.admin.readContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'balanceOf',
        args: [address],
      });
    const isPaid = (vault: Address, id: string) =>
      chain.admin.readContract({
        address: vault,
        abi: arcadeVaultAbi,
        functionName: 'isPaid',
        args: [uuidToBytes16(id)],
      });
    /** A plain ERC-20 transfer to the vault by the HST admin's wallet: what tops a vault up. */
    async function transferToVault(vault: Address, units: bigint) {
      await chain.mint(chain.players[2]!, units);
      const hash = await chain.players[2]!.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'transfer',
        args: [vault, units],
      });
      const receipt = await chain.admin.waitForTransactionReceipt({ hash });
      return { txHash: receipt.transactionHash, logIndex: receipt.logs[0]!.logIndex };
    }
    const freshWallet = (): Address => privateKeyToAccount(generatePrivateKey()).address;

    it('keeps a withdrawal queued through a reorganisation below its deposit, and pays it once after the shortfall is covered and the operator resumes', async () => {
      const { api, vault, watcher, sender } = await arcadeOnNewVault();
      const player = await fundedPlayer(api, 0);
      const deposit = await chain.deposit(vault, chain.players[0]!, player.accountId, 100n * HST);
      await chain.mine(CONFIRMATIONS);
      expect(await watcher.runOnce()).toMatchObject({ outcome: 'scanned', credited: 1 });
      expect(availableUnits((await findAccount(api.db, player.accountId))!)).toBe(100n * HST);
      expect((await status()).state).toBe('running');

      // The chain drops the deposit's block and the two above it, and mines on without them.
      await chain.rollback(CONFIRMATIONS + 1);
      await chain.mine(5);
      expect(await watcher.runOnce()).toEqual({ outcome: 'halted' });
      expect(await status()).toMatchObject({
        state: 'halted',
        halt: {
          cause: 'reorg',
          blockNumber: Number(deposit.blockNumber),
          detail: expect.stringMatching(
            new RegExp(`^block ${deposit.blockNumber} was recorded with hash 0x[0-9a-f]{64} and`),
          ),
          resume: null,
          resumedAt: null,
        },
      });
      expect((await audit()).chain).toMatchObject({ vaultBalance: '0', reconciled: false });

      // The player withdraws the 100 HST the vault no longer holds: reserved and queued, not sent.
      const to = freshWallet();
      const { withdrawal } = await api.app.arcade.withdrawals.request({
        accountId: player.accountId,
        amount: '100',
        to,
        idempotencyKey: null,
      });
      expect(availableUnits((await findAccount(api.db, player.accountId))!)).toBe(0n);
      const halted = await sender.runOnce();
      expect(halted).toMatchObject({ outcome: 'done', sent: 0, posted: 0, failed: 0 });
      expect(halted.waiting).toMatch(/^the vault is halted \(reorg: block \d+ was recorded/);
      expect(sender.state.waiting).toBe(halted.waiting);
      expect(await findWithdrawal(api.db, withdrawal.id)).toMatchObject({
        status: 'queued',
        batchId: null,
        lastError: halted.waiting,
      });
      await chain.mine(CONFIRMATIONS);
      expect(await hstOf(to)).toBe(0n);
      expect(await isPaid(vault, withdrawal.id)).toBe(false);

      // A resume after a reorganisation needs the block to read again from.
      const noBlock = await call('POST', '/admin/chain/resume', { by: 'ops', reason: 'looked' });
      expect(noBlock).toMatchObject({
        status: 400,
        body: { code: 'validation_failed', details: { field: 'fromBlock' } },
      });
      const resuming = await call('POST', '/admin/chain/resume', {
        by: 'ops',
        reason: 'reorg of 3 blocks; the deposit is gone',
        fromBlock: Number(deposit.blockNumber),
      });
      expect(resuming).toMatchObject({
        status: 200,
        body: {
          state: 'resuming',
          reconciliation: null,
          halt: {
            cause: 'reorg',
            resume: {
              by: 'ops',
              reason: 'reorg of 3 blocks; the deposit is gone',
              fromBlock: Number(deposit.blockNumber),
              acceptedShortfall: null,
            },
            resumedAt: null,
          },
        },
      });
      // Still halted until the watcher has read the chain again and the vault reconciles.
      expect(await sender.runOnce()).toMatchObject({ sent: 0 });
      expect((await status()).checkpointBlock).toBe(Number(deposit.blockNumber) - 1);

      // It reads again: the deposit is gone, so the vault is 100 HST short: a shortfall halt.
      expect(await watcher.runOnce()).toMatchObject({ outcome: 'scanned', credited: 0 });
      const short = await status();
      expect(short).toMatchObject({
        state: 'halted',
        reorg: null,
        halt: { cause: 'shortfall', shortfall: '100', resume: null },
        reconciliation: { unexplained: '-100', acceptedShortfall: '0' },
      });
      expect(short.halt.detail).toMatch(
        // The finding that would only repeat the amount is not appended.
        /^the vault holds 100 HST less than the ledger owes at block \d+$/,
      );
      expect((await sender.runOnce()).waiting).toMatch(/^the vault is halted \(shortfall: /);
      const refused = await call('POST', '/admin/chain/resume', { by: 'ops', reason: 'try' });
      expect(refused).toMatchObject({
        status: 409,
        body: {
          code: 'chain_shortfall',
          message: expect.stringMatching(/^the vault holds 100 HST less than the ledger owes/),
          details: { shortfall: '100' },
        },
      });

      // The operator tops the vault up by 100 HST and covers the shortfall with it.
      const topUp = await transferToVault(vault, 100n * HST);
      await chain.mine(CONFIRMATIONS);
      await watcher.runOnce();
      const key = `${topUp.txHash}:${topUp.logIndex}`;
      expect((await call('GET', '/admin/chain/surplus?status=unsolicited')).body).toMatchObject({
        surplus: [{ txHash: topUp.txHash, amount: '100', status: 'unsolicited' }],
      });
      const covered = await call('POST', `/admin/chain/surplus/${key}/cover`, {
        note: 'tops up the deposit lost to the reorganisation',
      });
      expect(covered).toMatchObject({ status: 200, body: { status: 'covered' } });
      expect((await audit()).chain).toMatchObject({ unexplained: '0', reconciled: true });
      const resumed = await call('POST', '/admin/chain/resume', {
        by: 'ops',
        reason: 'covered by a top-up of 100 HST',
      });
      expect(resumed).toMatchObject({
        status: 200,
        body: {
          state: 'resumed',
          halt: { cause: 'shortfall', resumedAt: expect.any(String) },
          reconciliation: { reconciled: true },
        },
      });
      expect((await status()).state).toBe('running');

      // Paid, once.
      expect(await sender.runOnce()).toMatchObject({ sent: 1, waiting: null });
      await chain.mine(CONFIRMATIONS);
      expect(await sender.runOnce()).toMatchObject({ posted: 1 });
      // Paid: the halt it waited for is over, and no error stays on it.
      expect(await findWithdrawal(api.db, withdrawal.id)).toMatchObject({
        status: 'paid',
        lastError: null,
      });
      expect(await sender.runOnce()).toMatchObject({ sent: 0, posted: 0 });
      expect(await hstOf(to)).toBe(100n * HST);
      expect(await isPaid(vault, withdrawal.id)).toBe(true);
      await watcher.runOnce();
      expect((await audit()).chain).toMatchObject({ vaultBalance: '0', reconciled: true });

      // The audit trail: each halt, why, and who resumed it, when and why.
      const { body } = await call('GET', '/admin/chain/halts');
      expect(body.halts).toMatchObject([
        { cause: 'shortfall', resume: { by: 'ops', reason: 'covered by a top-up of 100 HST' } },
        { cause: 'reorg', resume: { fromBlock: Number(deposit.blockNumber) } },
      ]);
      expect(body.halts.every((h: { resumedAt: string | null }) => h.resumedAt !== null)).toBe(
        true,
      );
    });

    it('halts a refund when the reconciliation finds the vault short, and sends it once resumed', async () => {
      const { api, vault, watcher, sender } = await arcadeOnNewVault();
      const player = await fundedPlayer(api, 0);
      await chain.deposit(vault, chain.players[0]!, player.accountId, 10n * HST);
      // A lock nobody requested: the sender owes it back to the wallet.
      const playId = randomUUID();
      const wallet = chain.players[1]!;
      const lockHash = await wallet.writeContract({
        address: vault,
        abi: arcadeVaultAbi,
        functionName: 'lockPlay',
        args: [uuidToBytes16(playId), 3n * HST],
      });
      await chain.admin.waitForTransactionReceipt({ hash: lockHash });
      // The operator key pays 0.5 HST out by hand, outside coinop: the vault holds less than
      // the ledger owes.
      await chain.payOutsideCoinop(vault, chain.admin.account.address, HST / 2n);
      await chain.mine(CONFIRMATIONS);
      expect(await watcher.runOnce()).toMatchObject({ credited: 1, locksRefused: 1 });
      expect(await status()).toMatchObject({
        state: 'halted',
        halt: { cause: 'shortfall', shortfall: '0.5' },
      });

      const before = await hstOf(wallet.account.address);
      const halted = await sender.runOnce();
      expect(halted.plays).toMatchObject({ sent: 0 });
      expect(halted.plays.waiting).toMatch(
        /^the vault is halted \(shortfall: .*\): plays locked on chain wait until an operator resumes/,
      );
      expect(await findPlayLock(api.db, playId)).toMatchObject({ state: 'refund_due' });

      // Topped up by a little more than the shortfall: that cannot cover it, or the vault would
      // hold more than it owes.
      const over = await transferToVault(vault, HST / 2n + 1n);
      await chain.mine(CONFIRMATIONS);
      await watcher.runOnce();
      const exceeded = await call(
        'POST',
        `/admin/chain/surplus/${over.txHash}:${over.logIndex}/cover`,
        {
          note: 'backs the 0.5 HST paid outside coinop',
        },
      );
      expect(exceeded).toMatchObject({
        status: 409,
        body: {
          code: 'surplus_exceeds_shortfall',
          details: { amount: '0.50000001', shortfall: '0.5' },
        },
      });
      // Topped up by exactly the shortfall: it covers it, the vault reconciles, and the resume
      // lets the refund out, once.
      const exact = await transferToVault(vault, HST / 2n);
      await chain.mine(CONFIRMATIONS);
      await watcher.runOnce();
      const covered = await call(
        'POST',
        `/admin/chain/surplus/${exact.txHash}:${exact.logIndex}/cover`,
        {
          note: 'backs the 0.5 HST paid outside coinop',
        },
      );
      expect(covered).toMatchObject({ status: 200, body: { status: 'covered', amount: '0.5' } });
      expect((await audit()).chain).toMatchObject({
        minted: '0',
        unexplained: '0',
        reconciled: true,
      });
      expect(await sender.runOnce()).toMatchObject({ plays: { sent: 0 } });
      expect(
        await call('POST', '/admin/chain/resume', { by: 'ops', reason: 'shortfall covered' }),
      ).toMatchObject({ status: 200, body: { state: 'resumed' } });
      expect(await sender.runOnce()).toMatchObject({ plays: { sent: 1, waiting: null } });
      await chain.mine(CONFIRMATIONS);
      expect(await sender.runOnce()).toMatchObject({ plays: { refunded: 1 } });
      expect(await findPlayLock(api.db, playId)).toMatchObject({ state: 'refunded' });
      expect(await hstOf(wallet.account.address)).toBe(before + 3n * HST);
      expect(await sender.runOnce()).toMatchObject({ plays: { sent: 0, refunded: 0 } });
      expect(await hstOf(wallet.account.address)).toBe(before + 3n * HST);
    });

    it('keeps a withdrawal queued while the vault was last reconciled too long ago, and sends it once the watcher reconciles', async () => {
      // Reconciling once a minute, as by default: the senders allow 3 minutes without one.
      const { api, vault, watcher, sender } = await arcadeOnNewVault({
        reconcileIntervalMs: 60_000,
      });
      const player = await fundedPlayer(api, 0);
      await chain.deposit(vault, chain.players[0]!, player.accountId, 100n * HST);
      await chain.mine(CONFIRMATIONS);
      expect(await watcher.runOnce()).toMatchObject({ outcome: 'scanned', credited: 1 });
      const reconciledAt = (await status()).reconciliation.at as string;
      expect(reconciledAt).toBe(api.clock.now().toISOString());

      // Three minutes and a millisecond without a reconciliation (a watcher failing all along):
      // nobody knows the vault and the ledger agree, so nothing leaves, though nothing is halted.
      api.clock.advance(180_001);
      const to = freshWallet();
      const { withdrawal } = await api.app.arcade.withdrawals.request({
        accountId: player.accountId,
        amount: '40',
        to,
        idempotencyKey: null,
      });
      const stale = await sender.runOnce();
      expect(stale).toMatchObject({ outcome: 'done', sent: 0, plays: { sent: 0 } });
      expect(stale.waiting).toBe(
        `the vault was last reconciled with the ledger at ${reconciledAt}: withdrawals wait ` +
          'until the watcher reconciles it again (it is failing or catching up: see its state)',
      );
      expect(sender.state.waiting).toBe(stale.waiting);
      expect(await findWithdrawal(api.db, withdrawal.id)).toMatchObject({
        status: 'queued',
        batchId: null,
        lastError: stale.waiting,
      });
      expect((await status()).halt).toBeNull();
      await chain.mine(CONFIRMATIONS);
      expect(await isPaid(vault, withdrawal.id)).toBe(false);

      // The watcher reconciles again: the withdrawal goes by itself, no operator needed, once.
      await watcher.runOnce();
      expect((await status()).reconciliation.at).toBe(api.clock.now().toISOString());
      expect(await sender.runOnce()).toMatchObject({ sent: 1, waiting: null });
      await chain.mine(CONFIRMATIONS);
      expect(await sender.runOnce()).toMatchObject({ posted: 1 });
      expect(await findWithdrawal(api.db, withdrawal.id)).toMatchObject({ status: 'paid' });
      expect(await hstOf(to)).toBe(40n * HST);
      expect(await sender.runOnce()).toMatchObject({ sent: 0, posted: 0 });
      expect(await hstOf(to)).toBe(40n * HST);
    });
  },
);
