import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkAtBothSizes,
  DESKTOP,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  NO_CHROMIUM_REASON,
} from '@coinop/testkit/browser';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';

/**
 * Issue 27 in the operator console (headless Chromium, PGlite): the admin API gave balances and
 * the audit as JSON numbers, and the console formatted them from a JavaScript number, so the
 * largest mint, 999999999.99999999 HST (past 2^53 base units), read 1,000,000,000 HST. The API
 * now answers exact strings and the console reads them into base units: every screen shows the
 * amount to the unit, and the audit's sums too.
 */

const ADMIN_TOKEN = 'admin-amounts-token';
const LARGEST_MINT = '999999999.99999999';
const SHOWN = '999,999,999.99999999 HST';
const WALLET = `0x${'5a'.repeat(20)}`;
const DEVELOPER_WALLET = `0x${'6b'.repeat(20)}`;

describe.skipIf(!hasChromium)(
  `exact admin amounts in the console in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let playerId: string;
    let developerId: string;

    const admin = async (url: string, payload: object) => {
      const res = await server.api.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json();
    };

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-admin-amounts-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: ADMIN_TOKEN, faucetHst: 0 }),
      );
      ({ playerId } = await admin('/admin/players', { wallet: WALLET, name: 'Whale' }));
      ({ developerId } = await admin('/admin/developers', { wallet: DEVELOPER_WALLET }));
      for (const accountId of [playerId, developerId]) {
        await admin('/admin/hst/mints', { accountId, amount: LARGEST_MINT });
      }
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** The text of the `<dd>` after the `<dt>` named `term`. */
    const fact = (page: Page, term: string) =>
      page
        .locator('dl.admin-facts dt', { hasText: term })
        .locator('xpath=following-sibling::dd[1]');

    it('shows the largest mint to the unit on the players, player, developers and ledger screens', async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: DESKTOP });
      const op = await context.newPage();
      op.on('dialog', (dialog) => void dialog.accept());
      const nav = (name: string) =>
        op.getByRole('navigation', { name: 'Console' }).getByRole('link', { name }).click();
      try {
        await op.goto(`${web}/admin/players`);
        await op.getByLabel('Admin token').fill(ADMIN_TOKEN);
        await op.getByRole('button', { name: 'Sign in' }).click();
        await op.getByLabel('Search by id, wallet or name').fill('Whale');
        await op.getByRole('button', { name: 'Search' }).click();
        const row = op.getByRole('row').filter({ hasText: playerId });
        await expect.poll(() => row.locator('td[data-label="Balance"]').textContent()).toBe(SHOWN);
        expect(await row.locator('td[data-label="Reserved"]').textContent()).toBe('0 HST');
        await checkAtBothSizes(op, 'admin-amounts-players');

        await row.getByRole('link', { name: 'Whale' }).click();
        await op.waitForURL(`${web}/admin/players/${playerId}`);
        await expect.poll(() => fact(op, 'Balance').textContent()).toBe(SHOWN);
        expect(await fact(op, 'Reserved').textContent()).toBe('0 HST');
        await checkAtBothSizes(op, 'admin-amounts-player');

        await nav('Developers');
        // The console's screens are named to screen readers as they change, as the arcade's pages.
        await expect.poll(() => op.getByTestId('route-announcer').textContent()).toBe('Developers');
        const developer = op.getByRole('row').filter({ hasText: developerId });
        await expect
          .poll(() => developer.locator('td[data-label="Balance"]').textContent())
          .toBe(SHOWN);

        // The audit's sums pass 2^53 units first: two largest mints, to the unit.
        await nav('Ledger');
        await expect
          .poll(() => fact(op, 'Minted (net)').textContent())
          .toBe('1,999,999,999.99999998 HST');
        expect(await fact(op, 'Posted debits').textContent()).toBe('1,999,999,999.99999998 HST');
        expect(await fact(op, 'Posted credits').textContent()).toBe('1,999,999,999.99999998 HST');

        // One more unit through the console's mint: the answer and the audit move by exactly it.
        const mintForm = op.getByRole('region', { name: 'Mint HST' });
        await mintForm.getByLabel('Account, player, developer id or wallet').fill(WALLET);
        await mintForm.getByLabel('Amount (HST)').fill('0.00000001');
        await op.getByRole('button', { name: 'Mint', exact: true }).click();
        await op
          .getByText(`Minted 0.00000001 HST into ${WALLET}: its balance is now 1,000,000,000 HST.`)
          .waitFor();
        await expect
          .poll(() => fact(op, 'Minted (net)').textContent())
          .toBe('1,999,999,999.99999999 HST');

        // The balance look-up reads the developer's to the unit.
        const lookUp = op.getByRole('region', { name: 'Balance of an account' });
        await lookUp.getByRole('textbox').fill(DEVELOPER_WALLET);
        await lookUp.getByRole('button', { name: 'Look up' }).click();
        await lookUp.getByText(`${SHOWN} spendable, 0 HST locked.`, { exact: false }).waitFor();
        await checkAtBothSizes(op, 'admin-amounts-ledger');
      } finally {
        await context.close();
      }
    });
  },
);
