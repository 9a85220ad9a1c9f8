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
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';
import { arcadeAccount } from '../session/arcade-wallet.js';
import { provider, type WalletKind } from '../session/wallets.js';

/**
 * The player's wallet on the arcade's chain: what it holds, and what it sends the vault — a
 * deposit (`depositWithPermit`) or a play's lock (`lockPlayWithPermit`), each one EIP-2612 permit
 * signature plus one transaction (docs/concepts/chain.md).
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

/** A deposit or lock the page refused to send, or the wallet or chain refused; `message` says why. */
export class ChainWalletError extends Error {}

/** What the player's wallet sends the vault: a deposit into their balance, or a play's lock. */
export type VaultAction = 'deposit' | 'lock';

const NOUN: Record<VaultAction, string> = { deposit: 'deposit', lock: 'play lock' };

/** Said when the wallet has no ETH for the fee of `action`. */
export function noGasMessage(action: VaultAction): string {
  return (
    `Your wallet has no ETH to pay the network fee for a ${NOUN[action]}. Add a little ETH on ` +
    'this chain to your wallet, then try again.'
  );
}

export const NO_GAS_MESSAGE = noGasMessage('deposit');

/** A signer for the player's wallet on this chain: the arcade wallet's key, or the extension. */
async function walletClient(chain: ReadyChain, kind: WalletKind, address: Address) {
  const viem = viemChain(chain);
  if (kind === 'arcade') {
    const account = arcadeAccount();
    if (account === null || account.address !== address) {
      throw new ChainWalletError('The arcade wallet is not in this browser: reconnect it first.');
    }
    return createWalletClient({ account, chain: viem, transport: http(chain.rpcUrl) });
  }
  const extension = provider();
  if (extension === null) {
    throw new ChainWalletError('No browser wallet found: reconnect your wallet first.');
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

/** The player's wallet on the chain, as a deposit or a lock needs it. */
export interface VaultPayer {
  chain: ReadyChain;
  reader: PublicClient;
  kind: WalletKind;
  address: Address;
}

/**
 * Checks the wallet holds `amountUnits` HST and some ETH, has it sign an EIP-2612 permit letting
 * the vault take exactly that, then sends the vault call `send` builds with the permit's
 * deadline and signature. Resolves with the transaction hash once it is sent; throws
 * ChainWalletError with a message for the player. One permit path for deposits and play locks.
 */
async function sendWithVaultPermit(
  payer: VaultPayer,
  action: VaultAction,
  amountUnits: bigint,
  send: (
    wallet: WalletClient,
    permit: { deadline: bigint; v: number; r: Hex; s: Hex },
  ) => Promise<Hash>,
): Promise<Hash> {
  const { chain, reader, address } = payer;
  try {
    const holdings = await walletHoldings(reader, chain, address);
    if (holdings.hstUnits < amountUnits) {
      throw new ChainWalletError('Your wallet holds less HST than that.');
    }
    if (holdings.gasWei === 0n) throw new ChainWalletError(noGasMessage(action));
    const wallet: WalletClient = await walletClient(chain, payer.kind, address);
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
    return await send(wallet, { deadline, v: Number(v ?? BigInt(yParity + 27)), r, s });
  } catch (error) {
    throw new ChainWalletError(explainChainError(error, action));
  }
}

/**
 * Deposits `amountUnits` with `depositWithPermit`, crediting the coinop account `accountId` (the
 * player id). Resolves with the transaction hash once it is sent.
 */
export function sendDeposit(
  input: VaultPayer & { amountUnits: bigint; accountId: string },
): Promise<Hash> {
  return sendWithVaultPermit(input, 'deposit', input.amountUnits, (wallet, permit) =>
    wallet.writeContract({
      account: wallet.account ?? input.address,
      chain: wallet.chain,
      address: input.chain.vault,
      abi: arcadeVaultAbi,
      functionName: 'depositWithPermit',
      args: [
        input.amountUnits,
        uuidToBytes16(input.accountId),
        permit.deadline,
        permit.v,
        permit.r,
        permit.s,
      ],
    }),
  );
}

/**
 * Locks a play's cost with `lockPlayWithPermit` under the play id the arcade gave
 * (`POST /player/games/{gameId}/chain-plays`). Resolves with the transaction hash, the play's
 * `txid`, once it is sent.
 */
export function sendPlayLock(
  input: VaultPayer & { amountUnits: bigint; playIdBytes16: Hex },
): Promise<Hash> {
  return sendWithVaultPermit(input, 'lock', input.amountUnits, (wallet, permit) =>
    wallet.writeContract({
      account: wallet.account ?? input.address,
      chain: wallet.chain,
      address: input.chain.vault,
      abi: arcadeVaultAbi,
      functionName: 'lockPlayWithPermit',
      args: [input.playIdBytes16, input.amountUnits, permit.deadline, permit.v, permit.r, permit.s],
    }),
  );
}

/** What went wrong on the chain or in the wallet, in words a player can act on. */
export function explainChainError(error: unknown, action: VaultAction = 'deposit'): string {
  if (error instanceof ChainWalletError) return error.message;
  const noun = NOUN[action];
  if (error instanceof BaseError) {
    if (error.walk((e) => e instanceof UserRejectedRequestError) || hasCode(error, 4001)) {
      return 'You declined the request in your wallet: nothing was sent.';
    }
    if (error.walk((e) => e instanceof InsufficientFundsError)) return noGasMessage(action);
    const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError);
    if (reverted instanceof ContractFunctionRevertedError) {
      const name = reverted.data?.errorName;
      if (name === 'EnforcedPause') {
        return `The arcade has paused ${noun}s for now: nothing was sent. Try again later.`;
      }
      return `The vault refused the ${noun}${name ? ` (${name})` : ''}: nothing was sent.`;
    }
    return `The chain did not take the ${noun}: ${error.shortMessage}`;
  }
  return `The ${noun} failed: ${(error as Error).message}`;
}
