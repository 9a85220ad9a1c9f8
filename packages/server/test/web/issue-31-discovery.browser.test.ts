import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
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
} from '@coinop/testkit/browser';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { updateGame } from '../../src/store/games.js';
import { pngImage } from '../fixtures/images.js';

/**
 * Issue 31, discovery and fit, as a player sees them: the catalog sorted three ways with each
 * game's week, a game page with its gallery and what its board pays, the developer's page, and
 * the game's frame kept to its declared shape inside the window.
 */

/** A 1920×1080 PNG of coloured bands, so a screenshot of the gallery shows a picture. */
function bandedPng(hue: number): Buffer {
  const width = 1920;
  const height = 1080;
  const row = Buffer.alloc(width * 3 + 1);
  for (let x = 0; x < width; x++) {
    const t = x / width;
    row[1 + x * 3] = Math.round(40 + 180 * t * (hue & 1));
    row[2 + x * 3] = Math.round(60 + 120 * (1 - t));
    row[3 + x * 3] = Math.round(120 + 100 * t * ((hue >> 1) & 1));
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A stand-in game on its own origin that fills its frame, so the frame's edges show. */
function startGameSite(): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.url === '/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(bandedPng(3));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html><title>Comet</title><body style="margin:0;height:100vh;display:grid;' +
        'place-items:center;background:linear-gradient(135deg,#1b1446,#6a56f5);color:#fff;' +
        'font:700 2rem system-ui">Comet running</body>',
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.skipIf(!hasChromium)(
  `discovery in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let gameSite: Server;
    let browser: Browser;
    let api: TestApi;
    /** Three players score on its 1 HST tier: the most played this week. */
    let comet: GameFixture;
    /** One 10 HST play: the biggest pool this week. */
    let nebula: GameFixture;
    const names: Record<string, string> = {};
    /** The wallet of a third game's developer, who signs in to the portal. */
    const developerKey = generatePrivateKey();
    let orbit: GameFixture;

    async function play(game: GameFixture, name: string, score: number | null) {
      const player = await fundedPlayer(api, 20, name);
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
      if (score === null) return;
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
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-discovery-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'web-admin', demo: true }),
      );
      gameSite = await startGameSite();
      const { arcade } = server.api;
      api = {
        app: server.api,
        db: arcade.db,
        clock: arcade.clock,
        config: arcade.config,
        close: () => Promise.resolve(),
      } as TestApi;
      comet = await gameWithTiers(api, { costs: [1, 5], leadersMax: 3 });
      nebula = await gameWithTiers(api, { costs: [10] });
      const url = `http://127.0.0.1:${(gameSite.address() as AddressInfo).port}/`;
      await updateGame(arcade.db, arcade.clock, comet.gameId, {
        url,
        aspectRatio: '16:9',
        tagLine: 'Steer through the tail',
        category: 'Arcade',
      });
      await updateGame(arcade.db, arcade.clock, nebula.gameId, {
        tagLine: 'High stakes, one shot',
        category: 'Puzzle',
      });
      for (const [game, key] of [
        [comet, 'comet'],
        [nebula, 'nebula'],
      ] as const) {
        names[key] = (await arcade.reads.gameView(game.gameId)).game.name;
        arcade.reads.invalidate(game.gameId);
      }
      await play(comet, 'Ada', 300);
      await play(comet, 'Grace', 200);
      await play(comet, 'Linus', 100);
      await play(nebula, 'Edsger', null);
      for (const [hue, alt] of [
        [1, 'The comet swings round the sun'],
        [2, 'Dodging the ice in the tail'],
        [3, 'The leaderboard after a close round'],
      ] as const) {
        await arcade.screenshots.add(comet.developerId, comet.gameId, {
          image: `data:image/png;base64,${bandedPng(hue).toString('base64')}`,
          alt,
        });
      }
      orbit = await gameWithTiers(api, {
        published: false,
        developerWallet: privateKeyToAccount(developerKey).address,
      });
      await updateGame(arcade.db, arcade.clock, orbit.gameId, { coverUrl: `${url}cover.png` });
      browser = await launchChromium();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await new Promise((resolve) => gameSite?.close(resolve));
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const cardNames = (page: Page) =>
      page
        .getByRole('list', { name: 'Games' })
        .getByRole('heading', { level: 2 })
        .allTextContents();

    it('sorts the catalog by popular, new and pool, with each game its plays this week', async () => {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      try {
        await page.goto(`${server.urls['web']}/`);
        const sort = page.getByRole('group', { name: 'Sort' });
        await sort.waitFor();
        // Newest first by default: the two games made after the demo's.
        await expect
          .poll(async () => (await cardNames(page)).slice(0, 2))
          .toEqual([names['nebula'], names['comet']]);
        for (const size of [DESKTOP, PHONE]) {
          await checkAtSize(page, size, `issue-31-catalog-new${size === PHONE ? '-phone' : ''}`);
        }

        await sort.getByRole('radio', { name: 'Popular' }).check();
        await expect
          .poll(async () => (await cardNames(page)).slice(0, 2))
          .toEqual([names['comet'], names['nebula']]);
        expect(page.url()).toMatch(/\?sort=popular$/);
        const cometCard = page.getByRole('listitem').filter({ hasText: names['comet']! });
        await expect(cometCard.locator('.week-line').textContent()).resolves.toMatch(
          /^3 plays this week.*3 HST paid in$/,
        );
        for (const size of [DESKTOP, PHONE]) {
          await checkAtSize(
            page,
            size,
            `issue-31-catalog-popular${size === PHONE ? '-phone' : ''}`,
          );
        }

        await sort.getByRole('radio', { name: 'Biggest pools' }).check();
        await expect
          .poll(async () => (await cardNames(page)).slice(0, 2))
          .toEqual([names['nebula'], names['comet']]);
        const nebulaCard = page.getByRole('listitem').filter({ hasText: names['nebula']! });
        await expect(nebulaCard.locator('.week-line').textContent()).resolves.toMatch(
          /^1 play this week.*10 HST paid in$/,
        );
        for (const size of [DESKTOP, PHONE]) {
          await checkAtSize(page, size, `issue-31-catalog-pool${size === PHONE ? '-phone' : ''}`);
        }

        // At 1366 px the cards share the width: the last card ends near the grid's right edge.
        await page.setViewportSize(DESKTOP);
        const grid = await page.getByRole('list', { name: 'Games' }).boundingBox();
        const cards = page.getByRole('list', { name: 'Games' }).getByRole('listitem');
        const lastInRow = await cards.nth(Math.min(await cards.count(), 4) - 1).boundingBox();
        expect(grid!.x + grid!.width - (lastInRow!.x + lastInRow!.width)).toBeLessThan(2);
      } finally {
        await context.close();
      }
    });

    it("shows a game's gallery, how its board pays, and links its developer's page", async () => {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      try {
        await page.goto(`${server.urls['web']}/games/${comet.gameId}`);
        const pays = page.getByRole('region', { name: 'How this board pays' });
        await pays.getByText('The arcade', { exact: true }).waitFor();
        // The settlement's split of 1 HST among three leaders: 23333333 units each, the rest
        // of the division to the arcade (docs/concepts/plays-and-settlement.md).
        const text = (await pays.textContent())!.replace(/\s+/g, ' ');
        expect(text).toContain('Each play costs 1 HST');
        expect(text).toContain('The 3 leaders0.23333333 HST each0.69999999 HST');
        expect(text).toContain('The developer0.2 HST');
        expect(text).toContain('The arcade0.10000001 HST');

        const gallery = page.getByRole('region', { name: 'Screenshots' });
        const main = gallery.locator('.gallery-main img');
        await expect(main.getAttribute('alt')).resolves.toBe('The comet swings round the sun');
        const thumbs = gallery.getByRole('button');
        expect(await thumbs.count()).toBe(3);
        await thumbs.first().focus();
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => main.getAttribute('alt')).toBe('Dodging the ice in the tail');
        await expect(
          page.evaluate("document.activeElement?.getAttribute('aria-label')"),
        ).resolves.toBe('Screenshot 2 of 3: Dodging the ice in the tail');
        await page.keyboard.press('End');
        await expect
          .poll(() => main.getAttribute('alt'))
          .toBe('The leaderboard after a close round');
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => main.getAttribute('alt')).toBe('The comet swings round the sun');

        for (const size of [DESKTOP, PHONE]) {
          await page.frameLocator('iframe.game-frame').getByText('Comet running').waitFor();
          await checkAtSize(page, size, `issue-31-game${size === PHONE ? '-phone' : ''}`);
          // The frame keeps 16:9 and fits the window: nothing of the game is cut off.
          const frame = (await page.locator('iframe.game-frame').boundingBox())!;
          expect(Math.abs(frame.width / frame.height - 16 / 9), JSON.stringify(frame)).toBeLessThan(
            0.02,
          );
          expect(frame.width).toBeLessThanOrEqual(size.width);
          expect(frame.height).toBeLessThanOrEqual(size.height);
        }

        await page.setViewportSize(DESKTOP);
        await page.getByRole('link', { name: 'More games from this developer' }).click();
        await page.waitForURL(`${server.urls['web']}/developers/${comet.developerId}`);
        const list = page.getByRole('list', { name: /^Games by / });
        await list.waitFor();
        expect(await list.getByRole('heading', { level: 2 }).allTextContents()).toEqual([
          names['comet'],
        ]);
        for (const size of [DESKTOP, PHONE]) {
          await checkAtSize(page, size, `issue-31-developer${size === PHONE ? '-phone' : ''}`);
        }
      } finally {
        await context.close();
      }
    });

    it("sets a game's frame shape and adds and deletes a screenshot in the portal", async () => {
      const { context, page } = await openSignedIn(browser, {
        url: `${server.urls['web']}/developer/games/${orbit.gameId}/details`,
        key: developerKey,
        viewport: DESKTOP,
      });
      try {
        const section = page.getByRole('region', { name: 'Frame and screenshots' });
        await section.getByLabel('Frame shape').selectOption('9:16');
        await section.getByRole('button', { name: 'Save the shape' }).click();
        await section.getByText('The frame keeps 9:16.').waitFor();
        const stored = await server.api.arcade.reads.gameView(orbit.gameId);
        expect(stored.game.aspectRatio).toBe('9:16');

        await section.getByLabel('Image').setInputFiles({
          name: 'level.png',
          mimeType: 'image/png',
          buffer: bandedPng(2),
        });
        await section.getByLabel('What it shows').fill('The first level');
        await section.getByRole('button', { name: 'Add screenshot' }).click();
        await section.getByText('Screenshot added.').waitFor();
        const list = section.getByRole('list', { name: 'Screenshots' });
        // The confirmation comes once the list shows the screenshot.
        expect(await list.getByRole('listitem').allTextContents()).toEqual([
          '1. The first levelDelete',
        ]);
        // A picture of the wrong size is refused with the arcade's reason, and nothing added.
        await section.getByLabel('Image').setInputFiles({
          name: 'small.png',
          mimeType: 'image/png',
          buffer: pngImage(1280, 720),
        });
        await section.getByLabel('What it shows').fill('Broken');
        await section.getByRole('button', { name: 'Add screenshot' }).click();
        await section.getByRole('alert').waitFor();
        expect(await list.getByRole('listitem').count()).toBe(1);
        await section.scrollIntoViewIfNeeded();
        for (const size of [DESKTOP, PHONE]) {
          await checkAtSize(
            page,
            size,
            `issue-31-portal-showcase${size === PHONE ? '-phone' : ''}`,
          );
        }
        await section.getByRole('button', { name: 'Delete screenshot 1: The first level' }).click();
        await section.getByText('Screenshot deleted.').waitFor();
        expect(await server.api.arcade.screenshots.list(orbit.gameId)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
