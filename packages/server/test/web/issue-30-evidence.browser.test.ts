import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { GameVerifiers } from '../../src/services/game-verifiers.js';
import { ScoreReviews } from '../../src/services/score-reviews.js';
import { findDeveloper } from '../../src/store/developers.js';
import {
  checkAtBothSizes,
  DESKTOP,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  NO_CHROMIUM_REASON,
  SCREENSHOT_DIR,
  seriousViolations,
  openGameSection,
} from '@coinop/testkit/browser';
import { injectWallet } from '@coinop/testkit/eip1193';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';

const ADMIN_TOKEN = 'evidence-admin-token';

// The moves' sum plus a bonus drawn from the seed.
const VERIFIER = `export function verify({ seed, replay }) {
  const moves = JSON.parse(replay).moves;
  return moves.reduce((sum, move) => sum + move, 0) + (parseInt(seed.slice(0, 2), 16) % 10);
}`;

/**
 * Issue 30's evidence in the console and the portal: a reported score kept the replay it came
 * with; the operator (then the game's developer) reads it, re-runs the game's verifier on it and
 * downloads it as a file, at 1366×900 and 360 px (axe clean, screenshots).
 */
describe.skipIf(!hasChromium)(
  `a reported score's replay in the console, in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let game: GameFixture;
    let replay: string;
    let value: number;
    let reviewId: string;
    let gameName: string;
    const developerKey = privateKeyToAccount(generatePrivateKey());

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-evidence-'));
      server = await startServer(testConfig({ apiPort: 0, dataDir, adminToken: ADMIN_TOKEN }));
      const { arcade } = server.api;
      const api = {
        app: server.api,
        db: arcade.db,
        clock: arcade.clock,
        config: arcade.config,
        close: () => Promise.resolve(),
      } as TestApi;
      game = await gameWithTiers(api, {
        costs: [1],
        scoreUnit: 'pts',
        developerWallet: developerKey.address,
      });
      gameName = (await arcade.reads.gameView(game.gameId)).game.name;
      const owner = await findDeveloper(arcade.db, game.developerId);
      await new GameVerifiers(arcade).upload(owner!, game.gameId, VERIFIER);
      const player = await fundedPlayer(api, 10, 'Nimble');
      const headers = { authorization: `Bearer ${await writeToken(api, game)}` };
      const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
      const leaderboardId = game.tiers[0]!.id;
      const play = await server.api.inject({
        method: 'POST',
        url: `${base}/play`,
        headers,
        payload: { playerId: player.playerId, leaderboardId },
      });
      expect(play.statusCode, play.body).toBe(200);
      const { id: playId, seed } = play.json<{ id: string; seed: string }>();
      const moves = [120, 340, 95, 410];
      value = moves.reduce((a, b) => a + b, 0) + (parseInt(seed.slice(0, 2), 16) % 10);
      replay = JSON.stringify({ moves, ms: [812, 1630, 2210, 3105] });
      const scored = await server.api.inject({
        method: 'POST',
        url: `${base}/score`,
        headers,
        payload: { playId, leaderboardId, score: value, replay },
      });
      expect(scored.statusCode, scored.body).toBe(200);
      const reporter = await fundedPlayer(api, 10, 'Watcher');
      const reported = await new ScoreReviews(arcade, null).report(
        reporter.playerId,
        scored.json<{ id: string }>().id,
        { reason: 'bot', note: 'Every move lands on the beat.' },
      );
      reviewId = reported.reportId;
      browser = await launchChromium();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('shows the replay, re-runs the verifier on it and downloads it', async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
      const page = await context.newPage();
      try {
        await page.goto(`${web}/admin/reviews`);
        await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
        await page.getByRole('button', { name: 'Sign in' }).click();
        const main = page.getByRole('main');
        const cards = main.getByRole('list', { name: 'Reviews' }).getByRole('listitem');
        await expect.poll(() => cards.count()).toBe(1);
        await cards.first().getByRole('button', { name: 'Evidence and decision' }).click();
        const panel = main.getByRole('region', { name: 'Replay' });
        await expect.poll(() => panel.locator('pre').textContent()).toBe(replay);

        await panel.getByRole('button', { name: 'Re-run verifier' }).click();
        await panel
          .getByText(`Reproduced: the replay earns ${value}, as claimed (verifier v1).`)
          .waitFor();
        await panel.scrollIntoViewIfNeeded();
        await checkAtBothSizes(page, 'admin-review-replay');

        const [download] = await Promise.all([
          page.waitForEvent('download'),
          panel.getByRole('button', { name: 'Download replay' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe(`replay-${reviewId}.txt`);
        expect(await readFile((await download.path())!, 'utf8')).toBe(replay);
      } finally {
        await context.close();
      }
    });

    it("gives the game's developer the same replay and verdict in the portal", async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
      const page = await context.newPage();
      await injectWallet(page, developerKey);
      const main = page.getByRole('main');
      try {
        await page.goto(`${web}/developer`);
        await main.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('button', { name: 'Browser wallet' }).click();
        await main.getByRole('link', { name: gameName }).click();
        await page.waitForURL(`${web}/developer/games/${game.gameId}`);
        await openGameSection(page, 'Reviews');
        const section = main.getByRole('region', { name: 'Score reviews' });
        const cards = section.getByRole('list', { name: 'Reviews' }).getByRole('listitem');
        await expect.poll(() => cards.count()).toBe(1);
        await cards.first().getByRole('button', { name: 'Evidence' }).click();
        const panel = section.getByRole('region', { name: 'Replay' });
        await expect.poll(() => panel.locator('pre').textContent()).toBe(replay);
        await panel.getByRole('button', { name: 'Re-run verifier' }).click();
        await panel
          .getByText(`Reproduced: the replay earns ${value}, as claimed (verifier v1).`)
          .waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          panel.getByRole('button', { name: 'Download replay' }).click(),
        ]);
        expect(await readFile((await download.path())!, 'utf8')).toBe(replay);
        // The portal's game page is long: the Score reviews section is what this shows.
        await section.screenshot({
          path: `${SCREENSHOT_DIR}portal-review-replay.png`,
          animations: 'disabled',
        });
      } finally {
        await context.close();
      }
    });
  },
);
