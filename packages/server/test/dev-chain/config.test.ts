import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, withDevChain } from '../../src/config.js';

const VAULT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

describe('--dev-chain in config', () => {
  it('is off by default, and on with its defaults: loopback, port 8545, state in the data dir', () => {
    expect(loadConfig({}, {}).devChain).toBeNull();
    const config = loadConfig({ devChain: true, dataDir: 'here' }, {});
    expect(config.devChain).toEqual({
      host: '127.0.0.1',
      port: 8545,
      dir: join(resolve('here'), 'dev-chain'),
      stateIntervalSeconds: 1,
      confirmations: 0,
      pollIntervalMs: 250,
    });
    // Chain mode begins once the dev chain runs and its vault is known.
    expect(config.chain).toBeNull();
    expect(
      loadConfig({}, { COINOP_DEV_CHAIN: '1', COINOP_DEV_CHAIN_PORT: '9545' }).devChain?.port,
    ).toBe(9545);
  });

  it('becomes chain mode on the dev chain, whose RPC URL browsers may use', () => {
    const config = withDevChain(loadConfig({ devChain: true, demo: true }, {}), {
      rpcUrl: 'http://127.0.0.1:8545',
      vaultAddress: VAULT,
      startBlock: 2n,
      operatorKeyFile: '/data/dev-chain/operator.key',
      minter: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    });
    expect(config.chainRpcUrl).toBe('http://127.0.0.1:8545');
    expect(config.faucetHst).toBe(100);
    expect(config.chain).toEqual({
      rpcUrl: 'http://127.0.0.1:8545',
      vaultAddress: VAULT,
      confirmations: 0,
      startBlock: 2n,
      pollIntervalMs: 250,
      logRangeBlocksMax: 2000,
      rpcTimeoutMs: 10_000,
      retryMaxMs: 60_000,
      operatorKeyFile: '/data/dev-chain/operator.key',
      withdrawalBatchMax: 50,
      reconcileIntervalMs: 60_000,
      publicRpcUrl: 'http://127.0.0.1:8545',
      devChainMinter: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('publishes a public RPC URL only when given one in chain mode', () => {
    const flags = { chainRpcUrl: 'https://rpc.example.com/v3/key', chainVaultAddress: VAULT };
    expect(loadConfig(flags, {}).chain?.publicRpcUrl).toBeNull();
    expect(
      loadConfig({ ...flags, chainPublicRpcUrl: 'https://public.example.com' }, {}).chain
        ?.publicRpcUrl,
    ).toBe('https://public.example.com');
  });

  it('turns the demo faucet off in chain mode off a dev chain', () => {
    const flags = { chainRpcUrl: 'http://x', chainVaultAddress: VAULT, demo: true };
    expect(loadConfig(flags, {}).faucetHst).toBe(0);
    expect(loadConfig({ ...flags, faucetHst: '0' }, {}).faucetHst).toBe(0);
  });

  it.each([
    [
      { devChain: true, chainRpcUrl: 'http://127.0.0.1:8545' },
      '--dev-chain (COINOP_DEV_CHAIN) runs its own chain and sets the chain settings: drop --chain-rpc-url (COINOP_CHAIN_RPC_URL)',
    ],
    [
      { devChain: true, chainConfirmations: '3' },
      '--dev-chain (COINOP_DEV_CHAIN) runs its own chain and sets the chain settings: drop --chain-confirmations (COINOP_CHAIN_CONFIRMATIONS)',
    ],
    [
      { devChain: true, workers: '2', databaseUrl: 'postgres://x/y' },
      '--dev-chain (COINOP_DEV_CHAIN) runs in one process: drop --workers (COINOP_WORKERS)',
    ],
    [
      { devChain: true, services: 'auth,web' },
      '--dev-chain (COINOP_DEV_CHAIN) runs with the api service: add it to --services',
    ],
    [{ devChainPort: '9545' }, '--dev-chain-port (COINOP_DEV_CHAIN_PORT) needs --dev-chain'],
    [
      { devChain: true, devChainPort: '0' },
      '--dev-chain-port (COINOP_DEV_CHAIN_PORT) must be a whole number from 1 to 65535, got 0',
    ],
    [
      { chainPublicRpcUrl: 'https://public.example.com' },
      '--chain-public-rpc-url (COINOP_CHAIN_PUBLIC_RPC_URL) needs --chain-vault-address',
    ],
    [
      {
        chainRpcUrl: 'http://x',
        chainVaultAddress: VAULT,
        chainPublicRpcUrl: 'ws://public.example.com',
      },
      '--chain-public-rpc-url (COINOP_CHAIN_PUBLIC_RPC_URL) must be an http(s) URL, got ws://public.example.com',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: VAULT, faucetHst: '100' },
      '--faucet-hst (COINOP_FAUCET_HST) is for a dev arcade: in chain mode the ledger',
    ],
  ])('refuses %o naming the flag', (flags, message) => {
    expect(() => loadConfig(flags, {})).toThrow(ConfigError);
    expect(() => loadConfig(flags, {})).toThrow(message);
  });
});
