import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  NO_CHROMIUM_REASON,
  checkAtBothSizes,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  openSignedIn,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { testConfig } from '../../src/config.js';
import { uuidIds } from '../../src/ids.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { createPlayer } from '../../src/store/players.js';
import { mintTo, tournamentWithRound } from '../fixtures/tournaments.js';

const HST = 100_000_000n;

/**
 * A reviewer leading a board played on it and was told "You were paid 0.7 HST: 0xDa59…6651
 * played on your board", as if someone else had paid them: the player was themselves, and the
 * 0.7 HST a share of their own 1 HST. Now the notification says it was their own play, and "How
 * this board pays" marks the leader who is the player "(you)".
 */
describe.skipIf(!hasChromium)(
  `a leader's own play on their board${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-own-play-'));
      server = await startServer(testConfig({ apiPort: 0, dataDir, adminToken: 'own-admin' }));
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('says a payout of the player’s own play is theirs, and marks them among the leaders', async () => {
      const { arcade } = server.api;
      const developer = await ensureDeveloper(
        arcade.db,
        arcade.clock,
        uuidIds,
        privateKeyToAccount(generatePrivateKey()).address.toLowerCase(),
      );
      const game = await registerGame(
        arcade,
        { developerId: developer.id, name: 'Star Sprint', description: 'Run.', tagLine: 'Run.' },
        [{ name: 'One HST', cost: HST }],
      );
      await publish(arcade, game.id);
      const [tier] = (await arcade.games.get(game.id)).leaderboards;
      const key = generatePrivateKey();
      const wallet = privateKeyToAccount(key).address.toLowerCase();
      const me = await createPlayer(arcade.db, arcade.clock, uuidIds, { wallet });
      await mintHst(arcade, { id: me.id, amountUnits: 10n * HST });
      const play = async (score: number) => {
        const opened = await arcade.plays.open({
          gameId: game.id,
          playerId: me.id,
          leaderboardId: tier!.id,
          idempotencyKey: null,
        });
        await arcade.plays.score({
          gameId: game.id,
          playId: opened.id,
          leaderboardId: tier!.id,
          score,
          idempotencyKey: null,
        });
      };
      await play(900); // the board's only leader

      const { context, page } = await openSignedIn(browser, {
        url: `${server.urls['web']!}/games/${game.id}`,
        key,
        viewport: DESKTOP,
      });
      try {
        const pays = page.locator('.board-pays');
        await expect.poll(() => pays.locator('dt').first().textContent()).toBe('The leader (you)');

        // They play on the board they lead: 0.7 HST of their own 1 HST comes back to them.
        await page.waitForTimeout(500);
        await play(100);
        const own =
          'Your own play on your board in Star Sprint: 0.7 HST of its cost came back to you as ' +
          'a leader.';
        await expect
          .poll(() => page.getByTestId('toasts').textContent(), { timeout: 15_000 })
          .toContain(own);
        // The bell says how many are unread to a screen reader too.
        const bell = page.getByTestId('notifications-bell');
        expect(await bell.getAttribute('aria-label')).toBe('Notifications: 1 new');
        await bell.click();
        const list = page.getByTestId('notifications-list');
        await expect.poll(() => list.textContent()).toContain(own);
        expect(await list.textContent()).not.toContain('played on your board');
        await checkAtBothSizes(page, 'own-play-payout');

        // A player page of nobody had no way on; /tournaments was "Page not found" though the
        // catalog lists the tournaments.
        await page.goto(
          `${server.urls['web']!}/players/0x0000000000000000000000000000000000000001`,
        );
        await page.getByText('No player has this address.').waitFor();
        await page.getByRole('main').getByRole('link', { name: 'Back to the games' }).click();
        await page.getByRole('heading', { name: 'Games', level: 1 }).waitFor();
        await mintTo(
          arcade.db,
          arcade.record.mintAccountId,
          developer.accountId,
          10n * HST,
          arcade.clock.now(),
        );
        await tournamentWithRound(arcade.db, {
          gameId: game.id,
          funderAccountId: developer.accountId,
          name: 'Star Cup',
          guaranteeUnits: 2n * HST,
          payoutTable: { places: [10000] },
          startsAt: new Date(arcade.clock.now().getTime() - 60_000),
          durationSeconds: 3600,
          now: arcade.clock.now(),
        });
        arcade.games.invalidate(game.id);
        await page.goto(`${server.urls['web']!}/tournaments`);
        const strip = page.getByRole('region', { name: 'Tournaments' });
        await strip.waitFor();
        expect(await strip.getByText('Star Cup').count()).toBeGreaterThan(0);
        expect(await page.getByText('Page not found').count()).toBe(0);
      } finally {
        await context.close();
      }
    });
  },
);
