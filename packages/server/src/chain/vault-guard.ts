import { arcadeVaultAbi } from '@coinop/contracts';
import { decideBacking, formatHst, type Clock, type Ids } from '@coinop/core';
import type { PublicClient } from 'viem';
import type { ChainConfig } from '../config.js';
import {
  lockCheckpoint,
  readCheckpoint,
  recordReconciliation,
  type Checkpoint,
  type VaultKey,
} from '../store/chain-checkpoints.js';
import { liftHalt, openHalt, openHaltOf } from '../store/chain-halts.js';
import type { Db } from '../store/db.js';
import { reconcileAtCheckpoint } from './reconciliation.js';
import { recordSurplusUpTo } from './surplus.js';
import type { WatcherLog } from './watcher-log.js';

/**
 * The chain watcher's guard over the vault (docs/concepts/chain.md#halts): each round it checks
 * the chain is the one the vault is watched on, records HST that reached the vault without a
 * deposit (surplus), and, every `reconcileIntervalMs`, reconciles the vault with the ledger. A
 * different chain or token, or a vault holding less than the ledger owes, halts every sender in
 * the database, where each sender reads it before it signs; a surplus never does. A halt the
 * operator resumed after a reorganisation is lifted here, once the chain is read again.
 */

export interface VaultGuardDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly chain: ChainConfig;
  readonly client: PublicClient;
  readonly log: () => WatcherLog | null;
}

export class VaultGuard {
  readonly #deps: VaultGuardDeps;
  /** The halt last logged, so each is logged once per process. */
  #loggedHaltId: string | null = null;

  constructor(deps: VaultGuardDeps) {
    this.#deps = deps;
  }

  /**
   * Whether the RPC still answers the chain id the vault is watched on, and the vault the token
   * recorded; if not, the senders are halted (`chain_mismatch`) and nothing is read.
   */
  async chainAsRecorded(checkpoint: Checkpoint): Promise<boolean> {
    const { client } = this.#deps;
    const chainId = await client.getChainId();
    let mismatch: string | null = null;
    if (chainId !== checkpoint.chainId) {
      mismatch = `the RPC answers chain ${chainId}, not chain ${checkpoint.chainId} the vault is watched on`;
    } else {
      const token = await client.readContract({
        address: this.#deps.chain.vaultAddress,
        abi: arcadeVaultAbi,
        functionName: 'token',
      });
      if (token.toLowerCase() !== checkpoint.tokenAddress.toLowerCase()) {
        mismatch = `the vault answers token ${token}, not ${checkpoint.tokenAddress} as recorded`;
      }
    }
    if (mismatch === null) return true;
    await this.#halt(checkpoint, { cause: 'chain_mismatch', detail: mismatch, blockNumber: null });
    return false;
  }

  /**
   * After a round that read the chain: records the surplus up to the checkpoint, then reconciles
   * when due, or at once while a resume waits for it (`caughtUp`: the round read up to the
   * confirmations).
   */
  async afterRound(
    key: VaultKey,
    round: { caughtUp: boolean; stopped: () => boolean },
  ): Promise<void> {
    const { db, clock, client, chain } = this.#deps;
    const surplus = await recordSurplusUpTo(db, clock, client, {
      key,
      rangeBlocksMax: chain.logRangeBlocksMax,
      stopped: round.stopped,
    });
    for (const t of surplus.recorded) {
      this.#deps
        .log()
        ?.warn(
          `chain watcher: ${formatHst(t.amountUnits)} HST reached the vault from ${t.fromAddress} ` +
            `without a deposit (${t.txHash}:${t.logIndex}): recorded as surplus, to credit, sweep ` +
            'or cover a shortfall with (coinop admin chain surplus)',
        );
    }
    const checkpoint = await readCheckpoint(db, key);
    if (!surplus.caughtUp || !checkpoint || checkpoint.blockNumber === null) return;
    const halt = await openHaltOf(db, key);
    const resuming = halt !== null && halt.resumeRequestedAt !== null;
    const due =
      checkpoint.reconciledAt === null ||
      clock.now().getTime() - checkpoint.reconciledAt.getTime() >= chain.reconcileIntervalMs;
    if (!due && !resuming) return;
    await this.#reconcile(checkpoint, round.caughtUp);
  }

