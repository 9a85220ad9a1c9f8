import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arcadeVaultAbi, hstAbi, uuidToBytes16 } from '@coinop/contracts';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type ServeChild } from '../cli/run-cli.js';
import { HST, sealOperatorKey, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * A real `coinop serve` paying a withdrawal, killed with SIGKILL right after its transaction was
 * sent and before it was confirmed, then started again on the same data: the withdrawal is paid
 * once on chain and posted once in the ledger.
 */

const ADMIN_TOKEN = 'withdrawals-serve-admin-token-0123456789';
const CONFIRMATIONS = 3;

let chain: ArcadeChain;
let dataDir: string;
let server: ServeChild | undefined;
beforeAll(async () => {
  chain = await startArcadeChain();
  dataDir = await mkdtemp(join(tmpdir(), 'coinop-withdrawals-'));
});
afterAll(async () => {
  server?.child.kill('SIGKILL');
  await chain.stop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a coinop serve killed between sending and confirming a withdrawal', () => {
  it('pays it once on chain and posts it once after a restart', async () => {
    const keyFile = await sealOperatorKey(chain, dataDir);
    const { vault, startBlock } = await chain.newVault();
    const args = [
      '--api-port',
      '0',
      '--auth-port',
      '0',
      '--data-dir',
      dataDir,
      '--admin-token',
      ADMIN_TOKEN,
      '--chain-rpc-url',
      chain.anvil.rpcUrl,
      '--chain-vault-address',
      vault,
      '--chain-start-block',
      String(startBlock),
      '--chain-confirmations',
      String(CONFIRMATIONS),
      '--chain-poll-ms',
      '100',
      '--chain-operator-key-file',
      keyFile,
    ];
    server = await serve(args);
    const api = async (
      path: string,
      init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
    ) => {
      const res = await fetch(`${server!.url}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${ADMIN_TOKEN}`,
          ...init.headers,
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };

    const developer = await api('/admin/developers', {
      method: 'POST',
      body: { wallet: privateKeyToAccount(generatePrivateKey()).address },
    });
    expect(developer.status).toBe(201);
    const { developerId, apiKey } = developer.body as { developerId: string; apiKey: string };
    await chain.deposit(vault, chain.players[0]!, developerId, 10n * HST);
    await chain.mine(CONFIRMATIONS);
    await expect
      .poll(async () => (await api('/admin/chain')).body['vaultHeld'], { timeout: 10_000 })
      .toBe('10');

    const to = privateKeyToAccount(generatePrivateKey()).address;
    const asked = await api('/developer/withdrawals', {
      method: 'POST',
      headers: { 'api-key': apiKey, authorization: '' },
      body: { amount: '4', to },
    });
    expect(asked.status).toBe(202);
    const id = asked.body['withdrawalId'] as string;
    const statusOf = async () =>
      (
        (await api('/admin/chain/withdrawals')).body['withdrawals'] as {
          withdrawalId: string;
          status: string;
        }[]
      ).find((w) => w.withdrawalId === id)?.status;
    const walletHst = () =>
      chain.admin.readContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'balanceOf',
        args: [to],
      });
    // The batch is recorded as sent before it is broadcast; once Anvil has mined it (one block,
    // short of the confirmations) it is paid on chain only, and that is when the process dies.
    await expect.poll(statusOf, { timeout: 10_000, interval: 20 }).toBe('sent');
    await expect.poll(walletHst, { timeout: 10_000, interval: 20 }).toBe(4n * HST);
    expect(await statusOf()).toBe('sent');
    server.child.kill('SIGKILL');
    expect(await server.exited).toBe(null);
    await chain.mine(CONFIRMATIONS);

    server = await serve(args);
    // The dead process's lease runs out (30 s) before the new one sends or confirms.
    await expect.poll(statusOf, { timeout: 60_000, interval: 250 }).toBe('paid');
    expect(await walletHst()).toBe(4n * HST);
    expect(
      await chain.admin.readContract({
        address: vault,
        abi: arcadeVaultAbi,
        functionName: 'isPaid',
        args: [uuidToBytes16(id)],
      }),
    ).toBe(true);
    const balance = await api(`/admin/hst/balances/${developerId}`);
    expect(balance.body).toMatchObject({ balance: '6', pending: '0' });
    const audit = await api('/admin/hst/audit');
    expect(audit.body).toMatchObject({ balanced: true });
    const listed = await api('/admin/chain');
    expect(listed.body['withdrawals']).toMatchObject({
      operatorAddress: chain.anvil.accounts[1]!.address,
      paid: { count: 1, amount: '4' },
      sent: { count: 0 },
      queued: { count: 0 },
    });
  });
});
