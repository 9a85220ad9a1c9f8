import { CoinopError, type Clock, type Ids, type Leaderboard, type PlayStatus } from '@coinop/core';
import type { ChainConfig } from '../config.js';
import { checkpointsOfVault, type Checkpoint } from '../store/chain-checkpoints.js';
import { findPlayLock, type PlayLockRecord } from '../store/chain-play-locks.js';
import { insertPlayRequest } from '../store/chain-play-opening.js';
import type { Db } from '../store/db.js';
import { findPlay } from '../store/plays.js';

/**
 * A play the player locks from their wallet (docs/concepts/chain.md): the arcade gives a play id
 * and the amount, the wallet calls the vault's `lockPlay(playId, amount)` (or
 * `lockPlayWithPermit`), and the watcher opens the play once the lock is confirmed. The request
 * reserves nothing and charges nothing: the wallet's own transaction is the player's consent.
 */

/** How long after a request its lock opens the play; a later lock is refunded. */
export const LOCK_WINDOW_SECONDS = 1800;

export interface ChainPlayView {
  readonly lock: PlayLockRecord;
  readonly tokenAddress: string;
  /** The play, once the lock opened it. */
  readonly play: {
    readonly status: PlayStatus;
    readonly expiresAt: Date;
    readonly seed: string | null;
  } | null;
}

export class ChainPlayRequests {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #ids: Ids;
  readonly #chain: ChainConfig | null;

  constructor(deps: { db: Db; clock: Clock; ids: Ids; chain: ChainConfig | null }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#ids = deps.ids;
    this.#chain = deps.chain;
  }

  /** Records that `playerId` may lock `board`'s cost under a new play id, for a while. */
  async request(input: {
    playerId: string;
    gameId: string;
    board: Leaderboard;
  }): Promise<ChainPlayView> {
    const checkpoint = await this.#checkpoint();
    if (input.board.costUnits === 0n) {
      throw new CoinopError(
        'validation_failed',
        `tier ${input.board.id} is free: there is nothing to lock on chain`,
        { details: { field: 'leaderboardId' } },
      );
    }
    const now = this.#clock.now();
    const playId = this.#ids.next();
    await insertPlayRequest(
      this.#db,
      checkpoint,
      {
        playId,
        playerId: input.playerId,
        gameId: input.gameId,
        leaderboardId: input.board.id,
        amountUnits: input.board.costUnits,
        lockBy: new Date(now.getTime() + LOCK_WINDOW_SECONDS * 1000),
      },
      now,
    );
    return this.get(input.playerId, playId);
  }

  /** The player's own play locked on chain (another player's is not found). */
  async get(playerId: string, playId: string): Promise<ChainPlayView> {
    const checkpoint = await this.#checkpoint();
    const lock = await findPlayLock(this.#db, playId);
    if (!lock || lock.playerId !== playerId) {
      throw new CoinopError('chain_play_not_found', `no play ${playId} locked on chain by you`, {
        details: { playId },
      });
    }
    const play = lock.gameId === null ? null : await findPlay(this.#db, lock.gameId, playId);
    return {
      lock,
      tokenAddress: checkpoint.tokenAddress,
      play: play ? { status: play.status, expiresAt: play.expiresAt, seed: play.seed } : null,
    };
  }

  async #checkpoint(): Promise<Checkpoint> {
    if (!this.#chain) {
      throw new CoinopError(
        'chain_mode_off',
        'this arcade is not in chain mode: plays are locked from the HST balance',
      );
    }
    const checkpoint = (await checkpointsOfVault(this.#db, this.#chain.vaultAddress))[0];
    if (!checkpoint) {
      throw new CoinopError(
        'chain_not_ready',
        'the chain has not answered since this arcade started; try again shortly',
      );
    }
    return checkpoint;
  }
}
