import { arcadeVaultAbi, uuidToBytes16 } from '@coinop/contracts';
import type { Address, PublicClient } from 'viem';
import type { WithdrawalToCheck } from '../store/chain-reconciliation.js';

/**
 * The vault as the chain reconciliation (reconciliation.ts) asks it at one block: its answers read
 * a few calls at a time.
 */

/** The vault at the block compared, as the chain answers. */
export interface VaultAtBlock {
  readonly client: PublicClient;
  readonly vaultAddress: Address;
  readonly blockNumber: bigint;
}

/** The vault's PlayState, as `playLock(id)` answers. */
export const PLAY_STATE = { locked: 1, settled: 2 } as const;

/** Reads the chain a few calls at a time: a node may refuse a burst of hundreds. */
export const IS_PAID_CONCURRENCY = 16;

/** The withdrawals whose `isPaid` at the block is `paid`. */
export async function paidAtBlock(
  vault: VaultAtBlock,
  withdrawals: readonly WithdrawalToCheck[],
  paid: boolean,
): Promise<WithdrawalToCheck[]> {
  const answers = await mapConcurrently(withdrawals, IS_PAID_CONCURRENCY, (w) =>
    vault.client.readContract({
      address: vault.vaultAddress,
      abi: arcadeVaultAbi,
      functionName: 'isPaid',
      args: [uuidToBytes16(w.id)],
      blockNumber: vault.blockNumber,
    }),
  );
  return withdrawals.filter((_, n) => answers[n] === paid);
}

/** `read` of each item, `concurrency` at a time, in the items' order. */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  concurrency: number,
  read: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += concurrency) {
    results.push(...(await Promise.all(items.slice(i, i + concurrency).map(read))));
  }
  return results;
}
