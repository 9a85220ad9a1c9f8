import { randomUUID } from 'node:crypto';
import { arcadeVaultAbi, bytes16ToUuid, uuidToBytes16 } from '@coinop/contracts';
import { formatHst, type Clock, type Ids } from '@coinop/core';
import {
  encodeFunctionData,
  getAddress,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
} from 'viem';
import type { ChainConfig } from '../config.js';
import {
  checkpointsOfVault,
  releaseLease,
  takeLease,
  type Checkpoint,
  type VaultKey,
} from '../store/chain-checkpoints.js';
import {
  BatchRaced,
  lockWithdrawal,
  noteQueuedError,
  queuedWithdrawals,
  recordBatch,
  type WithdrawalRecord,
} from '../store/chain-withdrawals.js';
import type { Db } from '../store/db.js';
import { signVaultCall, vaultRevert } from './operator-tx.js';
import { PlaySettler, type PlayRound } from './play-settlements.js';
import { createChainClient, describeChainError } from './rpc.js';
import { Rounds } from './rounds.js';
import { settleWithdrawal, WithdrawalConfirmer } from './withdrawal-confirmations.js';
import type { WatcherLog } from './watcher.js';

/**
 * The withdrawal sender (docs/concepts/chain.md): pays queued withdrawals from the vault with
 * the operator's key, in `withdrawBatch` transactions, exactly once across crashes.
 *
 * Each round, holding the vault's sender lease: (1) every batch recorded as sent is looked up on
 * the chain: once its receipt has the confirmations, the withdrawals it paid (Withdrawn) or
 * found paid (WithdrawalSkipped) are posted; a batch that reverted, or whose nonce went to
 * another transaction, puts its unpaid withdrawals back in the queue; one never seen by the chain
 * is broadcast again, byte for byte. (2) Queued withdrawals, oldest first, are grouped into
 * batches within the vault's limits, each simulated, then signed, recorded with its nonce, hash
 * and bytes, and only then broadcast. A crash anywhere leaves either nothing recorded (the
 * withdrawals are still queued) or a recorded batch that step (1) resolves; the contract's
 * skip of an id already paid makes any second send harmless.
 */

/** What one round did. */
export interface SenderRound {
  readonly outcome: 'done' | 'not_leader' | 'not_ready' | 'no_operator_key';
  readonly posted: number;
  readonly requeued: number;
  readonly failed: number;
  readonly sent: number;
  /** Why queued withdrawals wait (the vault paused, today's limit reached), if they do. */
  readonly waiting: string | null;
  /** Plays locked on chain: paid out, returned, and sent in a transaction this round. */
  readonly plays: PlayRound;
}

export interface SenderState {
  readonly running: boolean;
  readonly operatorAddress: string | null;
  readonly waiting: string | null;
  readonly lastError: { readonly message: string; readonly at: Date } | null;
}

export interface SenderDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly chain: ChainConfig;
  /** The operator's key; null: withdrawals are accepted and queued, not sent. */
  readonly operator: PrivateKeyAccount | null;
  readonly client?: PublicClient | undefined;
  /** Broadcasts a signed transaction; tests replace it to crash before the chain hears of it. */
  readonly broadcast?: ((rawTx: Hex) => Promise<void>) | undefined;
}

const LEASE_MIN_MS = 30_000;
const LEASE_ROUNDS = 3;

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

export class WithdrawalSender {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #chain: ChainConfig;
  readonly #client: PublicClient;
  readonly #operator: PrivateKeyAccount | null;
  readonly #broadcast: (rawTx: Hex) => Promise<void>;
  readonly #leaderId = randomUUID();
  #key: VaultKey | null = null;
  #log: WatcherLog | null = null;
  readonly #rounds: Rounds;
  readonly #plays: PlaySettler;
  readonly #confirmer: WithdrawalConfirmer;
  /** Started: with no operator key it runs no rounds, but says why in its state. */
  #started = false;
  #waiting: string | null = null;
  #lastError: { message: string; at: Date } | null = null;

