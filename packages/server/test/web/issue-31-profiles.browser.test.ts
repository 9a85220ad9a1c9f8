import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  PHONE,
  NO_CHROMIUM_REASON,
  brokenImages,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  openSignedIn,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { testConfig } from '../../src/config.js';
import { uuidIds } from '../../src/ids.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { createPlayer } from '../../src/store/players.js';
import { gradientPng } from '../fixtures/images.js';

/**
 * Issue 31 in the web app, in headless Chromium (PGlite): a player who showed as `0x…` on every
 * board names themself and uploads a picture on /account; the game page's board shows both at
 * once, and the name links to their public page with their best score.
 */
describe.skipIf(!hasChromium)(
  `profiles in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let gameId: string;
    let avatarFile: string;
    const players = {
      // Scored in this order, 910 then 920: the phone's player leads the board.
      desktop: { key: generatePrivateKey(), name: 'Ada Lovelace', id: '', best: '#2910' },
      phone: { key: generatePrivateKey(), name: 'Grace Hopper', id: '', best: '#1920' },
    };

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-profiles-'));
      avatarFile = join(dataDir, 'me.png');
      await writeFile(avatarFile, gradientPng(256, 256));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'profiles-admin', faucetHst: 10 }),
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
        [{ name: 'Free play', cost: 0n }],
      );
      gameId = game.id;
      await publish(arcade, gameId);
      const tier = (await arcade.games.get(gameId)).leaderboards[0]!.id;
      const score = async (playerId: string, points: number) => {
        const opened = await arcade.plays.open({
          gameId,
          playerId,
          leaderboardId: tier,
          idempotencyKey: null,
        });
        await arcade.plays.score({
          gameId,
          playId: opened.id,
          leaderboardId: tier,
          score: points,
          idempotencyKey: null,
        });
      };
      const rival = await createPlayer(arcade.db, arcade.clock, uuidIds, {
        wallet: null,
        name: 'Board Rival',
      });
      await score(rival.id, 500);
      let points = 900;
      for (const p of Object.values(players)) {
        const me = await createPlayer(arcade.db, arcade.clock, uuidIds, {
          wallet: privateKeyToAccount(p.key).address.toLowerCase(),
        });
        p.id = me.id;
        await score(me.id, (points += 10));
      }
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** No serious axe violations, no broken image, and nothing wider than the viewport. */
    async function checkPage(page: Page, width: number, screenshot: string) {
      await saveScreenshot(page, screenshot);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await brokenImages(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      );
    }

    it.each([
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)(
      'sets a name and picture on /account, shown on the board and the player page (%s)',
      async (device, viewport) => {
        const me = players[device];
        const wallet = privateKeyToAccount(me.key).address;
        const { context, page } = await openSignedIn(browser, {
          url: `${server.urls['web']!}/account`,
          key: me.key,
          viewport,
        });
        try {
          const profile = page.getByRole('region', { name: 'Profile' });
          const field = profile.getByLabel('Display name');
          // A player without a name goes by their short address: shown as the placeholder, not
          // typed in the field right above the rule that no name may start with 0x.
          await expect
            .poll(() => field.getAttribute('placeholder'))
            .toBe(`${wallet.slice(0, 6)}…${wallet.slice(-4)}`);
          expect(await field.inputValue()).toBe('');
          const save = profile.getByRole('button', { name: 'Save name' });
          expect(await save.isDisabled()).toBe(true);

          // The rules are told as the player types, before anything is sent.
          await field.fill('0xCafe');
          await expect
            .poll(() => profile.locator('.field-problem').textContent())
            .toBe('A name may not start with 0x and a hex digit: it would look like a wallet.');
          expect(await save.isDisabled()).toBe(true);
          await field.fill(`  ${me.name} `);
          expect(await save.isDisabled()).toBe(false);
          await save.click();
          await expect
            .poll(() => profile.getByRole('status').textContent())
            .toBe(`Your name is ${me.name} now, on every board.`);

          await profile.locator('input[type=file]').setInputFiles(avatarFile);
          await expect
            .poll(() => profile.getByRole('status').textContent())
            .toBe('Your picture is saved.');
          const preview = profile.locator('img.avatar');
          await expect
            .poll(() => preview.getAttribute('src'))
            .toMatch(new RegExp(`/api/catalog/players/${me.id}/avatar\\?v=`));
          await expect
            .poll(() =>
              preview.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
            )
            .toBe(256);
          expect(
            await profile.getByRole('button', { name: 'Use the generated picture' }).count(),
          ).toBe(1);
          await checkPage(page, viewport.width, `profile-account-${device}`);

          await page.goto(`${server.urls['web']!}/games/${gameId}`);
          const leaders = page.getByRole('region', { name: /^Leaders/ });
          const link = leaders.getByRole('link', { name: me.name });
          await link.waitFor();
          const row = leaders.locator('li').filter({ hasText: me.name });
          await expect
            .poll(() => row.locator('img.avatar').getAttribute('src'))
            .toContain(`/api/catalog/players/${me.id}/avatar?v=`);
          expect(await leaders.textContent()).toContain('Board Rival');
          await leaders.scrollIntoViewIfNeeded();
          await checkPage(page, viewport.width, `profile-board-${device}`);

          await link.click();
          await page.getByRole('heading', { level: 1, name: me.name }).waitFor();
          expect(new URL(page.url()).pathname).toBe(`/players/${me.id}`);
          const bests = page.getByRole('region', { name: 'Best scores' });
          const firstRow = bests.locator('tbody tr').first();
          await expect.poll(() => firstRow.textContent()).toContain('Star Sprint: Free play');
          expect(await firstRow.textContent()).toBe(`Star Sprint: Free play${me.best}`);
          expect(await page.textContent('main')).toContain('No tournament prizes yet.');
          // Nothing private: not the wallet, nor a balance.
          const text = (await page.textContent('main')) ?? '';
          expect(text.toLowerCase()).not.toContain(wallet.slice(2, 10).toLowerCase());
          expect(text).not.toContain('HST');
          await checkPage(page, viewport.width, `profile-player-page-${device}`);
        } finally {
          await context.close();
        }
      },
      90_000,
    );

    it.each([
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)(
      "the operator resets a player's name and picture from the console (%s)",
      async (device, viewport) => {
        const me = players[device];
        const short = privateKeyToAccount(me.key).address;
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        const main = page.getByRole('main');
        try {
          await page.goto(`${server.urls['web']!}/admin/players/${me.id}`);
          await page.getByLabel('Admin token').fill('profiles-admin');
          await page.getByRole('button', { name: 'Sign in' }).click();
          await main.getByRole('heading', { level: 1, name: me.name }).waitFor();
          const reset = main.getByRole('region', { name: 'Reset profile' });
          const face = reset.locator('.admin-profile-face');
          await expect
            .poll(() => face.textContent())
            .toBe(`${me.name}: a name they chose, a picture they uploaded.`);
          const button = reset.getByRole('button', { name: 'Reset name and picture' });
          expect(await button.isDisabled()).toBe(true);
          await reset.getByLabel('Reason').fill('Impersonates a famous computer scientist');
          await button.click();
          const defaultName = `${short.slice(0, 6)}…${short.slice(-4)}`;
          await expect
            .poll(() => reset.getByText(/^Reset:/).textContent())
            .toBe(`Reset: ${me.name} is ${defaultName} again, with the generated picture.`);
          await main.getByRole('heading', { level: 1, name: defaultName }).waitFor();
          await expect
            .poll(() => face.textContent())
            .toBe(`${defaultName}: the default name, the generated picture.`);
          await saveScreenshot(page, `profile-console-reset-${device}`);
          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );

          const rows = await server.api.arcade.db.query<{ previous_name: string; reason: string }>(
            'SELECT previous_name, reason FROM player_profile_resets WHERE player_id = $1',
            [me.id],
          );
          expect(rows).toEqual([
            { previous_name: me.name, reason: 'Impersonates a famous computer scientist' },
          ]);
        } finally {
          await context.close();
        }
      },
      90_000,
    );
  },
);
