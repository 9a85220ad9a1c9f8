import { arcadeVaultAbi, hstAbi, uuidToBytes16 } from '@coinop/contracts';
import type { ChainSettings } from '@coinop/protocol';
import {
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  getAddress,
  http,
  InsufficientFundsError,
  parseSignature,
  UserRejectedRequestError,
  type Address,
  type Chain,
  type Hash,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { arcadeAccount, provider, type WalletKind } from '../session/wallets.js';

/**
 * The player's wallet on the arcade's chain: what it holds, and a deposit into the vault as one
 * EIP-2612 permit signature plus one `depositWithPermit` transaction (docs/concepts/chain.md).
 */

/** The chain settings once the arcade has read the chain id and HST's address. */
export interface ReadyChain {
  readonly chainId: number;
  readonly rpcUrl: string;
  readonly hst: Address;
  readonly vault: Address;
  readonly confirmations: number;
}

/** Null until the arcade has reached its chain, or when it publishes no RPC URL for browsers. */
export function readyChain(settings: ChainSettings): ReadyChain | null {
  if (settings.chainId === null || settings.hst === null || settings.rpcUrl === null) return null;
  return {
    chainId: settings.chainId,
    rpcUrl: settings.rpcUrl,
    hst: getAddress(settings.hst),
    vault: getAddress(settings.vault),
    confirmations: settings.confirmations,
  };
}

/** How often the page asks the chain for a new block or receipt. */
export const CHAIN_POLL_MS = 1_000;
/** A permit is good for this long: far more than a signature and a transaction take. */
const PERMIT_LIFETIME_SECONDS = 3_600n;

function viemChain(chain: ReadyChain): Chain {
  return defineChain({
    id: chain.chainId,
    name: `Chain ${chain.chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [chain.rpcUrl] } },
  });
}

/** Reads the chain through the arcade's RPC URL. */
export function chainReader(chain: ReadyChain): PublicClient {
  return createPublicClient({
    chain: viemChain(chain),
    transport: http(chain.rpcUrl),
    pollingInterval: CHAIN_POLL_MS,
  });
}

export interface WalletHoldings {
  /** HST in the wallet, in base units. */
  readonly hstUnits: bigint;
  /** The chain's gas token (ETH), in wei: a deposit's fee is paid with it. */
  readonly gasWei: bigint;
}

export async function walletHoldings(
  reader: PublicClient,
  chain: ReadyChain,
  address: Address,
): Promise<WalletHoldings> {
  const [hstUnits, gasWei] = await Promise.all([
    reader.readContract({
      address: chain.hst,
      abi: hstAbi,
      functionName: 'balanceOf',
      args: [address],
    }),
    reader.getBalance({ address }),
  ]);
  return { hstUnits, gasWei };
}

/** A deposit the page refused to send, or the wallet or chain refused; `message` says why. */
export class DepositError extends Error {}

export const NO_GAS_MESSAGE =
  'Your wallet has no ETH to pay the network fee for a deposit. Add a little ETH on this ' +
  'chain to your wallet, then try again.';

/** A signer for the player's wallet on this chain: the arcade wallet's key, or the extension. */
async function walletClient(chain: ReadyChain, kind: WalletKind, address: Address) {
  const viem = viemChain(chain);
  if (kind === 'arcade') {
    const account = arcadeAccount();
    if (account === null || account.address !== address) {
      throw new DepositError('The arcade wallet is not in this browser: reconnect it first.');
    }
    return createWalletClient({ account, chain: viem, transport: http(chain.rpcUrl) });
  }
  const extension = provider();
  if (extension === null) {
    throw new DepositError('No browser wallet found: reconnect your wallet first.');
  }
  const client = createWalletClient({
    account: address,
    chain: viem,
    transport: custom(extension),
  });
  if ((await client.getChainId()) !== chain.chainId) {
    try {
      await client.switchChain({ id: chain.chainId });
    } catch (error) {
      // EIP-3326: 4902 is "the wallet does not know this chain"; offer it, then switch.
      if ((error as { code?: unknown }).code !== 4902 && !hasCode(error, 4902)) throw error;
      await client.addChain({ chain: viem });
      await client.switchChain({ id: chain.chainId });
    }
  }
  return client;
}

function hasCode(error: unknown, code: number): boolean {
  return (
    error instanceof BaseError &&
    error.walk((e) => (e as { code?: unknown }).code === code) !== null
  );
}

/**
 * Signs an EIP-2612 permit for the vault and sends `depositWithPermit`, crediting the coinop
 * account `accountId` (the player id). Resolves with the transaction hash once it is sent;
 * throws DepositError with a message for the player.
 */
export async function sendDeposit(input: {
  chain: ReadyChain;
  reader: PublicClient;
  kind: WalletKind;
  address: Address;
  amountUnits: bigint;
  accountId: string;
}): Promise<Hash> {
  const { chain, reader, address, amountUnits } = input;
  try {
    const holdings = await walletHoldings(reader, chain, address);
    if (holdings.hstUnits < amountUnits) {
      throw new DepositError('Your wallet holds less HST than that.');
    }
    if (holdings.gasWei === 0n) throw new DepositError(NO_GAS_MESSAGE);
    const wallet: WalletClient = await walletClient(chain, input.kind, address);
    const [{ domain }, nonce, block] = await Promise.all([
      reader.getEip712Domain({ address: chain.hst }),
      reader.readContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'nonces',
        args: [address],
      }),
      reader.getBlock(),
    ]);
    // The chain's clock, not the browser's, decides whether the permit has expired.
    const deadline = block.timestamp + PERMIT_LIFETIME_SECONDS;
    const signature = await wallet.signTypedData({
      account: wallet.account ?? address,
      // Only the fields HST's domain has (ERC-5267 says which): a salt would change the hash.
      domain: {
        name: domain.name,
        version: domain.version,
        chainId: domain.chainId,
        verifyingContract: domain.verifyingContract,
      },
      types: {
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      message: { owner: address, spender: chain.vault, value: amountUnits, nonce, deadline },
    });
    const { r, s, v, yParity } = parseSignature(signature);
    return await wallet.writeContract({
      account: wallet.account ?? address,
      chain: wallet.chain,
      address: chain.vault,
      abi: arcadeVaultAbi,
      functionName: 'depositWithPermit',
      args: [
        amountUnits,
        uuidToBytes16(input.accountId),
        deadline,
        Number(v ?? BigInt(yParity + 27)),
        r,
        s,
      ],
    });
  } catch (error) {
    throw new DepositError(explainChainError(error));
  }
}

/** What went wrong on the chain or in the wallet, in words a player can act on. */
export function explainChainError(error: unknown): string {
  if (error instanceof DepositError) return error.message;
  if (error instanceof BaseError) {
    if (error.walk((e) => e instanceof UserRejectedRequestError) || hasCode(error, 4001)) {
      return 'You declined the request in your wallet: nothing was sent.';
    }
    if (error.walk((e) => e instanceof InsufficientFundsError)) return NO_GAS_MESSAGE;
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) {
      const name = reverted.data?.errorName;
      if (name === 'EnforcedPause') {
        return 'The arcade has paused deposits for now: nothing was sent. Try again later.';
      }
      return `The vault refused the deposit${name ? ` (${name})` : ''}: nothing was sent.`;
    }
    return `The chain did not take the deposit: ${error.shortMessage}`;
  }
  return `The deposit failed: ${(error as Error).message}`;
}
