import { randomUUID } from 'node:crypto';
import { reconciliationStale, type Clock, type Ids } from '@coinop/core';
import type { Hex, PrivateKeyAccount, PublicClient } from 'viem';
import type { ChainConfig } from '../config.js';
import {
  checkpointsOfVault,
  releaseLease,
  takeLease,
  type Checkpoint,
  type VaultKey,
} from '../store/chain-checkpoints.js';
import { openHaltOf } from '../store/chain-halts.js';
import { haltWaiting, reconciliationMaxAgeMs, unreconciledWaiting } from './halts.js';
import type { Db } from '../store/db.js';
import { PlaySettler, type PlayRound } from './play-settlements.js';
import { createChainClient, describeChainError } from './rpc.js';
import { databaseUnavailableIn } from '../store/errors.js';
import { Rounds } from './rounds.js';
import { WithdrawalConfirmer } from './withdrawal-confirmations.js';
import { WithdrawalQueueSender } from './withdrawal-sending.js';
import type { WatcherLog } from './watcher.js';

/**
 * The withdrawal sender (docs/concepts/chain.md): pays queued withdrawals from the vault with
 * the operator's key, in `withdrawBatch` transactions, exactly once across crashes.
 *
 * Each round, holding the vault's sender lease: (1) every batch recorded as sent is looked up on
 * the chain: once its receipt has the confirmations, the withdrawals it paid (Withdrawn) or
 * found paid (WithdrawalSkipped) are posted; a batch that reverted, or whose nonce went to
 * another transaction, puts its unpaid withdrawals back in the queue; one never seen by the chain
 * is broadcast again, byte for byte (withdrawal-confirmations.ts). (2) Queued withdrawals,
 * oldest first, are grouped into batches within the vault's limits, each simulated, then signed,
 * recorded with its nonce, hash and bytes, and only then broadcast (withdrawal-sending.ts). A
 * crash anywhere leaves either nothing recorded (the withdrawals are still queued) or a recorded
 * batch that step (1) resolves; the contract's skip of an id already paid makes any second send
 * harmless. While the vault is halted (docs/concepts/chain.md#halts) nothing is sent or broadcast
 * again: the queue waits.
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

export class WithdrawalSender {
  readonly #db: Db;
  readonly #clock: Clock;
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
  readonly #queue: WithdrawalQueueSender;
  /** Started: with no operator key it runs no rounds, but says why in its state. */
  #started = false;
  #waiting: string | null = null;
  #lastError: { message: string; at: Date } | null = null;

  constructor(deps: SenderDeps) {
    this.#db = deps.db;
    this.#clock = deps.clock;
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
    this.#queue = new WithdrawalQueueSender({
      db: deps.db,
      clock: deps.clock,
      ids: deps.ids,
      chain: deps.chain,
      client: this.#client,
      operator: deps.operator,
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
        // The database's outage is logged once for the process (listener/database-outages.ts).
        if (databaseUnavailableIn(error) !== null) return;
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
    // A halt and the last reconciliation are read here to skip the work, and again where each
    // transaction is recorded before it is broadcast, which is what guarantees nothing leaves
    // after a halt, or while nobody checks that the ledger and the vault agree.
    const halt = await openHaltOf(this.#db, checkpoint);
    const unreconciled = reconciliationStale(
      checkpoint.reconciledAt,
      this.#clock.now(),
      reconciliationMaxAgeMs(this.#chain),
    );
    const stoppedWhy = (what: string) =>
      halt
        ? haltWaiting(halt, what)
        : unreconciled
          ? unreconciledWaiting(checkpoint.reconciledAt, what)
          : null;
    const confirmed = await this.#confirmer.confirmSent(checkpoint, { rebroadcast: !halt });
    const stopped = stoppedWhy('withdrawals');
    const sent =
      stopped !== null
        ? await this.#queue.waitStopped(checkpoint, stopped)
        : await this.#queue.sendQueued(checkpoint, confirmed.unminedUnits);
    const plays = await this.#plays.round(checkpoint, this.#operator, {
      halt,
      stopped: stoppedWhy('plays locked on chain'),
    });
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
}
