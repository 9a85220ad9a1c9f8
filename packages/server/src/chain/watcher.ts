import { randomUUID } from 'node:crypto';
import { arcadeVaultAbi } from '@coinop/contracts';
import { formatHst, type Clock, type Ids } from '@coinop/core';
import type { WatcherLog } from './watcher-log.js';
import { getAddress, type Hex, type PublicClient } from 'viem';
import type { ChainConfig } from '../config.js';
import {
  ensureCheckpoint,
  readCheckpoint,
  recordError,
  recordHead,
  recordReorg,
  releaseLease,
  takeLease,
  type Checkpoint,
  type VaultKey,
} from '../store/chain-checkpoints.js';
import type { Db } from '../store/db.js';
import { CheckpointMoved, recordDepositRange } from './deposits.js';
import { logLockEnd } from './lock-ends.js';
import { closePlaysNearLockTimeout, readChainClock, type ChainClock } from './lock-timeouts.js';
import { createChainClient, describeChainError } from './rpc.js';
import { databaseUnavailableIn } from '../store/errors.js';
import { Rounds } from './rounds.js';
import { sortVaultLogs, withBlockTimes, type VaultEvents } from './vault-events.js';
import { VaultGuard } from './vault-guard.js';

// withdrawals.ts and the watcher's tests name it from here.
export type { WatcherLog };

/**
 * The chain watcher: credits each deposit into the vault once it has `confirmations` blocks on
 * top of it, exactly once (docs/concepts/chain.md).
 *
 * Each round reads the head, checks that the block at the checkpoint still has the hash recorded
 * (if not, the chain reorganised deeper than the confirmations: crediting stops and the status
 * says so), then reads the vault's Deposited events range by range up to head − confirmations and
 * records each range, its credits and the new checkpoint in one database transaction. Several
 * API processes may run a watcher on one database: a lease lets one read the chain, and the
 * checkpoint's row lock makes a second writer of the same range fail harmlessly anyway. The same
 * ranges open plays locked on chain (play-locks.ts) and bring the ledger to each end of a lock
 * (lock-ends.ts); after them, plays whose locks near the lock timeout close (lock-timeouts.ts).
 * Around each round its guard (vault-guard.ts) checks the chain is the vault's, records HST sent
 * without a deposit, and reconciles, halting every sender on a disagreement
 * (docs/concepts/chain.md#halts).
 */

/** What one round did. */
export type RoundResult =
  | {
      readonly outcome: 'scanned';
      readonly fromBlock: bigint;
      readonly toBlock: bigint;
      readonly headBlock: bigint;
      readonly credited: number;
      readonly held: number;
      /** Plays locked on chain: opened, and refused (to be refunded). */
      readonly playsOpened: number;
      readonly locksRefused: number;
      /** Locks that ended on chain other than by coinop's own batches, and plays closed. */
      readonly locksEnded: number;
      readonly playsClosed: number;
    }
  /** Nothing new is deep enough yet; `playsClosed` plays neared their lock timeout. */
  | { readonly outcome: 'up_to_date'; readonly headBlock: bigint; readonly playsClosed: number }
  /** Another process holds the lease, or recorded the range first. */
  | { readonly outcome: 'not_leader' }
  /** A reorganisation deeper than the confirmations was detected: nothing is credited. */
  | { readonly outcome: 'halted' }
  /** The node's head is below the checkpoint (a node still syncing, or behind a balancer). */
  | { readonly outcome: 'node_behind'; readonly headBlock: bigint };

/** What this process's watcher knows that the database does not. */
export interface WatcherState {
  readonly running: boolean;
  readonly chainId: number | null;
  readonly tokenAddress: string | null;
  /** The last failure of this process's watcher, if the last round failed. */
  readonly lastError: { readonly message: string; readonly at: Date } | null;
}

export interface WatcherDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly chain: ChainConfig;
  /** How long a play locked on chain stays open for its score (the arcade's play TTL). */
  readonly playTtlSeconds: number;
  /** The chain's client; one is made from `chain.rpcUrl` when absent. */
  readonly client?: PublicClient | undefined;
}

/** A lease outlives a few missed rounds, so a slow round does not hand the chain to another. */
const LEASE_MIN_MS = 30_000;
const LEASE_ROUNDS = 3;

