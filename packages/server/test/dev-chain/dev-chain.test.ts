import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arcadeVaultAbi, hstAbi, UNITS_PER_HST, uuidToBytes16 } from '@coinop/contracts';
import { anvilAccounts } from '@coinop/testkit/anvil';
import { createTestDatabase, storeVariants } from '@coinop/testkit/db';
import { freePort } from '@coinop/testkit/net';
import { newWallet, walletSignIn } from '@coinop/testkit/signin';
import {
  createPublicClient,
  createWalletClient,
  http,
  parseEther,
  type Address,
  type PrivateKeyAccount,
} from 'viem';
import { anvil as anvilChain } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, testConfig, type Config } from '../../src/config.js';
import { startPersistentAnvil } from '../../src/dev-chain/anvil.js';
import { startServer, type RunningServer } from '../../src/main.js';
import {
  DEMO_DEVELOPER_WALLET,
  DEMO_PLAYERS,
  DEMO_WALLET_MINT_HST,
} from '../../src/services/demo-seed.js';
import { findDeveloperByWallet } from '../../src/store/developers.js';
import { findPlayerByWallet } from '../../src/store/players.js';
import { runCli, serve, type ServeChild } from '../cli/run-cli.js';

/**
 * `coinop serve --demo --dev-chain`, as `npm start` runs it, on a real Anvil and the embedded
 * database (PGlite) on disk: the contracts deployed, the demo wallets funded on chain and in the
 * ledger with nothing minted in it, the faucet minting to a wallet, deposits credited and a
 * withdrawal paid, and restarts: a clean one keeps chain and ledger together, a SIGKILL of coinop
 * alone loses nothing, and a chain that lost its last blocks is refused with how to reset. On
 * Postgres too (DATABASE_URL): the funding, a withdrawal and a restart in agreement.
 */

const ADMIN_TOKEN = 'dev-chain-admin-token-0123456789abcdef';
const HST = UNITS_PER_HST;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

let dataDir: string;
let chainPort: number;
let config: Config;
let server: RunningServer | null = null;
/** The dev chain's vault, the same across restarts. */
let vault: Address;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'coinop-dev-chain-'));
  chainPort = await freePort();
  config = devChainConfig(dataDir, chainPort);
});
/** The `coinop serve` child running now, if any. */
let child: ServeChild | null = null;
afterAll(async () => {
  await server?.close();
  if (child) {
    child.child.kill('SIGTERM');
    await child.exited;
  }
  // An Anvil a failed test left behind after killing its coinop (the pid file names only ours).
  const pid = await readFile(join(dataDir, 'dev-chain', 'anvil.pid'), 'utf8').catch(() => null);
  if (pid !== null) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await rm(dataDir, { recursive: true, force: true });
});

function devChainConfig(dir: string, port: number): Config {
  const flags = loadConfig(
    { devChain: true, devChainPort: String(port), dataDir: dir, demo: true },
    {},
  );
  return testConfig({
    dataDir: dir,
    devChain: flags.devChain,
    demo: true,
    faucetHst: 100,
    adminToken: ADMIN_TOKEN,
    apiPort: 0,
  });
}

const reader = () =>
  createPublicClient({
    chain: anvilChain,
    transport: http(`http://127.0.0.1:${chainPort}`),
    pollingInterval: 20,
  });

async function walletHst(address: Address): Promise<bigint> {
  const client = reader();
  const hst = await client.readContract({
    address: vault,
    abi: arcadeVaultAbi,
    functionName: 'token',
  });
  return client.readContract({
    address: hst,
    abi: hstAbi,
    functionName: 'balanceOf',
    args: [address],
  });
}

async function get(path: string, headers: Record<string, string> = admin) {
  const res = await server!.api.inject({ method: 'GET', url: path, headers });
  return { status: res.statusCode, body: res.json() };
}

async function post(path: string, body: unknown, headers: Record<string, string>) {
  const res = await server!.api.inject({
    method: 'POST',
    url: path,
    payload: body as object,
    headers,
  });
  return { status: res.statusCode, body: res.json() };
}

/** Approves and deposits `units` from `account`'s own key, as a browser wallet would. */
async function depositFrom(account: PrivateKeyAccount, accountId: string, units: bigint) {
  const client = reader();
  const hst = await client.readContract({
    address: vault,
    abi: arcadeVaultAbi,
    functionName: 'token',
  });
  const wallet = createWalletClient({
    account,
    chain: anvilChain,
    transport: http(`http://127.0.0.1:${chainPort}`),
  });
  const approval = await wallet.writeContract({
    address: hst,
    abi: hstAbi,
    functionName: 'approve',
    args: [vault, units],
  });
  expect((await client.waitForTransactionReceipt({ hash: approval })).status).toBe('success');
  const hash = await wallet.writeContract({
    address: vault,
    abi: arcadeVaultAbi,
    functionName: 'deposit',
    args: [units, uuidToBytes16(accountId)],
  });
  expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success');
  return hash;
}

