import { type ChildProcess, spawn } from 'node:child_process';
import { pbkdf2Sync } from 'node:crypto';
import { anvilBinary, stopProcess } from 'coinop/dev-chain/anvil.js';
import { type Hex, toHex } from 'viem';
import { HDKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { freePort } from './net.js';

/** Foundry's well-known test mnemonic: Anvil's default accounts, public, never for real funds. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';
const ACCOUNT_COUNT = 10;
const ACCOUNT_BALANCE_ETH = 10_000;
const READY_TIMEOUT_MS = 15_000;

export interface AnvilAccount extends PrivateKeyAccount {
  privateKey: Hex;
}

export interface AnvilNode {
  rpcUrl: string;
  chainId: number;
  /** Anvil's funded accounts (10,000 ETH each), from `ANVIL_MNEMONIC`. */
  accounts: readonly AnvilAccount[];
  /** Stops the node; its chain is gone. */
  stop(): Promise<void>;
}

export interface AnvilOptions {
  /** More `anvil` flags, for instance `['--block-time', '1']` for interval mining. */
  args?: readonly string[];
}

/** The Anvil binary `coinop serve --dev-chain` runs too; throws when it is missing. */
export { anvilBinary };

/** Anvil's default accounts, derived as Anvil derives them (BIP-44, m/44'/60'/0'/0/i). */
export function anvilAccounts(count = ACCOUNT_COUNT): AnvilAccount[] {
  // BIP-39's seed is PBKDF2-SHA512 of the mnemonic, salted "mnemonic", 2048 rounds.
  const seed = pbkdf2Sync(ANVIL_MNEMONIC, 'mnemonic', 2048, 64, 'sha512');
  const root = HDKey.fromMasterSeed(seed);
  return Array.from({ length: count }, (_, index) => {
    const key = root.derive(`m/44'/60'/0'/0/${index}`).privateKey;
    if (!key) throw new Error(`no private key at account ${index}`);
    const privateKey = toHex(key);
    return { ...privateKeyToAccount(privateKey), privateKey };
  });
}

/**
 * Starts a fresh Anvil on a free port of 127.0.0.1 and waits until it answers `eth_chainId`.
 * Automine by default: each transaction is mined in its own block at once.
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilNode> {
  const binary = anvilBinary();
  // Another process may take the free port before Anvil binds it: try a few.
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const child = spawn(
      binary,
      [
        '--host',
        '127.0.0.1',
        '--port',
        String(port),
        '--mnemonic',
        ANVIL_MNEMONIC,
        '--accounts',
        String(ACCOUNT_COUNT),
        '--balance',
        String(ACCOUNT_BALANCE_ETH),
        '--silent',
        ...(options.args ?? []),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const rpcUrl = `http://127.0.0.1:${port}`;
    try {
      const chainId = await waitUntilReady(child, rpcUrl);
      return { rpcUrl, chainId, accounts: anvilAccounts(), stop: () => stopProcess(child) };
    } catch (error) {
      lastError = error;
      await stopProcess(child);
    }
  }
  throw lastError;
}

async function waitUntilReady(child: ChildProcess, rpcUrl: string): Promise<number> {
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4_000);
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`anvil exited (${child.exitCode ?? child.signalCode}): ${stderr.trim()}`);
    }
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
        signal: AbortSignal.timeout(1_000),
      });
      const body = (await response.json()) as { result?: string };
      if (body.result) return Number(BigInt(body.result));
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`anvil did not answer at ${rpcUrl} within ${READY_TIMEOUT_MS} ms: ${stderr}`);
}
