import { createPublicClient, http, verifyMessage, type Address, type Hex } from 'viem';

/** Checks that `signature` over `message` (EIP-191 personal_sign) was made by `address`. */
export type WalletSignatureCheck = (input: {
  address: Address;
  message: string;
  signature: Hex;
}) => Promise<boolean>;

/** Tells the SIWE message's Chain ID and checks wallet signatures. */
export interface WalletVerifier {
  readonly chainId: () => Promise<number>;
  readonly check: WalletSignatureCheck;
}

/** Chain ID of the messages when no chain is configured: Ethereum mainnet, as wallets default. */
const DEFAULT_CHAIN_ID = 1;

/**
 * Without a chain, only externally owned accounts can sign in: the signer is recovered from the
 * signature. With `chainRpcUrl`, viem's public client also asks contract wallets (EIP-1271, and
 * ERC-6492 for undeployed ones) whether they signed, through one eth_call.
 */
export function walletVerifier(settings: {
  chainRpcUrl: string | null;
  chainRpcTimeoutMs: number;
}): WalletVerifier {
  if (settings.chainRpcUrl === null) {
    return { chainId: async () => DEFAULT_CHAIN_ID, check: (input) => verifyMessage(input) };
  }
  const client = createPublicClient({
    transport: http(settings.chainRpcUrl, { timeout: settings.chainRpcTimeoutMs, retryCount: 1 }),
  });
  let chainId: Promise<number> | undefined;
  return {
    chainId: () => {
      chainId ??= client.getChainId().catch((error: unknown) => {
        chainId = undefined;
        throw error;
      });
      return chainId;
    },
    check: (input) => client.verifyMessage(input),
  };
}
