import { arcadeVaultAbi, hstAbi, uuidToBytes16 } from '@coinop/contracts';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  http,
  parseEther,
  type Address,
  type Hash,
} from 'viem';
import { anvil as anvilChain } from 'viem/chains';
import type { ChainConfig } from '../config.js';

/**
 * Test HST and ETH on the dev chain, for the faucet and the demo seed: HST minted by the dev
 * chain's minter, ETH set by Anvil, deposits sent from Anvil's unlocked accounts. Anvil signs for
 * its accounts, so no key is held here. Only for a dev chain (`chain.devChainMinter`).
 */

/** ETH a wallet is topped up to, for its deposits' and plays' gas: many thousands of them. */
export const DEV_WALLET_GAS_ETH = parseEther('1');

export class DevChainFunds {
  readonly #vault: Address;
  readonly #startBlock: bigint;
  readonly #minter: Address;
  readonly #reader;
  readonly #rpcUrl: string;
  #hst: Address | null = null;

  constructor(
    chain: Pick<
      ChainConfig,
      'rpcUrl' | 'vaultAddress' | 'startBlock' | 'devChainMinter' | 'rpcTimeoutMs'
    >,
  ) {
    if (chain.devChainMinter === null) throw new TypeError('DevChainFunds needs a dev chain');
    this.#vault = chain.vaultAddress;
    this.#startBlock = chain.startBlock;
    this.#minter = chain.devChainMinter;
    this.#rpcUrl = chain.rpcUrl;
    this.#reader = createPublicClient({
      chain: anvilChain,
      transport: http(chain.rpcUrl, { timeout: chain.rpcTimeoutMs }),
      pollingInterval: 20,
      cacheTime: 0,
    });
  }

  /** HST's address: the vault's token. */
  async hst(): Promise<Address> {
    this.#hst ??= getAddress(
      await this.#reader.readContract({
        address: this.#vault,
        abi: arcadeVaultAbi,
        functionName: 'token',
      }),
    );
    return this.#hst;
  }

  /** The HST a wallet holds on chain, in base units. */
  async walletHst(wallet: Address): Promise<bigint> {
    return this.#reader.readContract({
      address: await this.hst(),
      abi: hstAbi,
      functionName: 'balanceOf',
      args: [wallet],
    });
  }

  /** Mints `units` of HST to `wallet`; resolves once mined, with the transaction's hash. */
  async mint(wallet: Address, units: bigint): Promise<Hash> {
    return this.#mined(
      await this.#walletOf(this.#minter).writeContract({
        address: await this.hst(),
        abi: hstAbi,
        functionName: 'mint',
        args: [wallet, units],
      }),
    );
  }

  /** Raises the wallet's ETH to `DEV_WALLET_GAS_ETH` if it holds less (Anvil's setBalance). */
  async topUpGas(wallet: Address): Promise<void> {
    const balance = await this.#reader.getBalance({ address: wallet });
    if (balance >= DEV_WALLET_GAS_ETH) return;
    await createTestClient({
      mode: 'anvil',
      chain: anvilChain,
      transport: http(this.#rpcUrl),
    }).setBalance({ address: wallet, value: DEV_WALLET_GAS_ETH });
  }

  /**
   * Deposits `units` from `from`, one of Anvil's unlocked accounts, into the vault for the coinop
   * account `accountId` (an approval, then `deposit`); resolves with the deposit's hash once mined.
   */
  async depositFrom(from: Address, accountId: string, units: bigint): Promise<Hash> {
    const wallet = this.#walletOf(from);
    await this.#mined(
      await wallet.writeContract({
        address: await this.hst(),
        abi: hstAbi,
        functionName: 'approve',
        args: [this.#vault, units],
      }),
    );
    return this.#mined(
      await wallet.writeContract({
        address: this.#vault,
        abi: arcadeVaultAbi,
        functionName: 'deposit',
        args: [units, uuidToBytes16(accountId)],
      }),
    );
  }

  /** Whether `from` ever deposited into the vault for `accountId`. */
  async hasDeposited(from: Address, accountId: string): Promise<boolean> {
    const logs = await this.#reader.getContractEvents({
      address: this.#vault,
      abi: arcadeVaultAbi,
      eventName: 'Deposited',
      args: { account: uuidToBytes16(accountId), from },
      fromBlock: this.#startBlock,
      toBlock: 'latest',
    });
    return logs.length > 0;
  }

  #walletOf(account: Address) {
    return createWalletClient({ account, chain: anvilChain, transport: http(this.#rpcUrl) });
  }

  async #mined(hash: Hash): Promise<Hash> {
    const receipt = await this.#reader.waitForTransactionReceipt({ hash });
    if (receipt.status !== 'success') throw new Error(`dev chain transaction ${hash} reverted`);
    return hash;
  }
}
