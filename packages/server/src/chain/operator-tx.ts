import {
  BaseError,
  ContractFunctionRevertedError,
  getAddress,
  keccak256,
  type Hex,
  type PrivateKeyAccount,
  type PublicClient,
  type TransactionReceipt,
} from 'viem';
import type { VaultKey } from '../store/chain-checkpoints.js';
import { highestNonce, type BatchRecord } from '../store/chain-batches.js';
import type { Queryable } from '../store/db.js';

/**
 * The operator's transactions to the vault (withdrawBatch, settleBatch, refund), signed here and
 * recorded by their senders with nonce, hash and bytes BEFORE they are broadcast, so a restart
 * finds each and asks the chain what became of it (`batchFate`).
 */

/** Gas estimates are raised by a fifth: state can change between estimate and inclusion. */
const GAS_MARGIN_PERCENT = 120n;

export interface SignedCall {
  readonly nonce: number;
  readonly rawTx: Hex;
  readonly txHash: Hex;
}

/**
 * Signs a call of the vault with the operator's key, at the next nonce: the chain's pending count,
 * or past the highest nonce already recorded (a transaction recorded but not yet broadcast).
 */
export async function signVaultCall(
  client: PublicClient,
  q: Queryable,
  operator: PrivateKeyAccount,
  key: VaultKey,
  data: Hex,
): Promise<SignedCall> {
  const vault = getAddress(key.vaultAddress);
  const [pendingNonce, recorded, gas, fees] = await Promise.all([
    client.getTransactionCount({ address: operator.address, blockTag: 'pending' }),
    highestNonce(q, key.chainId, operator.address),
    client.estimateGas({ account: operator.address, to: vault, data }),
    client.estimateFeesPerGas(),
  ]);
  const nonce = recorded === null ? pendingNonce : Math.max(pendingNonce, Number(recorded) + 1);
  const rawTx = await operator.signTransaction({
    type: 'eip1559',
    chainId: key.chainId,
    nonce,
    to: vault,
    data,
    gas: (gas * GAS_MARGIN_PERCENT) / 100n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  return { nonce, rawTx, txHash: keccak256(rawTx) };
}

/** What became of a recorded transaction. */
export type BatchFate =
  | { readonly kind: 'mined'; readonly receipt: TransactionReceipt }
  /** Known to the node, not mined yet. */
  | { readonly kind: 'pending' }
  /** The chain never heard of it and its nonce is still free: broadcast the same bytes again. */
  | { readonly kind: 'unseen' }
  /** Its nonce went to another transaction: it can never be mined. */
  | { readonly kind: 'dropped' };

export async function batchFate(client: PublicClient, batch: BatchRecord): Promise<BatchFate> {
  const receipt = await client
    .getTransactionReceipt({ hash: batch.txHash })
    .catch((error: unknown) => (isNotFound(error) ? null : Promise.reject(error)));
  if (receipt) return { kind: 'mined', receipt };
  const pending = await client
    .getTransaction({ hash: batch.txHash })
    .catch((error: unknown) => (isNotFound(error) ? null : Promise.reject(error)));
  if (pending) return { kind: 'pending' };
  const minedNonce = BigInt(
    await client.getTransactionCount({
      address: getAddress(batch.fromAddress),
      blockTag: 'latest',
    }),
  );
  return minedNonce <= batch.nonce ? { kind: 'unseen' } : { kind: 'dropped' };
}

/** The vault's custom error a failed simulation or call reverted with, if any. */
export function vaultRevert(error: unknown): { name: string; args: readonly unknown[] } | null {
  const revert =
    error instanceof BaseError
      ? (error.walk(
          (e) => e instanceof ContractFunctionRevertedError,
        ) as ContractFunctionRevertedError | null)
      : null;
  const name = revert?.data?.errorName;
  return name ? { name, args: revert?.data?.args ?? [] } : null;
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof BaseError &&
    (error.name === 'TransactionReceiptNotFoundError' || error.name === 'TransactionNotFoundError')
  );
}
