import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { arcadeVaultAbi, deployArcadeContracts, UNITS_PER_HST } from '@coinop/contracts';
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  http,
  parseEther,
  type Address,
  type PublicClient,
} from 'viem';
import { anvil as anvilChain } from 'viem/chains';
import type { ChainConfig, DevChainConfig, DevChainSettings } from '../config.js';
import type { SecretBox } from '../credentials/secret-box.js';
import { generateOperatorKeyFile, readOperatorKey } from '../chain/operator-key.js';
import type { Queryable } from '../store/db.js';
import { readCheckpoint } from '../store/chain-checkpoints.js';
import { lastMinedBatch } from '../store/chain-batches.js';
import { ANVIL_CHAIN_ID, startPersistentAnvil } from './anvil.js';

/**
 * `coinop serve --dev-chain` (docs/operating/dev-chain.md): Anvil on loopback with HST and an
 * ArcadeVault deployed, its chain kept in `<data-dir>/dev-chain` beside the ledger, and the
 * operator's key generated and sealed there. Anvil's accounts are unlocked (it signs for them), so
 * the deployer, the minter and the demo wallets need no key here; only the operator's key, which
 * the withdrawal sender signs with itself, is a file.
 */

/** Anvil's first account (`test … junk` mnemonic): deploys, and holds every admin role. */
export const DEV_CHAIN_ADMIN: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const STATE_FILE = 'state.json';
const PID_FILE = 'anvil.pid';
const DEPLOYMENT_FILE = 'deployment.json';
const OPERATOR_KEY_FILE = 'operator.key';
/** Gas for the operator's withdrawal batches: a dev chain's ETH is free. */
const OPERATOR_ETH = parseEther('100');
/** Limits far above what a developer tries, so a test withdrawal is never refused by them. */
const DEV_VAULT_LIMITS = {
  maxWithdrawal: 1_000_000n * UNITS_PER_HST,
  dailyWithdrawalLimit: 10_000_000n * UNITS_PER_HST,
  lockTimeoutSeconds: 86_400n,
};

/** What to do when the dev chain and the ledger disagree, for every message that says so. */
export function devChainResetAdvice(dataDir: string, databaseUrl: string | null): string {
  const database = databaseUrl === null ? '' : ', and drop and create the database';
  return (
    `reset the dev chain and the ledger together: stop coinop, delete ${dataDir}${database}, ` +
    'and start again (docs/operating/dev-chain.md)'
  );
}

/** The dev chain cannot be used as it is: the message says why and how to reset it. */
export class DevChainError extends Error {
  override readonly name = 'DevChainError';
}

/** What `deployment.json` records of the contracts on the dev chain. */
export interface Deployment {
  readonly chainId: number;
  readonly hst: Address;
  readonly vault: Address;
  readonly vaultBlockNumber: string;
  readonly admin: Address;
  readonly operator: Address;
}

export interface RunningDevChain {
  readonly settings: DevChainSettings;
  /** The contracts on the chain, as `deployment.json` records them. */
  readonly deployment: Deployment;
  /** True when this start deployed the contracts on a new chain. */
  readonly deployed: boolean;
  /** Stops Anvil, which writes the chain's state first. */
  stop(): Promise<void>;
}

/** Whether the dev chain in `dir` has its contracts deployed (a start after the first). */
export function hasDevChainDeployment(dir: string): boolean {
  return existsSync(join(dir, DEPLOYMENT_FILE));
}

/** The dev chain's deployment, from `deployment.json` in its directory; throws when missing. */
export async function readDevChainDeployment(dir: string): Promise<Deployment> {
  const path = join(dir, DEPLOYMENT_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new DevChainError(
      `no dev chain in ${dir}: ${path} is missing (start coinop serve --dev-chain)`,
    );
  }
  return JSON.parse(text) as Deployment;
}

/**
 * Starts Anvil on the dev chain's state, deploying HST and the vault on first start (the operator
 * key is generated then, sealed with `box`). Later starts check that the state still holds the
 * deployed vault. Throws DevChainError (or AnvilError) naming what is wrong; Anvil is stopped then.
 */