  async #reconcile(checkpoint: Checkpoint, caughtUp: boolean) {
    const { db, clock, client, chain } = this.#deps;
    const reconciliation = await reconcileAtCheckpoint(db, chain, client);
    // The round checked the checkpoint's block; should the chain have replaced it since, the next
    // round finds the reorganisation and halts on it.
    if (!reconciliation.onChain) return;
    const { result } = reconciliation;
    const at = reconciliation.checkpoint.blockNumber ?? checkpoint.startBlock;
    const short = formatHst(result.shortfallUnits);
    // The findings say why; the one that only repeats the amount is left out.
    const why = reconciliation.wire.findings.filter(
      (finding) => finding !== `the vault holds ${short} HST less than the ledger accounts for`,
    );
    const shortfall = {
      cause: 'shortfall' as const,
      detail:
        `the vault holds ${short} HST less than the ledger owes at block ${at}` +
        (why.length > 0 ? `: ${why.join('; ')}` : ''),
      blockNumber: at,
      shortfallUnits: result.shortfallUnits,
    };
    // Decided under the checkpoint's lock, which a resume takes to record itself: a resume that
    // landed while the chain was read is seen here, so the shortfall it accepted is neither
    // overwritten nor halted on again.
    const lifted = await db.transaction(async (tx) => {
      const locked = await lockCheckpoint(tx, checkpoint);
      if (!locked) return null;
      const halt = await openHaltOf(tx, checkpoint);
      // A resume waiting on this reconciliation brings the shortfall it accepted, if any.
      const resuming = halt !== null && halt.resumeRequestedAt !== null;
      const decision = decideBacking({
        shortfallUnits: result.shortfallUnits,
        acceptedShortfallUnits: resuming
          ? (halt.acceptedShortfallUnits ?? 0n)
          : locked.acceptedShortfallUnits,
      });
      await recordReconciliation(
        tx,
        checkpoint,
        {
          blockNumber: at,
          unexplainedUnits: result.unexplainedUnits,
          acceptedShortfallUnits: decision.acceptedShortfallUnits,
        },
        clock.now(),
      );
      // The operator resumed after a reorganisation: the chain is read again, so the halt is
      // lifted if the vault backs the ledger, and becomes a shortfall halt in the same
      // transaction if not, so no sender finds the vault unhalted in between.
      const lifting = resuming && caughtUp && (await liftHalt(tx, halt.id, clock.now()));
      if (decision.halt) {
        await openHalt(tx, checkpoint, { id: this.#deps.ids.next(), ...shortfall }, clock.now());
      }
      return lifting && !decision.halt ? halt : null;
    });
    if (lifted) {
      this.#deps
        .log()
        ?.info(
          `chain watcher: the vault reconciles at block ${at} after the resume by ` +
            `${lifted.resumedBy}: withdrawals, settlements and refunds are sent again`,
        );
      return;
    }
    await this.#logHalt(checkpoint);
  }

  async #halt(
    checkpoint: Checkpoint,
    halt: { cause: 'chain_mismatch'; detail: string; blockNumber: bigint | null },
  ): Promise<void> {
    const { db, clock, ids } = this.#deps;
    await db.transaction((tx) =>
      openHalt(tx, checkpoint, { id: ids.next(), ...halt, shortfallUnits: null }, clock.now()),
    );
    await this.#logHalt(checkpoint);
  }

  /** Logs the vault's open halt, once per halt in this process. */
  async #logHalt(key: VaultKey): Promise<void> {
    const halt = await openHaltOf(this.#deps.db, key);
    if (!halt || halt.id === this.#loggedHaltId) return;
    this.#loggedHaltId = halt.id;
    this.#deps
      .log()
      ?.error(
        `chain watcher: the vault's senders are halted (${halt.cause}): ${halt.detail}. No ` +
          'withdrawal, settlement or refund is sent until an operator resumes them ' +
          '(coinop admin chain resume, docs/operating/chain.md)',
      );
  }
}
