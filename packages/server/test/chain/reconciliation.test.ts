import { randomUUID } from 'node:crypto';
import { hstAbi } from '@coinop/contracts';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { depositTransfer, withdrawalReserveTransfer, withdrawalSettleTransfer } from '@coinop/core';
import { ensureCheckpoint } from '../../src/store/chain-checkpoints.js';
import { applyTransfers } from '../../src/store/ledger.js';
import { mintHst } from '../../src/services/admin-hst.js';
import type { ChainConfig } from '../../src/config.js';
import { runCli } from '../cli/run-cli.js';
import {
  HST,
  newChainArcade,
  operatorSender,
  startArcadeChain,
  type ArcadeChain,
} from '../fixtures/chain.js';

/**
 * `coinop admin hst audit --chain` (GET /admin/hst/audit?chain=true) on a real Anvil, on every
 * store: the vault's HST at the watcher's checkpoint against what the ledger owes, to the unit,
 * through deposits, held deposits, deposits not yet confirmed and withdrawals in every state; HST
 * sent straight to the vault counted as surplus (exit 0), and HST minted in the ledger reported
 * as a shortfall, with exit code 1 from the CLI.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

const CONFIRMATIONS = 2;
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

interface Line {
  kind: string;
  amount: string;
  count: number | null;
}
interface Reconciliation {
  blockNumber: number;
  headBlock: number;
  vaultBalance: string;
  liabilities: Line[];
  liabilitiesTotal: string;
  explained: Line[];
  expected: string;
  minted: string;
  unexplained: string;
  reconciled: boolean;
  findings: string[];
}

/** The lines as {kind: amount}, and their counts apart, for exact comparisons. */
const amounts = (lines: Line[]) => Object.fromEntries(lines.map((l) => [l.kind, l.amount]));
const counts = (lines: Line[]) => Object.fromEntries(lines.map((l) => [l.kind, l.count]));

const NOTHING_EXPLAINED = {
  held_deposits: '0',
  unsolicited_surplus: '0',
  withdrawals_paid_not_posted: '0',
  withdrawals_posted_paid_after: '0',
  other_vaults: '0',
  chain_locks_to_refund: '0',
  chain_settlements_in_flight: '0',
};

