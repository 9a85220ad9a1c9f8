import { hstAbi } from '@coinop/contracts';
import type { Clock } from '@coinop/core';
import { v5 as uuidv5 } from 'uuid';
import { getAddress, type PublicClient } from 'viem';
import {
  advanceSurplusBlock,
  readCheckpoint,
  type Checkpoint,
  type VaultKey,
} from '../store/chain-checkpoints.js';
import { insertSurplus, pullsOfTransactions, type VaultTransfer } from '../store/chain-surplus.js';
import type { Db, Queryable } from '../store/db.js';

/**
 * Unsolicited surplus (docs/concepts/chain.md#surplus): HST that reached the vault without a
 * deposit or a play lock, a plain ERC-20 `transfer` to it or a mint to it. The watcher reads the
 * token's Transfer events to the vault behind its checkpoint, where every deposit and lock of
 * those blocks is already recorded, and records each transfer none of them explains, so the
 * reconciliation counts it as surplus instead of an unexplained difference.
 */

/**
 * The namespace of the ids of the transfers that credit a surplus (UUIDv5, RFC 9562 §5.5). Fixed
 * forever, so crediting a surplus again is the same transfer.
 */
const SURPLUS_NAMESPACE = '3f0c9a7e-2d61-4b8e-9c35-71a4e0d5b218';

/** The id of the transfer that credits the surplus of log `logIndex` of `txHash` on `chainId`. */
export function surplusTransferId(chainId: number, txHash: string, logIndex: number): string {
  return uuidv5(`${chainId}:${txHash.toLowerCase()}:${logIndex}`, SURPLUS_NAMESPACE);
}

/**
 * The token's Transfer events to the vault in `fromBlock..toBlock`, but the vault's own payments
 * to itself (a settlement's share that stays in the vault moves from the vault to the vault).
 */
export async function readTransfersToVault(
  client: PublicClient,
  checkpoint: Checkpoint,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<VaultTransfer[]> {
  const vault = getAddress(checkpoint.vaultAddress);
  const logs = await client.getContractEvents({
    address: getAddress(checkpoint.tokenAddress),
    abi: hstAbi,
    eventName: 'Transfer',
    args: { to: vault },
    fromBlock,
    toBlock,
    strict: true,
  });
  const transfers: VaultTransfer[] = [];
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
    if (getAddress(log.args.to) !== vault) {
      throw new Error(`the node returned a transfer to ${log.args.to} for one to the vault`);
    }
    if (getAddress(log.args.from) === vault) continue;
    transfers.push({
      txHash: transactionHash,
      logIndex,
      blockNumber,
      blockHash,
      fromAddress: log.args.from,
      amountUnits: log.args.value,
    });
  }
  return transfers;
}

/**
 * The transfers nothing recorded explains: each deposit and play lock of the same transaction
 * explains one transfer from its sender of its amount (the vault pulls exactly that), once.
 */
export async function unsolicitedOf(
  q: Queryable,
  key: VaultKey,
  transfers: readonly VaultTransfer[],
): Promise<VaultTransfer[]> {
  const pulls = await pullsOfTransactions(
    q,
    key,
    transfers.map((t) => t.txHash),
  );
  const unmatched = new Map<string, number>();
  const pullKey = (txHash: string, from: string, units: bigint) =>
    `${txHash.toLowerCase()}:${from.toLowerCase()}:${units}`;
  for (const p of pulls) {
    const k = pullKey(p.txHash, p.fromAddress, p.amountUnits);
    unmatched.set(k, (unmatched.get(k) ?? 0) + 1);
  }
  return transfers.filter((t) => {
    const k = pullKey(t.txHash, t.fromAddress, t.amountUnits);
    const left = unmatched.get(k) ?? 0;
    if (left === 0) return true;
    unmatched.set(k, left - 1);
    return false;
  });
}

/**
 * Records the vault's surplus from where its reading stopped up to the checkpoint, range by range,
 * each range with the move of its reading in one database transaction. Stops without recording
 * when the checkpoint's block is no longer on the chain (the watcher halts on it at its next
 * round) or when another process moved either. True when the reading reached the checkpoint.
 */
export async function recordSurplusUpTo(
  db: Db,
  clock: Clock,
  client: PublicClient,
  input: { key: VaultKey; rangeBlocksMax: number; stopped: () => boolean },
): Promise<{ caughtUp: boolean; recorded: VaultTransfer[] }> {
  const checkpoint = await readCheckpoint(db, input.key);
  const recorded: VaultTransfer[] = [];
  if (!checkpoint || checkpoint.blockNumber === null || checkpoint.blockHash === null) {
    return { caughtUp: checkpoint !== null && checkpoint.reorgDetectedAt === null, recorded };
  }
  const target = checkpoint.blockNumber;
  let at = checkpoint.surplusBlockNumber;
  while (!input.stopped()) {
    const fromBlock = at === null ? checkpoint.startBlock : at + 1n;
    if (fromBlock > target) return { caughtUp: true, recorded };
    const toBlock = min(fromBlock + BigInt(input.rangeBlocksMax) - 1n, target);
    const transfers = await readTransfersToVault(client, checkpoint, fromBlock, toBlock);
    // Logs read below a block the chain still has are of its branch: the checkpoint's block
    // still having its hash after the read puts every block below it on the same chain.
    const block = await client.getBlock({ blockNumber: target });
    if (block.hash !== checkpoint.blockHash) return { caughtUp: false, recorded };
    const unsolicited = await unsolicitedOf(db, checkpoint, transfers);
    const moved = await db.transaction(async (tx) => {
      if (!(await advanceSurplusBlock(tx, checkpoint, at, toBlock))) return false;
      await insertSurplus(
        tx,
        checkpoint,
        unsolicited.map((t) => ({
          ...t,
          transferId: surplusTransferId(checkpoint.chainId, t.txHash, t.logIndex),
        })),
        clock.now(),
      );
      return true;
    });
    if (!moved) return { caughtUp: false, recorded };
    recorded.push(...unsolicited);
    at = toBlock;
  }
  return { caughtUp: false, recorded };
}

/**
 * Surplus in the blocks between the watcher's reading of transfers and its checkpoint, which it
 * records within the same round (so the gap is short): read here so the comparison stays exact.
 * Null when the reading is more than one request behind (catching up after an upgrade).
 */
export async function surplusNotRecorded(
  db: Db,
  client: PublicClient,
  checkpoint: Checkpoint,
  rangeBlocksMax: number,
): Promise<{ units: bigint; count: number } | null> {
  const to = checkpoint.blockNumber;
  const from = (checkpoint.surplusBlockNumber ?? checkpoint.startBlock - 1n) + 1n;
  if (to === null || from > to) return { units: 0n, count: 0 };
  if (to - from + 1n > BigInt(rangeBlocksMax)) return null;
  const transfers = await readTransfersToVault(client, checkpoint, from, to);
  const unsolicited = await unsolicitedOf(db, checkpoint, transfers);
  return {
    units: unsolicited.reduce((total, t) => total + t.amountUnits, 0n),
    count: unsolicited.length,
  };
}

const min = (a: bigint, b: bigint) => (a < b ? a : b);
