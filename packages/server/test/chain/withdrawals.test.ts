import { arcadeVaultAbi, hstAbi, uuidToBytes16 } from '@coinop/contracts';
import { availableUnits } from '@coinop/core';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { getAddress, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WithdrawalSender } from '../../src/chain/withdrawals.js';
import type { ChainConfig } from '../../src/config.js';
import { findWithdrawal } from '../../src/store/chain-withdrawals.js';
import { findAccount } from '../../src/store/ledger.js';
import { chainConfigFor, HST, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';
import { moveChainTime } from '../fixtures/chain-plays.js';

/**
 * Withdrawals on a real Anvil, on every store: reserved when requested, paid by the sender in
 * batches, posted once confirmed, released when the vault refuses them, and paid once across a
 * sender that dies between sending and confirming.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

const CONFIRMATIONS = 2;

describe.each(storeVariants())('withdrawals on %s', (variant) => {
  let api: TestApi | null = null;
  afterEach(async () => {
    if (api) {
      await expectLedgerBalanced(api.db);
      await api.close();
    }
    api = null;
  });

  /** A fresh arcade on a fresh vault, with `deposited` HST deposited for a new player. */
  async function arcadeWithDeposit(deposited: bigint, overrides: Partial<ChainConfig> = {}) {
    const vault = await chain.newVault();
    const config = chainConfigFor(chain, vault, { confirmations: CONFIRMATIONS, ...overrides });
    api = await buildTestApi(variant, { chain: config });
    const watcher = api.app.arcade.chain!;
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault.vault, chain.players[0]!, player.accountId, deposited);
    await chain.mine(CONFIRMATIONS);
    expect(await watcher.runOnce()).toMatchObject({ credited: 1 });
    const sender = newSender(api, config);
    return { api, vault: vault.vault, config, player, sender };
  }

  const newSender = (
    a: TestApi,
    config: ChainConfig,
    broadcast?: (raw: Hex) => Promise<void>,
  ): WithdrawalSender =>
    new WithdrawalSender({
      db: a.db,
      clock: a.clock,
      ids: a.app.arcade.ids,
      chain: config,
      operator: chain.anvil.accounts[1]!,
      broadcast,
    });

  const unitsOf = async (accountId: string) =>
    availableUnits((await findAccount(api!.db, accountId))!);
  /** The vault's admin sets its limits: one withdrawal's most, and a UTC day's. */
  const setLimitsOf = async (vault: Address, maxWithdrawal: bigint, dailyLimit: bigint) => {
    const hash = await chain.admin.writeContract({
      address: vault,
      abi: arcadeVaultAbi,
      functionName: 'setLimits',
      args: [maxWithdrawal, dailyLimit],
    });
    await chain.admin.waitForTransactionReceipt({ hash });
  };
  const freshWallet = (): Address => privateKeyToAccount(generatePrivateKey()).address;
  const walletHst = (wallet: Address) =>
    chain.admin.readContract({
      address: chain.hst,
      abi: hstAbi,
      functionName: 'balanceOf',
      args: [wallet],
    });
  const isPaid = (vault: Address, id: string) =>
    chain.admin.readContract({
      address: vault,
      abi: arcadeVaultAbi,
      functionName: 'isPaid',
      args: [uuidToBytes16(id)],
    });
  const request = (accountId: string, amount: string, to: Address) =>
    api!.app.arcade.withdrawals.request({ accountId, amount, to, idempotencyKey: null });
  const transfersOf = (id: string) =>
    api!.db.query<{ kind: string; amount: string }>(
      `SELECT kind, amount::text FROM transfers WHERE id = $1 OR pending_id = $1
       ORDER BY created_at, kind`,
      [id],
    );
  const statusOf = async (id: string) => (await findWithdrawal(api!.db, id))!.status;

  it('reserves a withdrawal, pays it on chain, and posts it once confirmed', async () => {
    const { vault, player, sender } = await arcadeWithDeposit(100n * HST);
    const to = freshWallet();
    const { withdrawal } = await request(player.accountId, '12.5', to);
    expect(withdrawal).toMatchObject({ status: 'queued', amountUnits: 1_250_000_000n });
    // Reserved: the balance drops at once, the HST still in the vault.
    expect(await unitsOf(player.accountId)).toBe(100n * HST - 1_250_000_000n);
    expect(await transfersOf(withdrawal.id)).toEqual([{ kind: 'pending', amount: '1250000000' }]);
    await expectLedgerBalanced(api!.db);

    const round = await sender.runOnce();
    expect(round).toMatchObject({ outcome: 'done', sent: 1, posted: 0 });
    expect(await statusOf(withdrawal.id)).toBe('sent');
    expect(await walletHst(to)).toBe(1_250_000_000n);
    // Not posted before its confirmations.
    expect(await transfersOf(withdrawal.id)).toHaveLength(1);
    await chain.mine(CONFIRMATIONS);
    expect(await sender.runOnce()).toMatchObject({ posted: 1 });
    expect(await statusOf(withdrawal.id)).toBe('paid');
    expect(await transfersOf(withdrawal.id)).toEqual([
      { kind: 'pending', amount: '1250000000' },
      { kind: 'post_pending', amount: '1250000000' },
    ]);
    expect(await unitsOf(player.accountId)).toBe(100n * HST - 1_250_000_000n);
    expect(await isPaid(vault, withdrawal.id)).toBe(true);
    // Another round changes nothing.
    expect(await sender.runOnce()).toMatchObject({ posted: 0, sent: 0 });
    expect(await walletHst(to)).toBe(1_250_000_000n);
  });

  it('pays several withdrawals in one transaction', async () => {
    const { player, sender } = await arcadeWithDeposit(100n * HST);
    const wallets = [freshWallet(), freshWallet(), freshWallet()];
    const ids = [];
    for (const [i, to] of wallets.entries()) {
      ids.push((await request(player.accountId, `${i + 1}.00000001`, to)).withdrawal.id);
    }
    expect(await sender.runOnce()).toMatchObject({ sent: 3 });
    const batches = await api!.db.query<{ tx_hash: string }>(
      'SELECT tx_hash FROM chain_withdrawal_batches',
    );
    expect(batches).toHaveLength(1);
    await chain.mine(CONFIRMATIONS);
    expect(await sender.runOnce()).toMatchObject({ posted: 3 });
    for (const [i, to] of wallets.entries()) {
      expect(await walletHst(to)).toBe(BigInt(i + 1) * HST + 1n);
      const w = (await findWithdrawal(api!.db, ids[i]!))!;
      expect(w).toMatchObject({ status: 'paid', txHash: batches[0]!.tx_hash });
    }
    expect(await unitsOf(player.accountId)).toBe(100n * HST - 6n * HST - 3n);
  });

  it('releases a withdrawal the vault cannot pay (its balance short), and pays the others', async () => {
    const { player, sender } = await arcadeWithDeposit(10n * HST);
    // Ledger-only HST: the vault holds just the 10 deposited.
    const rich = await fundedPlayer(api!, 500);
    const big = await request(rich.accountId, '50', freshWallet());
    const toSmall = freshWallet();
    const small = await request(player.accountId, '4', toSmall);
    expect(await unitsOf(rich.accountId)).toBe(450n * HST);
    const round = await sender.runOnce();
    expect(round).toMatchObject({ failed: 1, sent: 1 });
    const failed = (await findWithdrawal(api!.db, big.withdrawal.id))!;
    expect(failed.status).toBe('failed');
    expect(failed.lastError).toMatch(/unlocked balance \(10 HST\) is short/);
    expect(await unitsOf(rich.accountId)).toBe(500n * HST);
    expect((await transfersOf(big.withdrawal.id)).map((t) => t.kind)).toEqual([
      'pending',
      'void_pending',
    ]);
    await chain.mine(CONFIRMATIONS);
    await sender.runOnce();
    expect(await statusOf(small.withdrawal.id)).toBe('paid');
    expect(await walletHst(toSmall)).toBe(4n * HST);
  });

  it('releases a queued withdrawal above a daily limit lowered since, and pays the one behind it', async () => {
    // What broke (security review, finding 6): the queue is paid in order, and a withdrawal above
    // the daily limit fits no day, so it held every later withdrawal for ever. It now fails for
    // good, its HST spendable again, like one above a lowered maxWithdrawal.
    const { vault, player, sender } = await arcadeWithDeposit(10n * HST);
    const big = await request(player.accountId, '6', freshWallet());
    const to = freshWallet();
    const small = await request(player.accountId, '3', to);
    await setLimitsOf(vault, 1_000n * HST, 5n * HST);
    expect(await sender.runOnce()).toMatchObject({ failed: 1, sent: 1 });
    expect(await findWithdrawal(api!.db, big.withdrawal.id)).toMatchObject({
      status: 'failed',
      lastError: expect.stringMatching(/over the vault's dailyWithdrawalLimit of 5 HST/),
    });
    expect(await unitsOf(player.accountId)).toBe(7n * HST);
    await chain.mine(CONFIRMATIONS);
    await sender.runOnce();
    expect(await statusOf(small.withdrawal.id)).toBe('paid');
    expect(await walletHst(to)).toBe(3n * HST);
  });

  it('pays the withdrawals behind one that waits for the next day, and that one the next day', async () => {
    // What broke (security review, finding 6): the queue was paid in order, so one request above
    // what today's limit left held every later one, small ones included, until the next day.
    const { vault, player, sender } = await arcadeWithDeposit(10n * HST);
    await setLimitsOf(vault, 1_000n * HST, 5n * HST);
    const first = await request(player.accountId, '2', freshWallet());
    expect(await sender.runOnce()).toMatchObject({ sent: 1, waiting: null });
    // 3 HST left today: the 4 waits, the 1 behind it goes.
    const bigTo = freshWallet();
    const big = await request(player.accountId, '4', bigTo);
    const smallTo = freshWallet();
    const small = await request(player.accountId, '1', smallTo);
    expect(await sender.runOnce()).toMatchObject({
      sent: 1,
      failed: 0,
      waiting: "today's withdrawal limit of the vault is reached",
    });
    expect(await findWithdrawal(api!.db, big.withdrawal.id)).toMatchObject({
      status: 'queued',
      lastError: "today's withdrawal limit of the vault is reached",
    });
    await chain.mine(CONFIRMATIONS);
    await sender.runOnce();
    expect(await statusOf(first.withdrawal.id)).toBe('paid');
    expect(await statusOf(small.withdrawal.id)).toBe('paid');
    expect(await walletHst(smallTo)).toBe(1n * HST);
    expect(await statusOf(big.withdrawal.id)).toBe('queued');
    expect(await walletHst(bigTo)).toBe(0n);

    // The next day on the chain: it is first in line, and fits the whole day's limit.
    await moveChainTime(chain, 86_400);
    expect(await sender.runOnce()).toMatchObject({ sent: 1, waiting: null });
    await chain.mine(CONFIRMATIONS);
    await sender.runOnce();
    expect(await statusOf(big.withdrawal.id)).toBe('paid');
    expect(await walletHst(bigTo)).toBe(4n * HST);
    expect(await unitsOf(player.accountId)).toBe(3n * HST);
  });

  it('keeps withdrawals queued while the vault is paused, and pays them after', async () => {
    const { vault, player, sender } = await arcadeWithDeposit(10n * HST);
    const to = freshWallet();
    const { withdrawal } = await request(player.accountId, '3', to);
    const pause = (fn: 'pause' | 'unpause') =>
      chain.admin
        .writeContract({ address: vault, abi: arcadeVaultAbi, functionName: fn })
        .then((hash) => chain.admin.waitForTransactionReceipt({ hash }));
    await pause('pause');
    const round = await sender.runOnce();
    expect(round).toMatchObject({ sent: 0, failed: 0, waiting: expect.stringMatching(/paused/) });
    expect(await findWithdrawal(api!.db, withdrawal.id)).toMatchObject({
      status: 'queued',
      lastError: expect.stringMatching(/paused/),
    });
    expect(await unitsOf(player.accountId)).toBe(7n * HST);
    await pause('unpause');
    expect(await sender.runOnce()).toMatchObject({ sent: 1 });
    await chain.mine(CONFIRMATIONS);
    await sender.runOnce();
    // Paid, with the pause it waited for no longer its error.
    expect(await findWithdrawal(api!.db, withdrawal.id)).toMatchObject({
      status: 'paid',
      lastError: null,
    });
    expect(await walletHst(to)).toBe(3n * HST);
  });

  it('pays once when the sender dies between sending and confirming', async () => {
    const { vault, config, player, sender } = await arcadeWithDeposit(10n * HST);
    const to = freshWallet();
    const { withdrawal } = await request(player.accountId, '2', to);
    expect(await sender.runOnce()).toMatchObject({ sent: 1 });
    // The first sender is gone without confirming; a new one on the same database takes over.
    const next = newSender(api!, config);
    await chain.mine(CONFIRMATIONS);
    // The lease is the dead sender's until it runs out.
    await api!.db.query(
      "UPDATE chain_checkpoints SET sender_lease_expires_at = now() - interval '1 second'",
    );
    expect(await next.runOnce()).toMatchObject({ posted: 1, sent: 0 });
    expect(await next.runOnce()).toMatchObject({ posted: 0, sent: 0 });
    expect(await statusOf(withdrawal.id)).toBe('paid');
    expect(await walletHst(to)).toBe(2n * HST);
    expect(await isPaid(vault, withdrawal.id)).toBe(true);
    expect((await transfersOf(withdrawal.id)).map((t) => t.kind)).toEqual([
      'pending',
      'post_pending',
    ]);
    expect(await unitsOf(player.accountId)).toBe(8n * HST);
  });

  it('pays once when the sender dies after recording a batch and before broadcasting it', async () => {
    const { vault, config, player } = await arcadeWithDeposit(10n * HST);
    const to = freshWallet();
    const { withdrawal } = await request(player.accountId, '5', to);
    const dying = newSender(api!, config, async () => {
      throw new Error('killed before the broadcast');
    });
    expect(await dying.runOnce()).toMatchObject({ sent: 1 });
    expect(await statusOf(withdrawal.id)).toBe('sent');
    expect(await walletHst(to)).toBe(0n);
    expect(await isPaid(vault, withdrawal.id)).toBe(false);
    await api!.db.query(
      "UPDATE chain_checkpoints SET sender_lease_expires_at = now() - interval '1 second'",
    );
    const next = newSender(api!, config);
    // The recorded transaction is broadcast again, byte for byte: the same hash is mined. A round
    // does it (the sender tries every round, as in production; on a loaded machine the first
    // round after the lease changed hands may not be the one), and no round sends a new batch.
    for (let round = 0; round < 20 && (await walletHst(to)) === 0n; round++) {
      expect(await next.runOnce()).toMatchObject({ posted: 0, sent: 0 });
      if ((await walletHst(to)) === 0n) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await walletHst(to)).toBe(5n * HST);
    await chain.mine(CONFIRMATIONS);
    expect(await next.runOnce()).toMatchObject({ posted: 1 });
    const batches = await api!.db.query<{ tx_hash: string; status: string }>(
      'SELECT tx_hash, status FROM chain_withdrawal_batches',
    );
    expect(batches).toEqual([
      { tx_hash: (await findWithdrawal(api!.db, withdrawal.id))!.txHash, status: 'confirmed' },
    ]);
    expect(await walletHst(to)).toBe(5n * HST);
    expect(await unitsOf(player.accountId)).toBe(5n * HST);
  });

  it('posts once a withdrawal the vault had already paid (skipped in the batch)', async () => {
    const { vault, player, sender } = await arcadeWithDeposit(10n * HST);
    const to = freshWallet();
    const { withdrawal } = await request(player.accountId, '1', to);
    // The same id paid first by the operator directly: the batch finds it paid and skips it.
    const operator = chain.anvil.accounts[1]!;
    const hash = await chain.admin.writeContract({
      account: operator,
      address: vault,
      abi: arcadeVaultAbi,
      functionName: 'withdrawBatch',
      args: [[{ id: uuidToBytes16(withdrawal.id), to: getAddress(to), amount: HST }]],
    });
    await chain.admin.waitForTransactionReceipt({ hash });
    expect(await sender.runOnce()).toMatchObject({ sent: 1 });
    await chain.mine(CONFIRMATIONS);
    expect(await sender.runOnce()).toMatchObject({ posted: 1 });
    expect(await walletHst(to)).toBe(HST);
    expect((await transfersOf(withdrawal.id)).map((t) => t.kind)).toEqual([
      'pending',
      'post_pending',
    ]);
  });

  it('queues again a batch mined and reverted (the vault paused under it), and pays it once later', async () => {
    const { vault, player, sender } = await arcadeWithDeposit(10n * HST);
    const to = freshWallet();
    const { withdrawal } = await request(player.accountId, '6', to);
    const automine = (on: boolean) =>
      chain.admin.request({ method: 'evm_setAutomine', params: [on] } as never);
    await automine(false);
    try {
      expect(await sender.runOnce()).toMatchObject({ sent: 1 });
      // The admin's pause, paying more for priority, is ordered before the batch in the block.
      const fees = await chain.admin.estimateFeesPerGas();
      await chain.admin.writeContract({
        address: vault,
        abi: arcadeVaultAbi,
        functionName: 'pause',
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas * 100n,
        maxFeePerGas: fees.maxFeePerGas * 100n,
      });
      // Not mined yet: the sender waits for it.
      expect(await sender.runOnce()).toMatchObject({ posted: 0, requeued: 0, sent: 0 });
      await chain.mine(1);
    } finally {
      await automine(true);
    }
    await chain.mine(CONFIRMATIONS);
    const round = await sender.runOnce();
    expect(round).toMatchObject({ requeued: 1, sent: 0, waiting: expect.stringMatching(/paused/) });
    expect(await findWithdrawal(api!.db, withdrawal.id)).toMatchObject({
      status: 'queued',
      attempts: 1,
    });
    expect(await walletHst(to)).toBe(0n);
    expect(await unitsOf(player.accountId)).toBe(4n * HST);

    const hash = await chain.admin.writeContract({
      address: vault,
      abi: arcadeVaultAbi,
      functionName: 'unpause',
    });
    await chain.admin.waitForTransactionReceipt({ hash });
    expect(await sender.runOnce()).toMatchObject({ sent: 1 });
    await chain.mine(CONFIRMATIONS);
    expect(await sender.runOnce()).toMatchObject({ posted: 1 });
    expect(await walletHst(to)).toBe(6n * HST);
    expect(await findWithdrawal(api!.db, withdrawal.id)).toMatchObject({
      status: 'paid',
      attempts: 2,
    });
    const batches = await api!.db.query<{ status: string }>(
      'SELECT status FROM chain_withdrawal_batches ORDER BY nonce',
    );
    expect(batches).toEqual([{ status: 'reverted' }, { status: 'confirmed' }]);
    expect((await transfersOf(withdrawal.id)).map((t) => t.kind)).toEqual([
      'pending',
      'post_pending',
    ]);
  });

  it('lets one of two senders on the same database send', async () => {
    const { config, player, sender } = await arcadeWithDeposit(10n * HST);
    const other = newSender(api!, config);
    const to = freshWallet();
    await request(player.accountId, '1', to);
    const rounds = await Promise.all([sender.runOnce(), other.runOnce()]);
    expect(rounds.map((r) => r.outcome).sort()).toEqual(['done', 'not_leader']);
    expect(rounds.reduce((sum, r) => sum + r.sent, 0)).toBe(1);
    await chain.mine(CONFIRMATIONS);
    await Promise.all([sender.runOnce(), other.runOnce()]);
    expect(await walletHst(to)).toBe(HST);
    expect(await unitsOf(player.accountId)).toBe(9n * HST);
  });
});