  constructor(deps: SenderDeps) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#ids = deps.ids;
    this.#chain = deps.chain;
    this.#operator = deps.operator;
    this.#client = deps.client ?? createChainClient(deps.chain);
    this.#broadcast =
      deps.broadcast ??
      (async (rawTx) => {
        await this.#client.sendRawTransaction({ serializedTransaction: rawTx });
      });
    this.#confirmer = new WithdrawalConfirmer({
      db: deps.db,
      clock: deps.clock,
      chain: deps.chain,
      client: this.#client,
      broadcast: this.#broadcast,
      log: () => this.#log,
    });
    this.#plays = new PlaySettler({
      db: deps.db,
      clock: deps.clock,
      ids: deps.ids,
      chain: deps.chain,
      client: this.#client,
      broadcast: this.#broadcast,
      log: () => this.#log,
    });
    this.#rounds = new Rounds({
      intervalMs: deps.chain.pollIntervalMs,
      retryMaxMs: deps.chain.retryMaxMs,
      round: async () => {
        const round = await this.runOnce();
        this.#lastError = null;
        if (round.posted + round.requeued + round.failed + round.sent > 0) {
          this.#log?.info(
            `withdrawal sender: ${round.sent} sent, ${round.posted} paid, ${round.failed} ` +
              `refused, ${round.requeued} queued again`,
          );
        }
        const { plays } = round;
        if (plays.sent + plays.settled + plays.refunded > 0) {
          this.#log?.info(
            `play settler: ${plays.sent} plays locked on chain sent, ${plays.settled} paid out, ` +
              `${plays.refunded} returned`,
          );
        }
      },
      failed: (error, delayMs) => {
        const message = describeChainError(error, this.#chain.rpcUrl);
        this.#lastError = { message, at: this.#clock.now() };
        this.#log?.warn(`withdrawal sender: ${message}; trying again in ${delayMs} ms`);
      },
    });
  }

  get state(): SenderState {
    return {
      running: this.#started,
      operatorAddress: this.#operator?.address ?? null,
      waiting: this.#operator ? this.#waiting : 'no operator key: withdrawals are queued, not sent',
      lastError: this.#lastError,
    };
  }

  start(log: WatcherLog): void {
    if (this.#started) return;
    this.#started = true;
    this.#log = log;
    if (!this.#operator) {
      log.warn(
        'withdrawal sender: no operator key (--chain-operator-key-file): withdrawals are queued, not sent',
      );
      return;
    }
    this.#rounds.start();
  }

  async stop(): Promise<void> {
    this.#started = false;
    await this.#rounds.stop();
    if (this.#key) {
      await releaseLease(this.#db, this.#key, this.#leaderId, 'sender').catch(() => undefined);
    }
  }

  /** One round: resolves the batches sent, then sends the queue. Throws when the chain fails. */
  async runOnce(): Promise<SenderRound> {
    const idle = {
      posted: 0,
      requeued: 0,
      failed: 0,
      sent: 0,
      waiting: null,
      plays: { settled: 0, refunded: 0, sent: 0, waiting: null },
    };
    if (!this.#operator) return { outcome: 'no_operator_key', ...idle };
    const checkpoint = await this.#checkpoint();
    if (!checkpoint) return { outcome: 'not_ready', ...idle };
    const leaseMs = Math.max(LEASE_MIN_MS, LEASE_ROUNDS * this.#chain.pollIntervalMs);
    if (!(await takeLease(this.#db, checkpoint, this.#leaderId, leaseMs, 'sender'))) {
      return { outcome: 'not_leader', ...idle };
    }
    const confirmed = await this.#confirmer.confirmSent(checkpoint);
    const sent = await this.sendQueued(checkpoint, confirmed.unminedUnits);
    const plays = await this.#plays.round(checkpoint, this.#operator);
    this.#waiting = sent.waiting ?? plays.waiting;
    return {
      outcome: 'done',
      posted: confirmed.posted,
      requeued: confirmed.requeued,
      failed: sent.failed,
      sent: sent.sent,
      waiting: sent.waiting,
      plays,
    };
  }

  async #checkpoint(): Promise<Checkpoint | null> {
    const chainId = this.#key?.chainId ?? (await this.#client.getChainId());
    const checkpoint = (await checkpointsOfVault(this.#db, this.#chain.vaultAddress)).find(
      (c) => c.chainId === chainId,
    );
    if (checkpoint) this.#key = { chainId, vaultAddress: checkpoint.vaultAddress };
    return checkpoint ?? null;
  }

  /**
   * Step (2): sends the queue in batches within the vault's limits. `unminedUnits` is HST sent
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
    const vault = this.#chain.vaultAddress;
    const read = <F extends 'maxWithdrawal' | 'dailyWithdrawalLimit' | 'withdrawnToday' | 'paused'>(
      functionName: F,
    ) => this.#client.readContract({ address: vault, abi: arcadeVaultAbi, functionName });
    const [maxWithdrawal, dailyLimit, withdrawnToday, paused] = await Promise.all([
      read('maxWithdrawal'),
      read('dailyWithdrawalLimit'),
      read('withdrawnToday'),
      read('paused'),
    ]);
    const waitWith = async (why: string) => {
      await noteQueuedError(
        this.#db,
        queue.map((w) => w.id),
        why,
        this.#clock.now(),
      );
      return { sent, failed, waiting: why };
    };
    if (paused) return waitWith(WAIT_REFUSALS.EnforcedPause);
    let budget = dailyLimit - withdrawnToday - unminedUnits;
    let rest = [...queue];
    let waiting: string | null = null;
    while (rest.length > 0) {
      const batch: WithdrawalRecord[] = [];
      for (let next = rest[0]; next !== undefined && batch.length < batchMax; next = rest[0]) {
        if (next.amountUnits > maxWithdrawal) {
          // The limit was lowered after the request was taken: refused for good.
          await this.#fail(
            checkpoint,
            next,
            `over the vault's maxWithdrawal of ${formatHst(maxWithdrawal)} HST`,
          );
          failed += 1;
          rest.shift();
          continue;
        }
        if (next.amountUnits > budget) break;
        budget -= next.amountUnits;
        batch.push(next);
        rest.shift();
      }
      if (batch.length === 0) {
        // Oldest first: a withdrawal that does not fit today's limit holds the ones after it.
        waiting = WAIT_REFUSALS.DailyWithdrawalLimitExceeded;
        await noteQueuedError(
          this.#db,
          rest.map((w) => w.id),
          waiting,
          this.#clock.now(),
        );
        break;
      }
      const outcome = await this.#sendBatch(checkpoint, operator, batch);
      if (outcome.kind === 'sent') {
        sent += batch.length;
      } else if (outcome.kind === 'refused') {
        await this.#fail(checkpoint, outcome.withdrawal, outcome.why);
        failed += 1;
        // The others go back to the front of the queue and are tried again at once.
        rest = [...batch.filter((w) => w.id !== outcome.withdrawal.id), ...rest];
        budget += batch.reduce((sum, w) => sum + w.amountUnits, 0n);
      } else {
        waiting = outcome.why;
        await noteQueuedError(
          this.#db,
          [...batch, ...rest].map((w) => w.id),
          waiting,
          this.#clock.now(),
        );
        break;
      }
    }
    return { sent, failed, waiting };
  }

  async #fail(checkpoint: Checkpoint, withdrawal: WithdrawalRecord, why: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const w = await lockWithdrawal(tx, withdrawal.id);
      if (!w || w.status !== 'queued') return;
      await settleWithdrawal(tx, checkpoint, w, 'void', why, this.#clock.now());
    });
    this.#log?.warn(
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
        ),
      );
    } catch (error) {
      // Another sender took one of them (a lease lost mid-round): nothing recorded, nothing sent.
      if (error instanceof BatchRaced) return { kind: 'wait', why: 'another process is sending' };
      throw error;
    }
    // Recorded first: a failure from here on is resolved by the next round's step (1).
    await this.#broadcast(rawTx).catch((error: unknown) =>
      this.#log?.warn(
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
