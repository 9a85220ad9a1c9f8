import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { availableUnits } from '@coinop/core';
import { arcadeVaultAbi, hstAbi } from '@coinop/contracts';
import type { Browser, Locator, Page } from 'playwright-core';
import { getAddress, parseEther, parseEventLogs, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE,
  DESKTOP,
  ARCADE_KEY_STORAGE,
  NO_CHROMIUM_REASON,
  hasChromium,
  ensureBrowserBuilds,
  launchChromium,
  saveScreenshot,
  seriousViolations,
  openAccountMenu,
} from '@coinop/testkit/browser';
import { injectWallet, walletCalls } from '@coinop/testkit/eip1193';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { findDeveloperByWallet } from '../../src/store/developers.js';
import { findAccount } from '../../src/store/ledger.js';
import {
  chainConfigFor,
  HST,
  sealOperatorKey,
  startArcadeChain,
  type ArcadeChain,
} from '../fixtures/chain.js';

/**
 * Issue 15 in the web app, in headless Chromium against a real Anvil and an arcade in chain mode
 * (PGlite): a player deposits test HST from the arcade wallet on the account page, sees the
 * transaction, its confirmations and the credit; bad amounts are refused with nothing sent or
 * reserved; a withdrawal to the player's wallet is paid and the wallet holds exactly that much
 * more; a developer withdraws earnings in the portal. Without chain mode the page says so.
 */

const CONFIRMATIONS = 2;
const NO_GAS =
  'Your wallet has no ETH to pay the network fee for a deposit. Add a little ETH on this ' +
  'chain to your wallet, then try again.';

