import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Arcade } from '@coinop/server-sdk';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { uuidIds } from '../../src/ids.js';
import { publish } from '../../src/services/admin.js';
import { updateGame } from '../../src/store/games.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { fundedPlayer, registerGame } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';
import { freePort } from '@coinop/testkit/net';
import {
  PHONE,
  DESKTOP,
  GAME_SDK_BUNDLE,
  NO_CHROMIUM_REASON,
  hasChromium,
  ensureBrowserBuilds,
  launchChromium,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { injectWallet } from '@coinop/testkit/eip1193';
import { BOARD_EVENTS_GAME_PAGE, QUIET_GAME_PAGE } from '../fixtures/board-events-game.js';

const ADMIN_TOKEN = 'board-events-admin';

/**
 * Issue 31 in headless Chromium: "the game SDK gets board updates as events". A game in the
 * arcade's frame registers `onBoardUpdate`; when another player scores (through the game's
 * server, the SDK), the arcade page's live stream moves the board and the bridge pushes it to the
 * game: to a visitor (the public board stream) and to a signed-in player (their own stream).
 */
describe.skipIf(!hasChromium)(
  `issue 31: board updates reach the game over the bridge${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let site: Server;
    let browser: Browser;
    let gameId: string;
    let tierId: string;
    let sdk: Arcade;
    let quietId: string;
    let quietSdk: Arcade;
    let api: TestApi;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-issue-31-board-events-'));
      const authPort = await freePort();
      server = await startServer(
        testConfig({
          apiPort: 0,
          authPort,
          authIssuer: `127.0.0.1:${authPort}`,
          claimsNamespace: '127.0.0.1',
          dataDir,
          adminToken: ADMIN_TOKEN,
          faucetHst: 100,
        }),
      );
      const web = server.urls['web']!;
      const { arcade } = server.api;
      const developer = await ensureDeveloper(
        arcade.db,
        arcade.clock,
        uuidIds,
        '0x00000000000000000000000000000000000d3131',
      );
      const game = await registerGame(
        arcade,
        { developerId: developer.id, name: 'Live Board', description: 'For issue 31.' },
        [{ name: 'Free', cost: 0 }],
      );
      gameId = game.id;
      const quiet = await registerGame(
        arcade,
        { developerId: developer.id, name: 'Quiet Board', description: 'For issue 31.' },
        [{ name: 'Free', cost: 0 }],
      );
      quietId = quiet.id;
      const sdkBundle = await readFile(GAME_SDK_BUNDLE, 'utf8');
      site = createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        const [type, body] =
          path === '/game-sdk.min.js'
            ? ['text/javascript; charset=utf-8', sdkBundle]
            : [
                'text/html; charset=utf-8',
                path === '/quiet.html' ? QUIET_GAME_PAGE : BOARD_EVENTS_GAME_PAGE,
              ];
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      for (const [id, page] of [
        [gameId, 'live.html'],
        [quietId, 'quiet.html'],
      ] as const) {
        const url = `${origin}/${page}?arcade=${encodeURIComponent(web)}&game=${id}`;
        await updateGame(arcade.db, arcade.clock, id, { url });
        await publish(arcade, id);
      }
      tierId = (await arcade.games.get(gameId)).leaderboards[0]!.id;

      const sdkFor = async (id: string) => {
        const response = await fetch(`${server.urls['api']}/admin/games/${id}/clients`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        const client = (await response.json()) as { clientId: string; clientSecret: string };
        return Arcade.build({
          ...client,
          baseUrl: server.urls['api']!,
          authUrl: server.urls['auth']!,
        });
      };
      sdk = await sdkFor(gameId);
      quietSdk = await sdkFor(quietId);
      api = { db: arcade.db, clock: arcade.clock, app: server.api } as unknown as TestApi;
      const ada = await fundedPlayer(api, 0, 'Ada');
      await sdk.score(await sdk.play(ada.playerId, tierId), 400);
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await new Promise((resolve) => site?.close(resolve));
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const leadersIn = (game: FrameLocator) => game.locator(`#live-${tierId} li`).allTextContents();

    async function signIn(page: Page) {
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await page.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
      await page.getByRole('button', { name: 'Browser wallet' }).click();
      await expect.poll(() => page.getByTestId('balance').textContent()).toBe('0 HST');
    }

    it('pushes the board to the game when another player scores, signed out and signed in', async () => {
      for (const [viewport, name, points, signedIn] of [
        [DESKTOP, 'bridge-board-update', 300, false],
        [PHONE, 'bridge-board-update-phone', 350, true],
      ] as const) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await injectWallet(page, privateKeyToAccount(generatePrivateKey()));
        try {
          await page.goto(`${server.urls['web']}/games/${gameId}`);
          await page.getByRole('heading', { name: 'Live Board', level: 1 }).waitFor();
          if (signedIn) await signIn(page);
          const game = page.frameLocator('iframe.game-frame');
          // First the board as it stands, pushed when the game asked for it.
          await expect.poll(() => leadersIn(game), { timeout: 15_000 }).toContain('Ada 400');
          const before = Number(await game.locator('#updates').textContent());

          // Another player scores through the game's server: the game hears of it, unasked.
          const other = await fundedPlayer(api, 0, signedIn ? 'Hedy' : 'Grace');
          await sdk.score(await sdk.play(other.playerId, tierId), points);
          const expected = signedIn
            ? ['Ada 400', 'Hedy 350', 'Grace 300']
            : ['Ada 400', 'Grace 300'];
          await expect.poll(() => leadersIn(game), { timeout: 15_000 }).toEqual(expected);
          expect(Number(await game.locator('#updates').textContent())).toBeGreaterThan(before);
          // The arcade's own leaders panel moved with it.
          const panel = page.getByRole('region', { name: 'Leaders: Free' });
          await expect
            .poll(() => panel.locator('.leader-score').allTextContents())
            .toEqual(expected.map((e) => e.split(' ')[1]));

          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );
          await saveScreenshot(page, name);
        } finally {
          await context.close();
        }
      }
    }, 180_000);

    it('never sends it to a game that did not ask, as one on haste-arcade-sdk@1.1.5', async () => {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      try {
        await page.goto(`${server.urls['web']}/games/${quietId}`);
        await page.getByRole('heading', { name: 'Quiet Board', level: 1 }).waitFor();
        const game = page.frameLocator('iframe.game-frame');
        // Its own request is answered: messages do reach it.
        await expect.poll(() => game.locator('#types').textContent()).toBe('leaderboard');
        const quietTier = (await server.api.arcade.games.get(quietId)).leaderboards[0]!.id;
        const player = await fundedPlayer(api, 0, 'Linus');
        await quietSdk.score(await quietSdk.play(player.playerId, quietTier), 70);
        // The page's own panel moved live; the game was told nothing.
        const panel = page.getByRole('region', { name: 'Leaders: Free' });
        await expect.poll(() => panel.locator('.leader-score').allTextContents()).toEqual(['70']);
        await page.waitForTimeout(500);
        expect(await game.locator('#types').textContent()).toBe('leaderboard');
      } finally {
        await context.close();
      }
    }, 60_000);
  },
);
