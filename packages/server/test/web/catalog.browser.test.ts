import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { DEMO_GAME_NAME } from '../../src/services/demo-seed.js';
import { updateGame } from '../../src/store/games.js';
import {
  DESKTOP,
  NO_CHROMIUM_REASON,
  hasChromium,
  ensureBrowserBuilds,
  launchChromium,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';

const VIEWPORT = { width: 360, height: 740 };

/** A stand-in game on its own origin (another port), so the frame is cross-origin. */
function startGameSite(): Promise<Server> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><title>Test game</title>' +
        '<body style="background:#fff;color:#111"><h1>Test game running</h1></body>',
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.skipIf(!hasChromium)(
  `web app catalog and game page in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let gameSite: Server;
    let gameUrl: string;
    let browser: Browser;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-web-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'web-admin', demo: true }),
      );
      gameSite = await startGameSite();
      gameUrl = `http://127.0.0.1:${(gameSite.address() as AddressInfo).port}/`;
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await new Promise((resolve) => gameSite?.close(resolve));
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('lists the demo game, opens its page with the tiers and the game in a frame', async () => {
      // The demo game has no URL: point it at the stand-in game.
      const catalog = await fetch(`${server.urls['web']}/api/catalog/games`);
      const { games } = (await catalog.json()) as { games: { id: string; name: string }[] };
      const demo = games.find((g) => g.name === DEMO_GAME_NAME);
      expect(demo).toBeDefined();
      const { arcade } = server.api;
      await updateGame(arcade.db, arcade.clock, demo!.id, { url: gameUrl });
      arcade.reads.invalidate(demo!.id);

      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      try {
        await page.goto(`${server.urls['web']}/`);
        const link = page.getByRole('link', { name: DEMO_GAME_NAME });
        await link.waitFor();
        await expect(page.getByText('How fast are you?').isVisible()).resolves.toBe(true);
        // A demo arcade is a development arcade: every page says its HST is test money.
        const notice = page.getByRole('note').filter({ hasText: 'Development arcade' });
        await notice.waitFor();
        expect(await notice.textContent()).toBe(
          'Development arcade: its HST is test money, worth nothing.',
        );
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          VIEWPORT.width,
        );
        await saveScreenshot(page, 'web-catalog');
        await page.setViewportSize(DESKTOP);
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'web-catalog-desktop');
        await page.setViewportSize(VIEWPORT);

        // A search that matches nothing, then the category filter.
        await page.getByLabel('Search').fill('no such game');
        await page.getByText('No games match.').waitFor();
        await page.getByLabel('Search').fill('');
        await page.getByRole('radio', { name: 'Arcade' }).check();
        await link.waitFor();

        await link.click();
        await page.waitForURL(`${server.urls['web']}/games/${demo!.id}`);
        const tiers = page.getByRole('radiogroup', { name: 'Leaderboard tier' });
        await tiers.waitFor();
        expect(await tiers.getByRole('radio').count()).toBe(2);
        const options = await tiers.locator('label').allTextContents();
        expect(options).toEqual(['Practice — 1 HST per play', 'High stakes — 10 HST per play']);
        await tiers.getByRole('radio', { name: /^High stakes/ }).check();
        await page.getByRole('heading', { name: 'Leaders: High stakes' }).waitFor();

        const frame = page.locator('iframe.game-frame');
        expect(await frame.getAttribute('src')).toBe(gameUrl);
        expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
        expect(await frame.getAttribute('title')).toBe(`${DEMO_GAME_NAME} (game)`);
        await page.frameLocator('iframe.game-frame').getByText('Test game running').waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          VIEWPORT.width,
        );
        await saveScreenshot(page, 'web-game');

        // A deep link is served the app too, and an unknown game says so.
        await page.goto(`${server.urls['web']}/games/00000000-0000-4000-8000-000000000000`);
        await page.getByRole('heading', { name: 'Game not found' }).waitFor();
      } finally {
        await context.close();
      }
    });
  },
);
