import { join, resolve } from 'node:path';
import { DEFAULTS } from './config-defaults.js';
import type { FlagReader } from './config-flags.js';
import { getAddress, isAddress } from 'viem';
import { ConfigError, describe, type FLAG_ENV } from './config-values.js';

/** Chain mode's settings (`--chain-*`) and the dev chain's (`--dev-chain`), read and checked. */

/**
 * The arcade's HST on an EVM chain (docs/concepts/chain.md): the vault contract that holds it and
 * how its events are read. Withdrawals and on-chain plays will add their settings here.
 */
export interface ChainConfig {
  /** JSON-RPC URL of the chain (`--chain-rpc-url`); may carry a provider's key: never logged. */
  readonly rpcUrl: string;
  /** The ArcadeVault, checksummed. HST's address is read from its `token()`. */
  readonly vaultAddress: `0x${string}`;
  /** Blocks on top of a deposit's block before it is credited. */
  readonly confirmations: number;
  /** Where reading the vault's events begins the first time: its deploy block. */
  readonly startBlock: bigint;
  readonly pollIntervalMs: number;
  /** The most blocks one `eth_getLogs` asks for. */
  readonly logRangeBlocksMax: number;
  readonly rpcTimeoutMs: number;
  /** The longest wait between tries while the chain cannot be reached. */
  readonly retryMaxMs: number;
  /**
   * The file holding the operator's signing key, sealed with the secrets key
   * (`--chain-operator-key-file`); null: withdrawals are accepted and queued, not sent.
   */
  readonly operatorKeyFile: string | null;
  /** The most withdrawals one `withdrawBatch` transaction pays. */
  readonly withdrawalBatchMax: number;
  /**
   * How often the watcher reconciles the vault with the ledger, halting the senders on a
   * shortfall (docs/concepts/chain.md#halts); 0: every round.
   */
  readonly reconcileIntervalMs: number;
  /**
   * A JSON-RPC URL of the same chain that browsers may use (`--chain-public-rpc-url`), for the
   * web app's wallet; null publishes none (the server's own URL may carry a provider's key).
   */
  readonly publicRpcUrl: string | null;
  /**
   * On a dev chain only: the unlocked Anvil account holding HST's MINTER_ROLE, from which the
   * faucet and the demo seed mint test HST on chain. Null on any other chain, where the faucet is
   * off: HST the ledger mints would not be in the vault.
   */
  readonly devChainMinter: `0x${string}` | null;
}

/** The local chain `--dev-chain` runs: Anvil, its state kept with the data directory. */
export interface DevChainConfig {
  /** Loopback: the dev chain's accounts are unlocked, so it is never exposed. */
  readonly host: string;
  readonly port: number;
  /** Anvil's chain state, the deployment, the sealed operator key: `<data-dir>/dev-chain`. */
  readonly dir: string;
  /** How often Anvil writes its state while running (it writes it on exit too). */
  readonly stateIntervalSeconds: number;
  readonly confirmations: number;
  readonly pollIntervalMs: number;
}

/** What the dev chain is once it runs, for `withDevChain`. */
export interface DevChainSettings {
  readonly rpcUrl: string;
  readonly vaultAddress: `0x${string}`;
  readonly startBlock: bigint;
  readonly operatorKeyFile: string;
  readonly minter: `0x${string}`;
}

/**
 * Chain mode is on when a vault is named; `--chain-rpc-url` alone only lets contract wallets sign
 * in, as before. The other chain flags need the vault, so a forgotten one is not silently ignored.
 */
