// A local chain for the bench: Anvil from the npm registry with the arcade's contracts deployed,
// and a way to fund wallets with HST and deposit it into the vault.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import {
  arcadeVaultAbi,
  deployArcadeContracts,
  hstAbi,
  UNITS_PER_HST,
  uuidToBytes16,
} from '@coinop/contracts';
import { createPublicClient, createWalletClient, defineChain, http, maxUint256, toHex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { freePort } from './postgres.mjs';

const MNEMONIC = 'test test test test test test test test test test test junk';

function anvilBinary() {
  const require = createRequire(import.meta.url);
  const wrapper = require.resolve('@foundry-rs/anvil/package.json');
  const arch = { x64: 'amd64', arm64: 'arm64' }[process.arch] ?? process.arch;
  const dir = dirname(
    createRequire(wrapper).resolve(`@foundry-rs/anvil-${process.platform}-${arch}/package.json`),
  );
  const binary = join(dir, 'bin', 'anvil');
  if (!existsSync(binary)) throw new Error(`no Anvil binary at ${binary}`);
  return binary;
}

/** Anvil with HST and a vault deployed (account 0 is admin and operator). */
export async function startChain() {
  const port = await freePort(8600);
  const child = spawn(anvilBinary(), ['--port', String(port), '--silent'], { stdio: 'ignore' });
  const rpcUrl = `http://127.0.0.1:${port}`;
  const chain = defineChain({
    id: 31337,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const client = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 });
  for (let tries = 0; ; tries++) {
    try {
      await client.getChainId();
      break;
    } catch (error) {
      if (tries > 150) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const accounts = Array.from({ length: 10 }, (_, addressIndex) =>
    mnemonicToAccount(MNEMONIC, { addressIndex }),
  );
  const wallet = (account) => createWalletClient({ account, chain, transport: http(rpcUrl) });
  const admin = wallet(accounts[0]);
  const limit = 1_000_000_000n * UNITS_PER_HST;
  const deployment = await deployArcadeContracts(admin, client, {
    admin: accounts[0].address,
    operator: accounts[0].address,
    limits: { maxWithdrawal: limit, dailyWithdrawalLimit: limit, lockTimeoutSeconds: 86_400n },
  });
  return {
    rpcUrl,
    client,
    deployment,
    /** Account 0's private key (Anvil's well-known test mnemonic): the vault's operator. */
    operatorKey: toHex(accounts[0].getHdKey().privateKey),
    /** Gives each of Anvil's accounts 1..n `hst` HST and lets the vault take it. */
    async fundDepositors(n, hst) {
      const depositors = accounts.slice(1, 1 + n);
      for (const account of depositors) {
        const minted = await admin.writeContract({
          address: deployment.hst,
          abi: hstAbi,
          functionName: 'mint',
          args: [account.address, BigInt(hst) * UNITS_PER_HST],
        });
        await client.waitForTransactionReceipt({ hash: minted });
        const approved = await wallet(account).writeContract({
          address: deployment.hst,
          abi: hstAbi,
          functionName: 'approve',
          args: [deployment.vault, maxUint256],
        });
        await client.waitForTransactionReceipt({ hash: approved });
      }
      return depositors.map(wallet);
    },
    /** One deposit of `units` into `accountId` from `depositor`; resolves with its tx hash. */
    deposit(depositor, accountId, units) {
      return depositor.writeContract({
        address: deployment.vault,
        abi: arcadeVaultAbi,
        functionName: 'deposit',
        args: [units, uuidToBytes16(accountId)],
      });
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => child.on('close', r));
    },
  };
}

/**
 * Seals `key` into `<dataDir>/operator.key` with `coinop admin chain operator-key import` (the
 * data directory's secrets key, which `coinop serve --data-dir` uses, made here before the first
 * serve: the command never makes one), and returns the file.
 */
export async function sealOperatorKey(cliPath, dataDir, key) {
  const out = join(dataDir, 'operator.key');
  const secretsKey = join(dataDir, 'secrets-key');
  if (!existsSync(secretsKey)) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(secretsKey, randomBytes(32).toString('hex'), { mode: 0o600 });
  }
  const child = spawn(
    process.execPath,
    [cliPath, 'admin', 'chain', 'operator-key', 'import', '--out', out, '--data-dir', dataDir],
    { stdio: ['pipe', 'ignore', 'inherit'] },
  );
  child.stdin.end(key);
  const code = await new Promise((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`operator-key import exited ${code}`);
  return out;
}
