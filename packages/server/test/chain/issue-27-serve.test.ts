import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arcadeVaultAbi, hstAbi, uuidToBytes16 } from '@coinop/contracts';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createTestDatabase, storeVariants } from '@coinop/testkit/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, serve, type ServeChild } from '../cli/run-cli.js';
import { HST, sealOperatorKey, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * Issue 27, finding 2, as reported: a real `coinop serve` with its sender running. A deposit was
 * credited, the chain reverted below it and mined on, and a withdrawal of those 100 HST was paid
 * on chain within 4 s, out of other players' tokens. Now it waits queued while the vault is halted
 * (well past those 4 s), through the operator's `coinop admin chain resume --from-block` (the
 * watcher reads the chain again and finds the vault 100 HST short), and is paid exactly once after
 * the operator tops the vault up, covers the shortfall and resumes, all with the CLI.
 */

const ADMIN_TOKEN = 'issue-27-serve-admin-token-0123456789';
const CONFIRMATIONS = 2;

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

describe.each(storeVariants())(
  'issue 27: a coinop serve on %s whose chain reorganised below a deposit',
  (variant) => {
    let dataDir: string;
    let server: ServeChild | undefined;
    let dropDatabase: () => Promise<void> = async () => undefined;
    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-issue-27-'));
    });
    afterAll(async () => {
      server?.child.kill('SIGKILL');
      await server?.exited;
      await dropDatabase();
      await rm(dataDir, { recursive: true, force: true });
    });

    it(
      'pays no withdrawal while halted, and pays it once after the operator covers and resumes',
      { timeout: 180_000 },
      async () => {
        const keyFile = await sealOperatorKey(chain, dataDir);
        const { vault, startBlock } = await chain.newVault();
        const database: string[] = [];
        if (variant === 'postgres') {
          const created = await createTestDatabase();
          dropDatabase = created.drop;
          database.push('--database-url', created.url);
        }
        server = await serve([
          ...database,
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
        ]);
        const url = server.url;
        const api = async (path: string, init: { method?: string; body?: unknown } = {}) => {
          const res = await fetch(`${url}${path}`, {
            method: init.method ?? 'GET',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${ADMIN_TOKEN}` },
            ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
          });
          return (await res.json()) as Record<string, any>;
        };
        const cli = async (...args: string[]) => {
          const run = await runCli([...args, '--server', url, '--admin-token', ADMIN_TOKEN]);
          return { ...run, json: run.stdout === '' ? null : JSON.parse(run.stdout) };
        };
        const status = () => api('/admin/chain');

        const developer = await api('/admin/developers', {
          method: 'POST',
          body: { wallet: privateKeyToAccount(generatePrivateKey()).address },
        });
        const { developerId, apiKey } = developer as { developerId: string; apiKey: string };
        const deposit = await chain.deposit(vault, chain.players[0]!, developerId, 100n * HST);
        await chain.mine(CONFIRMATIONS);
        await expect
          .poll(async () => (await status())['vaultHeld'], { timeout: 10_000 })
          .toBe('100');

        // The deposit's block and the two above it are dropped; the chain mines on without them.
        await chain.rollback(CONFIRMATIONS + 1);
        await chain.mine(5);
        await expect
          .poll(async () => (await status())['state'], { timeout: 10_000 })
          .toBe('halted');
        expect((await status())['halt']).toMatchObject({ cause: 'reorg' });

        // The developer withdraws the 100 HST: taken and reserved, and not paid.
        const to = privateKeyToAccount(generatePrivateKey()).address;
        const asked = await fetch(`${url}/developer/withdrawals`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'api-key': apiKey },
          body: JSON.stringify({ amount: '100', to }),
        });
        expect(asked.status).toBe(202);
        const id = ((await asked.json()) as { withdrawalId: string }).withdrawalId;
        const withdrawal = async () =>
          (
            (await api('/admin/chain/withdrawals'))['withdrawals'] as Record<string, unknown>[]
          ).find((w) => w['withdrawalId'] === id);
        const walletHst = () =>
          chain.admin.readContract({
            address: chain.hst,
            abi: hstAbi,
            functionName: 'balanceOf',
            args: [to],
          });
        const isPaid = () =>
          chain.admin.readContract({
            address: vault,
            abi: arcadeVaultAbi,
            functionName: 'isPaid',
            args: [uuidToBytes16(id)],
          });
        // Well past the 4 s it took to be paid before, blocks mined all along.
        for (let second = 0; second < 6; second += 1) {
          await chain.mine(1);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
        }
        expect(await withdrawal()).toMatchObject({ status: 'queued' });
        expect(await walletHst()).toBe(0n);
        expect(await isPaid()).toBe(false);
        expect((await status())['withdrawals']).toMatchObject({
          waiting: expect.stringMatching(/^the vault is halted \(reorg: /),
          queued: { count: 1, amount: '100' },
        });

        // The operator resumes from the deposit's block; the watcher reads again: 100 HST short.
        const resuming = await cli(
          'admin',
          'chain',
          'resume',
          '--from-block',
          String(deposit.blockNumber),
          '--reason',
          'reorganisation of 3 blocks; the deposit is gone',
          '--by',
          'ops',
        );
        expect(resuming).toMatchObject({ code: 0, json: { state: 'resuming' } });
        await expect
          .poll(async () => (await status())['halt']?.['cause'], { timeout: 10_000 })
          .toBe('shortfall');
        expect((await status())['halt']).toMatchObject({ shortfall: '100' });
        expect((await cli('admin', 'hst', 'audit', '--chain')).code).toBe(1);
        expect(await withdrawal()).toMatchObject({ status: 'queued' });

        // Topped up by a plain transfer, which covers the shortfall; then resumed.
        await chain.mint(chain.players[2]!, 100n * HST);
        const hash = await chain.players[2]!.writeContract({
          address: chain.hst,
          abi: hstAbi,
          functionName: 'transfer',
          args: [vault, 100n * HST],
        });
        const receipt = await chain.admin.waitForTransactionReceipt({ hash });
        await chain.mine(CONFIRMATIONS);
        const key = `${receipt.transactionHash}:${receipt.logs[0]!.logIndex}`;
        await expect
          .poll(async () => (await api('/admin/chain/surplus'))['surplus'].length, {
            timeout: 10_000,
          })
          .toBe(1);
        const covered = await cli('admin', 'chain', 'cover-shortfall', key, '--note', 'top-up');
        expect(covered).toMatchObject({ code: 0, json: { status: 'covered', amount: '100' } });
        expect((await cli('admin', 'hst', 'audit', '--chain')).code).toBe(0);
        expect(await withdrawal()).toMatchObject({ status: 'queued' });
        const resumed = await cli('admin', 'chain', 'resume', '--reason', 'covered by a top-up');
        expect(resumed).toMatchObject({ code: 0, json: { state: 'resumed' } });

        // Paid, once.
        await expect.poll(walletHst, { timeout: 20_000, interval: 100 }).toBe(100n * HST);
        for (let block = 0; block < CONFIRMATIONS + 2; block += 1) {
          await chain.mine(1);
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        await expect
          .poll(async () => (await withdrawal())?.['status'], { timeout: 20_000 })
          .toBe('paid');
        expect(await walletHst()).toBe(100n * HST);
        expect(await isPaid()).toBe(true);
        expect((await status())['withdrawals']).toMatchObject({
          paid: { count: 1, amount: '100' },
          queued: { count: 0 },
          sent: { count: 0 },
        });
        const audit = await cli('admin', 'hst', 'audit', '--chain');
        expect(audit).toMatchObject({
          code: 0,
          json: { balanced: true, chain: { reconciled: true } },
        });
      },
    );
  },
);
