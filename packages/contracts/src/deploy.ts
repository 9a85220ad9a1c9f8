import {
  type Account,
  type Address,
  type Chain,
  getAddress,
  type Hash,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { arcadeVaultAbi, arcadeVaultBytecode, hstAbi, hstBytecode } from '#artifacts';

/** The vault's limits, as its admin would set them. */
export interface VaultLimits {
  /** The most one withdrawal may pay, in HST base units. */
  maxWithdrawal: bigint;
  /** The most all withdrawals together may pay in one UTC day, in HST base units. */
  dailyWithdrawalLimit: bigint;
  /** How long after locking a player may reclaim an open play lock (1 s to 30 days). */
  lockTimeoutSeconds: bigint;
}

export interface DeployArcadeOptions {
  /** Holds the vault's DEFAULT_ADMIN_ROLE and PAUSER_ROLE, and HST's admin and MINTER_ROLE. */
  admin: Address;
  /** Holds the vault's OPERATOR_ROLE: pays withdrawals, settles and refunds plays. */
  operator: Address;
  limits: VaultLimits;
  /** An HST already deployed, to use instead of deploying a new one. */
  hst?: Address;
}

export interface ArcadeDeployment {
  /** Checksummed, as every address here. */
  hst: Address;
  vault: Address;
  /** The block the vault was created in: where a chain watcher starts reading its events. */
  vaultBlockNumber: bigint;
}

/**
 * Deploys HST (unless `options.hst` names one) and an ArcadeVault holding it, from the wallet
 * client's account, and waits for each to be mined. Roles go to `admin` and `operator` in the
 * constructors, so the deploying account keeps none unless it is one of them.
 *
 * @example
 * const { hst, vault } = await deployArcadeContracts(wallet, client, {
 *   admin: wallet.account.address,
 *   operator: operatorAddress,
 *   limits: { maxWithdrawal: 1_000n * UNITS_PER_HST, dailyWithdrawalLimit: 10_000n * UNITS_PER_HST, lockTimeoutSeconds: 86_400n },
 * });
 */
export async function deployArcadeContracts(
  walletClient: WalletClient<Transport, Chain, Account>,
  publicClient: PublicClient,
  options: DeployArcadeOptions,
): Promise<ArcadeDeployment> {
  const { admin, operator, limits } = options;
  const hst =
    (options.hst && getAddress(options.hst)) ??
    (
      await mined(
        publicClient,
        'HST',
        await walletClient.deployContract({ abi: hstAbi, bytecode: hstBytecode, args: [admin] }),
      )
    ).address;
  const vault = await mined(
    publicClient,
    'ArcadeVault',
    await walletClient.deployContract({
      abi: arcadeVaultAbi,
      bytecode: arcadeVaultBytecode,
      args: [
        hst,
        admin,
        operator,
        limits.maxWithdrawal,
        limits.dailyWithdrawalLimit,
        limits.lockTimeoutSeconds,
      ],
    }),
  );
  return { hst, vault: vault.address, vaultBlockNumber: vault.blockNumber };
}

async function mined(
  publicClient: PublicClient,
  name: string,
  hash: Hash,
): Promise<{ address: Address; blockNumber: bigint }> {
  const receipt = await publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(`deploying ${name} failed (transaction ${hash}, status ${receipt.status})`);
  }
  return { address: getAddress(receipt.contractAddress), blockNumber: receipt.blockNumber };
}
