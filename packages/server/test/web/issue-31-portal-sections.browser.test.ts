import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
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
} from '@coinop/testkit/browser';
import { walletSignIn } from '@coinop/testkit/signin';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';

/**
 * Issue 31: the developer portal's game page was one ~4,000 px page of twelve sections. Now each
 * view of a game has its own URL. In headless Chromium (PGlite): a deep link opens its view on a
 * fresh load, back and forward move between views, the current one is `aria-current="page"`, the
 * strip works from the keyboard, the overview names what needs attention (a waiting publish
 * request, a reported score) with a link to it, and at 1366 and 360 px the pages are axe clean
 * with no sideways scroll.
 */
describe.skipIf(!hasChromium)(
  `the portal's game sections${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    const developerKey = generatePrivateKey();
    const developer = privateKeyToAccount(developerKey);
    const reporter = privateKeyToAccount(generatePrivateKey());
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let game: GameFixture;
    let gameName: string;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-portal-sections-'));
      server = await startServer(testConfig({ apiPort: 0, dataDir }));
      const { arcade } = server.api;
      const api = {
        app: server.api,
        db: arcade.db,
        clock: arcade.clock,
        config: arcade.config,
        close: () => Promise.resolve(),
      } as TestApi;
      // Not published: its developer may play it, and asks the operator to publish it.
      game = await gameWithTiers(api, {
        costs: [1, 5],
        published: false,
        developerWallet: developer.address,
      });
      gameName = (await arcade.reads.gameView(game.gameId)).game.name;

      // The developer's own player scores; another player reports that score.
      const own = await fundedPlayer(api, 10, 'Dev', developer.address);
      const headers = { authorization: `Bearer ${await writeToken(api, game)}` };
      const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
      const leaderboardId = game.tiers[0]!.id;
      const play = await server.api.inject({
        method: 'POST',
        url: `${base}/play`,
        headers,
        payload: { playerId: own.playerId, leaderboardId },
      });
      expect(play.statusCode, play.body).toBe(200);
      const scored = await server.api.inject({
        method: 'POST',
        url: `${base}/score`,
        headers,
        payload: { playId: play.json<{ id: string }>().id, leaderboardId, score: 420 },
      });
      expect(scored.statusCode, scored.body).toBe(200);
      await fundedPlayer(api, 0, 'Reporter', reporter.address);
      const reporterToken = (await walletSignIn(server.auth, reporter)).access_token;
      const report = await server.api.inject({
        method: 'POST',
        url: `/player/boards/${leaderboardId}/players/${own.playerId}/report`,
        headers: { authorization: `Bearer ${reporterToken}` },
        payload: { reason: 'impossible' },
      });
      expect(report.statusCode, report.body).toBe(201);

      const developerToken = (await walletSignIn(server.auth, developer)).access_token;
      const request = await server.api.inject({
        method: 'POST',
        url: `/developer/games/${game.gameId}/publish-requests`,
        headers: { authorization: `Bearer ${developerToken}` },
        payload: { note: 'Ready for the catalog.' },
      });
      expect(request.statusCode, request.body).toBe(201);
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const sections = (page: Page) =>
      page.getByRole('main').getByRole('navigation', { name: 'Game sections' });
    const tab = (page: Page, name: string) =>
      sections(page).getByRole('link', { name, exact: true });
    /** The labels of the strip's links marked current, with the mark. */
    const current = (page: Page) =>
      sections(page)
        .locator('a[aria-current]')
        .evaluateAll((links) =>
          links.map((a) => `${a.textContent ?? ''}=${a.getAttribute('aria-current') ?? ''}`),
        );
    /** A stacked table's cells as a phone shows them: the column's label, then the value. */
    const stackedCells = (table: Locator) =>
      table.locator('td').evaluateAll((cells) => {
        const { getComputedStyle } = globalThis as unknown as {
          getComputedStyle: (cell: unknown, pseudo: string) => { content: string };
        };
        return cells.map(
          (td) =>
            `${getComputedStyle(td, '::before').content.replace(/^"|"$/g, '')}${td.textContent}`,
        );
      });
    /** One computed style property of each element the locator finds. */
    const styleOf = (elements: Locator, property: string) =>
      elements.evaluateAll((found, name) => {
        const { getComputedStyle } = globalThis as unknown as {
          getComputedStyle: (element: unknown) => Record<string, string>;
        };
        return found.map((element) => getComputedStyle(element)[name]);
      }, property);
    /** Whether the chart's drawing is as wide as the box it sits in. */
    async function chartFitsItsBox(figure: Locator): Promise<boolean> {
      const box = await figure.locator('.recharts-responsive-container').boundingBox();
      const drawing = await figure.locator('.recharts-surface').boundingBox();
      return box !== null && drawing !== null && Math.abs(box.width - drawing.width) < 1;
    }
    /** What the route announcer last said to screen readers (nothing on a fresh load). */
    const announced = (page: Page) => page.getByTestId('route-announcer').textContent();
    const gameUrl = (section = '') =>
      `${server.urls['web']}/developer/games/${game.gameId}${section === '' ? '' : `/${section}`}`;

    it('opens a deep link on a fresh load, and goes back and forward between sections', async () => {
      const { context, page } = await openSignedIn(browser, {
        url: gameUrl('boards'),
        key: developerKey,
        viewport: DESKTOP,
      });
      const main = page.getByRole('main');
      try {
        await main.getByRole('heading', { name: gameName, level: 1 }).waitFor();
        const tiers = main.getByRole('region', { name: 'Leaderboard tiers' });
        expect(await tiers.getByRole('heading', { level: 3 }).allTextContents()).toEqual([
          'Tier 1',
          'Tier 2',
        ]);
        await main.getByRole('region', { name: 'Score rules' }).waitFor();
        await main.getByRole('region', { name: 'Payout hold' }).waitFor();
        expect(await main.getByRole('region', { name: 'Publishing' }).count()).toBe(0);
        expect(await current(page)).toEqual(['Boards=page']);
        expect(await page.title()).toBe(`Boards · ${gameName} · coinop arcade`);
        expect(await announced(page)).toBe('');
        expect(await page.getByTestId('route-announcer').getAttribute('aria-live')).toBe('polite');
        expect(await sections(page).getByRole('link').allTextContents()).toEqual([
          'Overview',
          'Details',
          'Boards',
          'Tournaments',
          'Integration',
          'Publishing',
          'Reviews',
          'Stats',
        ]);
        await checkAtBothSizes(page, 'portal-sections-boards');

        await tab(page, 'Publishing').click();
        await page.waitForURL(gameUrl('publishing'));
        const publishing = main.getByRole('region', { name: 'Publishing' });
        await publishing.getByText('Waiting for review').waitFor();
        await main.getByRole('region', { name: 'Testers' }).waitFor();
        expect(await main.getByRole('region', { name: 'Leaderboard tiers' }).count()).toBe(0);
        expect(await current(page)).toEqual(['Publishing=page']);
        expect(await page.title()).toBe(`Publishing · ${gameName} · coinop arcade`);
        // Focus stays on the link followed; the new view's name is said instead.
        await expect.poll(() => announced(page)).toBe(`Publishing · ${gameName}`);

        await page.goBack();
        await page.waitForURL(gameUrl('boards'));
        await tiers.waitFor();
        expect(await current(page)).toEqual(['Boards=page']);
        expect(await page.title()).toBe(`Boards · ${gameName} · coinop arcade`);
        await page.goForward();
        await page.waitForURL(gameUrl('publishing'));
        await publishing.waitFor();
        expect(await current(page)).toEqual(['Publishing=page']);

        // From the keyboard: Tab reaches the strip's links in order, Enter follows one.
        await tab(page, 'Publishing').focus();
        await page.keyboard.press('Tab');
        expect(await page.evaluate('document.activeElement?.textContent')).toBe('Reviews');
        await page.keyboard.press('Enter');
        await page.waitForURL(gameUrl('reviews'));
        await main.getByRole('region', { name: 'Score reviews' }).waitFor();
        expect(await current(page)).toEqual(['Reviews=page']);
        await expect.poll(() => announced(page)).toBe(`Reviews · ${gameName}`);

        // Leaving the portal: the catalog names itself rather than keep the portal's title.
        await page
          .getByRole('navigation', { name: 'Main' })
          .getByRole('link', { name: 'Games' })
          .click();
        await page.waitForURL(`${server.urls['web']}/`);
        await expect.poll(() => page.title()).toBe('Games · coinop arcade');
        await expect.poll(() => announced(page)).toBe('Games');
      } finally {
        await context.close();
      }
    });

    it('shows what needs attention on the overview, each with a link to its section', async () => {
      const { context, page } = await openSignedIn(browser, {
        url: gameUrl(),
        key: developerKey,
        viewport: DESKTOP,
      });
      const main = page.getByRole('main');
      try {
        const attention = main.getByRole('region', { name: 'Needs your attention' });
        const items = attention.getByRole('listitem');
        await expect.poll(() => items.count()).toBe(2);
        expect(await items.nth(0).textContent()).toMatch(
          /^Your publish request waits for the operator \(sent .+\)\. See it in Publishing$/,
        );
        expect(await items.nth(1).textContent()).toBe(
          '1 score waits for your review. Open Reviews',
        );
        // The one play: the developer's share only. With no leaders when it began, the leaders'
        // part went back to its player (docs/concepts/plays-and-settlement.md); the arcade keeps
        // its 10%.
        const glance = main.getByRole('region', { name: 'At a glance' });
        await expect
          .poll(() => glance.getByRole('definition').allTextContents())
          .toEqual(['Tier 1 (1 HST per play), Tier 2 (5 HST per play)', '1', '0.2 HST', '1 live']);
        expect(await current(page)).toEqual(['Overview=page']);
        expect(await page.title()).toBe(`${gameName} · coinop arcade`);
        await checkAtBothSizes(page, 'portal-sections-overview');
        // On a phone the game id is wider than its field: it ends in an ellipsis, Copy beside it.
        await page.setViewportSize(PHONE);
        const idField = glance.getByRole('textbox', { name: 'Game id' });
        expect(await idField.inputValue()).toBe(game.gameId);
        expect(await idField.evaluate((input) => input.scrollWidth > input.clientWidth)).toBe(true);
        expect(await styleOf(idField, 'textOverflow')).toEqual(['ellipsis']);
        const field = (await idField.boundingBox())!;
        const copy = (await glance.getByRole('button', { name: 'Copy Game id' }).boundingBox())!;
        expect(copy.x).toBeGreaterThan(field.x + field.width);
        expect(copy.x + copy.width).toBeLessThanOrEqual(PHONE.width);
        expect(Math.abs(copy.y + copy.height / 2 - (field.y + field.height / 2))).toBeLessThan(2);
        await page.setViewportSize(DESKTOP);

        await attention.getByRole('link', { name: 'Open Reviews' }).click();
        await page.waitForURL(gameUrl('reviews'));
        await main
          .getByRole('region', { name: 'Score reviews' })
          .getByText('Reported')
          .first()
          .waitFor();

        // The integration code sits under Integration: its strip marks Integration "true".
        await tab(page, 'Integration').click();
        await page.waitForURL(gameUrl('integration'));
        await main.getByRole('region', { name: 'Game server credentials' }).waitFor();
        await main.getByRole('region', { name: 'Replay verifier' }).waitFor();
        await main.getByRole('link', { name: 'Integrate your game' }).click();
        await page.waitForURL(gameUrl('integrate'));
        await main.getByRole('heading', { name: 'Integrate your game', level: 1 }).waitFor();
        expect(await current(page)).toEqual(['Integration=true']);

        // A section that does not exist is not the overview.
        await page.goto(gameUrl('nothing-here'));
        await main.getByRole('heading', { name: 'Page not found', level: 1 }).waitFor();
      } finally {
        await context.close();
      }
    });

    it('keeps every section in sight on a phone, the strip wrapping rather than scrolling', async () => {
      const { context, page } = await openSignedIn(browser, {
        url: gameUrl('stats'),
        key: developerKey,
        viewport: PHONE,
      });
      const main = page.getByRole('main');
      try {
        await main.getByRole('region', { name: 'Plays and earnings' }).waitFor();
        expect(await current(page)).toEqual(['Stats=page']);
        const strip = sections(page).getByRole('list');
        const widths = await strip.evaluate((ul) => ({
          scroll: ul.scrollWidth,
          client: ul.clientWidth,
        }));
        expect(widths.scroll).toBeLessThanOrEqual(widths.client);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          PHONE.width,
        );
        // Each of the eight links lies whole inside the screen's width.
        for (const link of await sections(page).getByRole('link').all()) {
          const box = await link.boundingBox();
          expect(box).not.toBeNull();
          expect(box!.x).toBeGreaterThanOrEqual(0);
          expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
        }
        // The chart loads after the section: the screenshot waits until it draws today's one play
        // (1 HST, 0.2 HST of it to the developer), not "Loading the chart…".
        const stats = main.getByRole('region', { name: 'Plays and earnings' });
        const figure = stats.getByRole('figure', { name: /plays and HST earned per day/ });
        await figure.locator('.recharts-bar-rectangle').last().hover();
        expect(await figure.locator('.chart-tip li').allTextContents()).toEqual([
          'Plays: 1',
          'HST earned: 0.2 HST',
        ]);
        await page.mouse.move(0, 0);
        await figure.locator('.chart-tip').waitFor({ state: 'detached' });
        expect(await figure.getByText('Loading the chart…').count()).toBe(0);
        // On a phone the recent plays stack, each value named by its column, all in sight.
        const recent = stats.getByRole('region', { name: 'Recent plays' }).getByRole('table');
        expect(await recent.locator('thead').isVisible()).toBe(false);
        expect(await stackedCells(recent)).toEqual([
          expect.stringMatching(/^When: \S/),
          'Player: Dev',
          'Tier: Tier 1',
          'Cost: 1 HST',
          'Status: Scored',
          'Score: 420',
        ]);
        for (const cell of await recent.locator('td').all()) {
          const box = (await cell.boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
        }
        await saveScreenshot(page, 'portal-sections-stats-phone');
        // On a desktop it stays a table with its header row.
        await page.setViewportSize(DESKTOP);
        expect(await recent.locator('thead').isVisible()).toBe(true);
        // Cost and Score right-aligned, as the console's ledger aligns amounts; the rest left.
        const alignments = await styleOf(recent.locator('thead th, tbody td'), 'textAlign');
        expect(alignments.map((align) => align === 'right')).toEqual([
          ...[false, false, false, true, false, true],
          ...[false, false, false, true, false, true],
        ]);
        // The chart redraws at its new width a moment after the resize, not at once.
        await expect.poll(() => chartFitsItsBox(figure)).toBe(true);
        await saveScreenshot(page, 'portal-sections-stats');
      } finally {
        await context.close();
      }
    });
  },
);
