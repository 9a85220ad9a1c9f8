import type { Address, Hex } from 'viem';

/** One withdrawal instruction, as `ArcadeVault.Withdrawal`. */
export interface VaultWithdrawal {
  /** The withdrawal's coinop id as bytes16 (`uuidToBytes16`): the vault pays it once. */
  id: Hex;
  to: Address;
  /** HST base units. */
  amount: bigint;
}

/**
 * The EIP-712 typed data an operator key signs so that anyone may submit the withdrawal with
 * `ArcadeVault.withdraw(withdrawal, signature)`. The domain is the vault's own (name and
 * version as its constructor sets them), so a signature is good for one vault on one chain.
 *
 * @example
 * const signature = await operator.signTypedData(withdrawalTypedData(chainId, vault, withdrawal));
 */
export function withdrawalTypedData(chainId: number, vault: Address, withdrawal: VaultWithdrawal) {
  return {
    domain: { name: 'coinop ArcadeVault', version: '1', chainId, verifyingContract: vault },
    types: {
      Withdrawal: [
        { name: 'id', type: 'bytes16' },
        { name: 'to', type: 'address' },
        { name: 'amount', type: 'uint256' },
      ],
    },
    primaryType: 'Withdrawal',
    message: withdrawal,
  } as const;
}
