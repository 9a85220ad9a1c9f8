import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import {
  GAME_SDK_BUNDLE,
  NO_CHROMIUM_REASON,
  hasChromium,
  ensureBrowserBuilds,
  launchChromium,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { recordCounts } from '@coinop/testkit/invariants';
import { BOARD_READS_GAME_PAGE } from '../fixtures/board-reads-game.js';

const VIEWPORT = { width: 360, height: 740 };

/**
 * A game on the browser bundle, as a developer writes one. On "Start" it plays, scores, reads the
 * leaderboard and pays 5 HST through the SDK, then asks with the `hstTransfer` alias and sends
 * garbage by hand; it shows what it got in `#result`. Two frames inside it post requests straight
 * to the arcade page, which must ignore both: one from a third origin, one from the game's own
 * origin but not the game's window.
 */
const GAME_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Demo test game</title>
    <script src="/game-sdk.min.js"></script>
  </head>
  <body style="background:#fff;color:#111">
    <h1>Demo test game</h1>
    <button id="start">Start</button>
    <pre id="result">loading</pre>
    <iframe id="foreign" title="Foreign frame"></iframe>
    <iframe id="sibling" title="Sibling frame" src="/sibling.html"></iframe>
    <script>
      'use strict';
      const params = new URLSearchParams(location.search);
      const arcade = params.get('arcade');
      const game = new Coinop.GameService('c0ffee00-0000-4000-8000-000000000001', arcade);
      game.init();
      const out = document.getElementById('result');
      const foreign = document.getElementById('foreign');
      const loaded = [foreign, document.getElementById('sibling')].map(
        (frame) => new Promise((resolve) => frame.addEventListener('load', resolve)),
      );
      Promise.all(loaded).then(() => { out.textContent = 'ready'; });
      foreign.src = params.get('foreign') + '/foreign.html';
      function askAlias() {
        return new Promise((resolve) => {
          window.addEventListener('message', (event) => {
            if (event.source === parent && event.data && event.data.requestId === 'alias.1') {
              resolve(event.data);
            }
          });
          parent.postMessage('garbage', arcade);
          parent.postMessage({ type: 'play', gameId: 42 }, arcade);
          parent.postMessage(
            { type: 'hstTransfer', gameId: 'any-game', amount: 1, requestId: 'alias.1' },
            arcade,
          );
        });
      }
      document.getElementById('start').addEventListener('click', async () => {
        try {
          const play = await game.play();
          const score = await game.submitScore(play.playId, 1234);
          const leaders = await game.getLeaderboard();
          const transfer = await game.hstTransfer(5);
          const alias = await askAlias();
          out.textContent = JSON.stringify({ play, score, leaders, transfer, alias });
        } catch (error) {
          out.textContent = 'error: ' + error.message;
        }
      });
    </script>
  </body>
</html>`;

/**
 * A game that follows the arcade's tier (issue 17): it subscribes with `onTierChange`, shows the
 * tier and reads its board on each change, and plays and scores the number typed.
 */
const TIERS_GAME_PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Tier test game</title>
    <script src="/game-sdk.min.js"></script>
  </head>
  <body style="background:#fff;color:#111">
    <h1>Tier test game</h1>
    <p id="tier">no tier yet</p>
    <label for="score">Score</label> <input id="score" type="number" />
    <button id="go">Play and score</button>
    <ol id="board"></ol>
    <script>
      'use strict';
      const arcade = new URLSearchParams(location.search).get('arcade');
      const game = new Coinop.GameService('c0ffee00-0000-4000-8000-000000000001', arcade);
      game.init();
      const board = document.getElementById('board');
      async function showBoard() {
        const { leaderboard } = await game.getLeaderboard();
        board.replaceChildren(...leaderboard.map((leader) => {
          const li = document.createElement('li');
          li.textContent = leader.displayName + ' ' + leader.score;
          return li;
        }));
      }
      game.onTierChange(({ tier }) => {
        document.getElementById('tier').textContent =
          tier.name + ' (' + tier.formattedCostString + ')';
        void showBoard();
      });
      document.getElementById('go').addEventListener('click', async () => {
        const { playId } = await game.play();
        await game.submitScore(playId, Number(document.getElementById('score').value));
        await showBoard();
      });
    </script>
  </body>
</html>`;

/** A page that posts a well-formed request to the arcade (the top window) as it loads. */
const postingPage = (requestId: string) => `<!doctype html><html lang="en"><title>Other</title>
<script>
  top.postMessage({ type: 'play', gameId: 'any-game', requestId: '${requestId}' }, '*');
</script></html>`;

function serve(routes: Record<string, { type: string; body: string }>): Promise<Server> {
  const server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://x').pathname];
    if (route === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': route.type, 'cache-control': 'no-store' });
    res.end(route.body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const originOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

describe.skipIf(!hasChromium)(
  `demo arcade in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let gameSite: Server;
    let foreignSite: Server;
    let browser: Browser;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-demo-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'demo-admin', demo: true }),
      );
      gameSite = await serve({
        '/game.html': { type: 'text/html; charset=utf-8', body: GAME_PAGE },
        '/tiers.html': { type: 'text/html; charset=utf-8', body: TIERS_GAME_PAGE },
        '/boards.html': { type: 'text/html; charset=utf-8', body: BOARD_READS_GAME_PAGE },
        '/sibling.html': { type: 'text/html; charset=utf-8', body: postingPage('sibling.1') },
        '/game-sdk.min.js': {
          type: 'text/javascript; charset=utf-8',
          body: await readFile(GAME_SDK_BUNDLE, 'utf8'),
        },
      });
      foreignSite = await serve({
        '/foreign.html': { type: 'text/html; charset=utf-8', body: postingPage('foreign.1') },
      });
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      for (const site of [gameSite, foreignSite]) {
        await new Promise((resolve) => site?.close(resolve));
      }
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('hosts a game on another origin, answers it with mock data and records nothing', async () => {
      const web = server.urls['web']!;
      const before = await recordCounts(server.api.arcade.db);
      const gameUrl =
        `${originOf(gameSite)}/game.html?arcade=${encodeURIComponent(web)}` +
        `&foreign=${encodeURIComponent(originOf(foreignSite))}`;

      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (request) => {
        if (request.frame() === page.mainFrame()) requests.push(request.url());
      });
      try {
        await page.goto(`${web}/demo?game=${encodeURIComponent(gameUrl)}`);
        await page.getByRole('heading', { name: 'Demo arcade' }).waitFor();
        const frame = page.locator('iframe.game-frame');
        expect(await frame.getAttribute('src')).toBe(gameUrl);
        expect(await frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
        const game = page.frameLocator('iframe.game-frame');
        const result = game.locator('#result');
        // The inner frames have posted their requests by the time they have loaded.
        await expect.poll(() => result.textContent()).toBe('ready');

        // Another window of the arcade's own origin: not the game's frame, so ignored too.
        await page.evaluate(
          `window.postMessage({ type: 'play', gameId: 'any-game', requestId: 'self.1' }, '*')`,
        );

        await game.getByRole('button', { name: 'Start' }).click();
        await expect.poll(() => result.textContent()).toMatch(/^\{/);
        const got = JSON.parse((await result.textContent())!) as {
          play: { playId?: string };
          score: { playId: string };
          leaders: { leaderboard: { userId: string; score: number; txid: string }[] };
          transfer: { txid?: string };
          alias: { type: string; data: { txid?: string }; requestId: string };
        };
        expect(got.play.playId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-/);
        expect(got.score).toEqual({ playId: got.play.playId });
        // The submitted score joins the mock board as the demo player's (issue 17).
        expect(got.leaders.leaderboard.map((l) => l.score)).toEqual([4200, 3100, 1800, 1234]);
        expect(got.leaders.leaderboard[0]).toMatchObject({ userId: 'demo-player-1' });
        expect(got.leaders.leaderboard[3]).toEqual({
          txid: got.play.playId,
          userId: 'demo-you',
          displayName: 'You (demo)',
          score: 1234,
        });
        expect(got.transfer.txid).toMatch(/^demo-tx-[0-9a-f]{32}$/);
        // Answered with the type it was asked with.
        expect(got.alias.type).toBe('hstTransfer');
        expect(got.alias.requestId).toBe('alias.1');
        expect(got.alias.data.txid).toMatch(/^demo-tx-/);

        const log = page.getByRole('region', { name: 'Message log' });
        expect(await log.locator('ol').getAttribute('aria-live')).toBe('polite');
        const lines = await log.locator('li').allTextContents();
        const heads = await log
          .locator('li')
          .evaluateAll((items) =>
            items.map(
              (li) =>
                `${li.querySelector('strong')?.textContent} ${li.querySelector('code')?.textContent}`,
            ),
          );
        expect(heads).toEqual([
          'game → arcade play',
          'arcade → game play',
          'game → arcade score',
          'arcade → game score',
          'game → arcade leaderboard',
          'arcade → game leaderboard',
          'game → arcade transferHst',
          'arcade → game transferHst',
          'ignored (malformed)',
          'ignored play',
          'game → arcade hstTransfer',
          'arcade → game hstTransfer',
        ]);
        // Payloads are shown as text.
        expect(lines[1]).toContain(`"playId":"${got.play.playId}"`);
        // A game that never asked to be told the tier (as on haste-arcade-sdk) is sent nothing.
        await page.getByLabel('Leaderboard tier').selectOption('demo-high-stakes');
        await page.getByRole('heading', { name: /^Leaders: High stakes/ }).waitFor();
        expect(await log.locator('li').count()).toBe(heads.length);
        const text = lines.join('\n');
        expect(text).not.toContain('foreign.1');
        expect(text).not.toContain('sibling.1');
        expect(text).not.toContain('self.1');

        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          VIEWPORT.width,
        );
        // Chromium paints an out-of-process frame only once it has been in view.
        await frame.scrollIntoViewIfNeeded();
        await saveScreenshot(page, 'web-demo');
      } finally {
        await context.close();
      }

      // The demo page asked the arcade for nothing beyond its own files, and nothing was recorded.
      expect(requests.filter((url) => new URL(url).pathname.startsWith('/api'))).toEqual([]);
      expect(requests.filter((url) => new URL(url).pathname.startsWith('/auth'))).toEqual([]);
      expect(await recordCounts(server.api.arcade.db)).toEqual(before);
    });

    it('issue 17: sorts a lower-is-better board lowest first, shows the submitted score, and tells a subscribed game the tier', async () => {
      const web = server.urls['web']!;
      const gameUrl = `${originOf(gameSite)}/tiers.html?arcade=${encodeURIComponent(web)}`;
      for (const [viewport, name] of [
        [{ width: 1366, height: 900 }, 'web-demo-reverse'],
        [VIEWPORT, 'web-demo-reverse-phone'],
      ] as const) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        try {
          await page.goto(
            `${web}/demo?game=${encodeURIComponent(gameUrl)}&scoreDisplay=REVERSE&scoreUnit=ms`,
          );
          expect(await page.getByLabel('Score order').inputValue()).toBe('REVERSE');
          // The game's unit, as the portal's link gives it: the page's scores carry it.
          expect(await page.getByLabel(/^Score unit/).inputValue()).toBe('ms');
          const demoBoard = page.getByTestId('demo-leaders').locator('li');
          const game = page.frameLocator('iframe.game-frame');
          const gameBoard = game.locator('#board li');
          // Lower is better: the mock leaders lowest first, on the page and in the game.
          await expect
            .poll(() => demoBoard.allTextContents())
            .toEqual(['Linus1,800 ms', 'Grace3,100 ms', 'Ada4,200 ms']);
          await expect.poll(() => game.locator('#tier').textContent()).toBe('Practice (1 HST)');
          await expect
            .poll(() => gameBoard.allTextContents())
            .toEqual(['Linus 1800', 'Grace 3100', 'Ada 4200']);

          // A score of 2500 ranks second on a lower-is-better board; the page says so.
          await game.getByLabel('Score').fill('2500');
          await game.getByRole('button', { name: 'Play and score' }).click();
          await expect
            .poll(() => page.getByTestId('demo-score').textContent())
            .toBe(
              'Submitted score 2,500 ms on Practice: your best there, ranked #2 on the mock board.',
            );
          expect(await demoBoard.allTextContents()).toEqual([
            'Linus1,800 ms',
            'You (demo)2,500 ms',
            'Grace3,100 ms',
            'Ada4,200 ms',
          ]);
          await expect
            .poll(() => gameBoard.allTextContents())
            .toEqual(['Linus 1800', 'You (demo) 2500', 'Grace 3100', 'Ada 4200']);
          // A worse score does not replace the best. The largest whole number a JSON number holds
          // exactly keeps every digit, grouped in thousands.
          await game.getByLabel('Score').fill('9007199254740991');
          await game.getByRole('button', { name: 'Play and score' }).click();
          await expect
            .poll(() => page.getByTestId('demo-score').textContent())
            .toBe(
              'Submitted score 9,007,199,254,740,991 ms on Practice: not better than your best ' +
                'there, which ranks #2.',
            );
          // The screenshot shows the lower-is-better board with the demo player on it.
          await saveScreenshot(page, name);

          // The player picks another tier: the game hears of it and shows that tier's board.
          await page.getByLabel('Leaderboard tier').selectOption('demo-high-stakes');
          await expect.poll(() => game.locator('#tier').textContent()).toBe('High stakes (10 HST)');
          await expect
            .poll(() => gameBoard.allTextContents())
            .toEqual(['Grace 7500', 'Margaret 9900']);
          // Higher is better again: the page's board turns round.
          await page.getByLabel('Score order').selectOption('NORMAL');
          expect(await demoBoard.allTextContents()).toEqual(['Margaret9,900 ms', 'Grace7,500 ms']);
          // The unit is the page's setting too: cleared, the scores are bare numbers.
          await page.getByLabel(/^Score unit/).fill('');
          expect(await demoBoard.allTextContents()).toEqual(['Margaret9,900', 'Grace7,500']);
          await page.getByLabel(/^Score unit/).fill('ms');

          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );
        } finally {
          await context.close();
        }
      }
    });

    it('issue 18: answers board pages and around-me from the mock board, the demo player in it', async () => {
      const web = server.urls['web']!;
      const gameUrl =
        `${originOf(gameSite)}/boards.html?arcade=${encodeURIComponent(web)}` +
        `&game=c0ffee00-0000-4000-8000-000000000001`;
      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      try {
        await page.goto(`${web}/demo?game=${encodeURIComponent(gameUrl)}`);
        const game = page.frameLocator('iframe.game-frame');
        const result = game.locator('#result');
        const read = async () => {
          await game.getByRole('button', { name: 'Read the board' }).click();
          await expect.poll(() => result.textContent()).toMatch(/^\{/);
          return JSON.parse((await result.textContent())!) as {
            first: {
              players: number;
              entries: { rank: number; name: string }[];
              nextCursor: string;
            };
            second: { entries: { rank: number; name: string }[]; nextCursor: string | null };
            around: { player: { rank: number } | null; above: unknown[]; below: unknown[] };
          };
        };
        // Before the demo player scored: three mock leaders, two pages, nobody to be around.
        const before = await read();
        expect(before.first).toMatchObject({ leaderboardId: 'demo-practice', players: 3 });
        expect(before.first.entries.map((e) => [e.rank, e.name])).toEqual([
          [1, 'Ada'],
          [2, 'Grace'],
        ]);
        expect(before.first.nextCursor).toBe('demo.2');
        expect(before.second.entries.map((e) => [e.rank, e.name])).toEqual([[3, 'Linus']]);
        expect(before.second.nextCursor).toBeNull();
        expect(before.around).toMatchObject({ player: null, above: [], below: [] });

        // The demo player scores 2000: third of four, with one player on either side.
        await game.getByRole('button', { name: 'Play and score' }).click();
        await expect.poll(() => result.textContent()).toBe('scored');
        const after = await read();
        expect(after.first.players).toBe(4);
        expect(after.second.entries.map((e) => [e.rank, e.name])).toEqual([
          [3, 'You (demo)'],
          [4, 'Linus'],
        ]);
        expect(after.around).toMatchObject({
          player: { rank: 3, playerId: 'demo-you', score: 2000 },
          above: [{ rank: 2, name: 'Grace' }],
          below: [{ rank: 4, name: 'Linus' }],
        });
        const heads = await page
          .getByRole('region', { name: 'Message log' })
          .locator('li strong')
          .allTextContents();
        expect(heads.filter((h) => h.startsWith('ignored'))).toEqual([]);
        expect(await seriousViolations(page)).toEqual([]);
        await page.locator('iframe.game-frame').scrollIntoViewIfNeeded();
        await saveScreenshot(page, 'web-demo-board-reads');
      } finally {
        await context.close();
      }
    });

    it('shows an empty message log as a line of text, not a numbered "1. No messages yet."', async () => {
      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      try {
        // A page that never speaks to the bridge: the log stays empty.
        const silent = `${originOf(foreignSite)}/missing.html`;
        await page.goto(`${server.urls['web']}/demo?game=${encodeURIComponent(silent)}`);
        const log = page.getByRole('region', { name: 'Message log' });
        await log.getByText('No messages yet.').waitFor();
        expect(await log.locator('li').count()).toBe(0);
        expect(await log.locator('p').textContent()).toBe('No messages yet.');
      } finally {
        await context.close();
      }
    });

    it('refuses a game URL that is not http or https', async () => {
      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      try {
        await page.goto(
          `${server.urls['web']}/demo?game=${encodeURIComponent('javascript:alert(1)')}`,
        );
        await expect
          .poll(() => page.getByRole('alert').textContent())
          .toBe('The game URL must start with http:// or https://, not javascript:');
        expect(await page.locator('iframe').count()).toBe(0);
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);
