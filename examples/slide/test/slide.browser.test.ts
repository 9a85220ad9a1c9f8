/* eslint-disable @typescript-eslint/no-non-null-assertion -- as in the packages tests: fixtures exist */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  NO_CHROMIUM_REASON,
  PHONE,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  openSignedIn,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { startServer, testConfig, type RunningServer } from '@coinop/testkit/server';
import { walletSignIn } from '@coinop/testkit/signin';
import { replayRun } from '../web/slide.js';
import { startSlideServer } from '../src/server.js';

/**
 * Slide in the real arcade, as `npm start` runs it: the demo seed registers the game with its
 * rules and its verifier, a demo player signs in with their arcade wallet, approves a play, plays
 * a run on the board the play's seed laid out and finishes; the arcade re-plays the run and pays.
 * A score forged through the bridge, as a cheater would post it from the browser's console, is
 * refused and pays nothing.
 */

/**
 * An older arcade that never answers a score: it frames the game, answers a play with a playId
 * and no seed, and leaves every score unanswered, as an arcade does when it refuses one.
 */
const SILENT_ARCADE = (gameUrl: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Silent arcade</title></head>
<body><iframe id="game" title="Game" src="${gameUrl}" style="width:360px;height:700px"></iframe>
<script>
  window.scores = [];
  const game = document.getElementById('game');
  window.addEventListener('message', (event) => {
    if (event.source !== game.contentWindow) return;
    const { type, requestId } = event.data;
    if (type === 'score') { window.scores.push(event.data); return; }
    const data = type === 'play' ? { playId: 'play-' + requestId } : type === 'leaderboard' ? { leaderboard: [] } : {};
    game.contentWindow.postMessage({ type, data, requestId }, new URL(game.src).origin);
  });
</script></body></html>`;

/** Anvil's well-known accounts 1 (the first demo player) and 3 (the demo developer). */
const PLAYER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const DEVELOPER_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6';
const ADMIN_TOKEN = 'slide-admin';

describe.skipIf(!hasChromium)(
  `Slide in the arcade${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let slide: Awaited<ReturnType<typeof startSlideServer>>;
    let browser: Browser;
    let gameId: string;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-slide-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: ADMIN_TOKEN, demo: true }),
      );
      const web = server.urls['web']!;
      slide = await startSlideServer({ port: 0, arcade: web });
      const catalog = await server.api.inject({ method: 'GET', url: '/catalog/games' });
      const games = catalog.json<{ games: { id: string; name: string }[] }>().games;
      gameId = games.find((g) => g.name === 'Slide')!.id;
      // The demo registers Slide where npm start serves it; this test serves it on a free port,
      // and points the game there as its developer would, in the portal.
      const developer = await walletSignIn(server.auth, privateKeyToAccount(DEVELOPER_KEY));
      const moved = await server.api.inject({
        method: 'PATCH',
        url: `/developer/games/${gameId}`,
        headers: { authorization: `Bearer ${developer.access_token}` },
        payload: { url: slide.url },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await slide?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const query = <T>(sql: string, params: unknown[] = []) =>
      server.api.arcade.db.query<T>(sql, params);
    const statusOf = (game: FrameLocator) => () => game.locator('#status').textContent();

    async function balanceUnits(accountId: string): Promise<bigint> {
      const [row] = await query<{ balance: string }>(
        `SELECT (credits_posted - debits_posted - debits_pending)::text AS balance
           FROM accounts WHERE id = $1`,
        [accountId],
      );
      return BigInt(row!.balance);
    }

    /** Signs the demo player in on Slide's page and waits for the game to be ready. */
    async function openGame(viewport: typeof DESKTOP) {
      const opened = await openSignedIn(browser, {
        url: `${server.urls['web']!}/games/${gameId}`,
        key: PLAYER_KEY,
        viewport,
      });
      // The arcade page keeps what the game posts to it: the test reads the replay it sent.
      await opened.page.evaluate(() => {
        const seen: unknown[] = [];
        Object.assign(window, { seenFromGame: seen });
        window.addEventListener('message', (event) => seen.push(event.data));
      });
      const game = opened.page.frameLocator('iframe.game-frame');
      await expect.poll(statusOf(game)).toBe('Ready. Press Play to start.');
      return { ...opened, game };
    }

    /** Play, approved in the arcade's dialog; resolves with the open play's id and seed. */
    async function startRun(page: Page, game: FrameLocator, playerId: string) {
      await game.getByRole('button', { name: 'Play' }).click();
      const dialog = page.getByRole('dialog', { name: 'Lock HST to play?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Approve' }).click();
      await expect
        .poll(statusOf(game))
        .toBe('Your run has started. Slide the tiles; press Finish to cash out your score.');
      const [play] = await query<{ id: string; seed: string }>(
        `SELECT id, seed FROM plays WHERE player_id = $1 AND status = 'open'`,
        [playerId],
      );
      return play!;
    }

    /** Longer than Slide's shortest play (500 ms): a script finishes sooner than any person. */
    const humanPause = () => new Promise((resolve) => setTimeout(resolve, 600));

    /** Presses moves until `count` of them moved tiles (a move that slides nothing is no move). */
    async function playMoves(page: Page, game: FrameLocator, count: number) {
      // All four directions in turn: a board with an empty cell always lets one of them move, so
      // a run never stalls the way pressing only down and left can.
      const directions = [
        ['ArrowDown', 'Slide down'],
        ['ArrowLeft', 'Slide left'],
        ['ArrowUp', 'Slide up'],
        ['ArrowRight', 'Slide right'],
      ] as const;
      const moves = async () => Number(await game.locator('#moves').textContent());
      for (let i = 0; (await moves()) < count; i++) {
        if (i > count * 6) throw new Error('the board stopped moving');
        const before = await moves();
        const [key, button] = directions[i % directions.length]!;
        // Keys and the on-screen pad both move.
        if (i % 3 === 2) await game.getByRole('button', { name: button }).click();
        else await page.keyboard.press(key);
        // A busy page takes the press late: wait for it (up to 2 s) before the next one, which
        // would otherwise be counted against a board that has not moved yet.
        for (let wait = 0; wait < 20 && (await moves()) === before; wait++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
    }

    it('plays a run from the play’s seed, and the arcade re-plays it, accepts and pays', async () => {
      const { context, page, game } = await openGame(DESKTOP);
      try {
        const [player] = await query<{ id: string; account_id: string }>(
          'SELECT id, account_id FROM players WHERE wallet = $1',
          [privateKeyToAccount(PLAYER_KEY).address.toLowerCase()],
        );
        const [developer] = await query<{ account_id: string }>(
          'SELECT d.account_id FROM developers d JOIN games g ON g.developer_id = d.id WHERE g.id = $1',
          [gameId],
        );
        const before = await balanceUnits(player!.account_id);
        const developerBefore = await balanceUnits(developer!.account_id);
        const play = await startRun(page, game, player!.id);
        expect(play.seed).toMatch(/^[0-9a-f]{64}$/);
        // The page shows the seed the arcade drew: the board comes from it.
        expect(await game.locator('#seed').textContent()).toBe(
          `Tiles from the arcade's seed ${play.seed.slice(0, 8)}…${play.seed.slice(-4)}: it ` +
            're-plays your moves from it to check your score.',
        );
        await playMoves(page, game, 12);
        const score = Number((await game.locator('#score').textContent())!.replace(/,/g, ''));
        await saveScreenshot(page, 'example-slide-run');
        expect(await seriousViolations(page)).toEqual([]);

        await humanPause();
        await game.getByRole('button', { name: 'Finish' }).click();
        await expect
          .poll(statusOf(game), { timeout: 15_000 })
          .toBe(
            `${score.toLocaleString('en')} points accepted by the arcade. Press Play for another run.`,
          );

        // What the game sent: the score, and the replay that earns it from the play's seed.
        const sent = (await page.evaluate('window.seenFromGame')) as Record<string, unknown>[];
        const scoreMessage = sent.find((m) => m['type'] === 'score')!;
        expect(scoreMessage).toMatchObject({ playId: play.id, score });
        const replayed = replayRun(play.seed, String(scoreMessage['replay']));
        expect(replayed.score).toBe(score);
        expect(replayed.moves).toHaveLength(12);
        // What the arcade recorded: the play scored with it.
        const [scored] = await query<{ status: string; score: number }>(
          `SELECT p.status, s.score FROM plays p JOIN scores s ON s.play_id = p.id
            WHERE p.id = $1`,
          [play.id],
        );
        expect(scored).toEqual({ status: 'scored', score });
        // The play's cost left the player's balance and the settlement paid it out: the board
        // was empty, so its leaders' 70% came back to the player (nobody to lead), 20% went to
        // the developer and 10% to the arcade.
        const [tier] = await query<{ cost_units: string }>(
          `SELECT l.cost_units::text FROM leaderboards l JOIN plays p ON p.leaderboard_id = l.id
            WHERE p.id = $1`,
          [play.id],
        );
        const cost = BigInt(tier!.cost_units);
        expect(cost).toBeGreaterThan(0n);
        expect(await balanceUnits(player!.account_id)).toBe(before - cost + (cost * 70n) / 100n);
        expect(await balanceUnits(developer!.account_id)).toBe(
          developerBefore + (cost * 20n) / 100n,
        );
        await expect.poll(() => game.locator('#leaders li').count()).toBeGreaterThan(0);
        await saveScreenshot(page, 'example-slide-accepted');
      } finally {
        await context.close();
      }
    });

    it('refuses a score forged through the bridge, pays nothing, and takes the honest one after', async () => {
      const { context, page, game } = await openGame(DESKTOP);
      try {
        const [player] = await query<{ id: string; account_id: string }>(
          'SELECT id, account_id FROM players WHERE wallet = $1',
          [privateKeyToAccount(PLAYER_KEY).address.toLowerCase()],
        );
        const play = await startRun(page, game, player!.id);
        await playMoves(page, game, 4);
        const locked = await balanceUnits(player!.account_id);
        await humanPause();
        // A cheater waits out the shortest play too, then types in the browser's console the
        // bridge's score message, with a score and a replay of their own, for the open play.
        const frame = page.frames().find((f) => f.url().startsWith(slide.url))!;
        await frame.evaluate(
          ({ gameId, playId }) =>
            window.parent.postMessage(
              { type: 'score', gameId, playId, score: 99_999, replay: 's1:LLLL', requestId: 'x.1' },
              '*',
            ),
          { gameId, playId: play.id },
        );
        // The arcade says why, beside the game; the game itself waits on (the bridge has no
        // refusal reply for a score), so the honest run can go on.
        const notice = page.getByTestId('arcade-notice');
        await expect
          .poll(() => notice.textContent(), { timeout: 15_000 })
          .toMatch(
            /^The arcade refused this score: (the replay earns \d+, not 99999|.*changes nothing.*)\. Your play stays open/,
          );
        await saveScreenshot(page, 'example-slide-refused');
        const [refusal] = await query<{ reason: string; score: number; detail: string }>(
          'SELECT reason, score, detail FROM score_refusals WHERE play_id = $1',
          [play.id],
        );
        expect(refusal).toMatchObject({ reason: 'replay_rejected', score: 99_999 });
        // Nothing was written or paid: the play is open, its cost still locked.
        const [open] = await query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [
          play.id,
        ]);
        expect(open!.status).toBe('open');
        expect(await query('SELECT 1 FROM scores WHERE play_id = $1', [play.id])).toEqual([]);
        expect(await balanceUnits(player!.account_id)).toBe(locked);

        // The honest run goes on and is taken.
        await playMoves(page, game, 6);
        await humanPause();
        await game.getByRole('button', { name: 'Finish' }).click();
        await expect
          .poll(statusOf(game), { timeout: 15_000 })
          .toMatch(/^[\d,]+ points accepted by the arcade\. Press Play for another run\.$/);
      } finally {
        await context.close();
      }
    });

    it('fits a 360 px phone with no serious accessibility violations', async () => {
      const { context, page, game } = await openGame(PHONE);
      try {
        const [player] = await query<{ id: string }>('SELECT id FROM players WHERE wallet = $1', [
          privateKeyToAccount(PLAYER_KEY).address.toLowerCase(),
        ]);
        await startRun(page, game, player!.id);
        await playMoves(page, game, 3);
        await page.locator('iframe.game-frame').scrollIntoViewIfNeeded();
        await saveScreenshot(page, 'example-slide-phone');
        expect(await seriousViolations(page)).toEqual([]);
        const frame = page.frames().find((f) => f.url().startsWith(slide.url))!;
        expect(await frame.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          await frame.evaluate('document.documentElement.clientWidth'),
        );
        await humanPause();
        await game.getByRole('button', { name: 'Finish' }).click();
        await expect.poll(statusOf(game), { timeout: 15_000 }).toMatch(/accepted by the arcade/);
      } finally {
        await context.close();
      }
    });

    it('plays from its own seed on an arcade that sends none, and offers to resend a score left unanswered', async () => {
      let site: Server | undefined;
      const context = await browser.newContext({ viewport: PHONE });
      try {
        site = createServer((_req, res) => {
          const origin = `http://127.0.0.1:${(site!.address() as AddressInfo).port}`;
          const url = `${slide.url}?arcade=${encodeURIComponent(origin)}&gameId=g-1`;
          res
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(SILENT_ARCADE(url));
        });
        await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve));
        const page = await context.newPage();
        await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
        const game = page.frameLocator('#game');
        await expect.poll(statusOf(game)).toBe('Ready. Press Play to start.');
        await game.getByRole('button', { name: 'Play' }).click();
        await expect
          .poll(statusOf(game))
          .toBe(
            'This arcade sent no seed, so the tiles come from this page and it cannot check the ' +
              'run. Slide the tiles; press Finish to cash out your score.',
          );
        expect(await game.locator('#seed').textContent()).toBe(
          'Tiles from this page: the arcade sent no seed.',
        );
        await playMoves(page, game, 2);
        await game.getByRole('button', { name: 'Finish' }).click();
        await expect.poll(statusOf(game)).toMatch(/Submitting your score and its replay…$/);
        // No answer: after its wait the page lets the player send it again, or start over.
        await expect
          .poll(statusOf(game), { timeout: 20_000 })
          .toMatch(
            /^[\d,]+ points: no answer from the arcade yet\. If it refused the score, it says why beside the game; you may submit it again\.$/,
          );
        await game.getByRole('button', { name: 'Submit again' }).click();
        await expect.poll(() => page.evaluate('window.scores.length')).toBe(2);
        const [first] = (await page.evaluate('window.scores')) as { replay: string }[];
        expect(first!.replay).toMatch(/^s1:[LRUD]{2}$/);
        expect(await game.getByRole('button', { name: 'Play' }).isEnabled()).toBe(false);
      } finally {
        await context.close();
        await new Promise((resolve) => site?.close(resolve));
      }
    });

    it('serves its cover and the engine file it uploads as its verifier', async () => {
      const cover = Buffer.from(await (await fetch(`${slide.url}cover.png`)).arrayBuffer());
      expect(cover.subarray(1, 4).toString()).toBe('PNG');
      expect([cover.readUInt32BE(16), cover.readUInt32BE(20)]).toEqual([1920, 1080]);
      const engine = await (await fetch(`${slide.url}slide.js`)).text();
      expect(engine).toMatch(/^export function verify\(/m);
    });
  },
);
