import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  NO_CHROMIUM_REASON,
  SCREENSHOT_DIR,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  seriousViolations,
  openGameSection,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { injectWallet } from '@coinop/testkit/eip1193';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';

/**
 * Issue 30 in the developer portal, in headless Chromium (PGlite): a developer uploads a replay
 * verifier from a file on the game page, reads its version, size and digest, and checks an
 * honest and a forged replay with it, through the real sandbox.
 */

const VERIFIER = `export function verify({ replay }) {
  return JSON.parse(replay).reduce((sum, move) => sum + move, 0);
}
`;

describe.skipIf(!hasChromium)(
  `the replay verifier in the developer portal${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    const developerKey = privateKeyToAccount(generatePrivateKey());
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let gameId: string;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-portal-verifier-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'portal-verifier-admin' }),
      );
      const created = await server.api.inject({
        method: 'POST',
        url: '/admin/developers',
        headers: { authorization: 'Bearer portal-verifier-admin' },
        payload: { wallet: developerKey.address.toLowerCase() },
      });
      expect(created.statusCode, created.body).toBe(201);
      const developer = created.json<{ developerId: string }>();
      const game = await registerGame(
        server.api.arcade,
        { developerId: developer.developerId, name: 'Sum Up', description: 'Add the moves.' },
        [{ name: 'Bronze', cost: 1 }],
      );
      gameId = game.id;
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('uploads a verifier from a file and checks replays with it', async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      await injectWallet(page, developerKey);
      const main = page.getByRole('main');
      // Every 404 the pages meet: each is a red line in the developer's console.
      const notFound: string[] = [];
      page.on('response', (response) => {
        if (response.status() === 404) notFound.push(new URL(response.url()).pathname);
      });
      try {
        await page.goto(`${web}/developer`);
        await main.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
        await page.getByRole('button', { name: 'Browser wallet' }).click();
        await main.getByRole('link', { name: 'Sum Up' }).click();
        await page.waitForURL(`${web}/developer/games/${gameId}`);
        await openGameSection(page, 'Integration');
        const section = main.getByRole('region', { name: 'Replay verifier' });
        await section.getByText('No verifier yet').waitFor();
        // The game says it has none: the tab no longer asks GET …/verifier for a 404.
        expect(notFound).toEqual([]);

        // A module that does not load: the arcade's reason, nothing stored.
        await section.getByLabel('Upload a verifier (.js)').setInputFiles({
          name: 'broken.js',
          mimeType: 'text/javascript',
          buffer: Buffer.from('export function check() { return 1 }'),
        });
        await section
          .getByText('Could not upload broken.js: the module exports no function `verify`')
          .waitFor();

        await section.getByLabel('Upload a verifier (.js)').setInputFiles({
          name: 'verifier.js',
          mimeType: 'text/javascript',
          buffer: Buffer.from(VERIFIER),
        });
        await section
          .getByText("verifier.js is version 1: it checks this game's replays now.")
          .waitFor();
        const facts = section.getByRole('definition');
        await expect
          .poll(() => facts.allTextContents())
          .toEqual([
            '1',
            `${Buffer.byteLength(VERIFIER)} bytes`,
            expect.stringMatching(/^[0-9a-f]{64}$/),
            expect.any(String),
          ]);

        const check = section.getByRole('form', { name: 'Check a replay' });
        await check.getByLabel('Replay').fill('[1, 2, 3]');
        await check.getByLabel('Claimed score').fill('6');
        await check.getByRole('button', { name: 'Run the verifier' }).click();
        await check.getByText('Accepted: the replay earns 6.').waitFor();

        await check.getByLabel('Claimed score').fill('4200');
        await check.getByRole('button', { name: 'Run the verifier' }).click();
        await check.getByText('Refused (mismatch): the replay earns 6, not 4200.').waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await section.screenshot({ path: `${SCREENSHOT_DIR}portal-verifier.png` });

        // The preview of the unpublished game: read and watched live with no failing request
        // (it asked the catalog and the stream first, both 404, and its board never moved).
        const stream = page.waitForResponse(
          (response) => new URL(response.url()).pathname === '/api/player/events',
        );
        await page.goto(`${web}/games/${gameId}`);
        await main.getByRole('heading', { name: 'Sum Up', level: 1 }).waitFor();
        expect((await stream).status()).toBe(200);
        expect(notFound).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
