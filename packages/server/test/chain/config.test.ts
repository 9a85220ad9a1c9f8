import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createChainClient, describeChainError, redactRpcUrl } from '../../src/chain/rpc.js';

const VAULT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

describe('chain mode in config', () => {
  it('is off without a vault, as before: an RPC URL alone only lets contract wallets sign in', () => {
    expect(loadConfig({}, {}).chain).toBeNull();
    const rpcOnly = loadConfig({}, { COINOP_CHAIN_RPC_URL: 'https://rpc.example.com/v3/key' });
    expect(rpcOnly.chainRpcUrl).toBe('https://rpc.example.com/v3/key');
    expect(rpcOnly.chain).toBeNull();
  });

  it('is on with a vault, with defaults for the rest', () => {
    const config = loadConfig(
      { chainRpcUrl: 'http://127.0.0.1:8545', chainVaultAddress: VAULT.toLowerCase() },
      {},
    );
    expect(config.chain).toEqual({
      rpcUrl: 'http://127.0.0.1:8545',
      vaultAddress: VAULT,
      confirmations: 12,
      startBlock: 0n,
      pollIntervalMs: 2000,
      logRangeBlocksMax: 2000,
      rpcTimeoutMs: 10_000,
      retryMaxMs: 60_000,
      operatorKeyFile: null,
      withdrawalBatchMax: 50,
      reconcileIntervalMs: 60_000,
      publicRpcUrl: null,
      devChainMinter: null,
    });
  });

  it('reads flags over the environment', () => {
    const config = loadConfig(
      { chainConfirmations: '64' },
      {
        COINOP_CHAIN_RPC_URL: 'https://rpc.example.com',
        COINOP_CHAIN_VAULT_ADDRESS: VAULT,
        COINOP_CHAIN_CONFIRMATIONS: '3',
        COINOP_CHAIN_START_BLOCK: '19000000',
        COINOP_CHAIN_POLL_MS: '12000',
      },
    );
    expect(config.chain).toMatchObject({
      confirmations: 64,
      startBlock: 19_000_000n,
      pollIntervalMs: 12_000,
    });
    expect(
      loadConfig({ chainRpcUrl: 'http://x', chainVaultAddress: VAULT, chainConfirmations: '0' }, {})
        .chain?.confirmations,
    ).toBe(0);
  });

  it.each([
    [
      { chainVaultAddress: VAULT },
      '--chain-vault-address (COINOP_CHAIN_VAULT_ADDRESS) needs --chain-rpc-url (COINOP_CHAIN_RPC_URL)',
    ],
    [
      { chainRpcUrl: 'http://x', chainConfirmations: '6' },
      '--chain-confirmations (COINOP_CHAIN_CONFIRMATIONS) needs --chain-vault-address (COINOP_CHAIN_VAULT_ADDRESS)',
    ],
    [
      { chainStartBlock: '5' },
      '--chain-start-block (COINOP_CHAIN_START_BLOCK) needs --chain-vault-address',
    ],
    [{ chainPollMs: '500' }, '--chain-poll-ms (COINOP_CHAIN_POLL_MS) needs --chain-vault-address'],
    [
      { chainOperatorKeyFile: 'operator.key' },
      '--chain-operator-key-file (COINOP_CHAIN_OPERATOR_KEY_FILE) needs --chain-vault-address',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: '0x1234' },
      '--chain-vault-address (COINOP_CHAIN_VAULT_ADDRESS) must be 0x and 40 hex digits, got 0x1234',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: VAULT.slice(2) },
      '--chain-vault-address (COINOP_CHAIN_VAULT_ADDRESS) must be 0x and 40 hex digits',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: VAULT.replace('F', 'f') },
      '--chain-vault-address (COINOP_CHAIN_VAULT_ADDRESS) has mixed case that is not its EIP-55 checksum (a typo?)',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: `0x${'0'.repeat(40)}` },
      '--chain-vault-address (COINOP_CHAIN_VAULT_ADDRESS) must not be the zero address',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: VAULT, chainConfirmations: '-1' },
      '--chain-confirmations (COINOP_CHAIN_CONFIRMATIONS) must be a whole number from 0 to 10000, got -1',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: VAULT, chainConfirmations: '1.5' },
      '--chain-confirmations (COINOP_CHAIN_CONFIRMATIONS) must be a whole number from 0 to 10000',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: VAULT, chainStartBlock: '-3' },
      '--chain-start-block (COINOP_CHAIN_START_BLOCK) must be a block number',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: VAULT, chainStartBlock: '1e6' },
      '--chain-start-block (COINOP_CHAIN_START_BLOCK) must be a block number',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: VAULT, chainStartBlock: '9223372036854775808' },
      '--chain-start-block (COINOP_CHAIN_START_BLOCK) must be a block number',
    ],
    [
      { chainRpcUrl: 'http://x', chainVaultAddress: VAULT, chainPollMs: '10' },
      '--chain-poll-ms (COINOP_CHAIN_POLL_MS) must be a whole number from 100 to 3600000, got 10',
    ],
  ])('refuses %o naming the flag', (flags, message) => {
    expect(() => loadConfig(flags, {})).toThrow(ConfigError);
    expect(() => loadConfig(flags, {})).toThrow(message);
  });
});

