import { arcadeVaultAbi, bytes16ToUuid, uuidToBytes16 } from '@coinop/contracts';
import {
  formatHst,
  nextWithdrawalBatch,
  oneWithdrawalLimitUnits,
  type Clock,
  type Ids,
} from '@coinop/core';
import {
  encodeFunctionData,
  getAddress,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
} from 'viem';
import type { ChainConfig } from '../config.js';
import type { Checkpoint } from '../store/chain-checkpoints.js';
import {
  BatchRaced,
  lockWithdrawal,
  noteQueuedError,
  queuedWithdrawals,
  recordBatch,
  type WithdrawalRecord,
} from '../store/chain-withdrawals.js';
import type { Db } from '../store/db.js';
import { reconciliationMaxAgeMs, refusedWaiting } from './halts.js';
import { signVaultCall, vaultRevert } from './operator-tx.js';
import { describeChainError } from './rpc.js';
import { settleWithdrawal } from './withdrawal-confirmations.js';
import type { WatcherLog } from './watcher-log.js';

/**
 * The withdrawal sender's second step each round (docs/concepts/chain.md#the-sender): queued
 * withdrawals, oldest first, grouped into batches within the vault's limits, each simulated, then
 * signed, recorded with its nonce, hash and bytes (unless the vault is halted), and only then
 * broadcast.
 */

/** Refusals by the vault that name one withdrawal and will not pass by waiting. */
const ITEM_REFUSALS = new Set(['WithdrawalAboveMax', 'InsufficientUnlockedBalance']);
/** Refusals that pass with time or an admin's action: the withdrawals wait. */
const WAIT_REFUSALS = {
  EnforcedPause: 'the vault is paused: withdrawals wait until it is unpaused',
  DailyWithdrawalLimitExceeded: "today's withdrawal limit of the vault is reached",
  AccessControlUnauthorizedAccount: 'the operator key does not hold OPERATOR_ROLE on the vault',
} as const;
const waitRefusal = (name: string): string | null =>
  Object.hasOwn(WAIT_REFUSALS, name) ? WAIT_REFUSALS[name as keyof typeof WAIT_REFUSALS] : null;

export interface QueueSenderDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly chain: ChainConfig;
  readonly client: PublicClient;
  readonly operator: PrivateKeyAccount | null;
  readonly broadcast: (rawTx: Hex) => Promise<void>;
  readonly log: () => WatcherLog | null;
}

export class WithdrawalQueueSender {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #chain: ChainConfig;
  readonly #client: PublicClient;
  readonly #operator: PrivateKeyAccount | null;
  readonly #broadcast: (rawTx: Hex) => Promise<void>;
  readonly #log: () => WatcherLog | null;