describe.each(storeVariants())('audit --chain on %s', (variant) => {
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
      ...overrides,
    });
    api = arcade.api;
    return { ...arcade, sender: operatorSender(chain, arcade) };
  }

  const reconcile = async (): Promise<Reconciliation> => {
    const res = await api!.app.inject({
      method: 'GET',
      url: '/admin/hst/audit?chain=true',
      headers: admin,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ balanced: boolean; chain: Reconciliation }>();
    expect(body.balanced).toBe(true);
    return body.chain;
  };
  const vaultHstAt = (vault: Address, blockNumber?: bigint) =>
    chain.admin.readContract({
      address: chain.hst,
      abi: hstAbi,
      functionName: 'balanceOf',
      args: [vault],
      ...(blockNumber === undefined ? {} : { blockNumber }),
    });
  const freshWallet = (): Address => privateKeyToAccount(generatePrivateKey()).address;

  it('answers 503 chain_not_ready before the watcher has read a block', async () => {
    const { api } = await arcadeOnNewVault();
    const res = await api.app.inject({
      method: 'GET',
      url: '/admin/hst/audit?chain=true',
      headers: admin,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: 'chain_not_ready',
      message: expect.stringMatching(/^the chain watcher has read no block of vault 0x/),
    });
  });

  it('answers 503 chain_not_ready when the chain does not answer, its key redacted', async () => {
    const { api } = await arcadeOnNewVault({
      rpcUrl: 'http://127.0.0.1:9/v3/0123456789abcdef0123',
      rpcTimeoutMs: 1_000,
    });
    const res = await api.app.inject({
      method: 'GET',
      url: '/admin/hst/audit?chain=true',
      headers: admin,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({
      code: 'chain_not_ready',
      message: expect.stringMatching(/^the chain did not answer: /),
    });
    expect(res.body).not.toContain('0123456789abcdef0123');
  });

  it('reconciles after deposits, to the unit, at the checkpoint: every line explained', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault();
    const alice = await fundedPlayer(api, 0);
    const bob = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, alice.accountId, 100n * HST + 1n);
    await chain.deposit(vault, chain.players[1]!, bob.playerId, 23n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    const head = Number(await chain.head());

    const report = await reconcile();
    expect(report).toEqual({
      chainId: chain.chainId,
      vaultAddress: vault,
      tokenAddress: chain.hst,
      blockNumber: head - CONFIRMATIONS,
      blockHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      headBlock: head,
      vaultBalance: '123.00000001',
      lockedOnChain: '0',
      liabilities: [
        {
          kind: 'players',
          amount: '123.00000001',
          count: null,
          description:
            'HST players can spend (their balances less what plays and withdrawals reserve)',
        },
        expect.objectContaining({ kind: 'developers', amount: '0' }),
        expect.objectContaining({ kind: 'arcade', amount: '0' }),
        expect.objectContaining({ kind: 'open_plays', amount: '0' }),
        expect.objectContaining({ kind: 'withdrawals_pending', amount: '0', count: 0 }),
        expect.objectContaining({ kind: 'chain_play_locks', amount: '0' }),
        expect.objectContaining({ kind: 'chain_payouts_pending', amount: '0', count: 0 }),
      ],
      liabilitiesTotal: '123.00000001',
      explained: [
        expect.objectContaining({ kind: 'held_deposits', amount: '0', count: 0 }),
        expect.objectContaining({ kind: 'unsolicited_surplus', amount: '0', count: 0 }),
        expect.objectContaining({ kind: 'withdrawals_paid_not_posted', amount: '0', count: 0 }),
        expect.objectContaining({ kind: 'withdrawals_posted_paid_after', amount: '0', count: 0 }),
        expect.objectContaining({ kind: 'other_vaults', amount: '0' }),
        expect.objectContaining({ kind: 'chain_locks_to_refund', amount: '0', count: 0 }),
        expect.objectContaining({ kind: 'chain_settlements_in_flight', amount: '0', count: 0 }),
      ],
      expected: '123.00000001',
      minted: '0',
      unexplained: '0',
      reconciled: true,
      findings: [],
    });
  });

  it('explains a held deposit: in the vault, credited to nobody', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault();
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 10n * HST);
    await chain.deposit(vault, chain.players[0]!, randomUUID(), 4n * HST + 7n);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();

    const report = await reconcile();
    expect(report).toMatchObject({
      vaultBalance: '14.00000007',
      liabilitiesTotal: '10',
      expected: '14.00000007',
      unexplained: '0',
      reconciled: true,
    });
    expect(amounts(report.explained)).toEqual({
      ...NOTHING_EXPLAINED,
      held_deposits: '4.00000007',
    });
    expect(counts(report.explained)).toMatchObject({ held_deposits: 1 });
  });

  it('leaves out a deposit not yet confirmed: it is above the block compared', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault();
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 10n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    // On chain at the head, not yet confirmed: the watcher reads up to the block below it.
    const late = await chain.deposit(vault, chain.players[0]!, player.accountId, 5n * HST);
    expect(await watcher.runOnce()).toMatchObject({ credited: 0, held: 0 });
    expect(await vaultHstAt(vault)).toBe(15n * HST);

    const report = await reconcile();
    expect(report.headBlock).toBe(Number(late.blockNumber));
    expect(report.blockNumber).toBe(Number(late.blockNumber) - CONFIRMATIONS);
    expect(await vaultHstAt(vault, BigInt(report.blockNumber))).toBe(10n * HST);
    expect(report).toMatchObject({
      vaultBalance: '10',
      liabilitiesTotal: '10',
      unexplained: '0',
      reconciled: true,
    });
    expect(amounts(report.explained)).toEqual(NOTHING_EXPLAINED);
  });

  it("counts a play's escrow and its settlement's cuts as liabilities of their own", async () => {
    const { api, vault, watcher } = await arcadeOnNewVault();
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 10n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    const game = await gameWithTiers(api, { costs: [3] });
    const tier = game.tiers[0]!;
    const play = await api.app.arcade.plays.open({
      gameId: game.gameId,
      playerId: player.playerId,
      leaderboardId: tier.id,
      idempotencyKey: null,
    });

    let report = await reconcile();
    expect(amounts(report.liabilities)).toEqual({
      players: '7',
      developers: '0',
      arcade: '0',
      open_plays: '3',
      withdrawals_pending: '0',
      chain_play_locks: '0',
      chain_payouts_pending: '0',
    });
    expect(report).toMatchObject({ vaultBalance: '10', unexplained: '0', reconciled: true });

    await api.app.arcade.plays.score({
      gameId: game.gameId,
      playId: play.id,
      leaderboardId: tier.id,
      score: 5,
      idempotencyKey: null,
    });
    report = await reconcile();
    // The split's cuts (the default rule, nobody on the board before this play) moved out of the
    // escrow: the leaders' 2.1 back to the player, 0.6 to the developer, 0.3 to the arcade.
    expect(amounts(report.liabilities)).toEqual({
      players: '9.1',
      developers: '0.6',
      arcade: '0.3',
      open_plays: '0',
      withdrawals_pending: '0',
      chain_play_locks: '0',
      chain_payouts_pending: '0',
    });
    expect(report).toMatchObject({
      vaultBalance: '10',
      liabilitiesTotal: '10',
      unexplained: '0',
      reconciled: true,
    });
  });

  it('sets apart the HST the ledger counts in another vault of the arcade', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault();
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 10n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    // The arcade's earlier vault, which credited 6 HST and paid 1.5 of it out, with 0.5 reserved.
    const earlier = await ensureCheckpoint(api.db, api.clock, api.app.arcade.ids, {
      chainId: chain.chainId,
      vaultAddress: freshWallet(),
      tokenAddress: chain.hst,
      startBlock: 1n,
    });
    const reserved = (units: bigint) =>
      withdrawalReserveTransfer({
        id: randomUUID(),
        accountId: player.accountId,
        vaultAccountId: earlier.accountId,
        amountUnits: units,
      });
    const paid = reserved((3n * HST) / 2n);
    const deposited = depositTransfer({
      id: randomUUID(),
      vaultAccountId: earlier.accountId,
      accountId: player.accountId,
      amountUnits: 6n * HST,
    });
    await api.db.transaction((tx) =>
      applyTransfers(tx, [deposited, paid, reserved(HST / 2n)], api.clock.now()),
    );
    await api.db.transaction((tx) =>
      applyTransfers(tx, [withdrawalSettleTransfer(paid, 'post', randomUUID())], api.clock.now()),
    );

    const report = await reconcile();
    expect(amounts(report.liabilities)).toMatchObject({ players: '14', withdrawals_pending: '0' });
    expect(amounts(report.explained)).toEqual({ ...NOTHING_EXPLAINED, other_vaults: '-4' });
    expect(report).toMatchObject({
      vaultBalance: '10',
      liabilitiesTotal: '14',
      expected: '10',
      unexplained: '0',
      reconciled: true,
    });
  });

  it('reconciles a withdrawal through sent, paid on chain, posted, and posted before the block', async () => {
    const { api, vault, watcher, sender } = await arcadeOnNewVault();
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 100n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    const request = (amount: string) =>
      api.app.arcade.withdrawals.request({
        accountId: player.accountId,
        amount,
        to: freshWallet(),
        idempotencyKey: null,
      });

    // Sent, mined above the checkpoint: reserved in the ledger, still in the vault at the block.
    await request('12.5');
    expect(await sender.runOnce()).toMatchObject({ sent: 1 });
    let report = await reconcile();
    expect(amounts(report.liabilities)).toMatchObject({
      players: '87.5',
      withdrawals_pending: '12.5',
    });
    expect(counts(report.liabilities)).toMatchObject({ withdrawals_pending: 1 });
    expect(report).toMatchObject({ vaultBalance: '100', unexplained: '0', reconciled: true });
    expect(amounts(report.explained)).toEqual(NOTHING_EXPLAINED);

    // The watcher reads past the payment; the sender has not posted it: paid, not posted.
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    report = await reconcile();
    expect(report).toMatchObject({
      vaultBalance: '87.5',
      liabilitiesTotal: '100',
      expected: '87.5',
      unexplained: '0',
      reconciled: true,
    });
    expect(amounts(report.explained)).toEqual({
      ...NOTHING_EXPLAINED,
      withdrawals_paid_not_posted: '-12.5',
    });
    expect(counts(report.explained)).toMatchObject({ withdrawals_paid_not_posted: 1 });

    // Posted: nothing left to explain.
    expect(await sender.runOnce()).toMatchObject({ posted: 1 });
    report = await reconcile();
    expect(amounts(report.liabilities)).toMatchObject({
      players: '87.5',
      withdrawals_pending: '0',
    });
    expect(report).toMatchObject({ vaultBalance: '87.5', unexplained: '0', reconciled: true });
    expect(amounts(report.explained)).toEqual(NOTHING_EXPLAINED);

    // Paid and posted by the sender while the watcher's checkpoint is still below the payment.
    await request('2.5');
    expect(await sender.runOnce()).toMatchObject({ sent: 1 });
    await chain.mine(CONFIRMATIONS);
    expect(await sender.runOnce()).toMatchObject({ posted: 1 });
    report = await reconcile();
    expect(report).toMatchObject({
      vaultBalance: '87.5',
      liabilitiesTotal: '85',
      unexplained: '0',
      reconciled: true,
    });
    expect(amounts(report.explained)).toEqual({
      ...NOTHING_EXPLAINED,
      withdrawals_posted_paid_after: '2.5',
    });
    await watcher.runOnce();
    report = await reconcile();
    expect(report).toMatchObject({ vaultBalance: '85', unexplained: '0', reconciled: true });
    expect(amounts(report.explained)).toEqual(NOTHING_EXPLAINED);
  });

  it('counts HST sent straight to the vault as surplus (exit 0), and HST minted as a shortfall (exit 1)', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault();
    const url = await api.app.listen({ port: 0, host: '127.0.0.1' });
    const cli = async (...args: string[]) => {
      const run = await runCli([...args, '--server', url, '--admin-token', TEST_ADMIN_TOKEN]);
      return { ...run, json: run.stdout === '' ? null : JSON.parse(run.stdout) };
    };
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 10n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();

    const clean = await cli('admin', 'hst', 'audit', '--chain');
    expect(clean).toMatchObject({ code: 0, stderr: '' });
    expect(clean.json).toMatchObject({
      balanced: true,
      vaultHeld: '10',
      chain: { vaultBalance: '10', unexplained: '0', reconciled: true, findings: [] },
    });

    // Someone transfers HST to the vault without deposit: recorded as surplus, credits nobody.
    const sent = await chain.players[1]!.writeContract({
      address: chain.hst,
      abi: hstAbi,
      functionName: 'transfer',
      args: [vault, 3n * HST + 1n],
    });
    await chain.admin.waitForTransactionReceipt({ hash: sent });
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    const surplus = await cli('admin', 'hst', 'audit', '--chain');
    expect(surplus).toMatchObject({ code: 0, stderr: '' });
    expect(surplus.json).toMatchObject({
      balanced: true,
      chain: {
        vaultBalance: '13.00000001',
        liabilitiesTotal: '10',
        expected: '13.00000001',
        minted: '0',
        unexplained: '0',
        reconciled: true,
        findings: [],
      },
    });
    expect(amounts(surplus.json.chain.explained)).toEqual({
      ...NOTHING_EXPLAINED,
      unsolicited_surplus: '3.00000001',
    });
    expect(counts(surplus.json.chain.explained)).toMatchObject({ unsolicited_surplus: 1 });

    // The operator's mint is refused in chain mode, and mints nothing.
    const refused = await cli(
      'admin',
      'hst',
      'mint',
      '--account',
      player.playerId,
      '--amount',
      '5',
    );
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toContain('mint refused: in chain mode');
    expect((await cli('admin', 'hst', 'audit', '--chain')).code).toBe(0);
    // HST minted in the ledger all the same (before chain mode was on, or by a coinop that
    // allowed it): owed, backed by nothing.
    await mintHst(api.app.arcade, { id: player.playerId, amountUnits: 5n * HST });
    const short = await cli('admin', 'hst', 'audit', '--chain');
    expect(short.code).toBe(1);
    expect(short.json).toMatchObject({
      balanced: true,
      minted: '5',
      chain: {
        vaultBalance: '13.00000001',
        liabilitiesTotal: '15',
        expected: '18.00000001',
        minted: '5',
        unexplained: '-5',
        reconciled: false,
        findings: [
          '5 HST was minted in the ledger (before chain mode, which refuses the mint and the ' +
            'faucet): the ledger owes it and the vault does not back it; back it with a plain ' +
            'HST transfer to the vault, then cover the shortfall with it (docs/operating/chain.md)',
        ],
      },
    });
    expect(amounts(short.json.chain.liabilities)).toMatchObject({ players: '15' });
    expect(short.stderr).toBe(
      'coinop: the vault does not reconcile with the ledger: -5 HST unexplained ' +
        '(docs/operating/chain.md)\n' +
        'coinop: 5 HST was minted in the ledger (before chain mode, which refuses the mint and ' +
        'the faucet): the ledger owes it and the vault does not back it; back it with a plain ' +
        'HST transfer to the vault, then cover the shortfall with it (docs/operating/chain.md)\n',
    );

    // Without --chain the ledger alone is audited: it balances, and says so, and that in chain
    // mode the minted HST is a shortfall.
    const plain = await cli('admin', 'hst', 'audit');
    expect(plain).toMatchObject({
      code: 0,
      json: { balanced: true, minted: '5', chainMode: true },
    });
    expect(plain.json.chain).toBeUndefined();
    expect(plain.stderr).toBe(
      'coinop: chain mode: this audits the ledger alone; coinop admin hst audit --chain ' +
        'reconciles the vault with it (docs/operating/chain.md)\n' +
        'coinop: 5 HST was minted in the ledger: in chain mode no token backs it, a shortfall ' +
        '(docs/operating/chain.md)\n',
    );
  });

  it('does not reconcile when the chain no longer has the block the watcher recorded', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault({ confirmations: 1 });
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 2n * HST);
    await chain.mine(1);
    await watcher.runOnce();
    expect((await reconcile()).reconciled).toBe(true);
    // The deposit's block and the checkpoint's are replaced by empty ones.
    await chain.reorg(3);
    const report = await reconcile();
    expect(report).toMatchObject({
      vaultBalance: '0',
      liabilitiesTotal: '2',
      unexplained: '-2',
      reconciled: false,
    });
    expect(report.findings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^the chain's block ${report.blockNumber} is 0x[0-9a-f]{64}, not 0x[0-9a-f]{64} as the ` +
            'watcher recorded: a reorganisation deeper than the confirmations',
        ),
      ),
      'the vault holds 2 HST less than the ledger accounts for',
    ]);
  });

  // Operator review, finding 1: a mint in chain mode was accepted, and withdrawals paid the HST
  // no token backed out of the vault for up to a minute, until the watcher's reconciliation.
  it('refuses the operator mint in chain mode (409 mint_refused_in_chain_mode): nothing minted', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault();
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 10n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    const res = await api.app.inject({
      method: 'POST',
      url: '/admin/hst/mints',
      headers: admin,
      payload: { accountId: player.accountId, amount: '5' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'mint_refused_in_chain_mode',
      title: 'Minting refused in chain mode',
      message:
        "mint refused: in chain mode the ledger's HST is in the vault, and a mint in the ledger " +
        'would be HST no token backs. Put HST in the vault for the account instead: a deposit ' +
        'into the vault for it, or an ERC-20 transfer to the vault (recorded as surplus) ' +
        'credited with coinop admin chain credit-surplus 0xTXHASH:LOG --account ' +
        player.accountId,
    });
    const balance = await api.app.inject({
      method: 'GET',
      url: `/admin/hst/balances/${player.accountId}`,
      headers: admin,
    });
    expect(balance.json()).toMatchObject({ balance: '10', pending: '0' });
    expect(await reconcile()).toMatchObject({ minted: '0', unexplained: '0', reconciled: true });
  });

  it('reports a minted amount alone as exactly that shortfall', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault();
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 10n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    // Minted in the ledger before chain mode was on (the operator's mint is refused in it).
    await mintHst(api.app.arcade, { id: player.accountId, amountUnits: 3n });
    const report = await reconcile();
    expect(report).toMatchObject({
      vaultBalance: '10',
      liabilitiesTotal: '10.00000003',
      minted: '0.00000003',
      unexplained: '-0.00000003',
      reconciled: false,
      findings: [
        '0.00000003 HST was minted in the ledger (before chain mode, which refuses the mint and ' +
          'the faucet): the ledger owes it and the vault does not back it; back it with a plain ' +
          'HST transfer to the vault, then cover the shortfall with it (docs/operating/chain.md)',
      ],
    });
  });

  // Found by the operator review: minted HST partly covered by a top-up was reported as minted in
  // full, and the top-up as HST the watcher could not explain ("a bug: report it").
  it('counts surplus used to cover a shortfall against the minted HST it backs', async () => {
    const { api, vault, watcher } = await arcadeOnNewVault();
    const player = await fundedPlayer(api, 0);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 10n * HST);
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    await mintHst(api.app.arcade, { id: player.accountId, amountUnits: 5n * HST });
    // The operator tops the vault up by 2 HST with a plain transfer and covers part of it.
    const hash = await chain.players[1]!.writeContract({
      address: chain.hst,
      abi: hstAbi,
      functionName: 'transfer',
      args: [vault, 2n * HST],
    });
    const receipt = await chain.admin.waitForTransactionReceipt({ hash });
    await chain.mine(CONFIRMATIONS);
    await watcher.runOnce();
    const covered = await api.app.inject({
      method: 'POST',
      url: `/admin/chain/surplus/${receipt.transactionHash}:${receipt.logs[0]!.logIndex}/cover`,
      headers: admin,
      payload: { note: 'backs 2 of the 5 HST minted before chain mode' },
    });
    expect(covered.statusCode, covered.body).toBe(200);
    expect(await reconcile()).toMatchObject({
      vaultBalance: '12',
      liabilitiesTotal: '15',
      minted: '5',
      unexplained: '-3',
      reconciled: false,
      findings: [
        '3 HST was minted in the ledger and is not covered (5 minted, 2 covered with surplus; ' +
          'chain mode refuses the mint and the faucet): the ledger owes it and the vault does not ' +
          'back it; back it with a plain HST transfer to the vault, then cover the shortfall with ' +
          'it (docs/operating/chain.md)',
      ],
    });
  });
});
