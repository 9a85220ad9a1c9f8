import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  GAME_SDK_BUNDLE,
  NO_CHROMIUM_REASON,
  openAccountMenu,
  saveScreenshot,
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
import { publish } from '../../src/services/admin.js';
import { updateGame } from '../../src/store/games.js';

/**
 * Issue 30 in the web app, in headless Chromium (PGlite): a developer sets the game's score
 * rules and a tier's override in the portal's "Score rules" section, and a player sees the
 * rules of the tier they chose on the game page, in one short line.
 */
describe.skipIf(!hasChromium)(
  `score rules in the portal and on the game page${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    const developerKey = privateKeyToAccount(generatePrivateKey());
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let gameId: string;
    let tierIds: string[];
    let seededId: string;
    let seededSite: Server;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-score-rules-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'score-rules-admin', faucetHst: 100 }),
      );
      const created = await server.api.inject({
        method: 'POST',
        url: '/admin/developers',
        headers: { authorization: 'Bearer score-rules-admin' },
        payload: { wallet: developerKey.address.toLowerCase() },
      });
      expect(created.statusCode, created.body).toBe(201);
      const { developerId } = created.json<{ developerId: string }>();
      const game = await registerGame(
        server.api.arcade,
        { developerId, name: 'Slide', description: 'Slide the tiles.' },
        [
          { name: 'Bronze', cost: 1 },
          { name: 'Gold', cost: 5 },
        ],
      );
      gameId = game.id;
      tierIds = (await server.api.arcade.games.get(gameId)).leaderboards.map((t) => t.id);
      await publish(server.api.arcade, gameId);

      const seeded = await registerGame(server.api.arcade, { developerId, name: 'Seeded' }, [
        { name: 'Practice', cost: 1 },
      ]);
      seededId = seeded.id;
      const sdkBundle = await readFile(GAME_SDK_BUNDLE, 'utf8');
      seededSite = createServer((req, res) => {
        const js = new URL(req.url ?? '/', 'http://x').pathname === '/game-sdk.min.js';
        res
          .writeHead(200, {
            'content-type': js ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8',
            'cache-control': 'no-store',
          })
          .end(js ? sdkBundle : SEEDED_GAME_PAGE);
      });
      await new Promise<void>((resolve) => seededSite.listen(0, '127.0.0.1', resolve));
      const { port } = seededSite.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}/game.html?arcade=${encodeURIComponent(server.urls['web']!)}&game=${seededId}`;
      await updateGame(server.api.arcade.db, server.api.arcade.clock, seededId, { url });
      await publish(server.api.arcade, seededId);
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      if (seededSite) await new Promise((resolve) => seededSite.close(resolve));
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('a developer sets rules and an override; the game page shows each tier its own', async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      await injectWallet(page, developerKey);
      const main = page.getByRole('main');
      try {
        await page.goto(`${web}/developer`);
        await main.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
        await page.getByRole('button', { name: 'Browser wallet' }).click();
        await main.getByRole('link', { name: 'Slide' }).click();
        await page.waitForURL(`${web}/developer/games/${gameId}`);
        await openGameSection(page, 'Boards');
        const section = main.getByRole('region', { name: 'Score rules' });
        const gameForm = section.getByRole('form', { name: 'Score rules of the game' });
        await gameForm.getByLabel('Lowest possible score').fill('0');
        await gameForm.getByLabel('Highest possible score').fill('5000');
        await gameForm.getByLabel('Shortest possible run (seconds)').fill('10');
        // Replays cannot be required yet: the game has no verifier; the API says why.
        await gameForm.getByLabel('Replays').selectOption('required');
        await gameForm.getByRole('button', { name: 'Save score rules' }).click();
        await gameForm.getByText(/needs the game's replay verifier/).waitFor();
        await gameForm.getByLabel('Replays').selectOption('off');
        await gameForm.getByRole('button', { name: 'Save score rules' }).click();
        await gameForm.getByText('Score rules saved.').waitFor();

        await section.getByText('Overrides for “Bronze”').click();
        const bronze = section.getByRole('form', { name: 'Score rules of “Bronze”' });
        expect(await bronze.getByLabel('Highest possible score').getAttribute('placeholder')).toBe(
          '5,000 (game)',
        );
        await bronze.getByLabel('Highest possible score').fill('100');
        await bronze.getByRole('button', { name: 'Save score rules' }).click();
        await bronze.getByText('Score rules saved.').waitFor();
        await section.screenshot({ path: `${SCREENSHOT_DIR}portal-score-rules.png` });
        expect(await seriousViolations(page)).toEqual([]);

        // What was stored is what the forms said.
        const game = await server.api.arcade.db.query(
          'SELECT min_score, max_score, min_play_ms, replay_rule FROM games WHERE id = $1',
          [gameId],
        );
        expect(game).toEqual([
          { min_score: 0, max_score: 5000, min_play_ms: 10_000, replay_rule: 'off' },
        ]);
        const rules = await server.api.arcade.db.query(
          'SELECT id, max_score, min_play_ms FROM leaderboards WHERE game_id = $1 ORDER BY position',
          [gameId],
        );
        expect(rules).toEqual([
          { id: tierIds[0], max_score: 100, min_play_ms: null },
          { id: tierIds[1], max_score: null, min_play_ms: null },
        ]);

        await page.goto(`${web}/games/${gameId}`);
        const panel = main.locator('.tier-panel');
        await panel.getByLabel(/Bronze/).check();
        await panel.getByText('Scores between 0 and 100 · a run takes at least 10 s').waitFor();
        await panel.getByLabel(/Gold/).check();
        await panel.getByText('Scores between 0 and 5,000 · a run takes at least 10 s').waitFor();
        await panel.screenshot({ path: `${SCREENSHOT_DIR}game-score-rules.png` });
      } finally {
        await context.close();
      }
    });

    it('a game gets its seed through the bridge; a refused score and its replay pay nothing', async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      await injectWallet(page, account);
      const { arcade } = server.api;
      await arcade.scoreRules.changeGame(seededId, { maxScore: 5000 });
      try {
        await page.goto(`${server.urls['web']!}/games/${seededId}`);
        await page.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
        await page.getByRole('button', { name: 'Browser wallet' }).click();
        await openAccountMenu(page);
        await page.getByRole('button', { name: 'Get 100 test HST' }).click();
        await expect.poll(() => page.getByTestId('balance').textContent()).toBe('100 HST');
        const game = page.frameLocator('iframe.game-frame');
        const result = game.locator('#result');

        await game.getByRole('button', { name: 'Play' }).click();
        const dialog = page.getByRole('dialog', { name: 'Lock HST to play?' });
        await dialog.getByRole('button', { name: 'Approve' }).click();
        await expect.poll(() => result.textContent()).toMatch(/^\{"playId"/);
        const played = JSON.parse((await result.textContent())!) as {
          playId: string;
          seed: string;
        };
        expect(played.seed).toMatch(/^[0-9a-f]{64}$/);
        const [stored] = await arcade.db.query<{ seed: string; status: string }>(
          'SELECT seed, status FROM plays WHERE id = $1',
          [played.playId],
        );
        expect(stored).toEqual({ seed: played.seed, status: 'open' });

        // Over the bound: refused, told to the player, kept with its replay; the play stays open.
        await game.getByLabel('Score').fill('9000');
        await game.getByRole('button', { name: 'Submit score' }).click();
        await expect
          .poll(() => page.getByTestId('arcade-notice').textContent())
          .toBe(
            "The arcade refused this score: score 9,000 is above this tier's highest possible " +
              'score, 5,000. Your play stays open for a score within the game’s rules.',
          );
        await saveScreenshot(page, 'game-score-refused');
        const [refusal] = await arcade.db.query<{ reason: string; replay: string }>(
          'SELECT reason, replay FROM score_refusals WHERE play_id = $1',
          [played.playId],
        );
        expect(refusal).toEqual({
          reason: 'score_out_of_bounds',
          replay: `moves:${played.seed.slice(0, 8)}`,
        });
        // The game is told at once through the bridge (an error reply), not left to time out.
        await expect
          .poll(() => result.textContent())
          .toBe(
            "BridgeRequestError: score 9,000 is above this tier's highest possible score, 5,000",
          );

        // The honest score of the same play is taken.
        await game.getByLabel('Score').fill('1200');
        await game.getByRole('button', { name: 'Submit score' }).click();
        await expect.poll(() => result.textContent()).toBe('scored');
        const [scored] = await arcade.db.query<{ status: string; score: number }>(
          'SELECT p.status, s.score FROM plays p JOIN scores s ON s.play_id = p.id WHERE p.id = $1',
          [played.playId],
        );
        expect(scored).toEqual({ status: 'scored', score: 1200 });
      } finally {
        await context.close();
      }
    });
  },
);

