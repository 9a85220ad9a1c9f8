import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerTransferPage } from '@coinop/protocol';
import {
  DESKTOP,
  NO_CHROMIUM_REASON,
  PHONE,
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
import { createDeveloper, publish } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';
import { createPlayer } from '../../src/store/players.js';

/**
 * Issue 31: the console's Ledger screen was an audit summary and a mint form with no list of
 * transfers. Now it lists them newest first: filters kept in the URL (a link, back and forward),
 * an "Older" button, exact amounts, players linked; a table at 1366 px, stacked rows at 360 px.
 */

const ADMIN_TOKEN = 'console-ledger-admin';
const HST = 100_000_000n;

describe.skipIf(!hasChromium)(
  `the console's ledger transfers${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let ada: { id: string; wallet: string };
    let bo: { id: string };
    /** The developer's wallet as the API sends it: lowercase. */
    let developerWallet: string;

    const api = async (url: string) => {
      const res = await server.api.inject({
        url,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<LedgerTransferPage>();
    };

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-console-ledger-'));
      server = await startServer(testConfig({ apiPort: 0, dataDir, adminToken: ADMIN_TOKEN }));
      const { arcade } = server.api;
      developerWallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
      const developer = await createDeveloper(arcade, developerWallet);
      const game = await registerGame(
        arcade,
        { developerId: developer.developerId, name: 'Cup Putt' },
        [{ name: 'Bronze', cost: HST }],
      );
      await publish(arcade, game.id);
      const leaderboardId = (await arcade.games.get(game.id)).leaderboards[0]!.id;
      const wallet = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
      ada = {
        id: (await createPlayer(arcade.db, arcade.clock, uuidIds, { wallet, name: 'Ada' })).id,
        wallet,
      };
      bo = await createPlayer(arcade.db, arcade.clock, uuidIds, { wallet: null, name: 'Bo' });
      // 10^16 + 1 base units: more than a JSON number holds exactly.
      await mintHst(arcade, { id: bo.id, amountUnits: 10_000_000_000_000_001n });
      await mintHst(arcade, { id: ada.id, amountUnits: 20n * HST });
      for (const [playerId, score] of [
        [ada.id, 300],
        [bo.id, 200],
        [ada.id, 250],
      ] as const) {
        const opened = await arcade.plays.open({
          gameId: game.id,
          playerId,
          leaderboardId,
          idempotencyKey: null,
        });
        await arcade.plays.score({
          gameId: game.id,
          playId: opened.id,
          leaderboardId,
          score,
          idempotencyKey: null,
        });
      }
      // Enough small grants that the list needs a second page (50 a page).
      for (let n = 1; n <= 50; n += 1) {
        await mintHst(arcade, { id: bo.id, amountUnits: BigInt(n) });
      }
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    async function signIn(viewport: Viewport, path: string) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${server.urls['web']!}${path}`);
      await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Ledger', level: 1 }).waitFor();
      return { context, page };
    }

    /** No serious axe violations, and nothing wider than the viewport. */
    async function checkPage(page: Page, width: number) {
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      );
    }

    const rows = (page: Page) =>
      page.getByRole('region', { name: 'Transfers' }).locator('tbody tr');

    it('lists, filters by player in the URL, walks back and pages older (1366 px)', async () => {
      const { context, page } = await signIn(DESKTOP, '/admin/ledger');
      try {
        const all = await api('/admin/ledger/transfers?limit=50');
        await expect.poll(() => rows(page).count()).toBe(50);
        // The rows are the API's, newest first.
        const shownIds = await rows(page).evaluateAll((trs) =>
          trs.map((tr) => tr.getAttribute('data-transfer')),
        );
        expect(shownIds).toEqual(all.transfers.map((t) => t.id));
        const region = page.getByRole('region', { name: 'Transfers' });
        await region.getByRole('button', { name: 'Older transfers' }).click();
        const everything = (await api('/admin/ledger/transfers?limit=100')).transfers;
        const total = everything.length;
        await expect.poll(() => rows(page).count()).toBe(total);
        expect(await region.getByRole('button', { name: 'Older transfers' }).count()).toBe(0);
        // The developer's share of each play: their wallet checksummed, as every screen writes
        // it, shortened in the cell and whole in its title.
        const checksummedDeveloper = getAddress(developerWallet);
        const developerCells = region.locator('td[data-label="To"] span', {
          hasText: /^Developer /,
        });
        const shares = everything.filter((t) => t.credit.kind === 'developer').length;
        expect(shares).toBeGreaterThan(0);
        expect(await developerCells.allTextContents()).toEqual(
          Array(shares).fill(
            `Developer ${checksummedDeveloper.slice(0, 6)}…${checksummedDeveloper.slice(-4)}`,
          ),
        );
        expect(await developerCells.first().getAttribute('title')).toBe(
          `Developer ${checksummedDeveloper}`,
        );
        // The audit and the mint form are still there.
        await page.getByRole('heading', { name: 'Audit' }).waitFor();
        await page.getByRole('heading', { name: 'Mint HST' }).waitFor();

        // Filter: Ada's play locks. The URL says so; the rows are hers.
        await region.getByLabel('Player id or wallet').fill(ada.wallet);
        await region.getByLabel('Reason').selectOption('play_lock');
        await region.getByRole('button', { name: 'Apply filters' }).click();
        await page.waitForURL(/reason=play_lock/);
        const url = new URL(page.url());
        expect(url.pathname).toBe('/admin/ledger');
        expect(url.searchParams.get('player')).toBe(ada.wallet);
        await expect.poll(() => rows(page).count()).toBe(2);
        const locks = await api(`/admin/ledger/transfers?player=${ada.id}&reason=play_lock`);
        expect(locks.transfers).toHaveLength(2);
        for (const [i, t] of locks.transfers.entries()) {
          const row = rows(page).nth(i);
          expect(await row.getAttribute('data-transfer')).toBe(t.id);
          expect(await row.locator('td[data-label="Amount"]').textContent()).toBe('1 HST');
          const link = row.getByRole('link', { name: 'Ada' });
          expect(await link.getAttribute('href')).toBe(`/admin/players/${ada.id}`);
          // The play, compact, its full id in the title.
          const play = row.locator('td[data-label="Play"] abbr');
          expect(await play.textContent()).toBe(`…${t.playId!.slice(-8)}`);
          expect(await play.getAttribute('title')).toBe(t.playId);
        }
        await checkPage(page, DESKTOP.width);
        await saveScreenshot(page, 'console-ledger-filtered');

        // Back: the unfiltered list and an empty form; forward: the filter again.
        await page.goBack();
        await expect.poll(() => rows(page).count()).toBe(50);
        expect(await region.getByLabel('Reason').inputValue()).toBe('');
        await page.goForward();
        await expect.poll(() => rows(page).count()).toBe(2);
        expect(await region.getByLabel('Reason').inputValue()).toBe('play_lock');

        // A filtered view is a link: opened afresh, Bo's big grant, to the last base unit.
        await page.goto(
          `${server.urls['web']!}/admin/ledger?player=${bo.id}&kind=posted&reason=mint`,
        );
        await page.getByRole('heading', { name: 'Ledger', level: 1 }).waitFor();
        await expect.poll(() => rows(page).count()).toBe(50);
        await region.getByRole('button', { name: 'Older transfers' }).click();
        await expect.poll(() => rows(page).count()).toBe(51);
        expect(await rows(page).last().locator('td[data-label="Amount"]').textContent()).toBe(
          '100,000,000.00000001 HST',
        );
        // A time range with nothing in it says so.
        await page.goto(`${server.urls['web']!}/admin/ledger?from=2020-01-01&to=2020-01-02`);
        await page.getByText('No transfers match these filters.').waitFor();

        // A mint from the form below shows at the top of the list at once.
        await page.goto(`${server.urls['web']!}/admin/ledger`);
        await expect.poll(() => rows(page).count()).toBe(50);
        // Within its own panel: the balance look-up has the same label, and the mint panel
        // appears only once the chain status is in, which may be after the rows on a busy runner.
        const mintForm = page.getByRole('region', { name: 'Mint HST' });
        page.once('dialog', (dialog) => void dialog.accept());
        await mintForm.getByLabel('Account, player, developer id or wallet').fill(ada.id);
        await mintForm.getByLabel('Amount (HST)').fill('0.5');
        await page.getByRole('button', { name: 'Mint', exact: true }).click();
        await expect
          .poll(() => rows(page).first().locator('td[data-label="Amount"]').textContent())
          .toBe('0.5 HST');
        expect(await rows(page).first().getByRole('link', { name: 'Ada' }).count()).toBe(1);
        // Minted into a wallet typed lowercase: the message writes it checksummed.
        page.once('dialog', (dialog) => void dialog.accept());
        await mintForm.getByLabel('Account, player, developer id or wallet').fill(ada.wallet);
        await mintForm.getByLabel('Amount (HST)').fill('0.25');
        await page.getByRole('button', { name: 'Mint', exact: true }).click();
        await expect
          .poll(() => mintForm.getByRole('status').textContent())
          .toMatch(
            new RegExp(
              `^Minted 0\\.25 HST into ${getAddress(ada.wallet)}: its balance is now \\S+ HST\\.$`,
            ),
          );
      } finally {
        await context.close();
      }
    }, 120_000);

    it('stacks the rows at 360 px, with no horizontal scroll', async () => {
      const { context, page } = await signIn(PHONE, `/admin/ledger?player=${ada.id}`);
      try {
        const mine = await api(`/admin/ledger/transfers?player=${ada.id}`);
        await expect.poll(() => rows(page).count()).toBe(mine.transfers.length);
        // Each cell names its column (the header row is hidden on a phone).
        const label = await page.evaluate(
          `getComputedStyle(document.querySelector('tbody tr td[data-label="Amount"]'), '::before').content`,
        );
        expect(label).toBe('"Amount: "');
        // A cell in the code font (the play's id) keeps its label in the page's font.
        const fonts = await page.evaluate(`(() => {
          const play = document.querySelector('tbody tr td[data-label="Play"]');
          return {
            label: getComputedStyle(play, '::before').fontFamily,
            value: getComputedStyle(play).fontFamily,
            page: getComputedStyle(document.body).fontFamily,
          };
        })()`);
        expect(fonts).toEqual({
          label: (fonts as { page: string }).page,
          value: expect.stringMatching(/^ui-monospace/),
          page: expect.stringMatching(/^"Inter Variable"/),
        });
        await checkPage(page, PHONE.width);
        await page.getByRole('heading', { name: 'Transfers' }).scrollIntoViewIfNeeded();
        await saveScreenshot(page, 'console-ledger-phone');
      } finally {
        await context.close();
      }
    }, 120_000);
  },
);
