import { arcadeVaultAbi, uuidToBytes16 } from '@coinop/contracts';
import { availableUnits, formatHst, SETTLE_BEFORE_RECLAIM_SECONDS } from '@coinop/core';
import type { TestApi } from '@coinop/testkit/app';
import { writeToken } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { createWalletClient, http, publicActions } from 'viem';
import { anvil as anvilChain } from 'viem/chains';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findPlayLock } from '../../src/store/chain-play-locks.js';
import { applyTransfers, findAccount } from '../../src/store/ledger.js';
import { findPlay } from '../../src/store/plays.js';
import { HST, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';
import {
  CHAIN_PLAY_COST_HST,
  chainAudit,
  chainPlayArcade,
  hstOf,
  lockChainPlay,
  lockStateOnChain,
  moveChainTime,
  reclaimChainPlay,
  requestChainPlay,
  settleAll,
  type ChainPlayArcade,
} from '../fixtures/chain-plays.js';

/**
 * Issue 27, finding 4: a reclaimed chain lock still scored. A player locked a play on chain,
 * moved the chain's time past the vault's lock timeout, reclaimed the lock (the tokens went back
 * to their wallet), then scored the play, still open in the ledger: 200, the developer was paid
 * 0.9 HST, and the vault was 0.99999999 HST short of what the ledger said it held.
 *
 * Now the vault and the ledger agree on every lock's fate: a reclaim (or any end of a lock on
 * chain coinop did not bring about) voids the open play at once and a score for it is refused; a
 * score the ledger took before the reclaim was seen is reversed; and a play whose lock nears the
 * lock timeout closes to scores before anyone can reclaim it. Each on a real Anvil, on every store.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

const COST = CHAIN_PLAY_COST_HST * HST;
/** The fixture vaults' lock timeout. */
const LOCK_TIMEOUT_SECONDS = 86_400;
const LEADER_SHARE = (COST * 70n) / 100n;
const DEVELOPER_SHARE = (COST * 20n) / 100n;

describe.each(storeVariants())('issue 27: a lock that ends on chain, on %s', (variant) => {
  let api: TestApi | null = null;
  afterEach(async () => {
    if (api) {
      await expectLedgerBalanced(api.db);
      await api.close();
    }
    api = null;
  });

  async function arcade() {
    const a = await chainPlayArcade(chain, variant);
    api = a.api;
    return a;
  }

  /** A play requested, locked from player 0's wallet and opened by the watcher. */
  async function openChainPlay(a: ChainPlayArcade): Promise<string> {
    const playId = await requestChainPlay(a);
    await lockChainPlay(a, playId);
    expect(await a.watcher.runOnce()).toMatchObject({ playsOpened: 1, locksRefused: 0 });
    expect((await findPlay(a.api.db, a.game.gameId, playId))?.status).toBe('open');
    return playId;
  }

  /** The game server scores the play over HTTP, as in the finding. */
  async function scoreOverHttp(a: ChainPlayArcade, playId: string, score: number) {
    const token = await writeToken(a.api, a.game);
    return a.api.app.inject({
      method: 'POST',
      url: `/arcades/${a.game.arcadeId}/games/${a.game.gameId}/score`,
      headers: { authorization: `Bearer ${token}` },
      payload: { playId, leaderboardId: a.tier.id, score },
    });
  }

  /** What the payees of a play can spend, in the ledger. */
  async function payeeBalances(a: ChainPlayArcade) {
    const available = async (id: string) => availableUnits((await findAccount(a.api.db, id))!);
    return {
      leader: await available(a.leader.accountId),
      developer: await available(a.game.developerAccountId),
      arcade: await available(a.game.arcadeAccountId),
    };
  }

  /** The HST of the player's, the leader's and the developer's wallets, and the vault's. */
  async function wallets(a: ChainPlayArcade) {
    const [p0, p1, p2] = chain.players.map((p) => p.account.address);
    return {
      player: await hstOf(chain, p0!),
      leader: await hstOf(chain, p1!),
      developer: await hstOf(chain, p2!),
      vault: await hstOf(chain, a.vault),
    };
  }

  it('voids the play its player reclaimed at once, refuses its score, pays nobody and reconciles', async () => {
    const a = await arcade();
    const playId = await openChainPlay(a);
    const payeesBefore = await payeeBalances(a);
    const walletsBefore = await wallets(a);

    // The finding: the chain's time moves past the lock timeout (the server's clock does not),
    // and the player takes their lock back before the watcher has read a block since.
    await moveChainTime(chain, LOCK_TIMEOUT_SECONDS + 1);
    const reclaimTx = await reclaimChainPlay(a, playId);
    expect((await wallets(a)).player - walletsBefore.player).toBe(COST);

    expect(await a.watcher.runOnce()).toMatchObject({ locksEnded: 1, playsClosed: 0 });
    expect(await findPlay(a.api.db, a.game.gameId, playId)).toMatchObject({ status: 'voided' });
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({
      state: 'reclaimed',
      endTxHash: reclaimTx.toLowerCase(),
    });
    const vaultAccount = (await findAccount(a.api.db, a.checkpoint.accountId))!;
    expect(vaultAccount.debitsPending).toBe(0n);

    const res = await scoreOverHttp(a, playId, 50);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'play_not_open',
      message:
        `play ${playId} was voided (its game was suspended, or its lock on chain ended or ` +
        "neared the vault's lock timeout) and its HST returned; it takes no score",
    });
    expect(await findPlay(a.api.db, a.game.gameId, playId)).toMatchObject({ status: 'voided' });

    // Nobody is paid, in the ledger or on chain, and the sender has nothing to send.
    expect(await payeeBalances(a)).toEqual(payeesBefore);
    expect((await a.sender.runOnce()).plays).toMatchObject({ sent: 0, settled: 0, refunded: 0 });
    const after = await wallets(a);
    expect(after.leader).toBe(walletsBefore.leader);
    expect(after.developer).toBe(walletsBefore.developer);
    expect(after.vault).toBe(10n * HST); // the leader's deposit, and nothing else
    expect(await chainAudit(a)).toMatchObject({
      locks: '0',
      payouts: '0',
      toRefund: '0',
      inFlight: '0',
      unexplained: '0',
      reconciled: true,
      findings: [],
    });
    // A range read again changes nothing.
    await a.api.db.query('UPDATE chain_checkpoints SET block_number = NULL, block_hash = NULL');
    expect(await a.watcher.runOnce()).toMatchObject({ locksEnded: 0, playsOpened: 0 });
    expect(await payeeBalances(a)).toEqual(payeesBefore);
  });

  it('reverses a score the ledger took before it saw the reclaim: payees give their shares back', async () => {
    const a = await arcade();
    const playId = await openChainPlay(a);
    const payeesBefore = await payeeBalances(a);
    const walletsBefore = await wallets(a);
    const scored = await scoreOverHttp(a, playId, 50);
    expect(scored.statusCode, scored.body).toBe(200);
    const mid = await payeeBalances(a);
    expect(mid.arcade - payeesBefore.arcade).toBe(COST - LEADER_SHARE - DEVELOPER_SHARE);

    // The sender was down; the player reclaims after the timeout; the watcher reads it first.
    await moveChainTime(chain, LOCK_TIMEOUT_SECONDS + 1);
    await reclaimChainPlay(a, playId);
    expect(await a.watcher.runOnce()).toMatchObject({ locksEnded: 1 });
    expect(await findPlay(a.api.db, a.game.gameId, playId)).toMatchObject({ status: 'scored' });
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({ state: 'reclaimed' });
    // Each payee holds what they held before the play: the leader's and the developer's
    // reservations voided and their shares taken back, the arcade's share taken back.
    expect(await payeeBalances(a)).toEqual(payeesBefore);
    const leader = (await findAccount(a.api.db, a.leader.accountId))!;
    expect(leader.debitsPending).toBe(0n);
    const reversals = await a.api.db.query<{ amount: bigint | number }>(
      "SELECT amount FROM transfers WHERE play_id = $1 AND reason = 'chain_reversal' ORDER BY amount",
      [playId],
    );
    expect(reversals.map((r) => BigInt(r.amount))).toEqual(
      [COST - LEADER_SHARE - DEVELOPER_SHARE, DEVELOPER_SHARE, LEADER_SHARE].sort((x, y) =>
        x < y ? -1 : 1,
      ),
    );

    // The sender then has nothing to settle: nobody is paid on chain.
    expect((await a.sender.runOnce()).plays).toMatchObject({ sent: 0 });
    const after = await wallets(a);
    expect(after.leader).toBe(walletsBefore.leader);
    expect(after.developer).toBe(walletsBefore.developer);
    expect(after.player).toBe(walletsBefore.player + COST);
    expect(await chainAudit(a)).toMatchObject({
      locks: '0',
      payouts: '0',
      inFlight: '0',
      unexplained: '0',
      reconciled: true,
    });
  });

  it('reverses the score when the settlement reaches the vault after the reclaim', async () => {
    const a = await arcade();
    const playId = await openChainPlay(a);
    const payeesBefore = await payeeBalances(a);
    const walletsBefore = await wallets(a);
    expect((await scoreOverHttp(a, playId, 50)).statusCode).toBe(200);
    await moveChainTime(chain, LOCK_TIMEOUT_SECONDS + 1);
    await reclaimChainPlay(a, playId);

    // The sender's settleBatch goes out before the watcher reads the reclaim: the vault skips it
    // (SettlementSkipped, reclaimed), and resolving the batch reverses the settlement.
    const { first, second } = await settleAll(a.sender);
    expect(first).toMatchObject({ sent: 1 });
    expect(second).toMatchObject({ settled: 0, refunded: 1 });
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({
      state: 'reclaimed',
      endTxHash: null,
    });
    expect(await payeeBalances(a)).toEqual(payeesBefore);
    // The watcher then reads the reclaim of a lock already ended: nothing more.
    expect(await a.watcher.runOnce()).toMatchObject({ locksEnded: 0 });
    expect(await payeeBalances(a)).toEqual(payeesBefore);
    const after = await wallets(a);
    expect(after.leader).toBe(walletsBefore.leader);
    expect(after.developer).toBe(walletsBefore.developer);
    expect(await chainAudit(a)).toMatchObject({ unexplained: '0', reconciled: true });
  });

  it("reports what a reversal cannot take back (the arcade's share, spent) as the vault's shortfall", async () => {
    const a = await arcade();
    const playId = await openChainPlay(a);
    expect((await scoreOverHttp(a, playId, 50)).statusCode).toBe(200);
    // The arcade spends all it has (say, withdrawn): its share of the play is gone.
    const arcadeAccount = (await findAccount(a.api.db, a.game.arcadeAccountId))!;
    const spent = availableUnits(arcadeAccount);
    await a.api.db.transaction((tx) =>
      applyTransfers(
        tx,
        [
          {
            id: a.api.app.arcade.ids.next(),
            kind: 'posted',
            debitAccountId: a.game.arcadeAccountId,
            creditAccountId: a.leader.accountId,
            amount: spent,
            pendingId: null,
            reason: 'payment',
            playId: null,
          },
        ],
        a.api.clock.now(),
      ),
    );
    const leaderBefore = availableUnits((await findAccount(a.api.db, a.leader.accountId))!);
    await moveChainTime(chain, LOCK_TIMEOUT_SECONDS + 1);
    await reclaimChainPlay(a, playId);
    expect(await a.watcher.runOnce()).toMatchObject({ locksEnded: 1 });
    // The reserved shares are taken back all the same; the arcade's is not, and the audit says
    // the vault holds that much less than the ledger owes.
    const leaderAfter = availableUnits((await findAccount(a.api.db, a.leader.accountId))!);
    expect(leaderAfter).toBe(leaderBefore);
    expect((await findAccount(a.api.db, a.leader.accountId))!.debitsPending).toBe(0n);
    const arcadeShare = COST - LEADER_SHARE - DEVELOPER_SHARE;
    expect(await chainAudit(a)).toMatchObject({
      unexplained: `-${formatHst(arcadeShare)}`,
      reconciled: false,
    });
  });

  it('still settles a play scored before its lock timeout, and the player cannot reclaim it', async () => {
    const a = await arcade();
    const playId = await openChainPlay(a);
    const walletsBefore = await wallets(a);
    const scored = await scoreOverHttp(a, playId, 50);
    expect(scored.statusCode, scored.body).toBe(200);
    const { first, second } = await settleAll(a.sender);
    expect(first).toMatchObject({ sent: 1 });
    expect(second).toMatchObject({ settled: 1, refunded: 0 });
    expect(await lockStateOnChain(a, playId)).toBe(2); // Settled
    const after = await wallets(a);
    expect(after.leader - walletsBefore.leader).toBe(LEADER_SHARE);
    expect(after.developer - walletsBefore.developer).toBe(DEVELOPER_SHARE);

    // The watcher reads coinop's own settlement: nothing to bring the ledger to.
    expect(await a.watcher.runOnce()).toMatchObject({ locksEnded: 0 });
    await moveChainTime(chain, LOCK_TIMEOUT_SECONDS + 1);
    await expect(
      chain.players[0]!.simulateContract({
        address: a.vault,
        abi: arcadeVaultAbi,
        functionName: 'reclaim',
        args: [uuidToBytes16(playId)],
      }),
    ).rejects.toThrow(/PlayNotLocked/);
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({ state: 'settled' });
    expect(await chainAudit(a)).toMatchObject({ unexplained: '0', reconciled: true });
  });

  it('closes a play to scores when its lock nears the timeout on the chain’s clock, unreclaimed', async () => {
    const a = await arcade();
    const playId = await openChainPlay(a);
    const walletsBefore = await wallets(a);
    // Not yet: a second before the score deadline.
    await moveChainTime(chain, LOCK_TIMEOUT_SECONDS - SETTLE_BEFORE_RECLAIM_SECONDS - 2);
    expect(await a.watcher.runOnce()).toMatchObject({ playsClosed: 0 });
    expect(await findPlay(a.api.db, a.game.gameId, playId)).toMatchObject({ status: 'open' });
    // Past it: the play is voided (its player had not the whole play) and its lock refunded,
    // before anyone can reclaim it; a score is refused.
    await moveChainTime(chain, 2);
    expect(await a.watcher.runOnce()).toMatchObject({ playsClosed: 1 });
    const res = await scoreOverHttp(a, playId, 50);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'play_not_open' });
    const { second } = await settleAll(a.sender);
    expect(second).toMatchObject({ refunded: 1 });
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({
      state: 'refunded',
      refundReason: 'play_voided',
    });
    expect(await lockStateOnChain(a, playId)).toBe(3); // Refunded
    expect((await wallets(a)).player).toBe(walletsBefore.player + COST);
    expect(await chainAudit(a)).toMatchObject({ unexplained: '0', reconciled: true });
  });

  it('opens no play for a lock its player could reclaim before the play is over', async () => {
    const a = await arcade();
    // The admin sets a lock timeout a second too short for a play and the margin.
    const tooShort = BigInt(a.api.config.playTtlSeconds + SETTLE_BEFORE_RECLAIM_SECONDS - 1);
    const hash = await chain.admin.writeContract({
      address: a.vault,
      abi: arcadeVaultAbi,
      functionName: 'setLockTimeout',
      args: [tooShort],
    });
    await chain.admin.waitForTransactionReceipt({ hash });
    const playId = await requestChainPlay(a);
    await lockChainPlay(a, playId);
    expect(await a.watcher.runOnce()).toMatchObject({ playsOpened: 0, locksRefused: 1 });
    expect(await findPlay(a.api.db, a.game.gameId, playId)).toBeNull();
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({
      state: 'refund_due',
      refundReason: 'reclaimable_too_soon',
    });
    expect(await settleAll(a.sender)).toMatchObject({ second: { refunded: 1 } });
    expect(await chainAudit(a)).toMatchObject({ unexplained: '0', reconciled: true });
  });

  it('leaves an open ledger play alone when someone locks and reclaims under its id', async () => {
    const a = await arcade();
    // Anyone may lock under any id: here an open ledger play's, then reclaim it.
    const ledgerPlay = await a.api.app.arcade.plays.open({
      gameId: a.game.gameId,
      playerId: a.leader.playerId,
      leaderboardId: a.tier.id,
      idempotencyKey: null,
    });
    const before = await findPlay(a.api.db, a.game.gameId, ledgerPlay.id);
    expect(before).toMatchObject({ status: 'open', vaultAccountId: null });
    await lockChainPlay(a, ledgerPlay.id);
    expect(await a.watcher.runOnce()).toMatchObject({ playsOpened: 0, locksRefused: 1 });
    expect(await findPlayLock(a.api.db, ledgerPlay.id)).toMatchObject({
      state: 'refund_due',
      refundReason: 'not_requested',
    });
    await moveChainTime(chain, LOCK_TIMEOUT_SECONDS + 1);
    await reclaimChainPlay(a, ledgerPlay.id);
    expect(await a.watcher.runOnce()).toMatchObject({ outcome: 'scanned', locksEnded: 1 });
    expect(await findPlayLock(a.api.db, ledgerPlay.id)).toMatchObject({ state: 'reclaimed' });
    // The ledger play is as it was, and takes its score.
    expect(await findPlay(a.api.db, a.game.gameId, ledgerPlay.id)).toEqual(before);
    const scored = await scoreOverHttp(a, ledgerPlay.id, 10);
    expect(scored.statusCode, scored.body).toBe(200);
    expect((await a.sender.runOnce()).plays).toMatchObject({ sent: 0 });
    expect(await chainAudit(a)).toMatchObject({ unexplained: '0', reconciled: true });
  });

  it('refunds, never settles nor reverses, a lock under the id of a scored ledger play', async () => {
    const a = await arcade();
    // The arcade holds the cost, so a wrong reversal of the ledger play could take it.
    await a.api.db.transaction((tx) =>
      applyTransfers(
        tx,
        [
          {
            id: a.api.app.arcade.ids.next(),
            kind: 'posted',
            debitAccountId: a.leader.accountId,
            creditAccountId: a.game.arcadeAccountId,
            amount: COST,
            pendingId: null,
            reason: 'payment',
            playId: null,
          },
        ],
        a.api.clock.now(),
      ),
    );
    const payeesBefore = await payeeBalances(a);
    const walletBefore = await hstOf(chain, chain.players[0]!.account.address);
    await lockChainPlay(a, a.leaderPlayId);
    await a.watcher.runOnce();
    const { first, second } = await settleAll(a.sender);
    expect(first).toMatchObject({ sent: 1 });
    expect(second).toMatchObject({ settled: 0, refunded: 1 });
    expect(await lockStateOnChain(a, a.leaderPlayId)).toBe(3); // Refunded
    expect(await hstOf(chain, chain.players[0]!.account.address)).toBe(walletBefore);
    expect(await findPlay(a.api.db, a.game.gameId, a.leaderPlayId)).toMatchObject({
      status: 'scored',
    });
    expect(await payeeBalances(a)).toEqual(payeesBefore);
    expect(await chainAudit(a)).toMatchObject({ unexplained: '0', reconciled: true });
  });

  it('voids a play whose lock the operator key refunded outside coinop', async () => {
    const a = await arcade();
    const playId = await openChainPlay(a);
    // The vault's operator key, used by hand rather than by coinop's sender.
    const key = createWalletClient({
      account: chain.anvil.accounts[1]!,
      chain: anvilChain,
      transport: http(chain.anvil.rpcUrl),
    }).extend(publicActions);
    const refundTx = await key.writeContract({
      address: a.vault,
      abi: arcadeVaultAbi,
      functionName: 'refund',
      args: [[uuidToBytes16(playId)]],
    });
    await key.waitForTransactionReceipt({ hash: refundTx });
    expect(await a.watcher.runOnce()).toMatchObject({ locksEnded: 1 });
    expect(await findPlay(a.api.db, a.game.gameId, playId)).toMatchObject({ status: 'voided' });
    expect(await findPlayLock(a.api.db, playId)).toMatchObject({
      state: 'refunded',
      endTxHash: refundTx.toLowerCase(),
    });
    expect((await scoreOverHttp(a, playId, 1)).statusCode).toBe(409);
    expect(await chainAudit(a)).toMatchObject({ unexplained: '0', reconciled: true });
  });
});
