import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  NO_CHROMIUM_REASON,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { freePort } from '@coinop/testkit/net';
import { testConfig } from '../../src/config.js';
import { uuidIds } from '../../src/ids.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { findPlayerByWallet } from '../../src/store/players.js';

/**
 * Issue 27, its last gap, in the web app (headless Chromium, PGlite): a player approves a game's
 * CLI login with the largest allowance but one unit, 999999999.99999999 HST a day (a JavaScript
 * number writes it 1000000000: more than they allowed), and allows another game 0.00000001 HST a
 * day (`1e-8`) on its page. The CLI login's done text, the game pages and the allowances page
 * show exactly those digits, and exactly those base units are stored.
 */

const LARGEST = { typed: '999999999.99999999', shown: '999,999,999.99999999 HST' };
const SMALLEST = { typed: '0.00000001', shown: '0.00000001 HST' };

describe.skipIf(!hasChromium)(
  `exact allowance amounts in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let web: string;
    let highLowId: string;
    let cometId: string;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-allowance-amounts-'));
      server = await startServer(
        testConfig({
          apiPort: 0,
          webPort: await freePort(),
          dataDir,
          adminToken: 'allowance-amounts-admin',
          defaultAllowanceUnits: 0n,
        }),
      );
      web = server.urls['web']!;
      const { arcade } = server.api;
      const developer = privateKeyToAccount(generatePrivateKey()).address;
      const owner = await ensureDeveloper(arcade.db, arcade.clock, uuidIds, developer);
      const register = async (name: string) => {
        const game = await registerGame(
          arcade,
          { developerId: owner.id, name, description: `${name}, an amounts test game.`, url: '' },
          [{ name: 'Standard', cost: 1 }],
        );
        await publish(arcade, game.id);
        return game.id;
      };
      highLowId = await register('High-Low');
      cometId = await register('Comet Dash');
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** Base units of the player's allowance for a game, as stored. */
    const storedUnits = async (wallet: string, gameId: string) => {
      const player = await findPlayerByWallet(server.api.arcade.db, wallet);
      return (await server.api.arcade.consent.allowance(player!.id, gameId)).dailyLimitUnits;
    };

    it('shows 999999999.99999999 and 0.00000001 HST a day to the unit, from the CLI login to the allowances page', async () => {
      const start = await fetch(`${server.urls['auth']!}/cli`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ description: 'High-Low terminal', gameId: highLowId }),
      });
      expect(start.status).toBe(200);
      const { requestorId, userCode } = (await start.json()) as Record<string, string>;
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const main = page.getByRole('main');
      try {
        // The CLI login, approved with the arcade wallet and the largest allowance but one unit.
        await page.goto(`${web}/cli-login?requestorId=${requestorId}&code=${userCode}`);
        await page.getByRole('button', { name: 'Arcade wallet' }).click();
        await page.getByRole('heading', { name: 'Step 2: approve or reject' }).waitFor();
        await page.getByLabel('HST a day').fill(LARGEST.typed);
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('heading', { name: 'Approved — return to your game' }).waitFor();
        expect(await main.locator('.cli-login-result p').textContent()).toBe(
          `Your game is now signed in, and High-Low may charge you up to ${LARGEST.shown} a day. ` +
            'You can close this page.',
        );
        await saveScreenshot(page, 'issue-27-cli-login-largest-allowance');
        const wallet = (await page.evaluate(
          "JSON.parse(localStorage.getItem('coinop.session')).address",
        )) as string;
        expect(await storedUnits(wallet, highLowId)).toBe(99_999_999_999_999_999n);

        // The game's page reads it back to the unit, in the sentence and in the form.
        const panel = main.getByRole('region', { name: 'What this game may charge you' });
        await page.goto(`${web}/games/${highLowId}#allowance`);
        await expect
          .poll(() => panel.getByTestId('allowance-summary').textContent(), { timeout: 15_000 })
          .toBe(`This game may charge you up to ${LARGEST.shown} a day.`);
        expect(await panel.getByLabel('Daily limit (HST)').inputValue()).toBe(LARGEST.typed);

        // The smallest allowance, set on another game's page.
        await page.goto(`${web}/games/${cometId}#allowance`);
        await expect
          .poll(() => panel.getByTestId('allowance-summary').textContent(), { timeout: 15_000 })
          .toBe('No allowance yet — server-side plays of this game need your consent.');
        await panel.getByLabel('Daily limit (HST)').fill(SMALLEST.typed);
        await panel.getByRole('button', { name: 'Save' }).click();
        await expect
          .poll(() => panel.getByRole('status').textContent())
          .toBe(`Saved: Comet Dash may charge you up to ${SMALLEST.shown} a day.`);
        expect(await panel.locator('dl').textContent()).toBe(
          `Used today0 HSTRemaining today${SMALLEST.shown}`,
        );
        expect(await storedUnits(wallet, cometId)).toBe(1n);

        // The allowances page: every amount exactly as allowed.
        await page.goto(`${web}/account/allowances`);
        const rows = main.locator('tbody tr');
        await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
        const cells = (name: string) =>
          rows.filter({ hasText: name }).locator('th, td').allTextContents();
        expect(await cells('High-Low')).toEqual([
          'High-Low',
          `${LARGEST.shown} a day`,
          '0 HST',
          LARGEST.shown,
          'You',
          expect.any(String),
          'Revoke',
        ]);
        expect(await cells('Comet Dash')).toEqual([
          'Comet Dash',
          `${SMALLEST.shown} a day`,
          '0 HST',
          SMALLEST.shown,
          'You',
          expect.any(String),
          'Revoke',
        ]);
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'issue-27-allowances-exact');
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
