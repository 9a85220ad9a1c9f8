import { deployArcadeContracts } from '@coinop/contracts';
import { CoinopError, parseHst } from '@coinop/core';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
  isAddress,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describeChainError } from '../chain/rpc.js';
import { CliError, ExitCodes } from './cli-error.js';
import { readKeyFromStdin } from './stdin.js';

/** The vault's own bound on the lock timeout (MAX_LOCK_TIMEOUT, 30 days). */
const LOCK_TIMEOUT_MAX_SECONDS = 30 * 86_400;
/** A deployment waits for two transactions; a node that takes longer than this is stuck. */
const DEPLOY_TIMEOUT_MS = 600_000;

/** The options of `coinop admin chain deploy`, as the command line gives them. */
export interface DeployOptions {
  rpcUrl: string;
  admin: string;
  operator: string;
  hst?: string;
  maxWithdrawal: string;
  dailyWithdrawalLimit: string;
  lockTimeout: string;
}

/** `coinop admin chain deploy`'s work (the command is defined in chain-deploy.ts). */
export async function deployFromCli(options: DeployOptions): Promise<void> {
  const admin = address(options.admin, '--admin');
  const operator = address(options.operator, '--operator');
  const hst = options.hst === undefined ? undefined : address(options.hst, '--hst');
  const limits = {
    maxWithdrawal: hstAmount(options.maxWithdrawal, '--max-withdrawal'),
    dailyWithdrawalLimit: hstAmount(options.dailyWithdrawalLimit, '--daily-withdrawal-limit'),
    lockTimeoutSeconds: lockTimeout(options.lockTimeout),
  };
  if (!URL.canParse(options.rpcUrl) || !/^https?:$/.test(new URL(options.rpcUrl).protocol)) {
    throw new CliError('--rpc-url must be an http(s) URL', ExitCodes.usage);
  }
  const deployer = privateKeyToAccount(privateKey(await readKeyFromStdin()));
  const transport = http(options.rpcUrl, { timeout: 30_000 });
  const reader = createPublicClient({ transport });
  const chainId = await onChain(options.rpcUrl, () => reader.getChainId());
  const chain = defineChain({
    id: chainId,
    name: `chain ${chainId}`,
    nativeCurrency: { name: 'gas', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: [options.rpcUrl] } },
  });
  const wallet = createWalletClient({ account: deployer, chain, transport });
  const publicClient = createPublicClient({ chain, transport });
  const deployed = await onChain(options.rpcUrl, () =>
    withTimeout(
      deployArcadeContracts(wallet, publicClient, {
        admin,
        operator,
        limits,
        ...(hst ? { hst } : {}),
      }),
    ),
  );
  const answer = {
    chainId,
    hst: deployed.hst,
    vault: deployed.vault,
    vaultBlockNumber: Number(deployed.vaultBlockNumber),
    admin,
    operator,
    deployer: deployer.address,
    serveFlags:
      `--chain-vault-address ${deployed.vault} ` +
      `--chain-start-block ${deployed.vaultBlockNumber}`,
  };
  process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
}

function address(value: string, flag: string): Address {
  if (!isAddress(value, { strict: true })) {
    throw new CliError(
      `${flag} must be an address: 0x and 40 hex digits, mixed case only as its EIP-55 checksum`,
      ExitCodes.usage,
    );
  }
  if (/^0x0{40}$/.test(value)) throw new CliError(`${flag} must not be 0x0`, ExitCodes.usage);
  return getAddress(value);
}

function hstAmount(value: string, flag: string): bigint {
  try {
    const units = parseHst(value, flag);
    if (units <= 0n) throw new CliError(`${flag} must be more than 0 HST`, ExitCodes.usage);
    return units;
  } catch (error) {
    if (error instanceof CoinopError) throw new CliError(error.message, ExitCodes.usage);
    throw error;
  }
}

function lockTimeout(value: string): bigint {
  const seconds = /^\d{1,8}$/.test(value) ? Number(value) : NaN;
  if (!(seconds >= 1 && seconds <= LOCK_TIMEOUT_MAX_SECONDS)) {
    throw new CliError(
      `--lock-timeout must be whole seconds from 1 to ${LOCK_TIMEOUT_MAX_SECONDS} (30 days)`,
      ExitCodes.usage,
    );
  }
  return BigInt(seconds);
}

function privateKey(text: string): Hex {
  const trimmed = text.trim();
  const hex = trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`;
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) {
    throw new CliError(
      'the deploying key must come on stdin: 64 hex digits (a secp256k1 private key), e.g. printf \'%s\' "$KEY" | coinop admin chain deploy …',
      ExitCodes.usage,
    );
  }
  return hex as Hex;
}

async function onChain<T>(rpcUrl: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      `the deployment failed: ${describeChainError(error, rpcUrl)}`,
      ExitCodes.failure,
    );
  }
}

async function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no receipt within ${DEPLOY_TIMEOUT_MS / 1000} s`)),
      DEPLOY_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