const balanceOf = async (id: string) =>
  (await get(`/admin/hst/balances/${id}`)).body as { balance: string; pending: string };

const demoPlayerId = async (index: number) =>
  (await findPlayerByWallet(server!.api.arcade.db, DEMO_PLAYERS[index]!.wallet))!.id;

let faucetPlayer: { wallet: PrivateKeyAccount; playerId: string; token: string };

describe('coinop serve --demo --dev-chain', () => {
  it('deploys the contracts and funds the demo wallets on chain, minting nothing in the ledger', async () => {
    server = await startServer(config);
    const chain = server.api.arcade.config.chain!;
    vault = chain.vaultAddress;
    expect(chain).toMatchObject({
      rpcUrl: `http://127.0.0.1:${chainPort}`,
      publicRpcUrl: `http://127.0.0.1:${chainPort}`,
      confirmations: 0,
      devChainMinter: anvilAccounts(1)[0]!.address,
    });
    const client = reader();
    expect(await client.getChainId()).toBe(31337);
    const hst = await client.readContract({
      address: chain.vaultAddress,
      abi: arcadeVaultAbi,
      functionName: 'token',
    });
    expect(await client.readContract({ address: hst, abi: hstAbi, functionName: 'decimals' })).toBe(
      8,
    );

    for (const [index, demo] of DEMO_PLAYERS.entries()) {
      expect(await walletHst(demo.wallet)).toBe(BigInt(DEMO_WALLET_MINT_HST - 1000) * HST);
      expect(await balanceOf(await demoPlayerId(index))).toMatchObject({
        balance: '1000',
        pending: '0',
      });
      expect(await client.getBalance({ address: demo.wallet })).toBeGreaterThan(parseEther('1'));
    }
    const developer = await findDeveloperByWallet(server.api.arcade.db, DEMO_DEVELOPER_WALLET);
    expect(await walletHst(DEMO_DEVELOPER_WALLET)).toBe(BigInt(DEMO_WALLET_MINT_HST - 100) * HST);
    expect(await balanceOf(developer!.id)).toMatchObject({ balance: '100' });
    // Every HST in the ledger is in the vault: deposited, none minted.
    expect((await get('/admin/hst/audit')).body).toEqual({
      debitsPosted: '2100',
      creditsPosted: '2100',
      debitsPending: '0',
      creditsPending: '0',
      minted: '0',
      vaultHeld: '2100',
      balanced: true,
      chainMode: true,
    });
    expect(
      await client.readContract({
        address: hst,
        abi: hstAbi,
        functionName: 'balanceOf',
        args: [chain.vaultAddress],
      }),
    ).toBe(2100n * HST);
    expect((await get('/admin/chain')).body).toMatchObject({
      state: 'running',
      confirmations: 0,
    });
  });

  it('grants faucet HST to the wallet on chain; deposits are credited and a withdrawal paid', async () => {
    const wallet = newWallet();
    const session = await walletSignIn(server!.auth, wallet);
    const headers = { authorization: `Bearer ${session.access_token}` };
    faucetPlayer = { wallet, playerId: session.playerId, token: session.access_token };
    expect((await get('/player/me', headers)).body).toMatchObject({
      balance: '0',
      faucet: { amount: '100', destination: 'wallet' },
    });

    const grant = await post('/player/faucet', {}, headers);
    expect(grant.status).toBe(200);
    expect(grant.body).toEqual({
      destination: 'wallet',
      wallet: wallet.address,
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      amount: '100',
      walletBalance: '100',
    });
    const receipt = await reader().getTransactionReceipt({ hash: grant.body.txHash });
    expect(receipt.status).toBe('success');
    expect(await walletHst(wallet.address)).toBe(100n * HST);
    expect(await reader().getBalance({ address: wallet.address })).toBe(parseEther('1'));
    // The arcade balance is untouched until the player deposits.
    expect((await get('/player/me', headers)).body).toMatchObject({ balance: '0' });

    await depositFrom(wallet, session.playerId, 40n * HST);
    await expect
      .poll(async () => (await get('/player/me', headers)).body.balance, { timeout: 10_000 })
      .toBe('40');

    // A demo player deposits from their wallet (Anvil's account 1) too.
    const demoOne = await demoPlayerId(0);
    await depositFrom(anvilAccounts(2)[1]!, demoOne, 10n * HST);
    await expect
      .poll(async () => (await balanceOf(demoOne)).balance, { timeout: 10_000 })
      .toBe('1010');

    const asked = await post('/player/withdrawals', { amount: '15', to: wallet.address }, headers);
    expect(asked.status).toBe(202);
    await expect.poll(() => walletHst(wallet.address), { timeout: 15_000 }).toBe(75n * HST);
    await expect
      .poll(async () => (await get('/player/me', headers)).body, { timeout: 10_000 })
      .toMatchObject({ balance: '25', pending: '0' });

    // The faucet stops at ten grants' worth in the wallet.
    await post('/player/faucet', {}, headers);
    const funds = server!.api.arcade.devChainFunds!;
    await funds.mint(wallet.address, 900n * HST);
    const refused = await post('/player/faucet', {}, headers);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'faucet_limit_reached',
      message: `the faucet tops up wallets holding less than 1000 HST; ${wallet.address} holds 1075`,
    });
    expect((await get('/admin/hst/audit')).body).toMatchObject({
      minted: '0',
      vaultHeld: '2135',
      balanced: true,
    });
  });

  it('keeps the chain and the ledger together across a restart, seeding nothing twice', async () => {
    // Closed once the watcher has read the whole chain, so the checkpoint is where it stays.
    const head = Number(await reader().getBlockNumber());
    await expect
      .poll(async () => (await get('/admin/chain')).body.checkpointBlock, { timeout: 10_000 })
      .toBe(head);
    const before = await get('/admin/chain');
    await server!.close();
    server = await startServer(config);
    const after = await get('/admin/chain');
    expect(after.body).toMatchObject({
      vaultAddress: before.body.vaultAddress,
      tokenAddress: before.body.tokenAddress,
      checkpointBlock: before.body.checkpointBlock,
      state: 'running',
    });
    expect(await balanceOf(await demoPlayerId(0))).toMatchObject({ balance: '1010' });
    expect(await walletHst(DEMO_PLAYERS[0].wallet)).toBe(990n * HST);
    const headers = { authorization: `Bearer ${faucetPlayer.token}` };
    await depositFrom(faucetPlayer.wallet, faucetPlayer.playerId, 5n * HST);
    await expect
      .poll(async () => (await get('/player/me', headers)).body.balance, { timeout: 10_000 })
      .toBe('30');
    expect((await get('/admin/hst/audit')).body).toMatchObject({
      minted: '0',
      vaultHeld: '2140',
      balanced: true,
    });
    await server!.close();
    server = null;
  });

  it('loses nothing when coinop is killed alone, and refuses a chain that lost blocks the ledger read', async () => {
    const args = [
      '--api-port',
      '0',
      '--auth-port',
      '0',
      '--data-dir',
      dataDir,
      '--admin-token',
      ADMIN_TOKEN,
      '--demo',
      '--dev-chain',
      '--dev-chain-port',
      String(chainPort),
    ];
    const statePath = join(dataDir, 'dev-chain', 'state.json');
    const stale = join(dataDir, 'stale-state.json');
    await cp(statePath, stale);

    // SIGKILL of coinop alone leaves its Anvil running; the next start stops it, and Anvil writes
    // the chain on its way out, so the deposit made in between is kept.
    child = await serve(args);
    const api = (path: string) =>
      fetch(`${child!.url}${path}`, { headers: admin }).then((r) => r.json() as Promise<any>);
    // A deposit from the command line, from Demo Player Two's wallet (Anvil signs for it).
    const demoTwo = (await api('/admin/chain/deposits?limit=100')).deposits.find(
      (d: { from: string }) => d.from === DEMO_PLAYERS[1].wallet,
    ).accountId as string;
    const deposited = await runCli([
      'dev-chain',
      'deposit',
      '--from',
      DEMO_PLAYERS[1].wallet,
      // By wallet: the command asks the running arcade whose account it is.
      '--account',
      DEMO_PLAYERS[1].wallet,
      '--server',
      child.url,
      '--admin-token',
      ADMIN_TOKEN,
      '--amount',
      '1',
      '--data-dir',
      dataDir,
      '--dev-chain-port',
      String(chainPort),
    ]);
    expect(deposited.stderr).toBe('');
    expect(JSON.parse(deposited.stdout)).toEqual({
      txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      from: DEMO_PLAYERS[1].wallet,
      account: demoTwo,
      amount: '1',
    });
    await expect
      .poll(async () => (await api(`/admin/hst/balances/${demoTwo}`)).balance, {
        timeout: 10_000,
      })
      .toBe('1001');
    child.child.kill('SIGKILL');
    await child.exited;
    child = await serve(args);
    expect((await api(`/admin/hst/balances/${demoTwo}`)).balance).toBe('1001');
    expect(await api('/admin/chain')).toMatchObject({ state: 'running' });
    expect(await api('/admin/hst/audit')).toMatchObject({ minted: '0', vaultHeld: '2141' });
    child.child.kill('SIGTERM');
    expect(await child.exited).toBe(0);
    child = null;

    // The chain's state from before that deposit, as a kill -9 of the whole process group can
    // leave it: the ledger has read blocks the chain no longer has.
    await cp(stale, statePath);
    const refused = await runCli(['serve', '--web-port', '0', ...args]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /^coinop: --dev-chain: the dev chain and the ledger disagree: the ledger has read the chain up to block \d+, and the chain ends at block \d+ \(it lost its last blocks, as a kill -9 can, or was replaced\)\. Reset the dev chain and the ledger together: stop coinop, delete .*, and start again \(docs\/operating\/dev-chain\.md\)\n$/,
    );
    expect(refused.stderr).toContain(`delete ${dataDir},`);
    // Anvil was stopped with it: the port is free again.
    expect(await isFree(chainPort)).toBe(true);

    // The documented reset: a new data directory, a new chain.
    await rm(dataDir, { recursive: true, force: true });
    server = await startServer(config);
    expect((await get('/admin/hst/audit')).body).toMatchObject({ minted: '0', vaultHeld: '2100' });

    // The ledger alone deleted: the chain holds deposits for accounts the new ledger lacks.
    await server.close();
    server = null;
    await rm(join(dataDir, 'pglite'), { recursive: true, force: true });
    await expect(startServer(config)).rejects.toThrow(
      "the dev chain and the ledger disagree: the ledger has never read the chain, which holds 3 deposits made for another ledger's accounts (the ledger was deleted or replaced). Reset",
    );
    expect(await isFree(chainPort)).toBe(true);
  });
});

