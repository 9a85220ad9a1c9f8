import { arcadeVaultAbi, bytes16ToUuid, uuidToBytes16 } from '@coinop/contracts';
import { withdrawalReserveTransfer, withdrawalSettleTransfer, type Clock } from '@coinop/core';
import { parseEventLogs, type Hex, type PublicClient } from 'viem';
import type { ChainConfig } from '../config.js';
import type { Checkpoint } from '../store/chain-checkpoints.js';
import {
  lockBatchWithdrawals,
  markSettled,
  requeueWithdrawal,
  type WithdrawalRecord,
} from '../store/chain-withdrawals.js';
import {
  lockSentBatch,
  sentBatches,
  settleBatchRecord,
  type BatchRecord,
} from '../store/chain-batches.js';
import type { Db, Queryable } from '../store/db.js';
import { applyTransfers } from '../store/ledger.js';
import { batchFate } from './operator-tx.js';
import { describeChainError } from './rpc.js';
import { withdrawalSettleId } from './withdrawal-ids.js';
import type { WatcherLog } from './watcher-log.js';

/**
 * The withdrawal sender's first step each round (docs/concepts/chain.md#the-sender): what became
 * of each batch recorded as sent. Once its receipt has the confirmations, the withdrawals it paid
 * (Withdrawn) or found paid (WithdrawalSkipped) are posted; a batch that reverted, or whose nonce
 * went to another transaction, puts its unpaid withdrawals back in the queue; one the chain never
 * saw is broadcast again, byte for byte (unless the vault is halted: nothing leaves then).
 */

/** A batch whose transaction reverted this many times fails its withdrawals for good. */
export const WITHDRAWAL_ATTEMPTS_MAX = 5;

export interface ConfirmerDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly chain: ChainConfig;
  readonly client: PublicClient;
  readonly broadcast: (rawTx: Hex) => Promise<void>;
  readonly log: () => WatcherLog | null;
}

export class WithdrawalConfirmer {
  readonly #deps: ConfirmerDeps;

  constructor(deps: ConfirmerDeps) {
    this.#deps = deps;
  }

  /**
   * What became of each batch recorded as sent. Returns what it settled and the HST of
   * batches not mined yet (they count against today's limit before the chain does).
   */
  async confirmSent(
    checkpoint: Checkpoint,
    options: { rebroadcast: boolean } = { rebroadcast: true },
  ): Promise<{ posted: number; requeued: number; unminedUnits: bigint }> {
    let posted = 0;
    let requeued = 0;
    let unminedUnits = 0n;
    const batches = await sentBatches(this.#deps.db, checkpoint);
    if (batches.length === 0) return { posted, requeued, unminedUnits };
    const head = await this.#deps.client.getBlockNumber({ cacheTime: 0 });
    const safeBlock = head - BigInt(this.#deps.chain.confirmations);
    for (const batch of batches) {
      const fate = await batchFate(this.#deps.client, batch);
      if (fate.kind === 'mined') {
        const { receipt } = fate;
        if (receipt.blockNumber > safeBlock) continue;
        if (receipt.status === 'success') {
          const events = parseEventLogs({
            abi: arcadeVaultAbi,
            logs: receipt.logs.filter(
              (l) => l.address.toLowerCase() === checkpoint.vaultAddress.toLowerCase(),
            ),
            eventName: ['Withdrawn', 'WithdrawalSkipped'],
          });
          const paid = new Set(events.map((e) => bytes16ToUuid(e.args.id)));
          const done = await this.#settleBatch(
            checkpoint,
            batch,
            'confirmed',
            receipt.blockNumber,
            paid,
          );
          posted += done.posted;
          requeued += done.requeued;
        } else {
          const paid = await this.#paidAt(batch, safeBlock);
          const done = await this.#settleBatch(
            checkpoint,
            batch,
            'reverted',
            receipt.blockNumber,
            paid,
          );
          posted += done.posted;
          requeued += done.requeued;
        }
        continue;
      }
      const amount = await this.#batchUnits(batch);
      if (fate.kind === 'pending') {
        unminedUnits += amount;
        continue;
      }
      if (fate.kind === 'unseen') {
        // The chain never heard of it (a crash between recording and broadcasting, or a node
        // that dropped it): the same bytes again, so the same hash.
        unminedUnits += amount;
        // Signed before a halt, it has not left: while the vault is halted, it waits recorded.
        if (!options.rebroadcast) continue;
        await this.#deps
          .broadcast(batch.rawTx)
          .catch((error: unknown) =>
            this.#deps
              .log()
              ?.warn(
                `withdrawal sender: broadcasting ${batch.txHash} again failed: ` +
                  describeChainError(error, this.#deps.chain.rpcUrl),
              ),
          );
        continue;
      }
      // Its nonce went to another transaction, so it can never be mined: what is paid is paid.
      const paidSafe = await this.#paidAt(batch, safeBlock);
      const paidNow = await this.#paidAt(batch, 'latest');
      if ([...paidNow].some((id) => !paidSafe.has(id))) continue;
      const done = await this.#settleBatch(checkpoint, batch, 'dropped', null, paidSafe);
      posted += done.posted;
      requeued += done.requeued;
    }
    return { posted, requeued, unminedUnits };
  }

  async #batchUnits(batch: BatchRecord): Promise<bigint> {
    const rows = await this.#deps.db.query<{ units: string }>(
      'SELECT COALESCE(sum(amount_units), 0)::text AS units FROM chain_withdrawals WHERE batch_id = $1',
      [batch.id],
    );
    return BigInt(rows[0]?.units ?? '0');
  }

