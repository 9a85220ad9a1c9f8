import { arcadeVaultAbi, bytes16ToUuid, uuidToBytes16 } from '@coinop/contracts';
import { settlePendingTransfer, type Clock, type Ids, type TransferRequest } from '@coinop/core';
import { v5 as uuidv5 } from 'uuid';
import {
  encodeFunctionData,
  getAddress,
  parseEventLogs,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
} from 'viem';
import type { ChainConfig } from '../config.js';
import type { Checkpoint } from '../store/chain-checkpoints.js';
import {
  chainPayouts,
  dueLocks,
  lockBatchPlayLocks,
  markLockDone,
  markLocksSent,
  markVoidedLocksDue,
  requeueLock,
  type ChainPayout,
  type DueLock,
} from '../store/chain-play-locks.js';
import { BatchRaced } from '../store/chain-withdrawals.js';
import {
  insertOperatorBatch,
  lockSentBatch,
  sentBatches,
  settleBatchRecord,
  type BatchRecord,
} from '../store/chain-batches.js';
import type { Db } from '../store/db.js';
import type { HaltRecord } from '../store/chain-halts.js';
import { haltWaiting, reconciliationMaxAgeMs, refusedWaiting } from './halts.js';
import { applyTransfers } from '../store/ledger.js';
import { applyLockEnd, logLockEnd, type LockEndRecorded } from './lock-ends.js';
import { batchFate, signVaultCall, vaultRevert } from './operator-tx.js';
import { describeChainError } from './rpc.js';
import type { WatcherLog } from './watcher-log.js';

/**
 * Plays locked on chain, paid out or returned by the operator (docs/concepts/chain.md). Each
 * round of the sender, after the withdrawals: (1) every settleBatch or refund transaction recorded
 * as sent is looked up; once confirmed, each play's payout reservations are posted (settled),
 * each refunded lock is marked so, and a play the vault found reclaimed by its player (or closed
 * by another) is brought to that end in the ledger (`applyLockEnd`); one not
 * mined is broadcast again or, if its nonce went elsewhere, its plays go back to the work.
 * (2) Plays whose lock is due — scored or expired plays to settle, voided plays and locks that
 * opened no play to refund — are sent in batches, recorded before they are broadcast. The vault
 * skips a play already settled or refunded, so a second send is harmless.
 */

/** The vault's PlayState enum, as SettlementSkipped and RefundSkipped report it. */
const PLAY_STATE = { settled: 2, refunded: 3, reclaimed: 4 } as const;

/** The namespace of the ids of the transfers that post or void a chain payout (fixed forever). */
const CHAIN_PAYOUT_NAMESPACE = '0b8f4a52-5d0c-4c4e-a2a1-7f3e9d61c0b4';

/** Plays per settleBatch or refund transaction. */
const PLAYS_PER_BATCH = 50;
const BATCHES_PER_ROUND_MAX = 10;

export interface PlaySettlerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly chain: ChainConfig;
  readonly client: PublicClient;
  readonly broadcast: (rawTx: Hex) => Promise<void>;
  readonly log: () => WatcherLog | null;
}

export interface PlayRound {
  readonly settled: number;
  readonly refunded: number;
  readonly sent: number;
  /** Why due plays wait (the vault paused), if they do. */
  readonly waiting: string | null;
}

export class PlaySettler {
  readonly #deps: PlaySettlerDeps;

  constructor(deps: PlaySettlerDeps) {
    this.#deps = deps;
  }

  /**
   * Resolves the transactions sent, then sends what is due. While the vault is halted (`halt`)
   * nothing is sent or broadcast again; while it is stopped for another reason (`stopped`: its
   * reconciliation too old) nothing new is sent. What is due waits, saying why.
   */
  async round(
    checkpoint: Checkpoint,
    operator: PrivateKeyAccount,
    stop: { halt: HaltRecord | null; stopped: string | null } = { halt: null, stopped: null },
  ): Promise<PlayRound> {
    const done = await this.confirmSent(checkpoint, { rebroadcast: !stop.halt });
    const why = stop.halt ? haltWaiting(stop.halt, 'plays locked on chain') : stop.stopped;
    const sent =
      why !== null ? { sent: 0, waiting: why } : await this.sendDue(checkpoint, operator);
    return { ...done, ...sent };
  }

