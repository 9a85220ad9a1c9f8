/* eslint-disable @typescript-eslint/no-non-null-assertion -- as in the packages tests: fixtures exist */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, testConfig, type RunningServer } from '@coinop/testkit/server';
import {
  NO_CHROMIUM_REASON,
  hasChromium,
  ensureBrowserBuilds,
  launchChromium,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { recordCounts } from '@coinop/testkit/invariants';
import { startReactionServer } from '../src/server.js';

const VIEWPORT = { width: 360, height: 740 };

/**
 * An arcade that says no: it frames the game and answers every play without a playId and every
 * payment without a txid, as an arcade does when the player rejects them. It logs what it got.
 */
const REFUSING_ARCADE = (gameUrl: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Refusing arcade</title></head>
<body><iframe id="game" title="Game" src="${gameUrl}" style="width:360px;height:700px"></iframe>
<script>
  window.seen = [];
  const game = document.getElementById('game');
  window.addEventListener('message', (event) => {
    if (event.source !== game.contentWindow) return;
    const { type, requestId } = event.data;
    window.seen.push(type);
    const data = type === 'leaderboard' ? { leaderboard: [] } : {};
    game.contentWindow.postMessage({ type, data, requestId }, new URL(game.src).origin);
  });
</script></body></html>`;

describe.skipIf(!hasChromium)(
  `the reaction example in the demo arcade${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let arcade: RunningServer;
    let game: Awaited<ReturnType<typeof startReactionServer>>;
    let browser: Browser;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-reaction-'));
      arcade = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'reaction-admin', demo: true }),
      );
      game = await startReactionServer({ port: 0, arcade: arcade.urls['web']! });
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await game?.close();
      await arcade?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const statusOf = (frame: FrameLocator) => () => frame.locator('#status').textContent();

    it('plays a round, submits the reaction time, buys the gold theme, and records nothing', async () => {
      const web = arcade.urls['web']!;
      const before = await recordCounts(arcade.api.arcade.db);
      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      try {
        // As the portal links it: the game's lower-is-better order and its unit.
        await page.goto(
          `${web}/demo?game=${encodeURIComponent(game.url)}&scoreDisplay=REVERSE&scoreUnit=ms`,
        );
        await page.getByRole('heading', { name: 'Demo arcade' }).waitFor();
        const frame = page.frameLocator('iframe.game-frame');
        const status = statusOf(frame);
        await expect.poll(status).toBe('Ready. Press Play to start.');
        // The demo's mock leaders, shown from getLeaderboard().
        await expect.poll(() => frame.locator('#leaders li').count()).toBe(3);

        // A press before green is a foul: no score is sent.
        await frame.getByRole('button', { name: 'Play' }).click();
        await expect.poll(status).toBe('Wait for green…');
        await page.keyboard.press('Space');
        await expect
          .poll(status)
          .toBe(
            'Too early: a foul. No score is submitted and the play is used up. Press Play to try again.',
          );

        await frame.getByRole('button', { name: 'Play' }).click();
        await expect.poll(status, { timeout: 10_000 }).toBe('Green! Press now.');
        await frame.locator('#pad').click();
        await expect
          .poll(status)
          .toMatch(/^\d+ ms: score submitted\. Press Play for another go\.$/);
        const reactionMs = Number(/^(\d+) ms/.exec((await status())!)![1]);
        expect(reactionMs).toBeGreaterThan(0);
        expect(reactionMs).toBeLessThan(5000);
        // The demo ranks it lowest first among its mock times (1800, 3100, 4200), in ms.
        const rank = 1 + [1800, 3100, 4200].filter((mock) => mock < reactionMs).length;
        await expect
          .poll(() => page.getByTestId('demo-score').textContent())
          .toBe(
            `Submitted score ${reactionMs.toLocaleString('en-US')} ms on Practice: your best there, ranked #${rank} on the mock board.`,
          );

        await frame.getByRole('button', { name: 'Gold theme — 1 HST' }).click();
        await expect
          .poll(status)
          .toMatch(/^Paid \(transaction demo-tx-[0-9a-f]{32}\)\. The gold theme is yours\.$/);
        expect(await frame.locator('body').getAttribute('class')).toBe('gold');
        await frame.getByRole('button', { name: 'Gold theme owned' }).waitFor();

        const log = page.getByRole('region', { name: 'Message log' });
        const heads = await log
          .locator('li')
          .evaluateAll((items) =>
            items.map(
              (li) =>
                `${li.querySelector('strong')?.textContent} ${li.querySelector('code')?.textContent}`,
            ),
          );
        expect(heads.filter((h) => !h.endsWith(' leaderboard'))).toEqual([
          // The game asks to be told the tier, and is told the demo's first (issue 17).
          'game → arcade tierChange',
          'arcade → game tierChange',
          'game → arcade play',
          'arcade → game play',
          'game → arcade play',
          'arcade → game play',
          'game → arcade score',
          'arcade → game score',
          'game → arcade transferHst',
          'arcade → game transferHst',
        ]);
        const lines = await log.locator('li').allTextContents();
        const scoreLine = lines.find((l) => l.includes('game → arcade') && l.includes('score'));
        expect(scoreLine).toContain(`"score":${reactionMs}`);
        expect(
          lines.find((l) => l.includes('game → arcade') && l.includes('transferHst')),
        ).toContain('"amount":1');

        expect(await seriousViolations(page)).toEqual([]);
        await page.locator('iframe.game-frame').scrollIntoViewIfNeeded();
        await saveScreenshot(page, 'example-reaction-demo');
      } finally {
        await context.close();
      }
      expect(await recordCounts(arcade.api.arcade.db)).toEqual(before);
    });

    it('stays idle when the play is refused and provisions nothing when the payment is', async () => {
      let site: Server | undefined;
      const context = await browser.newContext({ viewport: VIEWPORT });
      try {
        site = createServer((_req, res) => {
          const origin = `http://127.0.0.1:${(site!.address() as AddressInfo).port}`;
          const gameUrl = `${game.url}?arcade=${encodeURIComponent(origin)}&gameId=g-1`;
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
          res.end(REFUSING_ARCADE(gameUrl));
        });
        await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
        const page = await context.newPage();
        await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
        const frame = page.frameLocator('#game');
        const status = statusOf(frame);
        await expect.poll(status).toBe('Ready. Press Play to start.');
        await expect.poll(() => frame.locator('#leaders').textContent()).toBe('No scores yet.');

        await frame.getByRole('button', { name: 'Play' }).click();
        await expect.poll(status).toBe('The play was not approved, so the game did not start.');
        expect(await frame.locator('#pad').getAttribute('aria-label')).toBe(
          'Reaction pad: Press Play',
        );
        // Pressing now does nothing: no round is running.
        await frame.locator('#pad').click();
        await page.keyboard.press('Space');
        expect(await status()).toBe('The play was not approved, so the game did not start.');

        await frame.getByRole('button', { name: 'Gold theme — 1 HST' }).click();
        await expect
          .poll(status)
          .toBe('The payment was not made, so the gold theme was not applied.');
        expect(await frame.locator('body').getAttribute('class')).toBeNull();
        // The tierChange subscription goes unanswered by this arcade, which is fine.
        expect(await page.evaluate('window.seen')).toEqual([
          'tierChange',
          'leaderboard',
          'play',
          'transferHst',
        ]);
      } finally {
        await context.close();
        await new Promise((resolve) => site?.close(resolve));
      }
    });

    it('works at phone width with no serious accessibility violations, and serves its cover', async () => {
      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      try {
        await page.goto(game.url);
        await page.getByRole('button', { name: 'Play' }).waitFor();
        expect(await page.getByRole('status').textContent()).toBe('Ready. Press Play to start.');
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          VIEWPORT.width,
        );
      } finally {
        await context.close();
      }
      const cover = Buffer.from(await (await fetch(`${game.url}cover.png`)).arrayBuffer());
      expect(cover.subarray(1, 4).toString()).toBe('PNG');
      expect([cover.readUInt32BE(16), cover.readUInt32BE(20)]).toEqual([1920, 1080]);
      expect(cover.length).toBeLessThan(50_000);
    });
  },
);