/** A game page on the SDK's bundle: plays, shows the reply as JSON, scores with a replay. */
const SEEDED_GAME_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Seeded test game</title>
    <script src="/game-sdk.min.js"></script></head>
  <body style="background:#fff;color:#111;font:16px sans-serif">
    <button id="play">Play</button>
    <label for="score">Score</label> <input id="score" type="number" value="0" />
    <button id="submit">Submit score</button>
    <pre id="result">ready</pre>
    <script>
      'use strict';
      const params = new URLSearchParams(location.search);
      const game = new Coinop.GameService(params.get('game'), params.get('arcade'), {
        replyTimeoutMs: 5000,
      });
      game.init();
      const out = document.getElementById('result');
      let played = null;
      document.getElementById('play').addEventListener('click', async () => {
        played = await game.play();
        out.textContent = JSON.stringify(played);
      });
      document.getElementById('submit').addEventListener('click', async () => {
        out.textContent = 'scoring';
        const score = Number(document.getElementById('score').value);
        try {
          await game.submitScore(played.playId, score, { replay: 'moves:' + played.seed.slice(0, 8) });
          out.textContent = 'scored';
        } catch (error) {
          out.textContent = error.code === 'bridge_timeout' ? 'no reply' : String(error);
        }
      });
    </script>
  </body>
</html>`;