export class DepositWatcher {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #chain: ChainConfig;
  readonly #playTtlSeconds: number;
  readonly #client: PublicClient;
  /** Who holds the lease: this watcher, whichever process it is in. */
  readonly #leaderId = randomUUID();
  #key: VaultKey | null = null;
  #tokenAddress: string | null = null;
  #lastError: { message: string; at: Date } | null = null;
  #haltLogged = false;
  #behindLogged = false;
  #startBlockWarned = false;
  #log: WatcherLog | null = null;
  /** A round failed on the chain's side since the last that succeeded. */
  #chainFailed = false;
  readonly #rounds: Rounds;
  /** The chain's identity, surplus and the vault's backing, checked around each round. */
  readonly #guard: VaultGuard;
  /** Set by `stop`: a long catch-up ends after the range in progress. */
  #stopRequested = false;

  constructor(deps: WatcherDeps) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#ids = deps.ids;
    this.#chain = deps.chain;
    this.#playTtlSeconds = deps.playTtlSeconds;
    this.#client = deps.client ?? createChainClient(deps.chain);
    this.#guard = new VaultGuard({ ...deps, client: this.#client, log: () => this.#log });
    this.#rounds = new Rounds({
      intervalMs: deps.chain.pollIntervalMs,
      retryMaxMs: deps.chain.retryMaxMs,
      round: async () => {
        const result = await this.runOnce();
        this.#lastError = null;
        this.#report(result);
      },
      recovered: (failures) => {
        if (this.#chainFailed) {
          this.#log?.info(`chain watcher: the chain answers again after ${failures} failures`);
        }
        this.#chainFailed = false;
      },
      failed: async (error, delayMs) => {
        // The database's outage is logged once for the process (listener/database-outages.ts).
        if (databaseUnavailableIn(error) !== null) return;
        this.#chainFailed = true;
        const message = describeChainError(error, this.#chain.rpcUrl);
        const at = this.#clock.now();
        this.#lastError = { message, at };
        this.#log?.warn(`chain watcher: ${message}; trying again in ${delayMs} ms`);
        if (this.#key) await recordError(this.#db, this.#key, message, at);
      },
    });
  }

  /** The vault's key once the chain has told its id; null before. */
  get key(): VaultKey | null {
    return this.#key;
  }

  get state(): WatcherState {
    return {
      running: this.#rounds.running,
      chainId: this.#key?.chainId ?? null,
      tokenAddress: this.#tokenAddress,
      lastError: this.#lastError,
    };
  }

  /**
   * Runs rounds every `pollIntervalMs` until `stop`, each after the last ends; after a failure,
   * waits twice as long each time, up to `retryMaxMs`. Failures are logged, never thrown.
   */
  start(log: WatcherLog): void {
    if (this.#rounds.running) return;
    this.#stopRequested = false;
    this.#log = log;
    this.#rounds.start();
  }

  /** Stops the rounds, waits for one in progress, and gives up the lease. */
  async stop(): Promise<void> {
    this.#stopRequested = true;
    await this.#rounds.stop();
    if (this.#key) await releaseLease(this.#db, this.#key, this.#leaderId).catch(() => undefined);
  }

  #report(result: RoundResult): void {
    if (result.outcome === 'scanned' && (result.credited > 0 || result.held > 0)) {
      this.#log?.info(
        `chain watcher: blocks ${result.fromBlock}-${result.toBlock}: ${result.credited} ` +
          `deposits credited, ${result.held} held`,
      );
    }
    if (result.outcome === 'scanned' && (result.playsOpened > 0 || result.locksRefused > 0)) {
      this.#log?.info(
        `chain watcher: blocks ${result.fromBlock}-${result.toBlock}: ${result.playsOpened} ` +
          `plays locked on chain opened, ${result.locksRefused} locks to refund`,
      );
    }
    if (result.outcome === 'node_behind' && !this.#behindLogged) {
      this.#behindLogged = true;
      this.#log?.warn(
        `chain watcher: the node's head (${result.headBlock}) is below the checkpoint; waiting ` +
          'for it to catch up',
      );
    }
    if (result.outcome !== 'node_behind') this.#behindLogged = false;
  }

  /**
   * One round: reads the chain up to head − confirmations and credits what it finds. Throws when
   * the chain or the database fails (nothing half-done stays: each range is one transaction).
   */
  async runOnce(): Promise<RoundResult> {
    const key = this.#key ?? (await this.#connect());
    const leaseMs = Math.max(LEASE_MIN_MS, LEASE_ROUNDS * this.#chain.pollIntervalMs);
    if (!(await takeLease(this.#db, key, this.#leaderId, leaseMs))) {
      return { outcome: 'not_leader' };
    }
    let checkpoint = await readCheckpoint(this.#db, key);
    if (!checkpoint) throw new TypeError(`the checkpoint of ${key.vaultAddress} vanished`);
    if (checkpoint.reorgDetectedAt !== null) return this.#halted(checkpoint);
    if (!(await this.#guard.chainAsRecorded(checkpoint))) return { outcome: 'halted' };

    const headBlock = await this.#client.getBlockNumber({ cacheTime: 0 });
    if (checkpoint.blockNumber !== null && checkpoint.blockNumber > headBlock) {
      await recordHead(this.#db, key, headBlock, this.#clock.now());
      return { outcome: 'node_behind', headBlock };
    }
    if (checkpoint.blockNumber !== null) {
      const block = await this.#client.getBlock({ blockNumber: checkpoint.blockNumber });
      if (block.hash !== checkpoint.blockHash) return this.#reorgAt(checkpoint, block.hash);
    }
    const safeBlock = headBlock - BigInt(this.#chain.confirmations);
    const next = (c: Checkpoint) => (c.blockNumber === null ? c.startBlock : c.blockNumber + 1n);
    const firstBlock = next(checkpoint);
    let credited = 0;
    let held = 0;
    let playsOpened = 0;
    let locksRefused = 0;
    let locksEnded = 0;
    // The chain's clock at the head, read once a round and only when a lock needs it.
    let clock: Promise<ChainClock> | null = null;
    const readClock = () =>
      (clock ??= readChainClock(this.#client, this.#chain.vaultAddress, headBlock));
    while (!this.#stopRequested) {
      const fromBlock = next(checkpoint);
      if (fromBlock > safeBlock) break;
      const toBlock = min(fromBlock + BigInt(this.#chain.logRangeBlocksMax) - 1n, safeBlock);
      const range = await this.#readRange(checkpoint, fromBlock, toBlock);
      if ('reorgFoundHash' in range) return this.#reorgAt(checkpoint, range.reorgFoundHash);
      const { deposits, ends } = range.events;
      const locks = await withBlockTimes(this.#client, range.events.locks);
      const chainClock = locks.length > 0 ? await readClock() : null;
      let recorded;
      try {
        recorded = await recordDepositRange(this.#db, this.#clock, {
          key,
          from: { blockNumber: checkpoint.blockNumber, blockHash: checkpoint.blockHash },
          to: { blockNumber: toBlock, blockHash: range.toHash },
          headBlock,
          events: deposits,
          locks: {
            events: locks,
            ends,
            playTtlSeconds: this.#playTtlSeconds,
            ids: this.#ids,
            chainClock,
          },
        });
      } catch (error) {
        if (error instanceof CheckpointMoved) return { outcome: 'not_leader' };
        throw error;
      }
      this.#logRecorded(recorded);
      locksEnded += recorded.lockEnds.length;
      credited += recorded.credited;
      held += recorded.held.length;
      playsOpened += recorded.locks.opened;
      locksRefused += recorded.locks.refused.length;
      checkpoint = { ...checkpoint, blockNumber: toBlock, blockHash: range.toHash };
    }
    // Plays whose locks near the vault's lock timeout close, so no score races a reclaim.
    const playsClosed = await closePlaysNearLockTimeout(this.#db, this.#log, {
      checkpoint,
      readClock,
      now: this.#clock.now(),
    });
    await this.#guard.afterRound(key, {
      caughtUp: !this.#stopRequested && next(checkpoint) > safeBlock,
      stopped: () => this.#stopRequested,
    });
    if (checkpoint.blockNumber !== null && checkpoint.blockNumber >= firstBlock) {
      const toBlock = checkpoint.blockNumber;
      return {
        outcome: 'scanned',
        fromBlock: firstBlock,
        toBlock,
        headBlock,
        credited,
        held,
        playsOpened,
        locksRefused,
        locksEnded,
        playsClosed,
      };
    }
    await recordHead(this.#db, key, headBlock, this.#clock.now());
    return { outcome: 'up_to_date', headBlock, playsClosed };
  }

  /** Tells the operator what a range recorded that needs them: held deposits, refused locks. */
  #logRecorded(recorded: Awaited<ReturnType<typeof recordDepositRange>>): void {
    for (const deposit of recorded.held) {
      this.#log?.warn(
        `chain watcher: deposit ${deposit.txHash}:${deposit.logIndex} of ` +
          `${formatHst(deposit.amountUnits)} HST to account ${deposit.accountId} is held ` +
          `(${deposit.reason}); credit it with coinop admin chain credit-held`,
      );
    }
    for (const { playId, reason } of recorded.locks.refused) {
      this.#log?.warn(
        `chain watcher: the lock of play ${playId} opens no play (${reason}); it is refunded`,
      );
    }
    for (const ended of recorded.lockEnds) logLockEnd(this.#log, 'chain watcher', ended);
  }

  /** Asks the chain its id and the vault its token, and finds or makes the checkpoint. */
  async #connect(): Promise<VaultKey> {
    const chainId = await this.#client.getChainId();
    const tokenAddress = await this.#client.readContract({
      address: this.#chain.vaultAddress,
      abi: arcadeVaultAbi,
      functionName: 'token',
    });
    const checkpoint = await ensureCheckpoint(this.#db, this.#clock, this.#ids, {
      chainId,
      vaultAddress: this.#chain.vaultAddress,
      tokenAddress,
      startBlock: this.#chain.startBlock,
    });
    if (checkpoint.startBlock !== this.#chain.startBlock && !this.#startBlockWarned) {
      this.#startBlockWarned = true;
      this.#log?.warn(
        `chain watcher: --chain-start-block ${this.#chain.startBlock} is ignored: this vault ` +
          `has been read since block ${checkpoint.startBlock}`,
      );
    }
    this.#tokenAddress = getAddress(tokenAddress);
    this.#key = { chainId, vaultAddress: this.#chain.vaultAddress };
    return this.#key;
  }

  /**
   * The vault's deposits in `fromBlock..toBlock`, read so that they are known to belong to one
   * chain with the checkpoint: the last block's hash is the same before and after the logs are
   * read, and the first block's parent is the checkpoint's block. A parent that is not means the
   * checkpoint's block was replaced: recorded as a reorganisation, and 'reorg' returned.
   */
  async #readRange(
    checkpoint: Checkpoint,
    fromBlock: bigint,
    toBlock: bigint,
  ): Promise<{ toHash: Hex; events: VaultEvents } | { reorgFoundHash: Hex }> {
    const before = await this.#client.getBlock({ blockNumber: toBlock });
    // All of the vault's events in one request; those the watcher records are kept.
    const logs = await this.#client.getContractEvents({
      address: this.#chain.vaultAddress,
      abi: arcadeVaultAbi,
      fromBlock,
      toBlock,
      strict: true,
    });
    const first = await this.#client.getBlock({ blockNumber: fromBlock });
    const after = await this.#client.getBlock({ blockNumber: toBlock });
    if (before.hash !== after.hash) {
      throw new Error(`block ${toBlock} changed while its range was read; reading it again`);
    }
    if (checkpoint.blockHash !== null && first.parentHash !== checkpoint.blockHash) {
      return { reorgFoundHash: first.parentHash };
    }
    const events = sortVaultLogs(logs, {
      fromBlock,
      toBlock,
      firstHash: first.hash,
      lastHash: after.hash,
    });
    return { toHash: after.hash, events };
  }

  /**
   * The chain has `foundHash` where the checkpoint recorded another block: records the halt
   * (unless another process moved the checkpoint meanwhile) and reports the stored state.
   */
  async #reorgAt(checkpoint: Checkpoint, foundHash: Hex): Promise<RoundResult> {
    if (checkpoint.blockNumber === null || checkpoint.blockHash === null) {
      throw new TypeError('a reorganisation below a checkpoint that has no block');
    }
    await recordReorg(
      this.#db,
      checkpoint,
      {
        blockNumber: checkpoint.blockNumber,
        blockHash: checkpoint.blockHash,
        foundHash,
        haltId: this.#ids.next(),
      },
      this.#clock.now(),
    );
    const now = await readCheckpoint(this.#db, checkpoint);
    return now?.reorgDetectedAt ? this.#halted(now) : { outcome: 'not_leader' };
  }

  #halted(checkpoint: Checkpoint): RoundResult {
    if (!this.#haltLogged) {
      this.#haltLogged = true;
      this.#log?.error(
        `chain watcher: block ${checkpoint.blockNumber} was recorded with hash ` +
          `${checkpoint.blockHash} and the chain now has ${checkpoint.reorgFoundHash} there: a ` +
          `reorganisation deeper than the ${this.#chain.confirmations} confirmations. No deposit ` +
          'is credited until an operator has looked (docs/concepts/chain.md)',
      );
    }
    return { outcome: 'halted' };
  }
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
