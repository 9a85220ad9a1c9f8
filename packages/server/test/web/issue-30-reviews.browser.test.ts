import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import {
  checkAtBothSizes,
  DESKTOP,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  NO_CHROMIUM_REASON,
  openSignedIn,
  PHONE,
  saveScreenshot,
  SCREENSHOT_DIR,
  seriousViolations,
  openGameSection,
} from '@coinop/testkit/browser';
import { injectWallet } from '@coinop/testkit/eip1193';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';

const ADMIN_TOKEN = 'reviews-admin-token';

/**
 * Issue 30: the arcade paid whoever submitted the best number. Here a player reports a rival's
 * impossible score from the board, the operator reads the evidence in the console's Reviews
 * screen and voids it with a reason, the developer sees the game's queue in the portal, and the
 * cheater's history says why the score is gone. Each screen is checked with axe at 1366×900 and
 * 360 px, with screenshots.
 */
describe.skipIf(!hasChromium)(
  `the review queue in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let api: TestApi;
    let game: GameFixture;
    let gameName: string;
    const developerKey = privateKeyToAccount(generatePrivateKey());
    const reporterKey = generatePrivateKey();
    const cheaterKey = generatePrivateKey();

    async function score(playerId: string, value: number): Promise<void> {
      const headers = { authorization: `Bearer ${await writeToken(api, game)}` };
      const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
      const leaderboardId = game.tiers[0]!.id;
      const play = await server.api.inject({
        method: 'POST',
        url: `${base}/play`,
        headers,
        payload: { playerId, leaderboardId },
      });
      expect(play.statusCode, play.body).toBe(200);
      const res = await server.api.inject({
        method: 'POST',
        url: `${base}/score`,
        headers,
        payload: { playId: play.json<{ id: string }>().id, leaderboardId, score: value },
      });
      expect(res.statusCode, res.body).toBe(200);
    }

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-reviews-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: ADMIN_TOKEN, faucetHst: 100 }),
      );
      const { arcade } = server.api;
      api = {
        app: server.api,
        db: arcade.db,
        clock: arcade.clock,
        config: arcade.config,
        close: () => Promise.resolve(),
      } as TestApi;
      game = await gameWithTiers(api, {
        costs: [1],
        leadersMax: 5,
        scoreUnit: 'pts',
        developerWallet: developerKey.address,
      });
      gameName = (await arcade.reads.gameView(game.gameId)).game.name;
      for (let i = 0; i < 22; i++) {
        const player = await fundedPlayer(api, 10, `Player ${i + 1}`);
        await score(player.playerId, 1000 + 37 * i);
      }
      expect(await arcade.flagOutlierScores()).toBe(0);
      const cheater = await fundedPlayer(
        api,
        10,
        'Speedy',
        privateKeyToAccount(cheaterKey).address,
      );
      await score(cheater.playerId, 99_999);
      expect(await arcade.flagOutlierScores()).toBe(1);
      await fundedPlayer(api, 10, 'Reporter', privateKeyToAccount(reporterKey).address);
      browser = await launchChromium();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('a player reports a score from the board; the operator voids it in /admin', async () => {
      const web = server.urls['web']!;
      const board = `${web}/games/${game.gameId}/boards/${game.tiers[0]!.id}`;
      const { context, page } = await openSignedIn(browser, {
        url: board,
        key: reporterKey,
        viewport: DESKTOP,
      });
      try {
        const rows = page.getByRole('main').locator('tbody tr');
        await rows.first().waitFor();
        // Signed in: every other player's row has a Report button, none on one's own.
        expect(await page.getByRole('button', { name: /^Report .*'s score$/ }).count()).toBe(20);
        await page.getByRole('button', { name: "Report Speedy's score" }).click();
        const dialog = page.getByRole('dialog', { name: "Report Speedy's score" });
        await dialog.getByLabel('Looks like a bot').check();
        await dialog.getByLabel('What did you see? (optional)').fill('99,999 in four seconds.');
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'review-report-dialog');
        await dialog.getByRole('button', { name: 'Send report' }).click();
        await page.getByText("Thanks: Speedy's score is with the reviewers.").waitFor();
        await saveScreenshot(page, 'review-report-sent');
      } finally {
        await context.close();
      }

      const operator = await browser.newContext({ viewport: DESKTOP });
      const consolePage = await operator.newPage();
      try {
        await consolePage.goto(`${web}/admin/reviews`);
        await consolePage.getByLabel('Admin token').fill(ADMIN_TOKEN);
        await consolePage.getByRole('button', { name: 'Sign in' }).click();
        const main = consolePage.getByRole('main');
        await main.getByRole('heading', { name: 'Reviews', level: 1 }).waitFor();
        const cards = main.getByRole('list', { name: 'Reviews' }).getByRole('listitem');
        await expect.poll(() => cards.count()).toBe(2);
        const outlier = cards.filter({ hasText: 'Outlier' });
        await outlier
          .getByText('Far beyond the other players: their median is 1,388.5 pts over 22 players')
          .waitFor();
        await outlier.getByRole('button', { name: 'Evidence and decision' }).click();
        await outlier.getByText('23 players · median').waitFor();
        // Scores are grouped in thousands: the tier's best is the outlier's 99,999.
        expect(await outlier.getByText('23 players · median').textContent()).toMatch(
          /^23 players · median [\d,.]+ pts · MAD [\d,.]+ pts · best 99,999 pts$/,
        );
        expect(await outlier.locator('.review-scores strong').first().textContent()).toBe(
          '99,999 pts',
        );
        await checkAtBothSizes(consolePage, 'admin-reviews');

        const reported = cards.filter({ hasText: 'Reported' });
        await reported
          .getByText('A player reported it (looks like a bot): “99,999 in four seconds.”')
          .waitFor();
        await outlier.getByLabel('Reason (the player reads it)').fill('No human plays this fast.');
        await outlier.getByRole('button', { name: 'Void the score' }).click();
        await main.getByText("Speedy's score voided.").waitFor();
        // Voiding the score closed both of its reviews: the open list is empty.
        await main.getByText('Nothing here.').waitFor();
        await main.getByLabel('State').selectOption('voided');
        await expect.poll(() => cards.count()).toBe(2);
        await saveScreenshot(consolePage, 'admin-reviews-voided');
      } finally {
        await operator.close();
      }
    });

    it("shows the developer the game's queue, and the cheater why the score is gone", async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      await injectWallet(page, developerKey);
      const main = page.getByRole('main');
      try {
        await page.goto(`${web}/developer`);
        await main.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('button', { name: 'Browser wallet' }).click();
        await main.getByRole('link', { name: gameName }).click();
        await page.waitForURL(`${web}/developer/games/${game.gameId}`);
        await openGameSection(page, 'Reviews');
        const section = main.getByRole('region', { name: 'Score reviews' });
        await section.getByLabel('State').selectOption('');
        const cards = section.getByRole('list', { name: 'Reviews' }).getByRole('listitem');
        await expect.poll(() => cards.count()).toBe(2);
        await cards.first().getByRole('button', { name: 'Evidence' }).click();
        await section
          .getByText(/Voided by the operator/)
          .first()
          .waitFor();
        await section.scrollIntoViewIfNeeded();
        for (const [size, suffix] of [
          [DESKTOP, ''],
          [PHONE, '-phone'],
        ] as const) {
          await page.setViewportSize(size);
          expect(await seriousViolations(page)).toEqual([]);
          await section.screenshot({ path: await shotPath(`portal-reviews${suffix}`) });
        }
      } finally {
        await context.close();
      }

      const cheater = await openSignedIn(browser, {
        url: `${web}/account`,
        key: cheaterKey,
        viewport: DESKTOP,
      });
      try {
        const history = cheater.page.getByRole('region', { name: 'History' });
        await history.getByText('score voided — No human plays this fast.').waitFor();
        // No rank for a voided score, and the line says the play's cost stays paid.
        const text = (await history.textContent()) ?? '';
        expect(text).toMatch(
          /scored 99,999 pts · score voided — No human plays this fast\. · its cost is not returned/,
        );
        expect(text).not.toMatch(/ranked #\d+ · score voided/);
        await saveScreenshot(cheater.page, 'account-history-voided');
        // Off the board: Speedy's best no longer shows.
        await cheater.page.goto(`${web}/games/${game.gameId}/boards/${game.tiers[0]!.id}`);
        await cheater.page.getByRole('main').locator('tbody tr').first().waitFor();
        expect(await cheater.page.getByRole('main').getByText('Speedy').count()).toBe(0);
      } finally {
        await cheater.context.close();
      }
    });
  },
);

async function shotPath(name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return `${SCREENSHOT_DIR}${name}.png`;
}