export function chainConfig(
  rpcUrl: string | null,
  { text, int }: Pick<FlagReader, 'text' | 'int'>,
): ChainConfig | null {
  const vault = text('chainVaultAddress');
  if (vault === null) {
    for (const key of [
      'chainConfirmations',
      'chainStartBlock',
      'chainPollMs',
      'chainOperatorKeyFile',
      'chainPublicRpcUrl',
    ] as const) {
      if (text(key) !== null) {
        throw new ConfigError(`${describe(key)} needs ${describe('chainVaultAddress')}`);
      }
    }
    return null;
  }
  if (rpcUrl === null) {
    throw new ConfigError(`${describe('chainVaultAddress')} needs ${describe('chainRpcUrl')}`);
  }
  const startBlock = text('chainStartBlock');
  const operatorKeyFile = text('chainOperatorKeyFile');
  return {
    rpcUrl,
    vaultAddress: parseContractAddress('chainVaultAddress', vault),
    confirmations: int('chainConfirmations', DEFAULTS.chainConfirmations, 0, 10_000),
    startBlock:
      startBlock === null
        ? DEFAULTS.chainStartBlock
        : parseBlockNumber('chainStartBlock', startBlock),
    pollIntervalMs: int('chainPollMs', DEFAULTS.chainPollMs, 100, 3_600_000),
    logRangeBlocksMax: DEFAULTS.chainLogRangeBlocksMax,
    rpcTimeoutMs: DEFAULTS.chainRpcTimeoutMs,
    retryMaxMs: DEFAULTS.chainRetryMaxMs,
    operatorKeyFile: operatorKeyFile === null ? null : resolve(operatorKeyFile),
    withdrawalBatchMax: DEFAULTS.chainWithdrawalBatchMax,
    reconcileIntervalMs: DEFAULTS.chainReconcileIntervalMs,
    publicRpcUrl: parseChainRpcUrl(text('chainPublicRpcUrl'), 'chainPublicRpcUrl'),
    devChainMinter: null,
  };
}

/**
 * `--dev-chain` sets every chain setting itself, so chain flags beside it are refused rather than
 * silently ignored. The embedded chain, like the embedded database, is one process's.
 */
export function devChainConfig(
  dataDir: string,
  workers: number,
  { text, int, bool }: FlagReader,
): DevChainConfig | null {
  if (!bool('devChain')) {
    if (text('devChainPort') !== null) {
      throw new ConfigError(`${describe('devChainPort')} needs ${describe('devChain')}`);
    }
    return null;
  }
  for (const key of [
    'chainRpcUrl',
    'chainVaultAddress',
    'chainConfirmations',
    'chainStartBlock',
    'chainPollMs',
    'chainOperatorKeyFile',
    'chainPublicRpcUrl',
  ] as const) {
    if (text(key) !== null) {
      throw new ConfigError(
        `${describe('devChain')} runs its own chain and sets the chain settings: drop ${describe(key)}`,
      );
    }
  }
  if (workers > 1) {
    throw new ConfigError(
      `${describe('devChain')} runs in one process: drop ${describe('workers')}`,
    );
  }
  return {
    host: '127.0.0.1',
    port: int('devChainPort', DEFAULTS.devChainPort, 1, 65535),
    dir: join(dataDir, DEFAULTS.devChainDir),
    stateIntervalSeconds: DEFAULTS.devChainStateIntervalSeconds,
    confirmations: DEFAULTS.devChainConfirmations,
    pollIntervalMs: DEFAULTS.devChainPollMs,
  };
}

/**
 * A contract address: 0x and 40 hex digits, not the zero address; mixed case must be its EIP-55
 * checksum, so a mistyped address is caught here rather than watched forever. Checksummed.
 */
export function parseContractAddress(key: keyof typeof FLAG_ENV, value: string): `0x${string}` {
  if (!isAddress(value, { strict: false })) {
    throw new ConfigError(`${describe(key)} must be 0x and 40 hex digits, got ${value}`);
  }
  const mixedCase =
    value.slice(2) !== value.slice(2).toLowerCase() &&
    value.slice(2) !== value.slice(2).toUpperCase();
  if (mixedCase && !isAddress(value, { strict: true })) {
    throw new ConfigError(
      `${describe(key)} has mixed case that is not its EIP-55 checksum (a typo?), got ${value}`,
    );
  }
  if (/^0x0{40}$/i.test(value)) {
    throw new ConfigError(`${describe(key)} must not be the zero address`);
  }
  return getAddress(value);
}

/** A block number: a whole number written out in decimal. */
export function parseBlockNumber(key: keyof typeof FLAG_ENV, value: string): bigint {
  if (!/^\d{1,19}$/.test(value) || BigInt(value) > MAX_BLOCK_NUMBER) {
    throw new ConfigError(
      `${describe(key)} must be a block number (a whole number from 0 to ${MAX_BLOCK_NUMBER}), got ${value}`,
    );
  }
  return BigInt(value);
}
/** What Postgres' bigint holds, where block numbers are stored. */
const MAX_BLOCK_NUMBER = 2n ** 63n - 1n;

export function parseChainRpcUrl(
  value: string | null,
  key: 'chainRpcUrl' | 'chainPublicRpcUrl' = 'chainRpcUrl',
): string | null {
  if (value === null) return null;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new ConfigError(`${describe(key)} must be an http(s) URL, got ${value}`);
  }
  return value;
}