describe.skipIf(!hasChromium)(
  `deposits and withdrawals in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let chain: ArcadeChain;
    let vault: Address;
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;

    beforeAll(async () => {
      ensureBrowserBuilds();
      chain = await startArcadeChain();
      const deployed = await chain.newVault();
      vault = deployed.vault;
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-account-'));
      const keyFile = await sealOperatorKey(chain, dataDir);
      server = await startServer(
        testConfig({
          apiPort: 0,
          dataDir,
          adminToken: 'account-admin',
          chain: chainConfigFor(chain, deployed, {
            confirmations: CONFIRMATIONS,
            pollIntervalMs: 200,
            operatorKeyFile: keyFile,
            publicRpcUrl: chain.anvil.rpcUrl,
          }),
        }),
      );
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await chain?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const hstOf = (address: Address) =>
      chain.admin.readContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'balanceOf',
        args: [address],
      });

    /** No serious axe violations, and nothing wider than a phone. */
    async function checkPage(page: Page, screenshot: string) {
      // Saved first, so a page that fails the checks can be looked at.
      await saveScreenshot(page, screenshot);
      expect(await seriousViolations(page)).toEqual([]);
      // The elements that stick out, named in the failure.
      const wide = await page.evaluate(`[...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > ${PHONE.width} + 1)
        .slice(-3).map((el) => el.tagName + '.' + el.className + ': ' + el.textContent.slice(0, 60))`);
      expect(
        await page.evaluate('document.documentElement.scrollWidth'),
        JSON.stringify(wide),
      ).toBeLessThanOrEqual(PHONE.width);
    }

    /** Mines a block every 300 ms while `until` runs: the sender's batch gets its confirmations. */
    async function mining<T>(until: () => Promise<T>): Promise<T> {
      let stop = false;
      const loop = (async () => {
        while (!stop) {
          await chain.mine(1);
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      })();
      try {
        return await until();
      } finally {
        stop = true;
        await loop;
      }
    }

    /** Whether `target` has the keyboard focus. */
    const isFocused = (target: Locator) =>
      target.evaluate(
        (el) =>
          (el as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument
            .activeElement === el,
      );

    /** Presses Tab until `target` has the focus: every control on the way is reachable. */
    async function tabTo(page: Page, target: Locator, max = 60) {
      for (let i = 0; i < max; i++) {
        if (await isFocused(target)) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`Tab never reached ${target.toString()}`);
    }

    /** The player's token, as the page keeps it, to ask the API what the page should show. */
    async function playerApi(page: Page, path: string) {
      const stored = (await page.evaluate("localStorage.getItem('coinop.session')")) as string;
      const { token } = JSON.parse(stored) as { token: string };
      const res = await fetch(`${server.urls['api']!}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      return res.json() as Promise<Record<string, unknown>>;
    }

    it(
      'a player deposits from the arcade wallet, is refused bad amounts, and withdraws',
      { timeout: 180_000 },
      async () => {
        const web = server.urls['web']!;
        const key = generatePrivateKey();
        const wallet = privateKeyToAccount(key).address;
        // Test HST in the player's wallet, and no ETH yet.
        const minted = await chain.admin.writeContract({
          address: chain.hst,
          abi: hstAbi,
          functionName: 'mint',
          args: [wallet, 100n * HST],
        });
        await chain.admin.waitForTransactionReceipt({ hash: minted });
        const context = await browser.newContext({ viewport: PHONE });
        const page = await context.newPage();
        // The arcade wallet this browser would have made, with a key the test knows.
        await page.addInitScript({
          content: `localStorage.setItem(${JSON.stringify(ARCADE_KEY_STORAGE)}, ${JSON.stringify(key)});`,
        });
        const main = page.getByRole('main');
        try {
          await page.goto(`${web}/`);
          await page.getByRole('button', { name: 'Connect wallet' }).click();
          await page.getByRole('button', { name: 'Arcade wallet' }).click();
          await page.getByTestId('balance').waitFor();
          await openAccountMenu(page);
          await page.getByRole('link', { name: 'Account', exact: true }).click();
          await page.waitForURL(`${web}/account`);
          await main.getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
          await expect.poll(() => main.getByTestId('available').textContent()).toBe('0 HST');
          await expect.poll(() => main.getByTestId('wallet-hst').textContent()).toBe('100 HST');
          expect(await main.getByTestId('wallet-eth').textContent()).toBe('0 ETH');

          // No ETH for the fee: said before anything is signed, and again on Deposit.
          expect(await main.getByTestId('no-gas').textContent()).toBe(NO_GAS);
          const deposit = main.getByRole('form', { name: 'Deposit' });
          const depositAmount = deposit.getByLabel('Amount to deposit (HST)');
          await depositAmount.fill('25');
          await deposit.getByRole('button', { name: 'Deposit' }).click();
          const alerts = main.getByRole('alert');
          await expect.poll(() => alerts.allTextContents()).toEqual([NO_GAS]);
          await checkPage(page, 'account-no-gas');

          // ETH arrives; bad amounts are refused in the page, and nothing is sent.
          const funded = await chain.admin.sendTransaction({ to: wallet, value: parseEther('1') });
          await chain.admin.waitForTransactionReceipt({ hash: funded });
          await page.reload();
          await expect.poll(() => main.getByTestId('wallet-eth').textContent()).toBe('1 ETH');
          expect(await main.getByTestId('no-gas').count()).toBe(0);
          for (const [typed, message] of [
            ['0', 'Enter an amount above 0.'],
            ['1.000000001', 'HST has at most 8 decimals: the smallest amount is 0.00000001 HST.'],
            ['500', 'Your wallet holds only 100 HST.'],
            ['ten', 'Enter the amount as a number, such as 10 or 2.5.'],
          ]) {
            await depositAmount.fill(typed!);
            await depositAmount.press('Enter');
            await expect.poll(() => alerts.allTextContents()).toEqual([message]);
            // The field with the problem has the focus, to be corrected at once.
            expect(await isFocused(depositAmount)).toBe(true);
          }
          expect(await hstOf(wallet)).toBe(100n * HST);

          // Deposit 25 HST with the keyboard only: the hash, then the confirmations, then credit.
          await depositAmount.fill('');
          await tabTo(page, depositAmount);
          await page.keyboard.type('25');
          await page.keyboard.press('Enter');
          const step = main.getByTestId('deposit-progress').locator('[data-step]');
          await expect
            .poll(() => step.textContent(), { timeout: 30_000 })
            .toBe('Deposit of 25 HST is in a block: waiting for 2 more confirmations (0 of 2).');
          const depositHash = (await main
            .getByTestId('deposit-progress')
            .locator('[data-tx-hash]')
            .getAttribute('data-tx-hash')) as Hash;
          expect(depositHash).toMatch(/^0x[0-9a-f]{64}$/);
          const receipt = await chain.admin.getTransactionReceipt({ hash: depositHash });
          expect(receipt.status).toBe('success');
          expect(getAddress(receipt.to!)).toBe(getAddress(vault));
          const [deposited] = parseEventLogs({
            abi: arcadeVaultAbi,
            logs: receipt.logs,
            eventName: 'Deposited',
          });
          expect(deposited?.args.amount).toBe(25n * HST);
          expect(await hstOf(wallet)).toBe(75n * HST);
          // Not credited before its confirmations.
          expect(await main.getByTestId('available').textContent()).toBe('0 HST');
          await checkPage(page, 'account-deposit-confirming');

          await chain.mine(CONFIRMATIONS);
          await expect
            .poll(() => step.textContent(), { timeout: 30_000 })
            .toBe('Credited: 25 HST added to your balance.');
          await expect.poll(() => main.getByTestId('available').textContent()).toBe('25 HST');
          await expect.poll(() => page.getByTestId('balance').textContent()).toBe('25 HST');
          await expect.poll(() => main.getByTestId('wallet-hst').textContent()).toBe('75 HST');
          expect(await playerApi(page, `/player/deposits/${depositHash}`)).toMatchObject({
            deposits: [{ txHash: depositHash, amount: '25', status: 'credited' }],
          });
          await checkPage(page, 'account-deposit-credited');

          // Withdrawals: bad amounts refused in the page, nothing reserved.
          const withdraw = main.getByRole('form', { name: 'Withdraw' });
          const withdrawAmount = withdraw.getByLabel('Amount (HST)');
          expect(await withdraw.getByLabel('To wallet').inputValue()).toBe(wallet);
          for (const [typed, message] of [
            ['0', 'Enter an amount above 0.'],
            ['0.000000001', 'HST has at most 8 decimals: the smallest amount is 0.00000001 HST.'],
            ['25.00000001', 'That is more than you can withdraw: 25 HST is available.'],
          ]) {
            await withdrawAmount.fill(typed!);
            await withdraw.getByRole('button', { name: 'Withdraw' }).click();
            await expect.poll(() => alerts.allTextContents()).toEqual([message]);
          }
          expect(await playerApi(page, '/player/withdrawals')).toEqual({
            withdrawals: [],
            next: null,
          });
          expect(await playerApi(page, '/player/me')).toMatchObject({
            balance: '25',
            pending: '0',
          });
          await checkPage(page, 'account-withdraw-refused');

          // Withdraw 10 HST to the player's own wallet, with the keyboard.
          await withdrawAmount.fill('');
          await tabTo(page, withdrawAmount);
          await page.keyboard.type('10');
          await page.keyboard.press('Tab');
          await page.keyboard.press('Tab');
          expect(await isFocused(withdraw.getByRole('button', { name: 'Withdraw' }))).toBe(true);
          await page.keyboard.press('Enter');
          await expect
            .poll(() => main.getByRole('status').filter({ hasText: 'requested' }).count())
            .toBe(1);
          await expect.poll(() => main.getByTestId('available').textContent()).toBe('15 HST');
          expect(await main.getByTestId('reserved').textContent()).toBe('10 HST');
          const history = main.getByRole('region', { name: 'Your withdrawals, newest first' });
          const row = history.locator('tbody tr');
          await expect.poll(() => row.count()).toBe(1);
          const paid = await mining(async () => {
            await expect
              .poll(() => row.locator('.badge').textContent(), { timeout: 60_000 })
              .toBe('Paid');
            return playerApi(page, '/player/withdrawals');
          });
          const [withdrawal] = paid['withdrawals'] as { txHash: Hash; amount: string }[];
          expect(withdrawal).toMatchObject({ amount: '10', status: 'paid', to: wallet });
          expect(await row.locator('[data-tx-hash]').getAttribute('data-tx-hash')).toBe(
            withdrawal!.txHash,
          );
          expect(
            (await chain.admin.getTransactionReceipt({ hash: withdrawal!.txHash })).status,
          ).toBe('success');
          // The wallet holds exactly 10 HST more, and the page says so.
          expect(await hstOf(wallet)).toBe(85n * HST);
          await expect.poll(() => main.getByTestId('wallet-hst').textContent()).toBe('85 HST');
          await expect.poll(() => main.getByTestId('reserved').textContent()).toBe('0 HST');
          expect(await main.getByTestId('available').textContent()).toBe('15 HST');
          expect(await row.locator('td').nth(1).textContent()).toBe('10 HST');
          // The history below follows the money without a reload: the deposit and the withdrawal.
          const lines = main.getByRole('region', { name: 'History' }).locator('tbody tr');
          await expect
            .poll(() => lines.allTextContents())
            .toEqual([
              expect.stringMatching(/Withdrawal to a wallet \(paid\).*−10 HST$/),
              expect.stringMatching(/Deposit from your wallet.*\+25 HST$/),
            ]);
          await checkPage(page, 'account-withdrawn');
          await page.setViewportSize(DESKTOP);
          await saveScreenshot(page, 'account');
        } finally {
          await context.close();
        }
      },
    );

    it('a player deposits with a browser wallet (EIP-1193)', async () => {
      const web = server.urls['web']!;
      const player = privateKeyToAccount(generatePrivateKey());
      const minted = await chain.admin.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'mint',
        args: [player.address, 10n * HST],
      });
      await chain.admin.waitForTransactionReceipt({ hash: minted });
      const funded = await chain.admin.sendTransaction({
        to: player.address,
        value: parseEther('1'),
      });
      await chain.admin.waitForTransactionReceipt({ hash: funded });
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await injectWallet(page, player, {
        chain: { rpcUrl: chain.anvil.rpcUrl, chainId: chain.chainId },
      });
      const main = page.getByRole('main');
      try {
        await page.goto(`${web}/account`);
        await page.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('button', { name: 'Browser wallet' }).click();
        await expect.poll(() => main.getByTestId('wallet-hst').textContent()).toBe('10 HST');
        const deposit = main.getByRole('form', { name: 'Deposit' });
        await deposit.getByLabel('Amount to deposit (HST)').fill('2.5');
        await deposit.getByRole('button', { name: 'Deposit' }).click();
        const step = main.getByTestId('deposit-progress').locator('[data-step]');
        await expect
          .poll(() => step.textContent(), { timeout: 30_000 })
          .toBe('Deposit of 2.5 HST is in a block: waiting for 2 more confirmations (0 of 2).');
        // The extension was asked for the permit's signature and the transaction, nothing else
        // that signs.
        const calls = await walletCalls(page);
        expect(calls.filter((m) => /sign|send/i.test(m))).toEqual([
          'personal_sign',
          'eth_signTypedData_v4',
          'eth_sendTransaction',
        ]);
        await chain.mine(CONFIRMATIONS);
        await expect
          .poll(() => step.textContent(), { timeout: 30_000 })
          .toBe('Credited: 2.5 HST added to your balance.');
        await expect.poll(() => main.getByTestId('available').textContent()).toBe('2.5 HST');
        expect(await hstOf(player.address)).toBe(75n * (HST / 10n));
      } finally {
        await context.close();
      }
    });

    it('a developer withdraws earnings in the portal', async () => {
      const web = server.urls['web']!;
      const developer = privateKeyToAccount(generatePrivateKey());
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await injectWallet(page, developer);
      const main = page.getByRole('main');
      try {
        await page.goto(`${web}/developer`);
        await main.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('button', { name: 'Browser wallet' }).click();
        await main.getByRole('heading', { name: 'Earnings', exact: true }).waitFor();
        await expect.poll(() => main.getByTestId('earnings-available').textContent()).toBe('0 HST');
        // Earnings in the developer's account, here brought in by a deposit into the vault for
        // it (so the vault holds what it pays out), credited after its confirmations.
        const account = await findDeveloperByWallet(server.api.arcade.db, developer.address);
        await chain.deposit(vault, chain.players[0]!, account!.accountId, 8n * HST);
        await chain.mine(CONFIRMATIONS);
        await expect
          .poll(
            async () =>
              availableUnits((await findAccount(server.api.arcade.db, account!.accountId))!),
            {
              timeout: 30_000,
            },
          )
          .toBe(8n * HST);
        await page.reload();
        await expect.poll(() => main.getByTestId('earnings-available').textContent()).toBe('8 HST');

        const form = main.getByRole('form', { name: 'Withdraw earnings' });
        expect(await form.getByLabel('To wallet').inputValue()).toBe(developer.address);
        await form.getByLabel('Amount (HST)').fill('9');
        await form.getByRole('button', { name: 'Withdraw' }).click();
        await expect
          .poll(() => main.getByRole('alert').allTextContents())
          .toEqual(['That is more than you can withdraw: 8 HST is available.']);
        await form.getByLabel('Amount (HST)').fill('5');
        await form.getByRole('button', { name: 'Withdraw' }).click();
        await expect.poll(() => main.getByTestId('earnings-available').textContent()).toBe('3 HST');
        expect(await main.getByTestId('earnings-reserved').textContent()).toBe('5 HST');
        const row = main
          .getByRole('region', { name: 'Your withdrawals, newest first' })
          .locator('tbody tr');
        await mining(() =>
          expect.poll(() => row.locator('.badge').textContent(), { timeout: 60_000 }).toBe('Paid'),
        );
        expect(await hstOf(developer.address)).toBe(5n * HST);
        await expect.poll(() => main.getByTestId('earnings-reserved').textContent()).toBe('0 HST');
        expect(await row.locator('[data-tx-hash]').getAttribute('data-tx-hash')).toMatch(
          /^0x[0-9a-f]{64}$/,
        );
        await checkPage(page, 'portal-earnings');
      } finally {
        await context.close();
      }
    });

    it('says deposits and withdrawals are not available without chain mode', async () => {
      const ledgerDir = await mkdtemp(join(tmpdir(), 'coinop-account-ledger-'));
      const ledgerOnly = await startServer(
        testConfig({ apiPort: 0, dataDir: ledgerDir, adminToken: 'account-ledger-admin' }),
      );
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      try {
        await page.goto(`${ledgerOnly.urls['web']!}/`);
        await page.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('button', { name: 'Arcade wallet' }).click();
        await openAccountMenu(page);
        await page.getByRole('link', { name: 'Account', exact: true }).click();
        const main = page.getByRole('main');
        await main.getByTestId('no-chain').waitFor();
        expect(await main.getByTestId('no-chain').textContent()).toContain(
          'Deposits and withdrawals are not available in this arcade',
        );
        expect(await main.getByRole('form').count()).toBe(0);
        // The page read the arcade's settings: an arcade without demo, dev chain or faucet does
        // not call its HST test money.
        expect(await page.getByText('Development arcade').count()).toBe(0);
        await checkPage(page, 'account-ledger-only');
      } finally {
        await context.close();
        await ledgerOnly.close();
        await rm(ledgerDir, { recursive: true, force: true });
      }
      // It starts a second arcade of its own: more than the default on a busy machine.
    });
  },
);
