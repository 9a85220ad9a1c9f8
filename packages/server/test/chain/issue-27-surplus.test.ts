import { hstAbi } from '@coinop/contracts';
import { availableUnits } from '@coinop/core';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { getAddress, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WithdrawalSender } from '../../src/chain/withdrawals.js';
import { findWithdrawal } from '../../src/store/chain-withdrawals.js';
import { findAccount } from '../../src/store/ledger.js';
import { runCli } from '../cli/run-cli.js';
import { chainConfigFor, HST, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * Issue 27, finding 3: a plain ERC-20 transfer of one base unit to the vault turned
 * `coinop admin hst audit --chain` red for good ("the vault holds more"), so the scheduled audit
 * became a false alarm that hid a real shortfall. Here, on a real Anvil and every store, through
 * the CLI: the transfer is recorded as unsolicited surplus and the audit stays green (exit 0);
 * the operator credits one surplus to a player and sweeps another out of the vault (paid once by
 * the sender), the audit green after each; and a real shortfall turns it red (exit 1) and halts
 * the senders, which resume only when the operator accepts exactly that shortfall.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

const CONFIRMATIONS = 2;

describe.each(storeVariants())('issue 27: surplus is not a shortfall, on %s', (variant) => {
  let api: TestApi | null = null;
  afterEach(async () => {
    if (api) {
      await expectLedgerBalanced(api.db);
      await api.close();
    }
    api = null;
  });

  const freshWallet = (): Address => privateKeyToAccount(generatePrivateKey()).address;
  const hstOf = (address: Address) =>
    chain.admin.readContract({
      address: chain.hst,
      abi: hstAbi,
      functionName: 'balanceOf',
      args: [address],
    });

  it('keeps the audit green for surplus, credits and sweeps it, and goes red and halts for a shortfall', async () => {
    const vault = await chain.newVault();
    const config = chainConfigFor(chain, vault, {
      confirmations: CONFIRMATIONS,
      reconcileIntervalMs: 0,
    });
    api = await buildTestApi(variant, { chain: config });
    const watcher = api.app.arcade.chain!;
    const sender = new WithdrawalSender({
      db: api.db,
      clock: api.clock,
      ids: api.app.arcade.ids,
      chain: config,
      operator: chain.anvil.accounts[1]!,
    });
    const url = await api.app.listen({ port: 0, host: '127.0.0.1' });
    const cli = async (...args: string[]) => {
      const run = await runCli([...args, '--server', url, '--admin-token', TEST_ADMIN_TOKEN]);
      return { ...run, json: run.stdout === '' ? null : JSON.parse(run.stdout) };
    };
    const explained = (report: { chain: { explained: { kind: string; amount: string }[] } }) =>
      Object.fromEntries(report.chain.explained.map((l) => [l.kind, l.amount]));
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault.vault, chain.players[0]!, player.accountId, 10n * HST);
    const stranger = chain.players[1]!;
    const send = async (units: bigint) => {
      const hash = await stranger.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'transfer',
        args: [vault.vault, units],
      });
      const receipt = await chain.admin.waitForTransactionReceipt({ hash });
      await chain.mine(CONFIRMATIONS);
      await watcher.runOnce();
      return `${receipt.transactionHash}:${receipt.logs[0]!.logIndex}`;
    };

    // One base unit sent straight to the vault: surplus, and the audit stays green.
    const dust = await send(1n);
    const green = await cli('admin', 'hst', 'audit', '--chain');
    expect(green).toMatchObject({ code: 0, stderr: '' });
    expect(green.json.chain).toMatchObject({
      vaultBalance: '10.00000001',
      liabilitiesTotal: '10',
      unexplained: '0',
      reconciled: true,
      findings: [],
    });
    expect(explained(green.json)).toMatchObject({ unsolicited_surplus: '0.00000001' });
    const listed = await cli('admin', 'chain', 'surplus', '--status', 'unsolicited');
    expect(listed.json.surplus).toEqual([
      expect.objectContaining({
        txHash: dust.split(':')[0],
        from: getAddress(stranger.account.address),
        amount: '0.00000001',
        status: 'unsolicited',
      }),
    ]);
    const running = (await cli('admin', 'chain', 'status')).json;
    expect(running).toMatchObject({
      state: 'running',
      halt: null,
      surplus: { unsolicited: { count: 1, amount: '0.00000001' } },
      reconciliation: { unexplained: '0' },
    });

    // Credited to the player who sent it (once): theirs to spend, and the audit stays green.
    const credited = await cli(
      'admin',
      'chain',
      'credit-surplus',
      dust,
      '--account',
      player.playerId,
    );
    expect(credited).toMatchObject({ code: 0, json: { status: 'credited' } });
    expect(credited.json.creditedAccountId).toBe(player.accountId);
    const again = await cli('admin', 'chain', 'credit-surplus', dust, '--account', player.playerId);
    expect(again).toMatchObject({ code: 0, json: { status: 'credited' } });
    const elsewhere = await cli('admin', 'chain', 'credit-surplus', dust, '--account', 'arcade');
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/surplus 0x[0-9a-f]{64}:\d+ was already credited to account/);
    expect(availableUnits((await findAccount(api.db, player.accountId))!)).toBe(10n * HST + 1n);
    const afterCredit = await cli('admin', 'hst', 'audit', '--chain');
    expect(afterCredit).toMatchObject({ code: 0, json: { chain: { reconciled: true } } });
    expect(explained(afterCredit.json)).toMatchObject({ unsolicited_surplus: '0' });

    // Two HST swept back out to an address: a withdrawal from the arcade's account, paid once.
    const two = await send(2n * HST);
    const to = freshWallet();
    const swept = await cli('admin', 'chain', 'sweep-surplus', two, '--to', to);
    expect(swept).toMatchObject({ code: 0, json: { status: 'swept', amount: '2' } });
    expect(await findWithdrawal(api.db, swept.json.withdrawalId)).toMatchObject({
      status: 'queued',
      accountId: api.app.arcade.record.accountId,
      amountUnits: 2n * HST,
    });
    expect((await cli('admin', 'hst', 'audit', '--chain')).code).toBe(0);
    expect(await sender.runOnce()).toMatchObject({ sent: 1 });
    await chain.mine(CONFIRMATIONS);
    expect(await sender.runOnce()).toMatchObject({ posted: 1 });
    await watcher.runOnce();
    expect(await hstOf(to)).toBe(2n * HST);
    const afterSweep = await cli('admin', 'hst', 'audit', '--chain');
    expect(afterSweep).toMatchObject({ code: 0, stderr: '' });
    expect(afterSweep.json.chain).toMatchObject({ vaultBalance: '10.00000001', reconciled: true });

    // A real shortfall: the operator key pays 5 HST out of the vault outside coinop. Red, and
    // the senders halt.
    await chain.payOutsideCoinop(vault.vault, freshWallet(), 5n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    const red = await cli('admin', 'hst', 'audit', '--chain');
    expect(red.code).toBe(1);
    expect(red.json.chain).toMatchObject({ unexplained: '-5', reconciled: false });
    expect(red.stderr).toContain('coinop: the vault holds 5 HST less than the ledger accounts for');
    expect((await cli('admin', 'chain', 'status')).json).toMatchObject({
      state: 'halted',
      halt: { cause: 'shortfall', shortfall: '5' },
    });
    const queued = await api.app.arcade.withdrawals.request({
      accountId: player.accountId,
      amount: '1',
      to,
      idempotencyKey: null,
    });
    expect((await sender.runOnce()).waiting).toMatch(/^the vault is halted \(shortfall: /);

    // Resuming needs the shortfall covered, or accepted to the unit.
    const refused = await cli('admin', 'chain', 'resume', '--reason', 'testing');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the vault holds 5 HST less than the ledger owes at block \d+/);
    const wrong = await cli(
      'admin',
      'chain',
      'resume',
      '--reason',
      'testing',
      '--accept-shortfall',
      '4.99999999',
    );
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('(not 4.99999999 HST)');
    const accepted = await cli(
      'admin',
      'chain',
      'resume',
      '--reason',
      'the 5 HST are promised by the treasury, sent tomorrow',
      '--by',
      'alice',
      '--accept-shortfall',
      '5',
    );
    expect(accepted).toMatchObject({
      code: 0,
      json: {
        state: 'resumed',
        halt: {
          cause: 'shortfall',
          resume: { by: 'alice', acceptedShortfall: '5', fromBlock: null },
        },
      },
    });
    // The audit stays red (the vault is short); the watcher does not halt again for it...
    expect((await cli('admin', 'hst', 'audit', '--chain')).code).toBe(1);
    await watcher.runOnce();
    expect((await cli('admin', 'chain', 'status')).json).toMatchObject({
      state: 'running',
      reconciliation: { unexplained: '-5', acceptedShortfall: '5' },
    });
    expect(await sender.runOnce()).toMatchObject({ sent: 1 });
    expect(await findWithdrawal(api.db, queued.withdrawal.id)).toMatchObject({ status: 'sent' });
    // ...but does for one unit more.
    await chain.payOutsideCoinop(vault.vault, freshWallet(), 1n);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    expect((await cli('admin', 'chain', 'status')).json).toMatchObject({
      state: 'halted',
      halt: { cause: 'shortfall', shortfall: '5.00000001' },
    });
    const halts = (await cli('admin', 'chain', 'halts')).json.halts;
    expect(halts.map((h: { cause: string }) => h.cause)).toEqual(['shortfall', 'shortfall']);
  }, 180_000); // about 25 CLI runs, each a process
});
