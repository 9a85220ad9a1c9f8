import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
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

/**
 * Issue 31 in the web app, in headless Chromium (PGlite): "a leader's balance rose from 54 to
 * 57.17 HST with no notice". Now, while the leader reads another page, a payout arrives live: the
 * header's balance moves, the bell counts it, a toast says it, and the menu names who played
 * where; on the game page the board moves as someone takes the lead. Desktop and a 360 px phone.
 */

const HST = 100_000_000n;

describe.skipIf(!hasChromium)(
  `live updates in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-live-'));
      server = await startServer(testConfig({ apiPort: 0, dataDir, adminToken: 'live-admin' }));
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** A published game, and a player `name` funded with 5 HST; `play` plays it and scores. */
    async function arcadeWith(gameName: string) {
      const { arcade } = server.api;
      const developer = await ensureDeveloper(
        arcade.db,
        arcade.clock,
        uuidIds,
        privateKeyToAccount(generatePrivateKey()).address.toLowerCase(),
      );
      const game = await registerGame(
        arcade,
        { developerId: developer.id, name: gameName, description: 'Run.', tagLine: 'Run.' },
        [{ name: 'One HST', cost: HST }],
      );
      await publish(arcade, game.id);
      const [tier] = (await arcade.games.get(game.id)).leaderboards;
      const player = async (name: string, wallet: string | null = null) => {
        const created = await createPlayer(arcade.db, arcade.clock, uuidIds, { wallet, name });
        await mintHst(arcade, { id: created.id, amountUnits: 10n * HST });
        return created.id;
      };
      const play = async (playerId: string, score: number) => {
        const opened = await arcade.plays.open({
          gameId: game.id,
          playerId,
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
      /**
       * A tournament on the game whose round is open now (and ends `endsInMs` from now, an hour by
       * default), and a play and score on its round; `enter` opens a play there and stops.
       */
      const tournament = async (options: { entryFeeUnits?: bigint; endsInMs?: number } = {}) => {
        await mintTo(
          arcade.db,
          arcade.record.mintAccountId,
          developer.accountId,
          10n * HST,
          arcade.clock.now(),
        );
        const now = arcade.clock.now();
        const t = await tournamentWithRound(arcade.db, {
          gameId: game.id,
          funderAccountId: developer.accountId,
          name: `${gameName} Cup`,
          guaranteeUnits: 2n * HST,
          entryFeeUnits: options.entryFeeUnits ?? 0n,
          payoutTable: { places: [10000] },
          startsAt: new Date(now.getTime() - 3600_000 + (options.endsInMs ?? 3600_000)),
          durationSeconds: 3600,
          now,
        });
        arcade.games.invalidate(game.id);
        const enter = (playerId: string) =>
          arcade.plays.open({
            gameId: game.id,
            playerId,
            leaderboardId: t.roundId,
            idempotencyKey: null,
          });
        const playRound = async (playerId: string, score: number) => {
          const opened = await enter(playerId);
          await arcade.plays.score({
            gameId: game.id,
            playId: opened.id,
            leaderboardId: t.roundId,
            score,
            idempotencyKey: null,
          });
        };
        return { tournamentId: t.tournamentId, playRound, enter };
      };
      return { gameId: game.id, player, play, tournament };
    }

    it.each([
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)(
      'tells the leader of a payout while they read another page, and moves the board (%s)',
      async (name, viewport) => {
        const gameName = name === 'desktop' ? 'Star Sprint' : 'Moon Hop';
        const { gameId, player, play } = await arcadeWith(gameName);
        const key = generatePrivateKey();
        const morgan = await player('Morgan', privateKeyToAccount(key).address.toLowerCase());
        await play(morgan, 900);
        const { context, page } = await openSignedIn(browser, {
          url: `${server.urls['web']!}/account/allowances`,
          key,
          viewport,
        });
        try {
          const balance = page.getByTestId('balance');
          await expect.poll(() => balance.textContent()).toContain('9');
          // Morgan reads the allowances page; Ada plays on the board Morgan leads.
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          await page.waitForTimeout(500);
          await play(await player('Ada'), 100);
          await expect.poll(() => balance.textContent(), { timeout: 15_000 }).toContain('9.7');
          const unread = page.getByTestId('notifications-unread');
          await expect.poll(() => unread.textContent(), { timeout: 15_000 }).toBe('1');
          await page.getByTestId('notifications-bell').click();
          const list = page.getByTestId('notifications-list');
          await list.waitFor();
          expect(await list.textContent()).toContain(
            `You were paid 0.7 HST: Ada played on your board in ${gameName}`,
          );
          await saveScreenshot(page, `issue-31-payout-notification-${name}`);
          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );
          // Opened, it is read: the count goes.
          await page.keyboard.press('Escape');
          expect(await unread.count()).toBe(0);

          // On the game page, the board moves as Bo takes the lead.
          await page.goto(`${server.urls['web']!}/games/${gameId}`);
          const leaders = page.locator('.leaders li .leader-name');
          await expect.poll(() => leaders.allTextContents()).toEqual(['Morgan', 'Ada']);
          // The page loaded afresh: the menu lists the payout from the server's list, not the
          // stream's (that list was refused once, and the menu was empty after every reload).
          await page.getByTestId('notifications-bell').click();
          await expect
            .poll(() => page.getByTestId('notifications-list').textContent())
            .toContain(`You were paid 0.7 HST: Ada played on your board in ${gameName}`);
          await page.keyboard.press('Escape');
          await page.waitForTimeout(500);
          await play(await player('Bo'), 950);
          await expect
            .poll(() => leaders.allTextContents(), { timeout: 15_000 })
            .toEqual(['Bo', 'Morgan', 'Ada']);
          await saveScreenshot(page, `issue-31-live-board-${name}`);
          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );
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
      "moves a tournament round's standings while the player watches them (%s)",
      async (name, viewport) => {
        const { player, tournament } = await arcadeWith(`Comet Dash ${name}`);
        const key = generatePrivateKey();
        const morgan = await player('Morgan', privateKeyToAccount(key).address.toLowerCase());
        const { tournamentId, playRound } = await tournament();
        await playRound(morgan, 500);
        const { context, page } = await openSignedIn(browser, {
          url: `${server.urls['web']!}/tournaments/${tournamentId}`,
          key,
          viewport,
        });
        try {
          const standings = page.getByRole('region', { name: /Standings · round/ });
          const rows = standings
            .getByRole('table', { name: 'The leaderboard' })
            .locator('tbody tr');
          // A row reads rank, name (and "(you)" for the player's own), score.
          const standingsNow = async () =>
            (await rows.allTextContents()).map((row) => row.replace(/\s+/g, ' '));
          await expect.poll(standingsNow).toEqual(['#1Morgan (you)500']);
          await page.waitForTimeout(500);
          await playRound(await player('Ada'), 800);
          await expect
            .poll(standingsNow, { timeout: 15_000 })
            .toEqual([expect.stringMatching(/^#1Ada.*800/), '#2Morgan (you)500']);
          await saveScreenshot(page, `issue-31-live-standings-${name}`);
          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );
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
      "tells an entrant that the operator's suspension of the game refunded their entry (%s)",
      async (name, viewport) => {
        // A round's close no longer refunds an unscored entry (it settles it as an expired play);
        // a suspended game's open plays, a round's entries among them, are still refunded.
        const gameName = name === 'desktop' ? 'Rocket Run' : 'Pixel Pond';
        const { gameId, player, tournament } = await arcadeWith(gameName);
        const key = generatePrivateKey();
        const morgan = await player('Morgan', privateKeyToAccount(key).address.toLowerCase());
        // Morgan enters the round (1.5 HST) and has not scored yet.
        const { playRound, enter } = await tournament({ entryFeeUnits: 150_000_000n });
        await enter(morgan);
        await playRound(await player('Ada'), 300);
        const { context, page } = await openSignedIn(browser, {
          url: `${server.urls['web']!}/account/allowances`,
          key,
          viewport,
        });
        try {
          const balance = page.getByTestId('balance');
          await expect.poll(() => balance.textContent()).toContain('8.5');
          await page.getByRole('heading', { level: 1 }).first().waitFor();
          // The operator suspends the game: Morgan's open entry is voided, its fee back.
          await page.waitForTimeout(500);
          expect(await server.api.arcade.consent.suspend(gameId)).toEqual({ voidedPlays: 1 });
          await expect.poll(() => balance.textContent(), { timeout: 15_000 }).toContain('10');
          const unread = page.getByTestId('notifications-unread');
          await expect.poll(() => unread.textContent(), { timeout: 15_000 }).toBe('1');
          await page.getByTestId('notifications-bell').click();
          const list = page.getByTestId('notifications-list');
          await list.waitFor();
          expect(await list.textContent()).toContain(
            `Your entry to ${gameName}'s ${gameName} Cup was refunded: 1.5 HST`,
          );
          await saveScreenshot(page, `issue-31-refund-notification-${name}`);
          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );
        } finally {
          await context.close();
        }
      },
      90_000,
    );
  },
);