describe('the RPC URL in logs and the admin API', () => {
  it.each([
    ['https://mainnet.example.io/v3/0123456789abcdef0123', 'https://mainnet.example.io/…'],
    ['https://rpc.example.com/?apikey=s3cr3t', 'https://rpc.example.com/…'],
    ['https://user:pass@rpc.example.com', 'https://rpc.example.com'],
    ['http://127.0.0.1:8545', 'http://127.0.0.1:8545'],
    ['http://127.0.0.1:8545/', 'http://127.0.0.1:8545'],
  ])('shows %s as %s', (url, shown) => {
    expect(redactRpcUrl(url)).toBe(shown);
  });

  it('keeps every form of the URL and its key out of an error line', () => {
    const url = 'https://user:pw@mainnet.example.io/v3/0123456789abcdef0123?token=abcdefgh12345678';
    const error = new Error(
      'request to https://mainnet.example.io/v3/0123456789abcdef0123?token=abcdefgh12345678 ' +
        'failed; provider says key 0123456789abcdef0123 is over quota (abcdefgh12345678)',
    );
    const line = describeChainError(error, url);
    expect(line).toBe(
      'request to https://mainnet.example.io/… failed; provider says key … is over quota (…) ' +
        'at RPC mainnet.example.io:443',
    );
    expect(describeChainError('x'.repeat(2000), url)).toHaveLength(500);
  });
});

// Operator review: a dead Anvil was logged as "HTTP request failed. (fetch failed)": no host, no
// cause. The line names the RPC's host and port (never its user, path or query) and the cause.
describe('a chain error names the RPC and the cause', () => {
  const KEY = '0123456789abcdef0123';
  const rpcUrl = (port: number) => `http://user:pw@127.0.0.1:${port}/v3/${KEY}?token=${KEY}`;
  const chainCall = async (url: string, rpcTimeoutMs = 5_000) => {
    const client = createChainClient({ rpcUrl: url, rpcTimeoutMs } as Parameters<
      typeof createChainClient
    >[0]);
    return client.getChainId().then(
      () => expect.unreachable('the call succeeded'),
      (error: unknown) => describeChainError(error, url),
    );
  };
  const listening = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };

  it('nothing listening: the host and port, and ECONNREFUSED', async () => {
    const server = createServer();
    const port = await listening(server);
    await new Promise((resolve) => server.close(resolve));
    const line = await chainCall(rpcUrl(port));
    expect(line).toMatch(
      new RegExp(`^HTTP request failed\\. .* at RPC 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)$`),
    );
    for (const secret of ['user', 'pw', KEY]) expect(line).not.toContain(secret);
  });

  it('no answer in time: the host and port, and the timeout', async () => {
    const server = createServer(() => undefined);
    const port = await listening(server);
    try {
      const line = await chainCall(rpcUrl(port), 200);
      expect(line).toMatch(
        new RegExp(`took too long.* at RPC 127\\.0\\.0\\.1:${port} \\(timed out\\)$`),
      );
      expect(line).not.toContain(KEY);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
