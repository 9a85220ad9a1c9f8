import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import {
  checkAtSize,
  DESKTOP,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  NO_CHROMIUM_REASON,
  openSignedIn,
  PHONE,
  type Viewport,
} from '@coinop/testkit/browser';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';

/**
 * Issue 31, charts as a developer and an operator see them: the portal's plays and HST earned
 * per day (on the game's page and on the dashboard), and the console's Activity screen, each
 * with its figures as a table of exact amounts, at 1366 and 360 px, axe clean, with no sideways
 * scroll.
 */

const ADMIN_TOKEN = 'charts-admin';
/** Plays on the 1 HST tier per day, oldest first; the last is today. */
const PLAYS_PER_DAY = [2, 0, 4, 1, 3, 5, 2];

describe.skipIf(!hasChromium)(
  `charts in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let api: TestApi;
    let comet: GameFixture;
    const developerKey = generatePrivateKey();

    async function play(game: GameFixture, score: number) {
      const player = await fundedPlayer(api, 20);
      const headers = { authorization: `Bearer ${await writeToken(api, game)}` };
      const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
      const leaderboardId = game.tiers[0]!.id;
      const opened = await server.api.inject({
        method: 'POST',
        url: `${base}/play`,
        headers,
        payload: { playerId: player.playerId, leaderboardId },
      });
      expect(opened.statusCode, opened.body).toBe(200);
      const scored = await server.api.inject({
        method: 'POST',
        url: `${base}/score`,
        headers,
        payload: { playId: opened.json<{ id: string }>().id, leaderboardId, score },
      });
      expect(scored.statusCode, scored.body).toBe(200);
    }

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-charts-'));
      server = await startServer(testConfig({ apiPort: 0, dataDir, adminToken: ADMIN_TOKEN }));
      const { arcade } = server.api;
      api = {
        app: server.api,
        db: arcade.db,
        clock: arcade.clock,
        config: arcade.config,
        close: () => Promise.resolve(),
      } as TestApi;
      comet = await gameWithTiers(api, {
        costs: [1],
        // One leader: every play after the first pays exactly 0.7 HST to its leader.
        leadersMax: 1,
        developerWallet: privateKeyToAccount(developerKey).address,
      });
      // Each day's plays are played now, then everything so far is moved a day back: the
      // server's clock is the real one, and the charts count days by the rows' times.
      for (const [i, count] of PLAYS_PER_DAY.entries()) {
        for (let n = 0; n < count; n++) await play(comet, 10 * (i + 1) + n);
        if (i === PLAYS_PER_DAY.length - 1) break;
        await arcade.db.query(`UPDATE plays SET created_at = created_at - interval '1 day'`);
        await arcade.db.query(
          `UPDATE transfers SET created_at = created_at - interval '1 day'
           WHERE play_id IS NOT NULL`,
        );
      }
      browser = await launchChromium();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** Once its chart has drawn: axe, no sideways scroll, no broken image, a screenshot. */
    async function check(page: Page, size: Viewport, name: string) {
      await page.setViewportSize(size);
      await page.locator('.recharts-surface').first().waitFor();
      await checkAtSize(page, size, name);
    }

    /** The figure's table, opened: its rows' cells, newest day first. */
    async function tableRows(figure: ReturnType<Page['getByRole']>): Promise<string[][]> {
      await figure.getByText('Show the figures as a table').click();
      const rows = figure.getByRole('table').getByRole('row');
      const texts: string[][] = [];
      for (const row of await rows.all()) {
        texts.push(await row.locator('th, td').allTextContents());
      }
      return texts;
    }

    it("charts a game's plays and HST earned per day in the portal", async () => {
      const { context, page } = await openSignedIn(browser, {
        url: `${server.urls['web']}/developer/games/${comet.gameId}/stats`,
        key: developerKey,
        viewport: DESKTOP,
      });
      try {
        // The game's Stats view carries its chart.
        const figure = page.getByRole('figure', { name: /plays and HST earned per day/ });
        await figure.locator('.recharts-surface').waitFor();
        const rows = await tableRows(figure);
        expect(rows[0]).toEqual(['Day (UTC)', 'Plays', 'HST earned']);
        // Newest first: today's 2 plays, then 5, 3, 1, 4, 0, 2. Every play pays the developer
        // 0.2 HST, the first ever too: it had no leaders, and their part went back to its player.
        expect(rows.slice(1, 8).map((r) => r[1])).toEqual(['2', '5', '3', '1', '4', '0', '2']);
        expect(rows.slice(1, 8).map((r) => r[2])).toEqual([
          '0.4 HST',
          '1 HST',
          '0.6 HST',
          '0.2 HST',
          '0.8 HST',
          '0 HST',
          '0.4 HST',
        ]);
        expect(rows).toHaveLength(31);
        // The tooltip names the hovered day's exact figures.
        // Today's bar, the last one.
        await figure.locator('.recharts-bar-rectangle').last().hover();
        const tip = figure.locator('.chart-tip');
        await tip.waitFor();
        expect(await tip.locator('li').allTextContents()).toEqual([
          'Plays: 2',
          'HST earned: 0.4 HST',
        ]);
        for (const size of [DESKTOP, PHONE]) {
          await check(page, size, `issue-31-portal-chart${size === PHONE ? '-phone' : ''}`);
        }
        await page.goto(`${server.urls['web']}/developer`);
        const dashboard = page.getByRole('region', { name: 'Plays and earnings per day' });
        await dashboard.getByLabel('Days').selectOption('7');
        await dashboard.getByRole('figure', { name: /last 7 days/ }).waitFor();
        for (const size of [DESKTOP, PHONE]) {
          await check(
            page,
            size,
            `issue-31-portal-dashboard-chart${size === PHONE ? '-phone' : ''}`,
          );
        }
      } finally {
        await context.close();
      }
    });

    it("charts the arcade's plays, players, volume and payouts on the console's Activity screen", async () => {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      try {
        await page.goto(`${server.urls['web']}/admin/activity`);
        await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Activity', level: 1 }).waitFor();
        const totals = page.getByTestId('activity-totals');
        await totals.waitFor();
        // 17 plays of 1 HST; every play after the first paid 0.7 HST to its leaders.
        expect(await totals.locator('dd').allTextContents()).toEqual([
          '17',
          '17 HST',
          '11.2 HST',
          '5',
        ]);
        const money = page.getByRole('figure', { name: /HST locked by plays and paid/ });
        const rows = await tableRows(money);
        expect(rows[0]).toEqual(['Day (UTC)', 'Volume (HST locked)', 'Paid to leaders']);
        expect(rows[1]?.slice(1)).toEqual(['2 HST', '1.4 HST']);
        expect(rows[7]?.slice(1)).toEqual(['2 HST', '0.7 HST']);
        await expect(page.title()).resolves.toBe('Activity · coinop operator console');
        for (const size of [DESKTOP, PHONE]) {
          await check(page, size, `issue-31-console-activity${size === PHONE ? '-phone' : ''}`);
        }
      } finally {
        await context.close();
      }
    });
  },
);
