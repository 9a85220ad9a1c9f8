import type { ChainConfig } from '../config.js';
import { checkpointsOfVault, type Checkpoint } from '../store/chain-checkpoints.js';
import {
  listPlayLocks,
  type PlayLockRecord,
  type PlayLockState,
} from '../store/chain-play-locks.js';
import { listDeposits, type DepositRecord, type DepositStatus } from '../store/chain-deposits.js';
import { creditHeldDeposit } from '../chain/deposits.js';
import { chainStatus, type ChainStatusWire } from '../chain/status.js';
import { haltsOfVault, type HaltWire } from '../chain/halts.js';
import { resumeVault, type ResumeInput, type ResumeWire } from '../chain/resume.js';
import { createChainClient } from '../chain/rpc.js';
import {
  coverShortfall,
  creditSurplus,
  surplusOfVaults,
  sweepSurplus,
  type SurplusRef,
} from '../chain/surplus-actions.js';
import type { ArcadeServices } from './arcade-services.js';

export { PlayLockStates, PLAY_LOCKS_PAGE_MAX } from '../store/chain-play-locks.js';
export type { PlayLockState } from '../store/chain-play-locks.js';
export { DEPOSITS_PAGE_MAX } from '../store/chain-deposits.js';

type SurplusStatus = NonNullable<Parameters<typeof surplusOfVaults>[1]['status']>;

/**
 * The operator's reads and actions on the chain vault behind `/admin/chain` (docs/concepts/
 * chain.md): the watcher's status, play locks, deposits, halts and surplus. The routes check the
 * admin token and chain mode; each method here is one use case over the chain modules and stores.
 */
export class ChainAdmin {
  readonly #arcade: ArcadeServices;

  constructor(arcade: ArcadeServices) {
    this.#arcade = arcade;
  }

  /** The watcher's and sender's status; `{ enabled: false }` without chain mode. */
  async status(): Promise<ChainStatusWire> {
    const arcade = this.#arcade;
    return chainStatus(arcade.db, arcade.config.chain, arcade.chain, arcade.sender);
  }

  /** The vault's checkpoints, newest first, on whichever chains it was watched. */
  async checkpoints(vaultAddress: string): Promise<Checkpoint[]> {
    return checkpointsOfVault(this.#arcade.db, vaultAddress);
  }

  /** Play locks of every player, most recently changed first, optionally in one state. */
  async playLocks(filter: {
    state?: PlayLockState | undefined;
    limit: number;
  }): Promise<PlayLockRecord[]> {
    return listPlayLocks(this.#arcade.db, filter);
  }

  /** Deposits read from every vault watched, newest first, optionally of one status. */
  async deposits(filter: {
    status?: DepositStatus | undefined;
    limit: number;
  }): Promise<DepositRecord[]> {
    return listDeposits(this.#arcade.db, filter);
  }

  /** Credits a held deposit to an account, once (again to the same account answers the same). */
  async creditHeldDeposit(input: Parameters<typeof creditHeldDeposit>[2]): Promise<DepositRecord> {
    return creditHeldDeposit(this.#arcade.db, this.#arcade.clock, input);
  }

  /** Resumes the vault's senders after a halt, once it is safe. */
  async resume(chain: ChainConfig, input: ResumeInput): Promise<ResumeWire> {
    const arcade = this.#arcade;
    return resumeVault(arcade.db, arcade.clock, chain, createChainClient(chain), input);
  }

  /** The vault's halts and resumes, newest first. */
  async halts(chain: ChainConfig, limit: number): Promise<HaltWire[]> {
    return haltsOfVault(this.#arcade.db, chain.vaultAddress, limit);
  }

  /** HST sent to the vaults without a deposit, newest first. */
  async surplus(filter: { status?: SurplusStatus | undefined; limit: number }) {
    return surplusOfVaults(this.#arcade.db, filter);
  }

  /** Credits a surplus to an account; `arcade` names this arcade's own account. */
  async creditSurplus(ref: SurplusRef, accountId: string) {
    const arcade = this.#arcade;
    return creditSurplus(arcade.db, arcade.clock, {
      ...ref,
      accountRef: accountId === 'arcade' ? arcade.record.accountId : accountId,
    });
  }

  /** Credits a surplus to the arcade and withdraws it to `to` in one step. */
  async sweepSurplus(ref: SurplusRef, to: unknown) {
    const arcade = this.#arcade;
    return sweepSurplus(
      {
        db: arcade.db,
        clock: arcade.clock,
        ids: arcade.ids,
        maxWithdrawalUnits: () => arcade.withdrawals.maxWithdrawalUnits(),
      },
      { ...ref, to, arcadeAccountId: arcade.record.accountId },
    );
  }

  /** Marks a surplus as backing what the ledger owes, when the vault is that much short. */
  async coverShortfall(chain: ChainConfig, ref: SurplusRef, note: string) {
    const arcade = this.#arcade;
    return coverShortfall(
      { db: arcade.db, clock: arcade.clock, chain, client: createChainClient(chain) },
      { ...ref, note },
    );
  }
}
