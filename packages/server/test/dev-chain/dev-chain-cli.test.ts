import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { runCli } from '../cli/run-cli.js';

/**
 * `coinop dev-chain deposit` refuses bad input with one line and exit 2, and a data directory
 * without a dev chain with exit 1, before touching any chain. Its deposits are in dev-chain.test.ts.
 */

const PLAYER = '01a21477-cb8d-7513-a091-85c190cedae4';
const WALLET = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'coinop-dev-chain-cli-'));
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

/** A port nothing listens on: one the system gave a listener that is closed again. */
async function closedPort(): Promise<number> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as { port: number };
  await new Promise((resolve) => listener.close(resolve));
  return port;
}

const deposit = (flags: Record<string, string>) =>
  runCli([
    'dev-chain',
    'deposit',
    '--data-dir',
    dataDir,
    ...Object.entries({ from: WALLET, account: PLAYER, amount: '1', ...flags }).flatMap(
      ([flag, value]) => [`--${flag}`, value],
    ),
  ]);

describe('coinop dev-chain deposit', () => {
  it.each([
    [{ from: 'nope' }, 'coinop: --from must be a wallet address, got nope\n'],
    [
      { account: 'player-1' },
      "coinop: --account must be a coinop id (a UUID) or a player's wallet address, got player-1\n",
    ],
    [{ amount: '0' }, 'coinop: --amount must be more than 0\n'],
    [{ amount: '1.123456789' }, 'coinop: --amount'],
    [{ amount: '-1' }, 'coinop: --amount must not be negative, got -1\n'],
  ])('refuses %o with exit 2', async (flags, message) => {
    const run = await deposit(flags);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.startsWith(message)).toBe(true);
    expect(run.stderr.split('\n')).toHaveLength(2);
  });

  it('exits 1 with one line naming the RPC when the dev chain does not answer', async () => {
    // A dev chain deployed once, then stopped: its deployment.json stays, nothing listens.
    const stopped = await mkdtemp(join(tmpdir(), 'coinop-dev-chain-stopped-'));
    try {
      await mkdir(join(stopped, 'dev-chain'));
      await writeFile(
        join(stopped, 'dev-chain', 'deployment.json'),
        JSON.stringify({
          chainId: 31337,
          hst: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
          vault: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512',
          vaultBlockNumber: '2',
          admin: WALLET,
          operator: WALLET,
        }),
      );
      const port = await closedPort();
      const run = await deposit({ 'data-dir': stopped, 'dev-chain-port': String(port) });
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        new RegExp(
          `^coinop: the dev chain did not answer: .* at RPC 127\\.0\\.0\\.1:${port} ` +
            `\\(ECONNREFUSED\\) \\(is coinop serve --dev-chain running\\?\\)\\n$`,
        ),
      );
    } finally {
      await rm(stopped, { recursive: true, force: true });
    }
  });

  it('exits 1 naming the file when the data directory has no dev chain', async () => {
    const run = await deposit({});
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `coinop: no dev chain in ${join(dataDir, 'dev-chain')}: ` +
        `${join(dataDir, 'dev-chain', 'deployment.json')} is missing (start coinop serve --dev-chain)\n`,
    );
  });
});

// Operator review: --account took only a UUID, though an operator knows a player by wallet.
describe('coinop dev-chain deposit --account <wallet>', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer(testConfig({ apiPort: 0, dataDir }));
  });
  afterAll(() => server?.close());

  const withServer = (account: string) =>
    deposit({ account, server: server.url, 'data-dir': dataDir });

  it('exits 1 naming the wallet when no player has it', async () => {
    const unknown = `0x${'5'.repeat(40)}`;
    const run = await withServer(unknown);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `coinop: --account ${unknown}: no player has wallet ${unknown} at ${server.url}\n`,
    );
  });

  it("resolves a player's wallet through the admin API, then looks for the dev chain", async () => {
    const created = await runCli([
      'admin',
      'player',
      'create',
      '--wallet',
      WALLET,
      '--server',
      server.url,
      '--data-dir',
      dataDir,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const run = await withServer(WALLET.toLowerCase());
    // Past the wallet: the data directory has no dev chain, and that is what stops it.
    expect(run.stderr).toMatch(/^coinop: no dev chain in /);
    expect(run.code).toBe(1);
  });
});
