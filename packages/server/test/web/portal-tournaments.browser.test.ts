import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeHstToUnits } from '@coinop/core';
import type { Tournament } from '@coinop/protocol';
import {
  PHONE,
  DESKTOP,
  NO_CHROMIUM_REASON,
  SCREENSHOT_DIR,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  seriousViolations,
  openGameSection,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { injectWallet } from '@coinop/testkit/eip1193';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';

/**
 * Issue 18 in the developer portal, in headless Chromium (PGlite): a developer creates a
 * tournament through the game page's form (refused input shown by its field first), opens its
 * public page and stops it. What the form sent is read back from the API.
 */

/** Not the machine's zone, so the form's local-to-UTC conversion is really exercised. */
const ZONE = 'America/New_York';

describe.skipIf(!hasChromium)(
  `tournaments in the developer portal${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    const developerKey = privateKeyToAccount(generatePrivateKey());
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let gameId: string;
    let apiKey: string;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-portal-tournaments-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'portal-tournaments-admin' }),
      );
      const { arcade } = server.api;
      const created = await server.api.inject({
        method: 'POST',
        url: '/admin/developers',
        headers: { authorization: 'Bearer portal-tournaments-admin' },
        payload: { wallet: developerKey.address.toLowerCase() },
      });
      expect(created.statusCode, created.body).toBe(201);
      const developer = created.json<{ developerId: string; apiKey: string }>();
      apiKey = developer.apiKey;
      const game = await registerGame(
        arcade,
        {
          developerId: developer.developerId,
          name: 'Cup Putt',
          description: 'Mini golf in the browser.',
        },
        [{ name: 'Bronze', cost: 1 }],
      );
      gameId = game.id;
      await publish(arcade, gameId);
      // The developer's balance, which funds guaranteed pools.
      await mintHst(arcade, { id: developer.developerId, amountUnits: wholeHstToUnits(20) });
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const readTournament = async (id: string): Promise<Tournament> => {
      const res = await server.api.inject({
        method: 'GET',
        url: `/developer/games/${gameId}/tournaments/${id}`,
        headers: { 'api-key': apiKey },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<Tournament>();
    };

    /**
     * The Tournaments section alone: the game page above it (details, tiers) is taller than the
     * cut of scripts/screenshots.mjs, so a full-page shot would not show it.
     */
    const sectionScreenshot = (page: Page, name: string) =>
      page
        .getByRole('main')
        .getByRole('region', { name: 'Tournaments' })
        .screenshot({ path: `${SCREENSHOT_DIR}${name}.png` });

    /** The message shown under the form field labelled `label`. */
    const fieldMessage = (page: Page, label: string) =>
      page
        .getByRole('form', { name: 'New tournament' })
        .locator('.field', { has: page.getByLabel(label, { exact: true }) })
        .locator('.field-error');

    it('a developer creates a tournament in the portal, opens its page and stops it', async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: DESKTOP, timezoneId: ZONE });
      const page = await context.newPage();
      await injectWallet(page, developerKey);
      const main = page.getByRole('main');
      try {
        await page.goto(`${web}/developer`);
        await main.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
        await page.getByRole('button', { name: 'Browser wallet' }).click();
        await main.getByRole('link', { name: 'Cup Putt' }).click();
        await page.waitForURL(`${web}/developer/games/${gameId}`);
        await openGameSection(page, 'Tournaments');
        const section = main.getByRole('region', { name: 'Tournaments' });
        await section.getByText('No tournaments yet.').waitFor();
        await section.getByText('Create a tournament').click();
        const form = page.getByRole('form', { name: 'New tournament' });
        await form.getByText('available: 20 HST').waitFor();
        await form.getByText(`Your time zone: ${ZONE}`).waitFor();

        await form.getByLabel('Tournament name').fill('Friday Cup');
        await form.getByLabel('Entry fee (HST)').fill('2');
        await form.getByLabel('Length of a round').fill('2');
        await form.getByLabel('Length unit').selectOption('hours');
        await form.getByLabel('Repeats').selectOption('weekly');
        await form.getByLabel('Max attempts per player (optional)').fill('3');
        await form.getByLabel('Prize split').selectOption('custom');
        await form.getByLabel('Percent per place, 1st first').fill('60, 30');
        await form.getByLabel('Guaranteed pool (HST)').fill('5');
        const startValue = await form.getByLabel('Starts').inputValue();
        const cronShown = await form.locator('code').textContent();

        // A split not totalling 100%: said by the field, nothing sent.
        await form.getByRole('button', { name: 'Create tournament' }).click();
        await expect
          .poll(() => fieldMessage(page, 'Percent per place, 1st first').textContent())
          .toBe('The places must total 100%; they total 90%.');
        await form.getByLabel('Percent per place, 1st first').fill('60, 40');

        // More than the developer holds for the guarantee: 402, explained by the pool.
        await form.getByLabel('Guaranteed pool (HST)').fill('500');
        await form.getByRole('button', { name: 'Create tournament' }).click();
        await expect
          .poll(() => fieldMessage(page, 'Guaranteed pool (HST)').textContent())
          .toContain('Your balance (20 HST) does not cover this guaranteed pool');
        await form.getByLabel('Guaranteed pool (HST)').fill('5');

        // The API's 400 names the field; its message is shown by it, without the wire name.
        await form.getByLabel('Entry fee (HST)').fill('2.123456789');
        await form.getByRole('button', { name: 'Create tournament' }).click();
        await expect
          .poll(() => fieldMessage(page, 'Entry fee (HST)').textContent())
          .toBe('Must have at most 8 decimals, got 2.123456789.');
        expect(await form.getByLabel('Entry fee (HST)').getAttribute('aria-invalid')).toBe('true');
        await sectionScreenshot(page, 'portal-tournaments-form-error');
        await form.getByLabel('Entry fee (HST)').fill('2');

        await form.getByRole('button', { name: 'Create tournament' }).click();
        await page.getByText('Tournament Friday Cup created.').waitFor();
        // Its toast can be closed at once with a tap, rather than read around for 4 s.
        await page
          .locator('.toast', { hasText: 'Tournament Friday Cup created.' })
          .locator('.toast-close')
          .click();
        await expect
          .poll(() => page.getByTestId('toasts').textContent())
          .not.toContain('Friday Cup created');
        const card = section.getByRole('listitem').filter({ hasText: 'Friday Cup' });
        await card.getByText(/^1, (scheduled|open)/).waitFor();
        await card.getByText('5 HST', { exact: true }).waitFor();
        await form.getByText('available: 15 HST').waitFor();

        // What was stored is what the form said.
        const list = await server.api.inject({
          method: 'GET',
          url: `/developer/games/${gameId}/tournaments`,
          headers: { 'api-key': apiKey },
        });
        const [listed] = list.json<{ tournaments: Tournament[] }>().tournaments;
        const stored = await readTournament(listed!.id);
        const startsAt = new Date(stored.startsAt);
        expect(stored).toMatchObject({
          name: 'Friday Cup',
          entryFee: '2',
          guaranteedPool: '5',
          payoutTable: { places: [6000, 4000] },
          durationSeconds: 7200,
          maxAttempts: 3,
          maxEntrants: null,
          stoppedAt: null,
          createdBy: 'developer',
        });
        expect(stored.currentRound).toMatchObject({ number: 1, pool: '5', entrants: 0 });
        const cron = `${startsAt.getUTCMinutes()} ${startsAt.getUTCHours()} * * ${startsAt.getUTCDay()}`;
        expect(stored.recurrence).toBe(cron);
        expect(cronShown).toBe(cron);
        // The datetime-local value, read in New York, is the stored UTC instant.
        const shownInZone = startsAt
          .toLocaleString('sv-SE', { timeZone: ZONE, hour12: false })
          .replace(' ', 'T')
          .slice(0, 16);
        expect(shownInZone).toBe(startValue);

        await sectionScreenshot(page, 'portal-tournaments-desktop');
        expect(await seriousViolations(page)).toEqual([]);

        // Its public page.
        await card.getByRole('link', { name: 'Public page of Friday Cup' }).click();
        await page.waitForURL(`${web}/tournaments/${stored.id}`);
        await main.getByRole('heading', { name: 'Friday Cup', level: 1 }).waitFor();
        await page.goBack();
        await page.waitForURL(`${web}/developer/games/${gameId}/tournaments`);

        // Stop: the dialog says the current round still closes and pays.
        await card.getByRole('button', { name: 'Stop Friday Cup' }).click();
        const dialog = page.getByRole('dialog', { name: 'Stop Friday Cup?' });
        await dialog.getByText('No round after the current one will open.').waitFor();
        await dialog.getByRole('button', { name: 'Stop tournament' }).click();
        await page.getByText('Tournament Friday Cup stopped.').waitFor();
        await card.getByText('Stopped', { exact: true }).waitFor();
        expect(await card.getByRole('button', { name: 'Stop Friday Cup' }).count()).toBe(0);
        const stopped = await readTournament(stored.id);
        expect(stopped.stoppedAt).not.toBeNull();
        expect(stopped.currentRound?.number).toBe(1);

        // The phone: the form fits without sideways scrolling.
        await page.setViewportSize(PHONE);
        // Back from the public page, the page was rendered anew with the form folded.
        await section.getByText('Create a tournament').click();
        await form.getByLabel('Prize split').selectOption('custom');
        await form.getByLabel('Repeats').selectOption('daily');
        await form.scrollIntoViewIfNeeded();
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          PHONE.width,
        );
        // The toasts (fixed to the viewport) gone, so they do not cover the form in the shot.
        await expect
          .poll(() => page.getByText(/^Tournament Friday Cup (created|stopped)\.$/).count(), {
            timeout: 15_000,
          })
          .toBe(0);
        await sectionScreenshot(page, 'portal-tournaments-phone');
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