  constructor(deps: QueueSenderDeps) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#ids = deps.ids;
    this.#chain = deps.chain;
    this.#client = deps.client;
    this.#operator = deps.operator;
    this.#broadcast = deps.broadcast;
    this.#log = deps.log;
  }

  /**
   * Sends the queue in batches within the vault's limits. `unminedUnits` is HST sent
   * and not mined yet, which today's limit must leave room for.
   */
  async sendQueued(
    checkpoint: Checkpoint,
    unminedUnits = 0n,
  ): Promise<{ sent: number; failed: number; waiting: string | null }> {
    const operator = this.#operator;
    if (!operator) return { sent: 0, failed: 0, waiting: null };
    let sent = 0;
    let failed = 0;
    const batchMax = this.#chain.withdrawalBatchMax;
    const queue = await queuedWithdrawals(this.#db, checkpoint, batchMax * BATCHES_PER_ROUND_MAX);
    if (queue.length === 0) return { sent, failed, waiting: null };
    const [maxWithdrawal, dailyLimit, withdrawnToday, paused] = await this.#readVaultLimits();
    /** Notes on each withdrawal that waits (the whole queue by default) why it waits. */
    const waitWith = async (why: string, waiting: readonly { id: string }[] = queue) => {
      await noteQueuedError(
        this.#db,
        waiting.map((w) => w.id),
        why,
        this.#clock.now(),
      );
      return { sent, failed, waiting: why };
    };
    if (paused) return waitWith(WAIT_REFUSALS.EnforcedPause);
    let budget = dailyLimit - withdrawnToday - unminedUnits;
    let rest = [...queue];
    // Waiting for the next day's limit (`nextWithdrawalBatch` says which).
    let held: typeof queue = [];
    while (rest.length > 0) {
      const plan = nextWithdrawalBatch(rest, {
        maxWithdrawalUnits: oneWithdrawalLimitUnits(maxWithdrawal, dailyLimit),
        budgetUnits: budget,
        batchMax,
        now: this.#clock.now(),
      });
      for (const over of plan.overMax) {
        // A limit was lowered after the request was taken: refused for good. One above the
        // daily limit would never fit a day.
        await this.#fail(
          checkpoint,
          over,
          over.amountUnits > maxWithdrawal
            ? `over the vault's maxWithdrawal of ${formatHst(maxWithdrawal)} HST`
            : `over the vault's dailyWithdrawalLimit of ${formatHst(dailyLimit)} HST`,
        );
        failed += 1;
      }
      const { batch } = plan;
      held = [...held, ...plan.held];
      budget = plan.budgetUnits;
      rest = plan.rest;
      if (batch.length === 0) break;
      const outcome = await this.#sendBatch(checkpoint, operator, batch);
      if (outcome.kind === 'sent') {
        sent += batch.length;
      } else if (outcome.kind === 'refused') {
        await this.#fail(checkpoint, outcome.withdrawal, outcome.why);
        failed += 1;
        // The others, and those held against the budget they took, are tried again at once,
        // in the queue's order.
        const again = new Set(
          [...held, ...batch, ...rest].filter((w) => w.id !== outcome.withdrawal.id),
        );
        rest = queue.filter((w) => again.has(w));
        held = [];
        budget += batch.reduce((sum, w) => sum + w.amountUnits, 0n);
      } else {
        return waitWith(outcome.why, [...held, ...batch, ...rest]);
      }
    }
    if (held.length > 0) return waitWith(WAIT_REFUSALS.DailyWithdrawalLimitExceeded, held);
    return { sent, failed, waiting: null };
  }

  /** The vault's limits as they stand: `maxWithdrawal`, the daily limit, today's total, paused. */
  #readVaultLimits() {
    const vault = this.#chain.vaultAddress;
    const read = <F extends 'maxWithdrawal' | 'dailyWithdrawalLimit' | 'withdrawnToday' | 'paused'>(
      functionName: F,
    ) => this.#client.readContract({ address: vault, abi: arcadeVaultAbi, functionName });
    return Promise.all([
      read('maxWithdrawal'),
      read('dailyWithdrawalLimit'),
      read('withdrawnToday'),
      read('paused'),
    ]);
  }

  /**
   * The vault is halted or its reconciliation too old (`why`, from `haltWaiting` or
   * `unreconciledWaiting`): the queue stays queued, each withdrawal noting why.
   */
  async waitStopped(
    checkpoint: Checkpoint,
    why: string,
  ): Promise<{ sent: number; failed: number; waiting: string }> {
    const batchMax = this.#chain.withdrawalBatchMax;
    const queue = await queuedWithdrawals(this.#db, checkpoint, batchMax * BATCHES_PER_ROUND_MAX);
    await noteQueuedError(
      this.#db,
      queue.map((w) => w.id),
      why,
      this.#clock.now(),
    );
    return { sent: 0, failed: 0, waiting: why };
  }

  async #fail(checkpoint: Checkpoint, withdrawal: WithdrawalRecord, why: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const w = await lockWithdrawal(tx, withdrawal.id);
      if (!w || w.status !== 'queued') return;
      await settleWithdrawal(tx, checkpoint, w, 'void', why, this.#clock.now());
    });
    this.#log()?.warn(
      `withdrawal sender: withdrawal ${withdrawal.id} of ${formatHst(withdrawal.amountUnits)} HST ` +
        `is refused and its HST released: ${why}`,
    );
  }

  /** Simulates, signs, records and broadcasts one batch. */
  async #sendBatch(
    checkpoint: Checkpoint,
    operator: PrivateKeyAccount,
    batch: readonly WithdrawalRecord[],
  ): Promise<
    | { kind: 'sent' }
    | { kind: 'refused'; withdrawal: WithdrawalRecord; why: string }
    | { kind: 'wait'; why: string }
  > {
    const args = [
      batch.map((w) => ({
        id: uuidToBytes16(w.id),
        to: getAddress(w.toAddress),
        amount: w.amountUnits,
      })),
    ] as const;
    const vault = this.#chain.vaultAddress;
    try {
      await this.#client.simulateContract({
        address: vault,
        abi: arcadeVaultAbi,
        functionName: 'withdrawBatch',
        args,
        account: operator.address,
      });
    } catch (error) {
      const revert = vaultRevert(error);
      if (revert && ITEM_REFUSALS.has(revert.name) && typeof revert.args[0] === 'string') {
        const id = bytes16ToUuid(revert.args[0] as Hex);
        const withdrawal = batch.find((w) => w.id === id);
        if (withdrawal) {
          return { kind: 'refused', withdrawal, why: refusalText(revert.name, revert.args) };
        }
      }
      const wait = revert ? waitRefusal(revert.name) : null;
      if (wait) return { kind: 'wait', why: wait };
      throw error;
    }
    const data = encodeFunctionData({ abi: arcadeVaultAbi, functionName: 'withdrawBatch', args });
    const { nonce, rawTx, txHash } = await signVaultCall(
      this.#client,
      this.#db,
      operator,
      checkpoint,
      data,
    );
    try {
      await this.#db.transaction((tx) =>
        recordBatch(
          tx,
          {
            id: this.#ids.next(),
            chainId: checkpoint.chainId,
            vaultAddress: checkpoint.vaultAddress,
            fromAddress: operator.address,
            nonce: BigInt(nonce),
            txHash,
            rawTx,
          },
          batch.map((w) => w.id),
          this.#clock.now(),
          reconciliationMaxAgeMs(this.#chain),
        ),
      );
    } catch (error) {
      // Another sender took one of them (a lease lost mid-round): nothing recorded, nothing sent.
      if (error instanceof BatchRaced) return { kind: 'wait', why: 'another process is sending' };
      const why = refusedWaiting(error, 'withdrawals');
      if (why !== null) return { kind: 'wait', why };
      throw error;
    }
    // Recorded first: a failure from here on is resolved by the next round's step (1).
    await this.#broadcast(rawTx).catch((error: unknown) =>
      this.#log()?.warn(
        `withdrawal sender: broadcasting ${txHash} failed (it is tried again): ` +
          describeChainError(error, this.#chain.rpcUrl),
      ),
    );
    return { kind: 'sent' };
  }
}

/** How many batches one round sends at most, so a round ends and the lease is renewed. */
const BATCHES_PER_ROUND_MAX = 10;

function refusalText(name: string, args: readonly unknown[]): string {
  if (name === 'WithdrawalAboveMax') {
    return `over the vault's maxWithdrawal of ${formatHst(args[2] as bigint)} HST`;
  }
  return `the vault's unlocked balance (${formatHst(args[2] as bigint)} HST) is short of it`;
}
