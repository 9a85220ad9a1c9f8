import { arcadeVaultAbi, hstAbi, uuidToBytes16 } from '@coinop/contracts';
import { availableUnits, lockedUnits } from '@coinop/core';
import type { ActivityPage } from '@coinop/protocol';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import type { Address, Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WithdrawalSender } from '../../src/chain/withdrawals.js';
import type { ChainConfig } from '../../src/config.js';
import { readCheckpoint } from '../../src/store/chain-checkpoints.js';
import { findPlayLock } from '../../src/store/chain-play-locks.js';
import { findAccount } from '../../src/store/ledger.js';
import { findPlay } from '../../src/store/plays.js';
import { chainConfigFor, HST, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * Plays locked from the wallet, on a real Anvil, on every store: a requested lock opens its play
 * once confirmed; scored, it is paid out on chain by settleBatch (leaders and developer to their
 * wallets, the arcade's share kept in the vault) and its payout reservations posted once; a lock
 * that opens no play, and a voided play, are refunded to the wallet; a settlement recorded and
 * never broadcast (a crash) is sent again and paid once.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

const COST_HST = 5n;

describe.each(storeVariants())('plays locked on chain on %s', (variant) => {
  let api: TestApi | null = null;
  afterEach(async () => {
    if (api) {
      await expectLedgerBalanced(api.db);
      await api.close();
    }
    api = null;
  });

  /**
   * A fresh arcade on a fresh vault: a published game whose developer's wallet is Anvil player 2,
   * a leader (player 1's wallet) who scored 100 on the tier, and player 0's wallet signed up.
   */
  async function arcade(overrides: Partial<ChainConfig> = {}, costs = [Number(COST_HST)]) {
    const vault = await chain.newVault();
    const config = chainConfigFor(chain, vault, { confirmations: 0, ...overrides });
    api = await buildTestApi(variant, { chain: config });
    const watcher = api.app.arcade.chain!;
    await watcher.runOnce();
    const [p0, p1, p2] = chain.players.map((p) => p.account.address);
    const game = await gameWithTiers(api, {
      costs,
      developerWallet: p2!.toLowerCase(),
    });
    const tier = game.tiers[0]!;
    // Funded by a deposit, not a mint: the vault backs every unit, so the audit reconciles.
    const leader = await fundedPlayer(api, 0, 'Leader', p1!.toLowerCase());
    await chain.deposit(vault.vault, chain.players[1]!, leader.accountId, 10n * HST);
    await watcher.runOnce();
    const leaderPlay = await api.app.arcade.plays.open({
      gameId: game.gameId,
      playerId: leader.playerId,
      leaderboardId: tier.id,
      idempotencyKey: null,
    });
    await api.app.arcade.plays.score({
      gameId: game.gameId,
      playId: leaderPlay.id,
      leaderboardId: tier.id,
      score: 100,
      idempotencyKey: null,
    });
    const player = await fundedPlayer(api, 0, 'Locker', p0!.toLowerCase());
    const sender = newSender(api, config);
    const checkpoint = (await readCheckpoint(api.db, {
      chainId: chain.chainId,
      vaultAddress: vault.vault,
    }))!;
    return {
      api,
      vault: vault.vault,
      config,
      game,
      tier,
      leader,
      player,
      watcher,
      sender,
      checkpoint,
    };
  }

  const newSender = (a: TestApi, config: ChainConfig, broadcast?: (raw: Hex) => Promise<void>) =>
    new WithdrawalSender({
      db: a.db,
      clock: a.clock,
      ids: a.app.arcade.ids,
      chain: config,
      operator: chain.anvil.accounts[1]!,
      broadcast,
    });

  const hstOf = (address: Address) =>
    chain.admin.readContract({
      address: chain.hst,
      abi: hstAbi,
      functionName: 'balanceOf',
      args: [address],
    });

  async function lock(vault: Address, playerIndex: number, playId: string, units: bigint) {
    const wallet = chain.players[playerIndex]!;
    const hash = await wallet.writeContract({
      address: vault,
      abi: arcadeVaultAbi,
      functionName: 'lockPlay',
      args: [uuidToBytes16(playId), units],
    });
    const receipt = await wallet.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    return hash;
  }

  async function request(a: Awaited<ReturnType<typeof arcade>>, tierIndex = 0) {
    const board = (await a.api.app.arcade.games.get(a.game.gameId)).leaderboards[tierIndex]!;
    const view = await a.api.app.arcade.chainPlays.request({
      playerId: a.player.playerId,
      gameId: a.game.gameId,
      board,
    });
    expect(view.lock).toMatchObject({ state: 'requested', amountUnits: COST_HST * HST });
    return view.lock.playId;
  }

  /**
   * `coinop admin hst audit --chain` at the head (the watcher reads up to it first): the lines
   * about plays locked on chain, and whether everything reconciles to the unit.
   */
  async function audit(a: Awaited<ReturnType<typeof arcade>>) {
    await a.watcher.runOnce();
    const res = await a.api.app.inject({
      method: 'GET',
      url: '/admin/hst/audit?chain=true',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const report = res.json<{
      chain: {
        liabilities: { kind: string; amount: string }[];
        explained: { kind: string; amount: string }[];
        reconciled: boolean;
        findings: string[];
      };
    }>().chain;
    const amountOf = (kind: string) =>
      [...report.liabilities, ...report.explained].find((l) => l.kind === kind)?.amount;
    expect(report.findings).toEqual([]);
    expect(report.reconciled).toBe(true);
    return {
      locks: amountOf('chain_play_locks'),
      payouts: amountOf('chain_payouts_pending'),
      toRefund: amountOf('chain_locks_to_refund'),
      inFlight: amountOf('chain_settlements_in_flight'),
    };
  }

  /**
   * Runs the sender until what it sent is confirmed: Anvil mines each transaction at once, but in
   * the background, so on a loaded machine a round may come before the block.
   */
  async function settleAll(sender: WithdrawalSender) {
    const first = (await sender.runOnce()).plays;
    const second = { settled: 0, refunded: 0, sent: 0 };
    for (let round = 0; round < 50; round++) {
      const plays = (await sender.runOnce()).plays;
      second.settled += plays.settled;
      second.refunded += plays.refunded;
      second.sent += plays.sent;
      if (second.settled + second.refunded >= first.sent) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { first, second };
  }

  it('opens a requested lock as a play, and pays its score out on chain once', async () => {
    const a = await arcade();
    const [p0, p1, p2] = chain.players.map((p) => p.account.address);
    const playId = await request(a);
    const before = { p0: await hstOf(p0!), p1: await hstOf(p1!), p2: await hstOf(p2!) };
    const vaultBefore = await hstOf(a.vault);
    const lockTx = await lock(a.vault, 0, playId, COST_HST * HST);

    expect(await a.watcher.runOnce()).toMatchObject({ playsOpened: 1, locksRefused: 0 });
    const play = (await findPlay(a.api.db, a.game.gameId, playId))!;
    expect(play).toMatchObject({
      status: 'open',
      playerId: a.player.playerId,
      costUnits: COST_HST * HST,
      vaultAccountId: a.checkpoint.accountId,
      leaderPlayerIds: [a.leader.playerId],
    });
    // A play opened by its lock gets its seed as it opens, like any other (issue 30).
    expect(play.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({
      state: 'open',
      lockTxHash: lockTx.toLowerCase(),
    });
    // The player's ledger balance is not touched: the lock is drawn on the vault's account.
    const playerAccount = (await findAccount(a.api.db, a.player.accountId))!;
    expect(availableUnits(playerAccount)).toBe(0n);
    const vaultAccount = (await findAccount(a.api.db, a.checkpoint.accountId))!;
    expect(vaultAccount.debitsPending).toBe(COST_HST * HST);
    expect(await audit(a)).toEqual({ locks: '5', payouts: '0', toRefund: '0', inFlight: '0' });

    const leaderBefore = (await findAccount(a.api.db, a.leader.accountId))!;
    const devBefore = (await findAccount(a.api.db, a.game.developerAccountId))!;
    const arcadeBefore = (await findAccount(a.api.db, a.game.arcadeAccountId))!;
    await a.api.app.arcade.plays.score({
      gameId: a.game.gameId,
      playId,
      leaderboardId: a.tier.id,
      score: 50,
      idempotencyKey: null,
    });
    // Settled in the ledger: 70% to the leader, 20% to the developer (reserved for the chain),
    // 10% to the arcade (kept in the vault).
    const leaderShare = (COST_HST * HST * 70n) / 100n;
    const devShare = (COST_HST * HST * 20n) / 100n;
    const arcadeShare = COST_HST * HST - leaderShare - devShare;
    const leaderMid = (await findAccount(a.api.db, a.leader.accountId))!;
    expect(leaderMid.creditsPosted - leaderBefore.creditsPosted).toBe(leaderShare);
    expect(leaderMid.debitsPending - leaderBefore.debitsPending).toBe(leaderShare);
    expect(availableUnits(leaderMid)).toBe(availableUnits(leaderBefore));
    expect(await audit(a)).toEqual({ locks: '0', payouts: '4.5', toRefund: '0', inFlight: '0' });

    const { first, second } = await settleAll(a.sender);
    expect(first).toMatchObject({ sent: 1 });
    expect(second).toMatchObject({ settled: 1, refunded: 0 });
    const settled = (await findPlayLock(a.api.db, playId))!;
    expect(settled.state).toBe('settled');
    expect(settled.settleTxHash).toMatch(/^0x[0-9a-f]{64}$/);

    // On chain: the leader's and the developer's wallets got their shares to the unit; the
    // player's wallet paid the cost; the vault keeps the arcade's share.
    expect((await hstOf(p0!)) - before.p0).toBe(-COST_HST * HST);
    expect((await hstOf(p1!)) - before.p1).toBe(leaderShare);
    expect((await hstOf(p2!)) - before.p2).toBe(devShare);
    expect((await hstOf(a.vault)) - vaultBefore).toBe(arcadeShare);
    const onChain = await chain.admin.readContract({
      address: a.vault,
      abi: arcadeVaultAbi,
      functionName: 'playLock',
      args: [uuidToBytes16(playId)],
    });
    expect(onChain.state).toBe(2); // Settled

    // In the ledger: the payout reservations are posted; the arcade holds its share; the vault's
    // account says it holds the deposit and the arcade's share.
    const leaderAfter = (await findAccount(a.api.db, a.leader.accountId))!;
    expect(leaderAfter.debitsPending).toBe(leaderBefore.debitsPending);
    expect(leaderAfter.debitsPosted - leaderBefore.debitsPosted).toBe(leaderShare);
    expect(availableUnits(leaderAfter)).toBe(availableUnits(leaderBefore));
    const devAfter = (await findAccount(a.api.db, a.game.developerAccountId))!;
    expect(availableUnits(devAfter)).toBe(availableUnits(devBefore));
    const arcadeAfter = (await findAccount(a.api.db, a.game.arcadeAccountId))!;
    expect(availableUnits(arcadeAfter) - availableUnits(arcadeBefore)).toBe(arcadeShare);
    const vaultAfter = (await findAccount(a.api.db, a.checkpoint.accountId))!;
    expect(vaultAfter.debitsPending + vaultAfter.creditsPending).toBe(0n);
    // The leader's 10 HST deposit, and the arcade's share.
    expect(vaultAfter.debitsPosted - vaultAfter.creditsPosted).toBe(10n * HST + arcadeShare);

    const status = await a.api.app.inject({
      method: 'GET',
      url: '/admin/chain',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(status.json()).toMatchObject({
      playLocks: {
        requested: { count: 0, amount: '0' },
        open: { count: 0, amount: '0' },
        settled: { count: 1, amount: String(COST_HST) },
        refunded: { count: 0, amount: '0' },
      },
    });

    expect(await audit(a)).toEqual({ locks: '0', payouts: '0', toRefund: '0', inFlight: '0' });

    // Another round pays nothing twice.
    expect((await a.sender.runOnce()).plays).toMatchObject({ sent: 0, settled: 0 });
    expect((await hstOf(p1!)) - before.p1).toBe(leaderShare);
  });

  it("pays a play's leaders' part back to the player's wallet when nobody led its tier", async () => {
    // A second tier nobody has played: the leader of the fixture leads only the first.
    const a = await arcade({}, [Number(COST_HST), Number(COST_HST)]);
    const empty = a.game.tiers[1]!;
    const [p0, , p2] = chain.players.map((p) => p.account.address);
    const playId = await request(a, 1);
    const before = { p0: await hstOf(p0!), p2: await hstOf(p2!), vault: await hstOf(a.vault) };
    await lock(a.vault, 0, playId, COST_HST * HST);
    expect(await a.watcher.runOnce()).toMatchObject({ playsOpened: 1 });
    await a.api.app.arcade.plays.score({
      gameId: a.game.gameId,
      playId,
      leaderboardId: empty.id,
      score: 7,
      idempotencyKey: null,
    });
    // Nobody to lead: the leaders' 3.5 HST goes back to the player, reserved for their wallet
    // as a leader's share is; 1 to the developer's wallet; 0.5 kept in the vault.
    expect(await audit(a)).toEqual({ locks: '0', payouts: '4.5', toRefund: '0', inFlight: '0' });
    const { second } = await settleAll(a.sender);
    expect(second).toMatchObject({ settled: 1, refunded: 0 });
    expect((await hstOf(p0!)) - before.p0).toBe(-COST_HST * HST + (COST_HST * HST * 70n) / 100n);
    expect((await hstOf(p2!)) - before.p2).toBe((COST_HST * HST * 20n) / 100n);
    expect((await hstOf(a.vault)) - before.vault).toBe((COST_HST * HST * 10n) / 100n);
    expect(await audit(a)).toEqual({ locks: '0', payouts: '0', toRefund: '0', inFlight: '0' });

    // The player's history: the play from the wallet, and the part back to the wallet, with the
    // vault's settlement transaction.
    const lines = await a.api.app.inject({
      method: 'GET',
      url: `/admin/players/${a.player.playerId}/activity`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    const settled = (await findPlayLock(a.api.db, playId))!;
    expect(
      lines.json<ActivityPage>().items.map((i) => [i.kind, i.kind === 'returned' && i]),
    ).toEqual([
      [
        'returned',
        expect.objectContaining({
          amount: '3.5',
          playId,
          status: 'paid',
          paidTo: 'wallet',
          txHash: settled.settleTxHash,
        }),
      ],
      ['play', false],
    ]);
  });

  it('refunds a lock nobody requested, and one of the wrong amount, to the wallet', async () => {
    const a = await arcade();
    const p0 = chain.players[0]!.account.address;
    const before = await hstOf(p0);
    const stranger = a.api.app.arcade.ids.next();
    const asked = await request(a);
    await lock(a.vault, 0, stranger, 3n * HST);
    await lock(a.vault, 0, asked, 4n * HST);
    expect(await a.watcher.runOnce()).toMatchObject({ playsOpened: 0, locksRefused: 2 });
    expect(await findPlayLock(a.api.db, stranger)).toMatchObject({
      state: 'refund_due',
      refundReason: 'not_requested',
    });
    expect(await findPlayLock(a.api.db, asked)).toMatchObject({
      state: 'refund_due',
      refundReason: 'wrong_amount',
    });
    expect(await findPlay(a.api.db, a.game.gameId, asked)).toBeNull();
    const listed = await a.api.app.inject({
      method: 'GET',
      url: '/admin/chain/plays?state=refund_due',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(listed.statusCode).toBe(200);
    const rows = listed.json<{ plays: { playId: string }[] }>().plays;
    expect(rows.map((r) => r.playId).sort()).toEqual([stranger, asked].sort());
    expect(listed.json()).toMatchObject({
      plays: expect.arrayContaining([
        expect.objectContaining({
          playId: stranger,
          playerId: null,
          refundReason: 'not_requested',
          amount: '3',
          lockerAddress: p0,
        }),
        expect.objectContaining({
          playId: asked,
          playerId: a.player.playerId,
          refundReason: 'wrong_amount',
          amount: '5',
        }),
      ]),
    });
    expect(await hstOf(p0)).toBe(before - 7n * HST);
    expect(await audit(a)).toMatchObject({ locks: '0', toRefund: '7' });

    const { second } = await settleAll(a.sender);
    expect(second).toMatchObject({ refunded: 2, settled: 0 });
    expect(await hstOf(p0)).toBe(before);
    expect(await findPlayLock(a.api.db, stranger)).toMatchObject({ state: 'refunded' });
    expect(await hstOf(a.vault)).toBe(10n * HST); // the leader's deposit
    expect(await audit(a)).toMatchObject({ locks: '0', toRefund: '0' });
  });

  it("refunds the lock of a play voided by the game's suspension", async () => {
    const a = await arcade();
    const p0 = chain.players[0]!.account.address;
    const before = await hstOf(p0);
    const playId = await request(a);
    await lock(a.vault, 0, playId, COST_HST * HST);
    await a.watcher.runOnce();
    expect(await a.api.app.arcade.consent.suspend(a.game.gameId)).toEqual({ voidedPlays: 1 });
    expect((await findPlay(a.api.db, a.game.gameId, playId))!.status).toBe('voided');
    const vaultAccount = (await findAccount(a.api.db, a.checkpoint.accountId))!;
    expect(lockedUnits(vaultAccount)).toBe(0n);
    expect(await audit(a)).toMatchObject({ locks: '0', toRefund: '5' });

    const { second } = await settleAll(a.sender);
    expect(second).toMatchObject({ refunded: 1 });
    expect(await hstOf(p0)).toBe(before);
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({
      state: 'refunded',
      refundReason: 'play_voided',
    });
  });

  it('settles an expired play like a scored one', async () => {
    const a = await arcade();
    const p2 = chain.players[2]!.account.address;
    const playId = await request(a);
    await lock(a.vault, 0, playId, COST_HST * HST);
    await a.watcher.runOnce();
    const devBefore = await hstOf(p2);
    a.api.clock.advance((a.api.config.playTtlSeconds + 1) * 1000);
    expect(await a.api.app.arcade.settleExpiredPlays()).toBe(1);
    // The vault was last reconciled before the play's time ran out: nothing leaves it until the
    // watcher reconciles it again (docs/concepts/chain.md#halts).
    expect(await settleAll(a.sender)).toMatchObject({ second: { settled: 0, sent: 0 } });
    await a.watcher.runOnce();
    const { second } = await settleAll(a.sender);
    expect(second).toMatchObject({ settled: 1 });
    expect((await hstOf(p2)) - devBefore).toBe((COST_HST * HST * 20n) / 100n);
    expect((await findPlay(a.api.db, a.game.gameId, playId))!.status).toBe('expired');
  });

  it('pays a settlement once when the sender died before broadcasting it', async () => {
    const a = await arcade();
    const p1 = chain.players[1]!.account.address;
    const playId = await request(a);
    await lock(a.vault, 0, playId, COST_HST * HST);
    await a.watcher.runOnce();
    await a.api.app.arcade.plays.score({
      gameId: a.game.gameId,
      playId,
      leaderboardId: a.tier.id,
      score: 1,
      idempotencyKey: null,
    });
    const before = await hstOf(p1);
    // Recorded, then the process dies before the chain hears of it.
    const dying = newSender(a.api, a.config, async () => undefined);
    expect((await dying.runOnce()).plays).toMatchObject({ sent: 1 });
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({ state: 'sent' });
    expect(await hstOf(p1)).toBe(before);
    expect(await audit(a)).toMatchObject({ payouts: '4.5', inFlight: '0' });
    // The bytes reach the chain (say, the node had them): paid on chain, not yet in the ledger.
    const [recorded] = await a.api.db.query<{ raw_tx: Hex }>(
      "SELECT raw_tx FROM chain_withdrawal_batches WHERE kind = 'settle'",
    );
    const hash = await chain.admin.sendRawTransaction({ serializedTransaction: recorded!.raw_tx });
    await chain.admin.waitForTransactionReceipt({ hash });
    expect(await audit(a)).toMatchObject({ payouts: '4.5', inFlight: '-4.5' });

    // The dead sender's lease runs out; a new sender broadcasts the recorded bytes again (the
    // same hash) and confirms them, sending nothing new.
    await a.api.db.query(
      "UPDATE chain_checkpoints SET sender_lease_expires_at = now() - interval '1 second'",
    );
    const restarted = newSender(a.api, a.config);
    for (let round = 0; round < 20; round++) {
      expect((await restarted.runOnce()).plays).toMatchObject({ sent: 0 });
      if ((await findPlayLock(a.api.db, playId))?.state === 'settled') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({ state: 'settled' });
    expect((await hstOf(p1)) - before).toBe((COST_HST * HST * 70n) / 100n);
    expect(await audit(a)).toMatchObject({ payouts: '0', inFlight: '0' });
    await restarted.runOnce();
    expect((await hstOf(p1)) - before).toBe((COST_HST * HST * 70n) / 100n);
  });
});