  /** Step (1). */
  async confirmSent(
    checkpoint: Checkpoint,
    options: { rebroadcast: boolean } = { rebroadcast: true },
  ): Promise<{ settled: number; refunded: number }> {
    const { client, chain } = this.#deps;
    let settled = 0;
    let refunded = 0;
    const batches = await sentBatches(this.#deps.db, checkpoint, ['settle', 'refund']);
    if (batches.length === 0) return { settled, refunded };
    const head = await client.getBlockNumber({ cacheTime: 0 });
    const safeBlock = head - BigInt(chain.confirmations);
    for (const batch of batches) {
      const fate = await batchFate(client, batch);
      if (fate.kind === 'pending') continue;
      if (fate.kind === 'unseen') {
        // Signed before a halt, it has not left: while the vault is halted, it waits recorded.
        if (!options.rebroadcast) continue;
        await this.#deps
          .broadcast(batch.rawTx)
          .catch((error: unknown) =>
            this.#deps
              .log()
              ?.warn(
                `play settler: broadcasting ${batch.txHash} again failed: ` +
                  describeChainError(error, chain.rpcUrl),
              ),
          );
        continue;
      }
      if (fate.kind === 'dropped') {
        await this.#resolve(checkpoint, batch, 'dropped', null, new Map());
        continue;
      }
      const { receipt } = fate;
      if (receipt.blockNumber > safeBlock) continue;
      if (receipt.status !== 'success') {
        await this.#resolve(checkpoint, batch, 'reverted', receipt.blockNumber, new Map());
        continue;
      }
      const events = parseEventLogs({
        abi: arcadeVaultAbi,
        logs: receipt.logs.filter(
          (l) => l.address.toLowerCase() === checkpoint.vaultAddress.toLowerCase(),
        ),
        eventName: ['PlaySettled', 'SettlementSkipped', 'PlayRefunded', 'RefundSkipped'],
      });
      const ends = new Map<string, 'settled' | 'refunded' | 'reclaimed'>();
      for (const event of events) {
        const playId = bytes16ToUuid(event.args.playId);
        if (event.eventName === 'PlaySettled') ends.set(playId, 'settled');
        else if (event.eventName === 'PlayRefunded') ends.set(playId, 'refunded');
        else ends.set(playId, endOfSkipped(event.args.state));
      }
      const counts = await this.#resolve(checkpoint, batch, 'confirmed', receipt.blockNumber, ends);
      settled += counts.settled;
      refunded += counts.refunded;
    }
    return { settled, refunded };
  }

  /**
   * Settles a batch in one database transaction: each of its plays that `ends` names is closed
   * (its payouts posted when the vault paid them, voided when it did not); the others go back to
   * the work.
   */
  async #resolve(
    checkpoint: Checkpoint,
    batch: BatchRecord,
    status: 'confirmed' | 'reverted' | 'dropped',
    blockNumber: bigint | null,
    ends: ReadonlyMap<string, 'settled' | 'refunded' | 'reclaimed'>,
  ): Promise<{ settled: number; refunded: number }> {
    const { db, clock } = this.#deps;
    const counts = await db.transaction(async (tx) => {
      if (!(await lockSentBatch(tx, batch.id))) return { settled: 0, refunded: 0, ended: [] };
      const now = clock.now();
      const locks = (await lockBatchPlayLocks(tx, batch.id)).filter((l) => l.state === 'sent');
      const payouts = await chainPayouts(
        tx,
        locks.map((l) => l.playId),
      );
      let settled = 0;
      let refunded = 0;
      const ended: LockEndRecorded[] = [];
      const transfers: TransferRequest[] = [];
      for (const lock of locks) {
        const end = ends.get(lock.playId);
        if (end === undefined) {
          await requeueLock(tx, lock.playId, now);
          continue;
        }
        if (end !== 'settled') {
          // Refunded, or found reclaimed by its player (or refunded by another) before this
          // batch: the ledger follows the vault, undoing a settlement the vault did not pay.
          const outcome = await applyLockEnd(tx, {
            playId: lock.playId,
            end,
            at: null,
            vaultAccountId: checkpoint.accountId,
            now,
          });
          const foreign = end === 'refunded' && batch.kind === 'settle';
          if (outcome.kind !== 'closed' || foreign || end === 'reclaimed') {
            ended.push({ playId: lock.playId, end, txHash: null, foreign, outcome });
          }
          refunded += 1;
          continue;
        }
        // A play's payouts are reserved only if it was settled in the ledger (scored or expired);
        // a payee without a wallet was paid to the vault: their share stays theirs.
        const reserved = payouts.filter((p) => p.playId === lock.playId);
        transfers.push(
          ...reserved.map((p) =>
            payoutSettlement(p, checkpoint, p.wallet !== null ? 'post' : 'void'),
          ),
        );
        await markLockDone(tx, lock.playId, end, now);
        settled += 1;
      }
      if (transfers.length > 0) await applyTransfers(tx, transfers, now);
      await settleBatchRecord(tx, batch.id, status, blockNumber, now);
      return { settled, refunded, ended };
    });
    for (const ended of counts.ended) logLockEnd(this.#deps.log(), 'play settler', ended);
    return { settled: counts.settled, refunded: counts.refunded };
  }

  /** Step (2). */
  async sendDue(
    checkpoint: Checkpoint,
    operator: PrivateKeyAccount,
  ): Promise<{ sent: number; waiting: string | null }> {
    const due = await dueLocks(this.#deps.db, checkpoint, PLAYS_PER_BATCH * BATCHES_PER_ROUND_MAX);
    let sent = 0;
    for (const action of ['settle', 'refund'] as const) {
      const plays = due.filter((d) => d.action === action);
      for (let i = 0; i < plays.length; i += PLAYS_PER_BATCH) {
        const batch = plays.slice(i, i + PLAYS_PER_BATCH);
        const outcome = await this.#send(checkpoint, operator, action, batch);
        if (outcome !== null) return { sent, waiting: outcome };
        sent += batch.length;
      }
    }
    return { sent, waiting: null };
  }

  /** Simulates, signs, records and broadcasts one batch; a reason to wait, or null when sent. */
  async #send(
    checkpoint: Checkpoint,
    operator: PrivateKeyAccount,
    action: 'settle' | 'refund',
    plays: readonly DueLock[],
  ): Promise<string | null> {
    const { db, client, clock, ids } = this.#deps;
    const vault = getAddress(checkpoint.vaultAddress);
    const data =
      action === 'settle'
        ? encodeFunctionData({
            abi: arcadeVaultAbi,
            functionName: 'settleBatch',
            args: [await this.#settlements(checkpoint, plays)],
          })
        : encodeFunctionData({
            abi: arcadeVaultAbi,
            functionName: 'refund',
            args: [plays.map((p) => uuidToBytes16(p.playId))],
          });
    try {
      await client.call({ account: operator.address, to: vault, data });
    } catch (error) {
      if (vaultRevert(error)?.name === 'EnforcedPause') {
        return 'the vault is paused: plays locked on chain are settled once it is unpaused';
      }
      throw error;
    }
    const signed = await signVaultCall(client, db, operator, checkpoint, data);
    try {
      await db.transaction(async (tx) => {
        const now = clock.now();
        const batchId = ids.next();
        await insertOperatorBatch(
          tx,
          {
            id: batchId,
            chainId: checkpoint.chainId,
            vaultAddress: checkpoint.vaultAddress,
            fromAddress: operator.address,
            nonce: BigInt(signed.nonce),
            txHash: signed.txHash,
            rawTx: signed.rawTx,
          },
          action,
          now,
          reconciliationMaxAgeMs(this.#deps.chain),
        );
        const playIds = plays.map((p) => p.playId);
        if (action === 'refund') await markVoidedLocksDue(tx, playIds, now);
        if (!(await markLocksSent(tx, playIds, { id: batchId, txHash: signed.txHash }, now))) {
          throw new BatchRaced();
        }
      });
    } catch (error) {
      if (error instanceof BatchRaced) return 'another process is sending';
      const why = refusedWaiting(error, 'plays locked on chain');
      if (why !== null) return why;
      throw error;
    }
    await this.#deps
      .broadcast(signed.rawTx)
      .catch((error: unknown) =>
        this.#deps
          .log()
          ?.warn(
            `play settler: broadcasting ${signed.txHash} failed (it is tried again): ` +
              describeChainError(error, this.#deps.chain.rpcUrl),
          ),
      );
    return null;
  }

  /**
   * Each play's payouts as the vault pays them: every reserved share to its payee's wallet, and
   * what is not reserved (the arcade's share, and the share of a payee without a wallet) to the
   * vault itself, where it stays on the ledger accounts that hold it.
   */
  async #settlements(checkpoint: Checkpoint, plays: readonly DueLock[]) {
    const payouts = await chainPayouts(
      this.#deps.db,
      plays.map((p) => p.playId),
    );
    const vault = getAddress(checkpoint.vaultAddress);
    return plays.map((play) => {
      const byWallet = new Map<Hex, bigint>();
      let paid = 0n;
      for (const p of payouts) {
        if (p.playId !== play.playId || p.wallet === null) continue;
        const to = getAddress(p.wallet);
        byWallet.set(to, (byWallet.get(to) ?? 0n) + p.amountUnits);
        paid += p.amountUnits;
      }
      const kept = play.lockedUnits - paid;
      if (kept > 0n) byWallet.set(vault, (byWallet.get(vault) ?? 0n) + kept);
      return {
        playId: uuidToBytes16(play.playId),
        payouts: [...byWallet].map(([to, amount]) => ({ to, amount })),
      };
    });
  }
}

/** The transfer that posts (the vault paid it) or voids a play's payout reservation. */
function payoutSettlement(
  payout: ChainPayout,
  checkpoint: Checkpoint,
  outcome: 'post' | 'void',
): TransferRequest {
  return settlePendingTransfer(
    {
      id: payout.transferId,
      kind: 'pending',
      debitAccountId: payout.accountId,
      creditAccountId: checkpoint.accountId,
      amount: payout.amountUnits,
      pendingId: null,
      reason: 'chain_payout',
      playId: payout.playId,
    },
    outcome,
    uuidv5(`${payout.transferId.toLowerCase()}:${outcome}`, CHAIN_PAYOUT_NAMESPACE),
  );
}

function endOfSkipped(state: number): 'settled' | 'refunded' | 'reclaimed' {
  if (state === PLAY_STATE.settled) return 'settled';
  if (state === PLAY_STATE.refunded) return 'refunded';
  return 'reclaimed';
}