  /** The ids of the batch the vault had paid at `block`. */
  async #paidAt(batch: BatchRecord, block: bigint | 'latest'): Promise<Set<string>> {
    const rows = await this.#deps.db.query<{ id: string }>(
      'SELECT id FROM chain_withdrawals WHERE batch_id = $1',
      [batch.id],
    );
    const paid = new Set<string>();
    for (const { id } of rows) {
      const isPaid = await this.#deps.client.readContract({
        address: this.#deps.chain.vaultAddress,
        abi: arcadeVaultAbi,
        functionName: 'isPaid',
        args: [uuidToBytes16(id)],
        ...(block === 'latest' ? { blockTag: 'latest' as const } : { blockNumber: block }),
      });
      if (isPaid) paid.add(id);
    }
    return paid;
  }

  /**
   * Settles a batch in one database transaction: its withdrawals in `paid` are posted, the others
   * go back to the queue (or fail after too many attempts), and the batch gets `status`.
   */
  async #settleBatch(
    checkpoint: Checkpoint,
    batch: BatchRecord,
    status: 'confirmed' | 'reverted' | 'dropped',
    blockNumber: bigint | null,
    paid: ReadonlySet<string>,
  ): Promise<{ posted: number; requeued: number }> {
    return this.#deps.db.transaction(async (tx) => {
      if (!(await lockSentBatch(tx, batch.id))) return { posted: 0, requeued: 0 };
      const now = this.#deps.clock.now();
      let posted = 0;
      let requeued = 0;
      for (const w of await lockBatchWithdrawals(tx, batch.id)) {
        if (w.status !== 'sent' || w.batchId !== batch.id) continue;
        if (paid.has(w.id)) {
          await settleWithdrawal(tx, checkpoint, w, 'post', null, now);
          posted += 1;
        } else if (w.attempts >= WITHDRAWAL_ATTEMPTS_MAX) {
          await settleWithdrawal(
            tx,
            checkpoint,
            w,
            'void',
            `not paid after ${w.attempts} transactions`,
            now,
          );
        } else {
          await requeueWithdrawal(tx, w.id, `transaction ${batch.txHash} ${status}`, now);
          requeued += 1;
        }
      }
      await settleBatchRecord(tx, batch.id, status, blockNumber, now);
      return { posted, requeued };
    });
  }
}

/** Posts or voids a withdrawal's reservation and marks it paid or failed (inside `tx`). */
export async function settleWithdrawal(
  tx: Queryable,
  checkpoint: Checkpoint,
  w: WithdrawalRecord,
  outcome: 'post' | 'void',
  why: string | null,
  now: Date,
): Promise<void> {
  const reserve = withdrawalReserveTransfer({
    id: w.id,
    accountId: w.accountId,
    vaultAccountId: checkpoint.accountId,
    amountUnits: w.amountUnits,
  });
  await applyTransfers(
    tx,
    [withdrawalSettleTransfer(reserve, outcome, withdrawalSettleId(w.id, outcome))],
    now,
  );
  await markSettled(tx, w.id, outcome === 'post' ? 'paid' : 'failed', why, now);
}
