import { arcadeVaultAbi } from '@coinop/contracts';
import { chainScoreCutoff, voidLockTransfer, type TransferRequest } from '@coinop/core';
import { v5 as uuidv5 } from 'uuid';
import type { Address, PublicClient } from 'viem';
import type { Checkpoint } from '../store/chain-checkpoints.js';
import { earliestOpenLockTime, lockOpenPlaysLockedBy } from '../store/chain-lock-ends.js';
import type { Db } from '../store/db.js';
import { applyTransfers } from '../store/ledger.js';
import { setPlayStatus } from '../store/plays.js';
import type { WatcherLog } from './watcher-log.js';

/**
 * The vault's lock timeout, on the chain's own clock (docs/concepts/chain.md, "Scores and the lock
 * timeout"). A player may reclaim an open lock `lockTimeout` after its block, so its play stops
 * taking scores SETTLE_BEFORE_RECLAIM_SECONDS before that, leaving the operator time to settle it
 * first. A lock opens its play only if the whole play fits (`decidePlayLock`); a play that no
 * longer does (the admin lowered the timeout, the chain's clock ran ahead of the server's) is
 * voided by the watcher and its lock refunded, so no score races a reclaim.
 */

/** The chain's time at the head, and the vault's lock timeout there. */
export interface ChainClock {
  readonly now: Date;
  readonly lockTimeoutSeconds: number;
}

export async function readChainClock(
  client: PublicClient,
  vaultAddress: Address,
  headBlock: bigint,
): Promise<ChainClock> {
  const [head, lockTimeout] = await Promise.all([
    client.getBlock({ blockNumber: headBlock }),
    client.readContract({
      address: vaultAddress,
      abi: arcadeVaultAbi,
      functionName: 'lockTimeout',
      blockNumber: headBlock,
    }),
  ]);
  // The vault bounds its lock timeout to 30 days, and a block time is seconds since 1970.
  return { now: blockTime(head.timestamp), lockTimeoutSeconds: Number(lockTimeout) };
}

/** A block's timestamp (seconds) as a date. */
export const blockTime = (timestamp: bigint): Date => new Date(Number(timestamp) * 1000);

/** The namespace of the ids of the voids of plays closed near their lock timeout (fixed). */
const LOCK_TIMEOUT_NAMESPACE = '7fec4d2a-c2da-4a3c-ae34-518e1c14e1bd';

/**
 * Voids the vault's open plays whose locks are past their score deadline at the head (the sender
 * refunds their locks), and says so in the log; reads the chain only when some open play's lock
 * is old enough to be. Returns how many plays were voided.
 */
export async function closePlaysNearLockTimeout(
  db: Db,
  log: WatcherLog | null,
  input: { checkpoint: Checkpoint; readClock: () => Promise<ChainClock>; now: Date },
): Promise<number> {
  const { checkpoint, now } = input;
  const earliest = await earliestOpenLockTime(db, checkpoint);
  if (earliest === null) return 0;
  const clock = await input.readClock();
  const cutoff = chainScoreCutoff(clock.now, clock.lockTimeoutSeconds);
  if (earliest.getTime() > cutoff.getTime()) return 0;
  const closed = await db.transaction(async (tx) => {
    const plays = await lockOpenPlaysLockedBy(tx, checkpoint, cutoff);
    const releases = plays
      .map((play) =>
        voidLockTransfer(
          play,
          checkpoint.accountId,
          uuidv5(`${play.id.toLowerCase()}:void`, LOCK_TIMEOUT_NAMESPACE),
        ),
      )
      .filter((t): t is TransferRequest => t !== null);
    await applyTransfers(tx, releases, now);
    for (const play of plays) await setPlayStatus(tx, play.id, 'voided', now);
    return plays.map((p) => p.id);
  });
  for (const playId of closed) {
    log?.warn(
      `chain watcher: play ${playId} is voided: its lock on chain nears the vault's lock ` +
        `timeout (${clock.lockTimeoutSeconds} s), after which its player may reclaim it; the ` +
        'lock is refunded',
    );
  }
  return closed.length;
}
