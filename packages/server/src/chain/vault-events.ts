import type { arcadeVaultAbi } from '@coinop/contracts';
import type { ContractEventName, GetContractEventsReturnType, Hex, PublicClient } from 'viem';
import type { DepositEvent } from './deposits.js';
import type { LockEndEvent } from './lock-ends.js';
import { blockTime } from './lock-timeouts.js';
import type { PlayLockEvent } from './play-locks.js';

/**
 * The vault's events of a range of blocks, as the watcher records them: deposits, play locks and
 * the ends of play locks. Each log is checked to be of the range and of its branch first.
 */

export type VaultLogs = GetContractEventsReturnType<
  typeof arcadeVaultAbi,
  ContractEventName<typeof arcadeVaultAbi>,
  true
>;

/** A PlayLocked event whose block's time is still to be read (`withBlockTimes`). */
export type LockLog = Omit<PlayLockEvent, 'blockTime'> & { readonly blockHash: Hex };

export interface VaultEvents {
  readonly deposits: DepositEvent[];
  readonly locks: LockLog[];
  readonly ends: LockEndEvent[];
}

/** The range read, and the hashes its first and last blocks had when it was read. */
export interface RangeRead {
  readonly fromBlock: bigint;
  readonly toBlock: bigint;
  readonly firstHash: Hex;
  readonly lastHash: Hex;
}

const ENDS = {
  PlaySettled: 'settled',
  PlayRefunded: 'refunded',
  PlayReclaimed: 'reclaimed',
} as const;

/**
 * Sorts the range's logs into the events the watcher records, in log order; throws when the node
 * returned a log that is pending, outside the range, or of another branch (read again).
 */
export function sortVaultLogs(logs: VaultLogs, range: RangeRead): VaultEvents {
  const { fromBlock, toBlock } = range;
  const events: VaultEvents = { deposits: [], locks: [], ends: [] };
  for (const log of logs) {
    const { blockNumber, blockHash, transactionHash, logIndex } = log;
    if (
      blockNumber === null ||
      blockHash === null ||
      transactionHash === null ||
      logIndex === null
    ) {
      throw new Error(`the node returned a pending log for blocks ${fromBlock}-${toBlock}`);
    }
    if (blockNumber < fromBlock || blockNumber > toBlock) {
      throw new Error(
        `the node returned a log of block ${blockNumber} for ${fromBlock}-${toBlock}`,
      );
    }
    const expected =
      blockNumber === toBlock ? range.lastHash : blockNumber === fromBlock ? range.firstHash : null;
    if (expected !== null && blockHash !== expected) {
      throw new Error(`a log of block ${blockNumber} is from another branch; reading it again`);
    }
    const at = { txHash: transactionHash, logIndex, blockNumber };
    if (log.eventName === 'Deposited') {
      events.deposits.push({
        ...at,
        blockHash,
        account: log.args.account,
        from: log.args.from,
        amount: log.args.amount,
      });
    } else if (log.eventName === 'PlayLocked') {
      events.locks.push({
        ...at,
        blockHash,
        playId: log.args.playId,
        player: log.args.player,
        amount: log.args.amount,
      });
    } else if (
      log.eventName === 'PlaySettled' ||
      log.eventName === 'PlayRefunded' ||
      log.eventName === 'PlayReclaimed'
    ) {
      events.ends.push({ ...at, playId: log.args.playId, end: ENDS[log.eventName] });
    }
  }
  return events;
}

/**
 * The locks with their blocks' times, one block read (by hash, so of the branch the logs were
 * read from) per block that has locks.
 */
export async function withBlockTimes(
  client: PublicClient,
  locks: readonly LockLog[],
): Promise<PlayLockEvent[]> {
  const times = new Map<Hex, Date>();
  for (const lock of locks) {
    if (times.has(lock.blockHash)) continue;
    const block = await client.getBlock({ blockHash: lock.blockHash });
    times.set(lock.blockHash, blockTime(block.timestamp));
  }
  return locks.map(({ blockHash, ...lock }) => ({
    ...lock,
    blockTime: times.get(blockHash) as Date,
  }));
}