export async function startDevChain(
  devChain: DevChainConfig,
  reset: string,
  box: SecretBox,
): Promise<RunningDevChain> {
  await mkdir(devChain.dir, { recursive: true, mode: 0o700 });
  const anvil = await startPersistentAnvil({
    host: devChain.host,
    port: devChain.port,
    stateFile: join(devChain.dir, STATE_FILE),
    stateIntervalSeconds: devChain.stateIntervalSeconds,
    pidFile: join(devChain.dir, PID_FILE),
  });
  try {
    const client = createPublicClient({
      chain: anvilChain,
      transport: http(anvil.rpcUrl),
      pollingInterval: 20,
    });
    const deploymentPath = join(devChain.dir, DEPLOYMENT_FILE);
    const keyFile = join(devChain.dir, OPERATOR_KEY_FILE);
    let deployment: Deployment;
    let deployed = false;
    if (hasDevChainDeployment(devChain.dir)) {
      deployment = await readDevChainDeployment(devChain.dir);
      await checkDeployment(client, deployment, reset);
    } else {
      if ((await client.getBlockNumber()) > 0n) {
        throw new DevChainError(
          `the dev chain in ${devChain.dir} has blocks but no ${DEPLOYMENT_FILE} naming its ` +
            `contracts: ${reset}`,
        );
      }
      deployment = await deploy(anvil.rpcUrl, client, keyFile, box);
      await writeFile(deploymentPath, `${JSON.stringify(deployment, null, 2)}\n`, { mode: 0o600 });
      deployed = true;
    }
    return {
      settings: {
        rpcUrl: anvil.rpcUrl,
        vaultAddress: deployment.vault,
        startBlock: BigInt(deployment.vaultBlockNumber),
        operatorKeyFile: keyFile,
        minter: deployment.admin,
      },
      deployment,
      deployed,
      stop: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

async function deploy(
  rpcUrl: string,
  client: PublicClient,
  keyFile: string,
  box: SecretBox,
): Promise<Deployment> {
  // A key file left by a start that died before deploying is used again, not replaced.
  const operator = existsSync(keyFile)
    ? (await readOperatorKey(keyFile, box)).address
    : await generateOperatorKeyFile(keyFile, box);
  const admin = createWalletClient({
    account: DEV_CHAIN_ADMIN,
    chain: anvilChain,
    transport: http(rpcUrl),
  });
  const { hst, vault, vaultBlockNumber } = await deployArcadeContracts(admin, client, {
    admin: DEV_CHAIN_ADMIN,
    operator,
    limits: DEV_VAULT_LIMITS,
  });
  await createTestClient({ mode: 'anvil', chain: anvilChain, transport: http(rpcUrl) }).setBalance({
    address: operator,
    value: OPERATOR_ETH,
  });
  return {
    chainId: ANVIL_CHAIN_ID,
    hst,
    vault,
    vaultBlockNumber: vaultBlockNumber.toString(),
    admin: DEV_CHAIN_ADMIN,
    operator,
  };
}

/** The state Anvil loaded still holds the vault deployment.json names, holding its HST. */
async function checkDeployment(
  client: PublicClient,
  deployment: Deployment,
  reset: string,
): Promise<void> {
  const code = await client.getCode({ address: deployment.vault });
  const token =
    code === undefined || code === '0x'
      ? null
      : await client.readContract({
          address: deployment.vault,
          abi: arcadeVaultAbi,
          functionName: 'token',
        });
  if (token === null || getAddress(token) !== getAddress(deployment.hst)) {
    throw new DevChainError(
      `the dev chain's state does not hold the vault ${deployment.vault} its deployment.json ` +
        `names (its state file was lost or replaced): ${reset}`,
    );
  }
}

/**
 * Checks that the ledger agrees with the dev chain before anything reads or writes either: the
 * block the deposit watcher last recorded is still on the chain with the same hash, the last
 * withdrawal batch the ledger saw mined is still there, and a ledger that never read the chain
 * finds no deposits on it made for another ledger's accounts. They disagree when the chain lost
 * blocks the ledger had already read (its state file is written every second: a kill -9 of the
 * whole process group can lose the last second), or when one of the two was deleted or replaced;
 * the watcher would take lost blocks for a deep reorganisation and halt. Throws DevChainError
 * with the reset.
 */
export async function checkLedgerAgreesWithDevChain(
  db: Queryable,
  chain: ChainConfig,
  reset: string,
): Promise<void> {
  const client = createPublicClient({ chain: anvilChain, transport: http(chain.rpcUrl) });
  const key = { chainId: ANVIL_CHAIN_ID, vaultAddress: chain.vaultAddress };
  const checkpoint = await readCheckpoint(db, key);
  const head = await client.getBlockNumber({ cacheTime: 0 });
  const disagree = (why: string) =>
    new DevChainError(`the dev chain and the ledger disagree: ${why}. ${capitalise(reset)}`);
  if (checkpoint?.reorgDetectedAt) {
    throw disagree(`the ledger's chain watcher halted at block ${checkpoint.blockNumber}`);
  }
  if (checkpoint && checkpoint.blockNumber !== null) {
    if (checkpoint.blockNumber > head) {
      throw disagree(
        `the ledger has read the chain up to block ${checkpoint.blockNumber}, and the chain ends ` +
          `at block ${head} (it lost its last blocks, as a kill -9 can, or was replaced)`,
      );
    }
    const block = await client.getBlock({ blockNumber: checkpoint.blockNumber });
    if (block.hash !== checkpoint.blockHash) {
      throw disagree(
        `block ${checkpoint.blockNumber} is ${block.hash} on the chain and ` +
          `${checkpoint.blockHash} in the ledger (the chain was replaced)`,
      );
    }
  }
  if (!checkpoint) {
    const deposits = await client.getContractEvents({
      address: chain.vaultAddress,
      abi: arcadeVaultAbi,
      eventName: 'Deposited',
      fromBlock: chain.startBlock,
      toBlock: head,
    });
    if (deposits.length > 0) {
      throw disagree(
        `the ledger has never read the chain, which holds ${deposits.length} deposits made for ` +
          "another ledger's accounts (the ledger was deleted or replaced)",
      );
    }
  }
  const last = await lastMinedBatch(db, key);
  if (last) {
    const receipt = await client
      .getTransactionReceipt({ hash: last.txHash as `0x${string}` })
      .catch(() => null);
    if (receipt === null || receipt.blockNumber !== last.blockNumber) {
      throw disagree(
        `the withdrawal batch ${last.txHash}, mined in block ${last.blockNumber} as the ledger ` +
          'recorded, is not on the chain',
      );
    }
  }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
