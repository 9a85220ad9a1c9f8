import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Dialog, FrameLocator, Page } from 'playwright-core';
import { generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { uuidIds } from '../../src/ids.js';
import { publish } from '../../src/services/admin.js';
import { updateGame } from '../../src/store/games.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import {
  ARCADE_KEY_STORAGE,
  DESKTOP,
  NO_CHROMIUM_REASON,
  checkAtBothSizes,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  openAccountMenu,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';

/** The client-side example game (examples/reaction), a workspace the type checker does not follow. */
const REACTION_SERVER = '@coinop/example-reaction/src/server.js';
type StartReaction = (options: {
  port: number;
  arcade: string;
  gameId: string;
}) => Promise<{ url: string; close(): Promise<void> }>;

/** Where the browser runs: the expected local times are written in this zone and locale. */
const TIME_ZONE = 'Europe/Berlin';
const LOCALE = 'en-GB';

/**
 * A reviewer approved a play, then reloaded: the game page said "Ready. Press Play to start.",
 * the 5 HST stayed reserved, and an hour later the play settled without a score, while the
 * history said "in progress" with no end. Now leaving asks first while the game's play is open,
 * the page says which play was left open, what it cost, when it ends and what happens then, and
 * the history says when it ends.
 */
describe.skipIf(!hasChromium)(
  `a play left open by leaving its game${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let reaction: { url: string; close(): Promise<void> };
    let browser: Browser;
    let gameId: string;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-open-play-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'open-play-admin', faucetHst: 100 }),
      );
      const web = server.urls['web']!;
      const { arcade } = server.api;
      const developer = await ensureDeveloper(
        arcade.db,
        arcade.clock,
        uuidIds,
        '0x00000000000000000000000000000000000dE7e2',
      );
      const game = await registerGame(
        arcade,
        { developerId: developer.id, name: 'Reaction', scoreDisplay: 'REVERSE', scoreUnit: 'ms' },
        [{ name: 'Gold', cost: 5 }],
      );
      gameId = game.id;
      const { startReactionServer } = (await import(REACTION_SERVER)) as {
        startReactionServer: StartReaction;
      };
      reaction = await startReactionServer({ port: 0, arcade: web, gameId });
      await updateGame(arcade.db, arcade.clock, gameId, { url: reaction.url });
      await publish(arcade, gameId);
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await reaction?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const status = (game: FrameLocator) => game.locator('#status').textContent();

    /** Presses Play in the game and approves the 5 HST play: the round begins. */
    async function approvePlay(page: Page, game: FrameLocator) {
      await game.getByRole('button', { name: 'Play' }).click();
      const dialog = page.getByRole('dialog', { name: 'Lock HST to play?' });
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await expect.poll(() => status(game), { timeout: 15_000 }).toBe('Wait for green…');
    }

    /** The next dialog the page opens, answered: accepted (leave) or dismissed (stay). */
    function nextDialog(page: Page, accept: boolean): Promise<Dialog> {
      return new Promise((resolve) => {
        page.once('dialog', (dialog) => {
          void (accept ? dialog.accept() : dialog.dismiss()).then(() => resolve(dialog));
        });
      });
    }

    const localTime = (iso: string) =>
      new Intl.DateTimeFormat(LOCALE, {
        timeZone: TIME_ZONE,
        hour: 'numeric',
        minute: '2-digit',
      }).format(new Date(iso));

    it('asks before the page is left with a play open, and says what a play left open becomes', async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({
        viewport: DESKTOP,
        timezoneId: TIME_ZONE,
        locale: LOCALE,
      });
      const page = await context.newPage();
      await page.addInitScript({
        content: `localStorage.setItem(${JSON.stringify(ARCADE_KEY_STORAGE)}, ${JSON.stringify(generatePrivateKey())});`,
      });
      try {
        await page.goto(`${web}/`);
        await page.getByRole('button', { name: 'Connect wallet' }).first().click();
        await page.getByRole('button', { name: 'Arcade wallet' }).click();
        await page.getByTestId('balance').waitFor();
        await openAccountMenu(page);
        await page.getByRole('button', { name: 'Get 100 test HST' }).click();
        await expect.poll(() => page.getByTestId('balance').textContent()).toBe('100 HST');
        await page.keyboard.press('Escape');
        // Into the game from the catalog, within the app: Back has somewhere to go.
        await page
          .getByRole('link', { name: /Reaction/ })
          .first()
          .click();
        await page.getByRole('heading', { name: 'Reaction', level: 1 }).waitFor();
        const game = page.frameLocator('iframe.game-frame');
        await expect
          .poll(() => status(game), { timeout: 15_000 })
          .toBe('Ready. Press Play to start.');

        // Before any play, leaving asks nothing.
        let asked = 0;
        const count = () => (asked += 1);
        page.on('dialog', count);
        await page.reload();
        await expect
          .poll(() => status(game), { timeout: 15_000 })
          .toBe('Ready. Press Play to start.');
        expect(asked).toBe(0);
        page.off('dialog', count);

        await approvePlay(page, game);
        const [play] = await server.api.arcade.db.query<{ id: string; expires_at: Date }>(
          `SELECT id, expires_at FROM plays WHERE game_id = $1 AND status = 'open'`,
          [gameId],
        );
        const endsAt = localTime(play!.expires_at.toISOString());

        // A reload asks (the browser's own prompt); staying keeps the round going.
        const reloadAsked = nextDialog(page, false);
        void page.reload().catch(() => undefined);
        expect((await reloadAsked).type()).toBe('beforeunload');
        expect(await status(game)).not.toBe('Ready. Press Play to start.');

        // A link of the app asks, saying what is at stake; staying stays.
        const linkAsked = nextDialog(page, false);
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Games' })
          .click();
        const question = (await linkAsked).message();
        expect(question).toBe(
          `Leave the game? Your play on Gold (5 HST) has no score yet, and the game cannot ` +
            `finish it once you leave. It ends at ${endsAt}. If it has no score by then, it ends ` +
            'without one: its cost is paid out as a scored play’s is: to the leaders the board ' +
            'had when it began, the game’s developer and the arcade. If the board had no ' +
            'leaders, their part comes back to you (on a tournament round, it goes to the prize ' +
            'pool).',
        );
        expect(new URL(page.url()).pathname).toBe(`/games/${gameId}`);

        // Back within the app asks the same; staying keeps the game page and its round.
        const backAsked = nextDialog(page, false);
        void page.goBack().catch(() => undefined);
        expect((await backAsked).message()).toBe(question);
        await expect.poll(() => new URL(page.url()).pathname).toBe(`/games/${gameId}`);
        await page.getByRole('heading', { name: 'Reaction', level: 1 }).waitFor();
        expect(await status(game)).not.toBe('Ready. Press Play to start.');

        // Leaving anyway: the page comes back saying which play was left open and what it becomes.
        const left = nextDialog(page, true);
        void page.reload().catch(() => undefined);
        await left;
        const notice = page.getByTestId('open-play-notice');
        await expect
          .poll(() => notice.textContent(), { timeout: 15_000 })
          .toBe(
            `You have an open play on Gold, which cost 5 HST. It ends at ${endsAt}. If it has no ` +
              'score by then, it ends without one: its cost is paid out as a scored play’s is: ' +
              'to the leaders the board had when it began, the game’s developer and the arcade. ' +
              'If the board had no leaders, their part comes back to you (on a tournament round, ' +
              'it goes to the prize pool).The arcade cannot hand a play back to a game once its page was left or ' +
              'reloaded: unless the game itself continues it, pressing Play starts a new play, ' +
              'paid again.',
          );
        expect(await notice.locator('time').getAttribute('datetime')).toBe(
          play!.expires_at.toISOString(),
        );
        await checkAtBothSizes(page, 'open-play-notice');

        // The play left open is not the page's: leaving asks nothing now.
        page.on('dialog', count);
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Games' })
          .click();
        await expect.poll(() => new URL(page.url()).pathname).toBe('/');
        expect(asked).toBe(0);

        // The history says when it ends.
        await page.goto(`${web}/account`);
        const row = page.locator('.history-table tr[data-kind="play"]').first();
        await expect
          .poll(() => row.locator('td').nth(1).textContent(), { timeout: 15_000 })
          .toBe(`Played Gold: open, no score yet · ends at ${endsAt} if not scored`);
        await checkAtBothSizes(page, 'open-play-history');

        // A play scored in the page leaves nothing to ask about.
        await page.goto(`${web}/games/${gameId}`);
        await approvePlay(page, game);
        await expect.poll(() => status(game), { timeout: 15_000 }).toBe('Green! Press now.');
        await game.locator('#pad').click();
        await expect
          .poll(() => status(game), { timeout: 15_000 })
          .toMatch(/ms: score submitted\. Press Play for another go\.$/);
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Games' })
          .click();
        await expect.poll(() => new URL(page.url()).pathname).toBe('/');
        expect(asked).toBe(0);
      } finally {
        await context.close();
      }
    });
  },
);