describe('the dev chain refuses clearly', () => {
  it('a port in use, naming it and the flag', async () => {
    const busy = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => busy.listen(port, '127.0.0.1', resolve));
    const dir = await mkdtemp(join(tmpdir(), 'coinop-dev-chain-busy-'));
    try {
      const starting = startPersistentAnvil({
        host: '127.0.0.1',
        port,
        stateFile: join(dir, 'state.json'),
        stateIntervalSeconds: 1,
        pidFile: join(dir, 'anvil.pid'),
      });
      await expect(starting).rejects.toThrow(
        `port ${port} on 127.0.0.1 is in use, so the dev chain cannot start there: stop what ` +
          'uses it, or pick another port with --dev-chain-port',
      );
    } finally {
      busy.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a missing Anvil binary', async () => {
    await expect(
      startPersistentAnvil({
        binary: '/nonexistent/anvil',
        host: '127.0.0.1',
        port: 1,
        stateFile: '/nonexistent/state.json',
        stateIntervalSeconds: 1,
        pidFile: '/nonexistent/anvil.pid',
      }),
    ).rejects.toThrow('no Anvil binary at /nonexistent/anvil');
  });
});

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe.each(storeVariants().filter((v) => v === 'postgres'))('--dev-chain on %s', () => {
  it('funds the demo on chain, pays a withdrawal, and restarts in agreement', async () => {
    const database = await createTestDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'coinop-dev-chain-pg-'));
    const port = await freePort();
    const pgConfig = { ...devChainConfig(dir, port), databaseUrl: database.url };
    let running: RunningServer | null = await startServer(pgConfig);
    const call = async (
      method: 'GET' | 'POST',
      path: string,
      headers: Record<string, string> = admin,
      body?: object,
    ) => {
      const res = await running!.api.inject({ method, url: path, headers, payload: body });
      return res.json();
    };
    try {
      expect(await call('GET', '/admin/hst/audit')).toMatchObject({
        minted: '0',
        vaultHeld: '2100',
        balanced: true,
      });
      const { apiKey, developerId } = await call('POST', '/admin/developers', admin, {
        wallet: DEMO_DEVELOPER_WALLET,
      });
      const to = newWallet().address;
      const asked = await call(
        'POST',
        '/developer/withdrawals',
        { 'api-key': apiKey },
        {
          amount: '30',
          to,
        },
      );
      expect(asked).toMatchObject({ status: 'queued', amount: '30' });
      await expect
        .poll(
          async () =>
            (await call('GET', '/developer/withdrawals', { 'api-key': apiKey })).withdrawals[0]
              .status,
          {
            timeout: 15_000,
          },
        )
        .toBe('paid');
      await running.close();
      // The restart checks the paid batch's block and the watcher's checkpoint against the chain.
      running = await startServer(pgConfig);
      expect(await call('GET', `/admin/hst/balances/${developerId}`)).toMatchObject({
        balance: '70',
      });
      expect(await call('GET', '/admin/hst/audit')).toMatchObject({
        minted: '0',
        vaultHeld: '2070',
        balanced: true,
      });
      expect(await call('GET', '/admin/chain')).toMatchObject({ state: 'running' });
    } finally {
      await running?.close();
      await database.drop();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
