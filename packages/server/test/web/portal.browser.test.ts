import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import {
  PHONE,
  DESKTOP,
  NO_CHROMIUM_REASON,
  hasChromium,
  ensureBrowserBuilds,
  launchChromium,
  saveScreenshot,
  seriousViolations,
  openGameSection,
} from '@coinop/testkit/browser';
import { injectWallet } from '@coinop/testkit/eip1193';
import { pngImage } from '../fixtures/images.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe.skipIf(!hasChromium)(
  `developer portal in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let rightCover: string;
    let wrongCover: string;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-portal-'));
      rightCover = join(dataDir, 'cover.png');
      wrongCover = join(dataDir, 'small-cover.png');
      await writeFile(rightCover, pngImage(1920, 1080));
      await writeFile(wrongCover, pngImage(1280, 720));
      server = await startServer(testConfig({ apiPort: 0, dataDir, adminToken: 'portal-admin' }));
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** No serious axe violations, and nothing wider than a phone. */
    async function checkPage(page: Page, screenshot: string) {
      // Saved first, so a page that fails the checks can be looked at.
      await saveScreenshot(page, screenshot);
      expect(await seriousViolations(page)).toEqual([]);
      // The elements that stick out, named in the failure.
      const wide = await page.evaluate(`[...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > ${PHONE.width} + 1)
        .slice(-3).map((el) => el.tagName + '.' + el.className + ': ' + el.textContent.slice(0, 60))`);
      expect(
        await page.evaluate('document.documentElement.scrollWidth'),
        JSON.stringify(wide),
      ).toBeLessThanOrEqual(PHONE.width);
    }

    /** The same page at 1366×900 too, for the screenshots of every page (docs/screenshots). */
    async function desktopScreenshot(page: Page, screenshot: string) {
      await page.setViewportSize(DESKTOP);
      await saveScreenshot(page, screenshot);
      await page.setViewportSize(PHONE);
    }

    const writeToken = (clientId: string, clientSecret: string) =>
      fetch(`${server.urls['api']!}/oauth/writetoken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: clientId, client_secret: clientSecret }),
      }).then((res) => res.status);

    it('a developer registers a game, sets tiers, gets a working key and secrets', async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await injectWallet(page, privateKeyToAccount(generatePrivateKey()));
      const main = page.getByRole('main');
      try {
        // Signed out: the portal asks for a wallet first.
        await page.goto(`${web}/`);
        await page.getByRole('navigation').getByRole('link', { name: 'Developers' }).click();
        await page.waitForURL(`${web}/developer`);
        await page.getByRole('heading', { name: 'Developer portal', level: 1 }).waitFor();
        await checkPage(page, 'portal-signed-out');
        await main.getByRole('button', { name: 'Connect wallet' }).click();
        const connect = page.getByRole('dialog', { name: 'Connect a wallet' });
        await connect.waitFor();
        // The portal's dialog says what signing in is for here: not playing.
        await connect
          .getByText(
            'Sign in with a wallet to register and manage your games: the wallet is your ' +
              'developer account. Signing in is free and sends no transaction.',
          )
          .waitFor();
        expect(await connect.textContent()).not.toContain('to play for HST');
        await page.getByRole('button', { name: 'Browser wallet' }).click();

        // The dashboard: no games yet; an API key shown once, then listed by its prefix.
        await main.getByText('No games yet. Register your first one.').waitFor();
        await main.getByText('No API keys yet.').waitFor();
        await main.getByRole('button', { name: 'Create an API key' }).click();
        const keyField = main.getByLabel('API key', { exact: true });
        await keyField.waitFor();
        const apiKey = await keyField.inputValue();
        expect(apiKey).toMatch(/^ck_[\w-]+\.[\w-]+$/);
        const prefix = apiKey.split('.')[0]!;
        await expect
          .poll(() =>
            main.getByRole('region', { name: 'Your API keys' }).locator('tbody tr').count(),
          )
          .toBe(1);
        await main.getByRole('cell', { name: `Prefix: ${prefix}`, exact: true }).waitFor();
        // On a phone the keys stack into labelled rows, Revoke whole on the screen.
        const revoke = await main
          .getByRole('button', { name: `Revoke key ${prefix}` })
          .boundingBox();
        expect(revoke!.x + revoke!.width).toBeLessThanOrEqual(PHONE.width);
        expect(
          await main
            .getByRole('region', { name: 'Your API keys' })
            .evaluate((el) => el.scrollWidth <= el.clientWidth),
        ).toBe(true);
        await checkPage(page, 'portal-dashboard');
        await desktopScreenshot(page, 'portal-dashboard-desktop');
        await main.getByRole('button', { name: 'I have copied it' }).click();
        await expect.poll(() => keyField.count()).toBe(0);

        // Register a game: a cover of the wrong size first, which the arcade refuses.
        await main.getByRole('link', { name: 'Register a game' }).click();
        await page.waitForURL(`${web}/developer/games/new`);
        await main.getByRole('heading', { name: 'Register a game', level: 1 }).waitFor();
        await main.getByLabel('Name').fill('Portal Putt');
        await main.getByLabel('Description').fill('Mini golf in the browser.');
        await main.getByLabel('Category').fill('Sports');
        await main.getByLabel('Tag line').fill('Fewest strokes wins');
        await main.getByLabel('Developer info').fill('Made for the portal test.');
        await main.getByLabel(/^Reverse: lower is better/).check();
        await main.getByLabel('Score unit').fill('strokes');
        await main.getByLabel('Game URL').fill('https://putt.example.com/play');
        await main.getByLabel('Production domain').fill('putt.example.com');
        await main.getByLabel('Upload a file').check();
        await main.getByLabel('Cover image file').setInputFiles(wrongCover);
        await main.getByRole('button', { name: 'Register the game' }).click();
        const alert = main.getByRole('alert');
        await expect
          .poll(() => alert.textContent())
          .toBe('Could not register the game: cover image must be 1920x1080, found 1280x720');
        await checkPage(page, 'portal-register');
        await desktopScreenshot(page, 'portal-register-desktop');
        await main.getByLabel('Cover image file').setInputFiles(rightCover);
        await main.getByRole('button', { name: 'Register the game' }).click();
        await page.waitForURL(new RegExp(`/developer/games/${UUID}$`));
        const gameId = new URL(page.url()).pathname.split('/').pop()!;
        await main.getByRole('heading', { name: 'Portal Putt', level: 1 }).waitFor();
        expect(await main.getByLabel('Game id', { exact: true }).inputValue()).toBe(gameId);
        await main.getByText('Not published').waitFor();
        expect(
          await main
            .getByRole('link', { name: 'Preview it in the arcade', exact: true })
            .getAttribute('href'),
        ).toBe(`/games/${gameId}`);
        expect(
          await main.getByRole('link', { name: 'Try it in the demo arcade' }).getAttribute('href'),
        ).toBe(
          // The demo arcade shows the game's board order and unit, as the arcade would.
          `/demo?game=${encodeURIComponent('https://putt.example.com/play')}&scoreDisplay=REVERSE&scoreUnit=strokes`,
        );
        // The game's overview is the first of its views (issue 31); its details are another.
        await openGameSection(page, 'Details');
        await main.getByText('Reverse: lower is better (times, strokes)').waitFor();
        // The uploaded cover is served by the arcade and shown.
        const cover = main.getByRole('img', { name: 'Current cover' });
        await expect
          .poll(() =>
            cover.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
          )
          .toBe(1920);

        // The API key works for the same developer's game, with the api-key header.
        const update = await fetch(`${server.urls['api']!}/game/update`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'api-key': apiKey, 'game-id': gameId },
          body: JSON.stringify({ tagLine: 'Set with the API key' }),
        });
        expect(update.status).toBe(200);

        // Tiers: add one, change its cost, retire it.
        await openGameSection(page, 'Boards');
        const tiers = main.getByRole('region', { name: 'Leaderboard tiers' });
        const tierNames = () => tiers.getByRole('heading', { level: 3 }).allTextContents();
        const defaults = await tierNames();
        expect(defaults.length).toBeGreaterThan(0);
        await tiers.getByText('Add a tier').click();
        const newTier = tiers.getByRole('form', { name: 'New tier' });
        await newTier.getByLabel('Tier name').fill('Marathon');
        await newTier.getByLabel('Cost per play (whole HST)').fill('25');
        await newTier.getByLabel('Leaders kept (optional)').fill('5');
        await newTier.getByRole('button', { name: 'Add tier' }).click();
        await expect.poll(tierNames).toEqual([...defaults, 'Marathon']);
        await tiers.getByText('25 HST per play').waitFor();
        // A second tier of the same name is refused, and the form says so by the name field.
        const tierName = newTier.getByLabel('Tier name');
        await tierName.fill(' marathon');
        await newTier.getByLabel('Cost per play (whole HST)').fill('5');
        await newTier.getByRole('button', { name: 'Add tier' }).click();
        await expect.poll(() => tierName.getAttribute('aria-invalid')).toBe('true');
        const nameError = newTier.locator(
          `[id="${await tierName.getAttribute('aria-describedby')}"]`,
        );
        expect(await nameError.textContent()).toBe(
          'Another tier of this game already has this name: choose another.',
        );
        expect(await tierNames()).toEqual([...defaults, 'Marathon']);
        await tierName.fill('');
        await tiers.getByRole('button', { name: 'Edit tier “Marathon”' }).click();
        const editTier = tiers.getByRole('form', { name: 'Edit tier “Marathon”' });
        await editTier.getByLabel('Cost per play (whole HST)').fill('30');
        await editTier.getByRole('button', { name: 'Save tier' }).click();
        await tiers.getByText('30 HST per play').waitFor();
        await tiers.getByRole('button', { name: 'Retire tier “Marathon”' }).click();
        await page.getByRole('dialog', { name: 'Retire tier “Marathon”?' }).waitFor();
        await page.getByRole('button', { name: 'Retire tier', exact: true }).click();
        await expect.poll(tierNames).toEqual(defaults);

        // Client credentials: the secret shown once works at once; rotating replaces it.
        await openGameSection(page, 'Integration');
        const clients = main.getByRole('region', { name: 'Game server credentials' });
        await clients.getByRole('button', { name: 'Create client credentials' }).click();
        const secretField = clients.getByLabel('Client secret', { exact: true });
        await secretField.waitFor();
        const clientId = await clients.getByLabel('Client id', { exact: true }).inputValue();
        const firstSecret = await secretField.inputValue();
        expect(await writeToken(clientId, firstSecret)).toBe(200);
        await checkPage(page, 'portal-game');
        await desktopScreenshot(page, 'portal');
        await clients.getByRole('button', { name: 'I have copied it' }).click();
        await clients.getByRole('button', { name: `Rotate secret of ${clientId}` }).click();
        await page.getByRole('dialog', { name: 'Rotate the client secret?' }).waitFor();
        await page.getByRole('button', { name: 'Rotate secret', exact: true }).click();
        await secretField.waitFor();
        const secondSecret = await secretField.inputValue();
        expect(secondSecret).not.toBe(firstSecret);
        expect(await clients.getByLabel('Client id', { exact: true }).inputValue()).toBe(clientId);
        expect(await writeToken(clientId, firstSecret)).toBe(401);
        expect(await writeToken(clientId, secondSecret)).toBe(200);

        // Editing: name and score display are shown, not editable; a change is saved.
        await openGameSection(page, 'Details');
        const details = main.getByRole('region', { name: 'Details' });
        expect(await details.getByLabel('Name').count()).toBe(0);
        // Opened again, the view shows the game as it is now: with the API key's change.
        await expect
          .poll(() => details.getByLabel('Tag line').inputValue())
          .toBe('Set with the API key');
        await details.getByLabel('Tag line').fill('Sink it in one');
        // The score unit set at registration may change: it is how scores read, not how they rank.
        expect(await details.getByLabel('Score unit').inputValue()).toBe('strokes');
        await details.getByLabel('Score unit').fill('shots');
        await details.getByRole('button', { name: 'Save changes' }).click();
        await details.getByText('Changes saved.').waitFor();
        const stored = await server.api.arcade.db.query<{ score_unit: string; tag_line: string }>(
          'SELECT score_unit, tag_line FROM games WHERE id = $1',
          [gameId],
        );
        expect(stored).toEqual([{ score_unit: 'shots', tag_line: 'Sink it in one' }]);

        await openGameSection(page, 'Stats');
        const stats = main.getByRole('region', { name: 'Plays and earnings' });
        await stats.getByText('No plays yet.').waitFor();
        await openGameSection(page, 'Integration');

        // The integration page: this game's ids, never a secret.
        await main.getByRole('link', { name: 'Integrate your game' }).click();
        await page.waitForURL(`${web}/developer/games/${gameId}/integrate`);
        await main.getByRole('heading', { name: 'Integrate your game', level: 1 }).waitFor();
        expect(await main.getByLabel('Game id', { exact: true }).inputValue()).toBe(gameId);
        expect(await main.getByLabel('Client id', { exact: true }).inputValue()).toBe(clientId);
        const text = (await main.textContent())!;
        expect(text).toContain(`new GameService('${gameId}', '${web}')`);
        expect(text).toContain(`baseUrl: '${web}/api'`);
        expect(text).toContain(`COINOP_CLIENT_ID=${clientId}`);
        // What a new developer needs before the SDKs are on the registry, said as it works.
        expect(text).toContain('(Node 20.19 or later)');
        expect(text).toContain(
          'npm install ./coinop-protocol-*.tgz ./coinop-server-sdk-*.tgz (the SDK needs both)',
        );
        expect(text).toContain('put "type": "module" in your game server\'s package.json');
        expect(text).toContain(`<script src="${web}/game-sdk.min.js"></script>`);
        expect(text).toContain('validatePlayerToken refuses it with player_token_invalid_claims.');
        expect(text).not.toContain(secondSecret);
        expect(text).not.toContain(firstSecret);
        await checkPage(page, 'portal-integrate');

        // Back on the dashboard: the game is listed; revoking the key stops it at once.
        await page.getByRole('link', { name: 'Developer portal' }).click();
        await page.waitForURL(`${web}/developer`);
        await main.getByRole('link', { name: 'Portal Putt' }).waitFor();
        await main.getByRole('button', { name: `Revoke key ${prefix}` }).click();
        await page.getByRole('dialog', { name: 'Revoke this API key?' }).waitFor();
        await page.getByRole('button', { name: 'Revoke key', exact: true }).click();
        await main.getByText(`Key ${prefix} revoked.`).waitFor();
        await expect.poll(() => main.getByRole('button', { name: /^Revoke key/ }).count()).toBe(0);
        const refused = await fetch(`${server.urls['api']!}/game/update`, {
          method: 'PATCH',
          headers: { 'content-type': 'application/json', 'api-key': apiKey, 'game-id': gameId },
          body: JSON.stringify({ tagLine: 'Too late' }),
        });
        expect(refused.status).toBe(401);
      } finally {
        await context.close();
      }
    });
  },
);
