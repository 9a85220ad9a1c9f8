import { bytes16ToUuid } from '@coinop/contracts';
import { chainLockTransfer, decidePlayLock, type Ids } from '@coinop/core';
import type { Hex } from 'viem';
import { drawPlaySeed } from '../credentials/play-seeds.js';
import type { VaultKey } from '../store/chain-checkpoints.js';
import { lockPlayLocks, recordLockSeen, type RefundReason } from '../store/chain-play-locks.js';
import { insertChainPlay, lockRequestViews } from '../store/chain-play-opening.js';
import type { Queryable } from '../store/db.js';
import { applyTransfers, insertAccount } from '../store/ledger.js';
import type { ChainClock } from './lock-timeouts.js';

/**
 * Plays locked on chain become ledger plays here, in the watcher's transaction for the range of
 * blocks their PlayLocked events are in (docs/concepts/chain.md): a lock that is exactly what the
 * arcade asked for opens its play, drawn on the vault's account; any other is recorded to be
 * refunded. A lock already recorded (a range read twice) is left as it is.
 */

/** One `PlayLocked(playId, player, amount)` event, as read from a confirmed block. */
export interface PlayLockEvent {
  readonly txHash: Hex;
  readonly logIndex: number;
  readonly blockNumber: bigint;
  /** The play id, as the contract takes it (bytes16). */
  readonly playId: Hex;
  readonly player: Hex;
  readonly amount: bigint;
  /** The lock's block time, on the chain's clock. */
  readonly blockTime: Date;
}

export interface LocksRecorded {
  readonly opened: number;
  readonly refused: readonly { playId: string; reason: RefundReason }[];
}

export async function recordPlayLocks(
  tx: Queryable,
  input: {
    key: VaultKey;
    vaultAccountId: string;
    playTtlSeconds: number;
    ids: Ids;
    events: readonly PlayLockEvent[];
    /** The chain's time and the vault's lock timeout as the events were read. */
    chainClock: ChainClock;
    now: Date;
  },
): Promise<LocksRecorded> {
  const { key, events, now } = input;
  if (events.length === 0) return { opened: 0, refused: [] };
  const playIds = events.map((e) => bytes16ToUuid(e.playId));
  // Taken before the game is read, so a suspension voiding the game's open plays (it takes SHARE)
  // either waits for the plays opened here or is seen here.
  await tx.query('LOCK TABLE plays IN ROW EXCLUSIVE MODE');
  const rows = await lockPlayLocks(tx, playIds);
  const views = await lockRequestViews(tx, playIds);
  let opened = 0;
  const refused: { playId: string; reason: RefundReason }[] = [];
  for (const [i, event] of events.entries()) {
    const playId = playIds[i] as string;
    const row = rows.get(playId);
    // The contract takes each play id once, so a second event for it is this one read again.
    if (row !== undefined && row.lockTxHash !== null) continue;
    const view = views.get(playId);
    const request =
      row?.state === 'requested' && row.amountUnits !== null && row.lockBy !== null && view
        ? {
            amountUnits: row.amountUnits,
            playerWallet: view.playerWallet,
            lockBy: row.lockBy,
            tierCostUnits: view.tierCostUnits,
            gamePlayable: view.gamePlayable,
          }
        : null;
    const lock = {
      playId,
      txHash: event.txHash,
      logIndex: event.logIndex,
      blockNumber: event.blockNumber,
      lockerAddress: event.player,
      lockedUnits: event.amount,
      blockTime: event.blockTime,
    };
    const verdict = decidePlayLock(request, lock, now, {
      lockedAt: event.blockTime,
      lockTimeoutSeconds: input.chainClock.lockTimeoutSeconds,
      chainNow: input.chainClock.now,
      playTtlSeconds: input.playTtlSeconds,
    });
    if (!verdict.open || !row || !view) {
      const reason = verdict.open ? 'not_requested' : verdict.reason;
      await recordLockSeen(tx, key, lock, { state: 'refund_due', reason }, now);
      refused.push({ playId, reason });
      continue;
    }
    const lockTransferId = input.ids.next();
    await insertAccount(tx, playId, 'escrow', now);
    await applyTransfers(
      tx,
      [chainLockTransfer(lockTransferId, playId, input.vaultAccountId, event.amount)],
      now,
    );
    await insertChainPlay(
      tx,
      {
        id: playId,
        arcadeId: view.arcadeId,
        gameId: row.gameId as string,
        developerId: view.developerId,
        leaderboardId: row.leaderboardId as string,
        playerId: row.playerId as string,
        costUnits: event.amount,
        lockTransferId,
        vaultAccountId: input.vaultAccountId,
        leaderPlayerIds: [],
        status: 'open',
        expiresAt: new Date(now.getTime() + input.playTtlSeconds * 1000),
        createdAt: now,
        updatedAt: now,
        idempotencyKey: null,
        requestHash: null,
        // Drawn as the lock opens the play: the seed is committed no earlier than the play.
        seed: drawPlaySeed(),
        // The player's wallet locked it: a client-side play, scored by its player.
        openedBy: 'player',
      },
      view.leadersMax,
    );
    await recordLockSeen(tx, key, lock, { state: 'open' }, now);
    opened += 1;
  }
  return { opened, refused };
}
