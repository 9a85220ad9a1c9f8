import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  NO_CHROMIUM_REASON,
  PHONE,
  SCREENSHOT_DIR,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  saveScreenshot,
  seriousViolations,
  type Viewport,
  openGameSection,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { injectWallet } from '@coinop/testkit/eip1193';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';

const ADMIN_TOKEN = 'game-settings-admin';
/** The operator's default hold: ten minutes. */
const OPERATOR_HOLD = 600;

/**
 * Issue 30's settings where people see them, in headless Chromium (PGlite): the developer sets
 * the payout hold of the game and of a tier in the portal, the operator reads every tier's rules
 * and hold in the console, and a player reads the chosen tier's hold on the game page.
 */
describe.skipIf(!hasChromium)(
  `payout hold and score rules in the portal, the console and the game page${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    const developerKey = privateKeyToAccount(generatePrivateKey());
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let gameId: string;
    let tierIds: string[];

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-game-settings-'));
      server = await startServer(
        testConfig({
          apiPort: 0,
          dataDir,
          adminToken: ADMIN_TOKEN,
          payoutHoldSeconds: OPERATOR_HOLD,
        }),
      );
      const created = await server.api.inject({
        method: 'POST',
        url: '/admin/developers',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { wallet: developerKey.address.toLowerCase() },
      });
      expect(created.statusCode, created.body).toBe(201);
      const { developerId } = created.json<{ developerId: string }>();
      const game = await registerGame(
        server.api.arcade,
        { developerId, name: 'Slide', description: 'Slide the tiles.' },
        [
          { name: 'Bronze', cost: 1 },
          { name: 'Gold', cost: 5 },
        ],
      );
      gameId = game.id;
      tierIds = (await server.api.arcade.games.get(gameId)).leaderboards.map((t) => t.id);
      await server.api.arcade.scoreRules.changeGame(gameId, { maxScore: 5000, minPlayMs: 10_000 });
      await publish(server.api.arcade, gameId);
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** The developer's game page in the portal, signed in with the developer's wallet. */
    const openPortal = async (viewport: Viewport) => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await injectWallet(page, developerKey);
      const main = page.getByRole('main');
      await page.goto(`${web}/developer`);
      await main.getByRole('button', { name: 'Connect wallet' }).click();
      await page.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
      await page.getByRole('button', { name: 'Browser wallet' }).click();
      await main.getByRole('link', { name: 'Slide' }).click();
      await page.waitForURL(`${web}/developer/games/${gameId}`);
      await openGameSection(page, 'Boards');
      return { context, page, section: main.getByRole('region', { name: 'Payout hold' }) };
    };

    const storedHolds = async () => ({
      game: (
        await server.api.arcade.db.query<{ payout_hold_seconds: number | null }>(
          'SELECT payout_hold_seconds FROM games WHERE id = $1',
          [gameId],
        )
      )[0]?.payout_hold_seconds,
      tiers: (
        await server.api.arcade.db.query<{ payout_hold_seconds: number | null }>(
          'SELECT payout_hold_seconds FROM leaderboards WHERE game_id = $1 ORDER BY position',
          [gameId],
        )
      ).map((r) => r.payout_hold_seconds),
    });

    it('a developer sets the game’s hold and a tier’s; a player reads it on the game page', async () => {
      const { context, page, section } = await openPortal(DESKTOP);
      try {
        const gameForm = section.getByRole('form', { name: 'Payout hold of the game' });
        await gameForm
          .getByText('Payouts held 10 min before they are paid (operator default).')
          .waitFor();
        expect(await gameForm.getByLabel('Hold').getAttribute('placeholder')).toBe(
          '10 min (operator default)',
        );
        // Over the 30 days the arcade takes: said in words, nothing sent.
        await gameForm.getByLabel('Hold').fill('31');
        await gameForm.getByLabel('Unit').selectOption('days');
        await gameForm.getByRole('button', { name: 'Save hold' }).click();
        await gameForm.getByText('A hold is at most 30 days.').waitFor();
        expect(await storedHolds()).toEqual({ game: null, tiers: [null, null] });

        await gameForm.getByLabel('Hold').fill('24');
        await gameForm.getByLabel('Unit').selectOption('hours');
        await gameForm.getByRole('button', { name: 'Save hold' }).click();
        await gameForm.getByText('Hold saved.').waitFor();
        await gameForm.getByText('Payouts held 24 h before they are paid (set here).').waitFor();

        await section.getByText('Hold for “Gold”').click();
        const gold = section.getByRole('form', { name: 'Payout hold of “Gold”' });
        await gold.getByText('Payouts held 24 h before they are paid (the game’s hold).').waitFor();
        await gold.getByLabel('Hold').fill('0');
        await gold.getByRole('button', { name: 'Save hold' }).click();
        await gold.getByText('Payouts paid at once, with no hold (set here).').waitFor();
        expect(await storedHolds()).toEqual({ game: 86_400, tiers: [null, 0] });
        await section.screenshot({ path: `${SCREENSHOT_DIR}portal-payout-hold.png` });
        expect(await seriousViolations(page)).toEqual([]);

        // Clearing the tier's own hold gives it the game's again.
        await gold.getByRole('button', { name: 'Use the game’s hold' }).click();
        await gold.getByText('Hold cleared: the game’s hold applies.').waitFor();
        await gold.getByText('Payouts held 24 h before they are paid (the game’s hold).').waitFor();
        expect(await storedHolds()).toEqual({ game: 86_400, tiers: [null, null] });
        await gold.getByLabel('Hold').fill('0');
        await gold.getByRole('button', { name: 'Save hold' }).click();
        await gold.getByText('Payouts paid at once, with no hold (set here).').waitFor();

        // The player's side: the chosen tier's hold in one line, none where paid at once.
        await page.goto(`${server.urls['web']!}/games/${gameId}`);
        const panel = page.getByRole('main').locator('.tier-panel');
        await panel.getByLabel(/Bronze/).check();
        await panel
          .getByText('Payouts are held 24 h for review before they can be spent.')
          .waitFor();
        await panel.getByText('Scores up to 5,000 · a run takes at least 10 s').waitFor();
        await panel.screenshot({ path: `${SCREENSHOT_DIR}game-payout-hold.png` });
        await panel.getByLabel(/Gold/).check();
        await panel.getByText('Scores up to 5,000 · a run takes at least 10 s').waitFor();
        expect(await panel.getByText(/Payouts are held/).count()).toBe(0);
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('the portal’s hold section fits a phone', async () => {
      const { context, page, section } = await openPortal(PHONE);
      try {
        await section
          .getByRole('form', { name: 'Payout hold of the game' })
          .getByText(/^Payouts held 24 h before they are paid/)
          .waitFor();
        await section.getByText('Hold for “Bronze”').click();
        await section.scrollIntoViewIfNeeded();
        await section.screenshot({ path: `${SCREENSHOT_DIR}portal-payout-hold-phone.png` });
        expect(await horizontalOverflow(page)).toBe(false);
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });

    for (const [viewport, suffix] of [
      [DESKTOP, ''],
      [PHONE, '-phone'],
    ] as const) {
      it(`the operator reads each tier’s rules and hold in the console at ${viewport.width} px`, async () => {
        await server.api.arcade.scoreRules.changeTier(gameId, tierIds[0]!, { maxScore: 100 });
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        const main = page.getByRole('main');
        try {
          await page.goto(`${server.urls['web']!}/admin/games`);
          await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
          await page.getByRole('button', { name: 'Sign in' }).click();
          await main.getByRole('heading', { name: 'Games', level: 1 }).waitFor();
          const row = main.locator(`tr[data-game="${gameId}"]`);
          await row.getByText('24 h', { exact: true }).waitFor();
          await row.getByRole('button', { name: 'Rules and hold of Slide' }).click();
          const panel = main.getByRole('region', { name: 'Slide: score rules and payout hold' });
          await panel
            .getByText(
              'Payouts held 24 h (game’s own). Score rules of the game: Scores up to 5,000 · a ' +
                'run takes at least 10 s.',
            )
            .waitFor();
          await panel.getByText('your default hold is 10 min').waitFor();
          // The panel opens below the list; the reader is taken to it.
          await expect
            .poll(() => page.evaluate('document.activeElement?.id'))
            .toBe('game-settings-heading');
          const tier = (name: string) => panel.getByRole('row').filter({ hasText: name });
          expect(await tier('Bronze').getByRole('cell').allTextContents()).toEqual([
            '1 HST',
            'held 24 h (as the game)',
            'Scores up to 100 · a run takes at least 10 s',
          ]);
          expect(await tier('Gold').getByRole('cell').allTextContents()).toEqual([
            '5 HST',
            'paid at once (tier’s own)',
            'Scores up to 5,000 · a run takes at least 10 s',
          ]);
          await saveScreenshot(page, `console-game-settings${suffix}`);
          if (viewport === PHONE) expect(await horizontalOverflow(page)).toBe(false);
          expect(await seriousViolations(page)).toEqual([]);
          await panel.getByRole('button', { name: /^Close/ }).click();
          expect(await panel.count()).toBe(0);
        } finally {
          await context.close();
        }
      });
    }
  },
);

/** Whether the page is wider than the window: a phone would have to scroll sideways. */
function horizontalOverflow(page: Page): Promise<boolean> {
  // A string, as this test file's types know no DOM.
  return page.evaluate<boolean>(
    'document.documentElement.scrollWidth > document.documentElement.clientWidth',
  );
}
