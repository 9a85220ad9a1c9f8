import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE,
  DESKTOP,
  openSignedIn,
  NO_CHROMIUM_REASON,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  saveScreenshot,
  seriousViolations,
  type Viewport,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { testConfig } from '../../src/config.js';
import { uuidIds } from '../../src/ids.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { createPlayer } from '../../src/store/players.js';

/**
 * Issue 17 in the web app, in headless Chromium (PGlite): a player's history on /account pages
 * through more than one page with "Load more"; a tier's leaderboard page pages through the board
 * with exact ranks and shows the signed-in player's place with the players around them.
 */

const HST = 100_000_000n;
const BOARD_PLAYERS = 45;
const MY_PLAYS = 14;

describe.skipIf(!hasChromium)(
  `history and leaderboard pages in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let gameId: string;
    let freeTier: string;
    const key = generatePrivateKey();

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-boards-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'boards-admin', faucetHst: 100 }),
      );
      const { arcade } = server.api;
      const developer = await ensureDeveloper(
        arcade.db,
        arcade.clock,
        uuidIds,
        privateKeyToAccount(generatePrivateKey()).address.toLowerCase(),
      );
      const game = await registerGame(
        arcade,
        {
          developerId: developer.id,
          name: 'Star Sprint',
          description: 'Run as far as you can.',
          tagLine: 'How far can you run?',
        },
        [
          { name: 'Free play', cost: 0n },
          { name: 'One HST', cost: HST },
        ],
      );
      gameId = game.id;
      await publish(arcade, gameId);
      const tiers = (await arcade.games.get(gameId)).leaderboards;
      freeTier = tiers[0]!.id;
      const play = async (playerId: string, leaderboardId: string, score: number | null) => {
        const opened = await arcade.plays.open({
          gameId,
          playerId,
          leaderboardId,
          idempotencyKey: null,
        });
        if (score === null) return;
        await arcade.plays.score({
          gameId,
          playId: opened.id,
          leaderboardId,
          score,
          idempotencyKey: null,
        });
      };
      const names = ['Ada', 'Bo', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jo'];
      for (let n = 0; n < BOARD_PLAYERS; n++) {
        const player = await createPlayer(arcade.db, arcade.clock, uuidIds, {
          wallet: null,
          name: `${names[n % names.length]} ${Math.floor(n / names.length) + 1}`,
        });
        await play(player.id, freeTier, 1000 - n * 20);
      }
      const me = await createPlayer(arcade.db, arcade.clock, uuidIds, {
        wallet: privateKeyToAccount(key).address.toLowerCase(),
        name: 'Morgan',
      });
      await mintHst(arcade, { id: me.id, amountUnits: 50n * HST });
      // 510 ranks between the players scoring 520 and 500: rank 26 of 46.
      await play(me.id, freeTier, 510);
      for (let n = 0; n < MY_PLAYS; n++) await play(me.id, tiers[1]!.id, n === 0 ? null : 10 * n);
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const signedInPage = (path: string, viewport: Viewport) =>
      openSignedIn(browser, { url: `${server.urls['web']!}${path}`, key, viewport });

    /** No serious axe violations, and nothing wider than the viewport. */
    async function checkPage(page: Page, width: number, screenshot: string) {
      await saveScreenshot(page, screenshot);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      );
    }

    it.each([
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)(
      "pages through the player's history on /account (%s)",
      async (name, viewport) => {
        const { context, page } = await signedInPage('/account', viewport);
        try {
          const history = page.getByRole('region', { name: 'History' });
          const rows = history.locator('tbody tr');
          await expect.poll(() => rows.count()).toBe(10);
          // Newest first: the last plays of the one-HST tier (its best score leads it).
          await expect
            .poll(() => history.locator('tbody').textContent())
            .toContain('Played One HST: scored 130, ranked #1');
          await history.getByRole('button', { name: 'Load more' }).click();
          // 14 plays, 12 leader payouts (the player leads the tier from their first score on),
          // the leaders' part of their first scored play back (nobody led the tier yet), 1 free
          // play and the grant of their first HST: 29 lines.
          await expect.poll(() => rows.count()).toBe(20);
          await history.getByRole('button', { name: 'Load more' }).click();
          await expect.poll(() => rows.count()).toBe(29);
          await expect(history.getByRole('button', { name: 'Load more' }).count()).resolves.toBe(0);
          await expect
            .poll(() => history.textContent())
            .toContain('That is everything since you joined.');
          const texts = await rows.allTextContents();
          expect(texts.filter((t) => t.includes('Leader payout'))).toHaveLength(12);
          expect(
            texts.filter(
              (t) =>
                t.includes("Leaders' share returned from One HST: no leader to pay") &&
                t.includes('+0.7 HST'),
            ),
          ).toHaveLength(1);
          expect(texts.filter((t) => t.includes('Played One HST'))).toHaveLength(MY_PLAYS);
          expect(texts.at(-1)).toContain('+50 HST');
          expect(texts.some((t) => t.includes('Played Free play: scored 510, ranked #26'))).toBe(
            true,
          );
          // The open play says when it ends if it is not scored.
          expect(
            texts.some(
              (t) =>
                /open, no score yet · ends at .+ if not scored/.test(t) && t.includes('−1 HST'),
            ),
          ).toBe(true);
          await history.getByRole('heading', { name: 'History' }).scrollIntoViewIfNeeded();
          await checkPage(page, viewport.width, `history-${name}`);
        } finally {
          await context.close();
        }
      },
      60_000,
    );

    it.each([
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)(
      'pages through a leaderboard and shows the player around them (%s)',
      async (name, viewport) => {
        const { context, page } = await signedInPage(`/games/${gameId}`, viewport);
        try {
          await page.getByRole('link', { name: 'Full leaderboard' }).click();
          await page.getByRole('heading', { level: 1, name: /Star Sprint/ }).waitFor();
          expect(new URL(page.url()).pathname).toBe(`/games/${gameId}/boards/${freeTier}`);
          const all = page.getByRole('table', { name: 'The leaderboard' });
          const rows = all.locator('tbody tr');
          await expect.poll(() => rows.count()).toBe(20);
          expect(await rows.first().textContent()).toContain('#1');
          expect(await rows.first().textContent()).toContain('Ada 1');
          // Its score, 1000, grouped in thousands as every score is.
          expect(await rows.first().locator('.board-score').textContent()).toBe('1,000');
          await page.getByRole('button', { name: 'Load more' }).click();
          await expect.poll(() => rows.count()).toBe(40);
          await page.getByRole('button', { name: 'Load more' }).click();
          await expect.poll(() => rows.count()).toBe(BOARD_PLAYERS + 1);
          const ranks = (await all.locator('.board-rank').allTextContents()).map((t) => t.trim());
          expect(ranks).toEqual(Array.from({ length: BOARD_PLAYERS + 1 }, (_, i) => `#${i + 1}`));
          expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

          await page.getByRole('button', { name: 'Show my place' }).click();
          const around = page.getByRole('table', { name: 'Your place and the players around you' });
          await around.waitFor();
          expect(await page.getByRole('status').filter({ hasText: 'You rank' }).textContent()).toBe(
            'You rank #26 of 46.',
          );
          const near = (await around.locator('.board-rank').allTextContents()).map((t) => t.trim());
          expect(near).toEqual(['#23', '#24', '#25', '#26', '#27', '#28', '#29']);
          expect(await around.locator('tr[aria-current="true"]').textContent()).toContain(
            'Morgan (you)',
          );
          // Avatars come through the web app's own origin, whatever the API's public URL (here
          // testConfig's, where nothing listens): every one loaded, none a placeholder.
          const avatars = page.locator('img.avatar');
          await expect
            .poll(() => avatars.evaluateAll((imgs) => imgs.every((img) => img.complete)))
            .toBe(true);
          const loaded = await avatars.evaluateAll((imgs) =>
            imgs.map((img) => ({ src: img.src, width: img.naturalWidth })),
          );
          expect(loaded.length).toBeGreaterThan(BOARD_PLAYERS);
          for (const avatar of loaded) {
            expect(avatar.src).toMatch(
              new RegExp(`^${server.urls['web']!}/api/avatars/[0-9a-f-]{36}\\.svg$`),
            );
            expect(avatar.width).toBeGreaterThan(0);
          }
          expect(await page.locator('.avatar-missing').count()).toBe(0);
          await page.getByRole('heading', { name: 'Around me' }).scrollIntoViewIfNeeded();
          await checkPage(page, viewport.width, `board-${name}`);
        } finally {
          await context.close();
        }
      },
      60_000,
    );
  },
);
