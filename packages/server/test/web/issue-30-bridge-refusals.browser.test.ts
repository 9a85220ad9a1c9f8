import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  GAME_SDK_BUNDLE,
  NO_CHROMIUM_REASON,
  openAccountMenu,
  saveScreenshot,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { injectWallet } from '@coinop/testkit/eip1193';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { GameVerifiers } from '../../src/services/game-verifiers.js';
import { findDeveloper } from '../../src/store/developers.js';
import { updateGame } from '../../src/store/games.js';

const PRACTICE = { name: 'Practice', cost: 1 };
/** The shortest run the game's rules allow: long enough that a score right after the play is
 * refused as too fast, short enough that the test then waits it out. */
const MIN_PLAY_MS = 8_000;
/** The game waits this long for a reply; a refusal must come back long before. */
const GAME_REPLY_TIMEOUT_MS = 60_000;
/** The verified game's verifier: a replay is a JSON list of moves, the score their sum plus a
 * bonus drawn from the seed, so a replay made without the play's seed earns another score. */
const VERIFIER = `export function verify({ seed, replay }) {
  const moves = JSON.parse(replay);
  return moves.reduce((sum, move) => sum + move, 0) + (parseInt(seed.slice(0, 2), 16) % 10);
}`;
const earned = (seed: string, moves: number[]) =>
  moves.reduce((sum, move) => sum + move, 0) + (parseInt(seed.slice(0, 2), 16) % 10);

/**
 * Issue 30 on the bridge, in headless Chromium (PGlite): before, the web app's bridge host sent
 * no reply to a score the arcade refused, so `submitScore()` in the game waited for its reply
 * timeout (120 s) and the game could not tell the player why. Now a score that carried a
 * `requestId` (every `@coinop/game-sdk` request does) is answered with an error reply, and
 * `submitScore` rejects at once with `BridgeRequestError` and the code (too fast, out of bounds,
 * replay too large, a forged replay with what the game's verifier computed in the real sandbox);
 * the play stays open and a later acceptable score of it is taken. A score without `requestId` (the published protocol,
 * `haste-arcade-sdk@1.1.5`) still gets no reply at all.
 */
describe.skipIf(!hasChromium)(
  `a refused score answers the game through the bridge${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    const developerKey = privateKeyToAccount(generatePrivateKey());
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let gameId: string;
    let verifiedId: string;
    let gameSite: Server;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-bridge-refusals-'));
      const config = testConfig({
        apiPort: 0,
        dataDir,
        adminToken: 'bridge-refusals-admin',
        faucetHst: 100,
      });
      // The smallest --replay-max-bytes, so an oversized replay is small enough to post quickly.
      server = await startServer({
        ...config,
        verifier: { ...config.verifier, replayMaxBytes: 1024 },
      });
      const created = await server.api.inject({
        method: 'POST',
        url: '/admin/developers',
        headers: { authorization: 'Bearer bridge-refusals-admin' },
        payload: { wallet: developerKey.address.toLowerCase() },
      });
      expect(created.statusCode, created.body).toBe(201);
      const { developerId } = created.json<{ developerId: string }>();
      const { arcade } = server.api;
      gameId = (await registerGame(arcade, { developerId, name: 'Tiles' }, [PRACTICE])).id;
      verifiedId = (await registerGame(arcade, { developerId, name: 'Sums' }, [PRACTICE])).id;
      const sdkBundle = await readFile(GAME_SDK_BUNDLE, 'utf8');
      gameSite = createServer((req, res) => {
        const js = new URL(req.url ?? '/', 'http://x').pathname === '/game-sdk.min.js';
        res
          .writeHead(200, {
            'content-type': js ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8',
            'cache-control': 'no-store',
          })
          .end(js ? sdkBundle : GAME_PAGE);
      });
      await new Promise<void>((resolve) => gameSite.listen(0, '127.0.0.1', resolve));
      const { port } = gameSite.address() as AddressInfo;
      const web = encodeURIComponent(server.urls['web']!);
      for (const id of [gameId, verifiedId]) {
        const url = `http://127.0.0.1:${port}/game.html?arcade=${web}&game=${id}`;
        await updateGame(arcade.db, arcade.clock, id, { url });
      }
      await arcade.scoreRules.changeGame(gameId, { maxScore: 5000, minPlayMs: MIN_PLAY_MS });
      const developer = await findDeveloper(arcade.db, developerId);
      await new GameVerifiers(arcade).upload(developer!, verifiedId, VERIFIER);
      await arcade.scoreRules.changeGame(verifiedId, { replay: 'required' });
      await publish(arcade, gameId);
      await publish(arcade, verifiedId);
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      if (gameSite) await new Promise((resolve) => gameSite.close(resolve));
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('each refusal rejects submitScore at once with its code; the play is then scored', async () => {
      const { arcade } = server.api;
      const { context, page, frame } = await openGame(gameId);
      try {
        const { playId } = await play(page, frame);

        // Right after the play: sooner than any run can take.
        const tooFast = await submit(frame, 1200);
        expect(tooFast).toMatchObject({
          ok: false,
          name: 'BridgeRequestError',
          code: 'score_too_fast',
          status: 422,
          operation: 'submitScore',
        });
        expect(tooFast.message).toMatch(
          new RegExp(
            `^the score came [\\d,]+ ms after the play opened; a run of this tier takes at least 8,000 ms$`,
          ),
        );
        await expectPromptAfterRefusal(tooFast, playId, 1);

        const tooHigh = await submit(frame, 9000);
        expect(tooHigh).toMatchObject({
          ok: false,
          code: 'score_out_of_bounds',
          status: 422,
          message: "score 9,000 is above this tier's highest possible score, 5,000",
        });
        await expectPromptAfterRefusal(tooHigh, playId, 2);
        // What the game shows its player, in its own frame, beside the arcade's notice.
        await frame
          .getByText(
            "The arcade refused this score: score 9,000 is above this tier's highest possible " +
              'score, 5,000. Your play is still open: play on and submit again.',
          )
          .waitFor();
        await saveScreenshot(page, 'game-score-refused-bridge');

        // Over --replay-max-bytes (1024 here): refused before any rule is read, with 413.
        const tooLarge = await submit(frame, 1200, 'x'.repeat(2000));
        expect(tooLarge).toMatchObject({
          ok: false,
          code: 'replay_too_large',
          status: 413,
          message:
            'replay is 2000 bytes of UTF-8; this arcade takes at most 1024 (--replay-max-bytes)',
        });
        expect(tooLarge.elapsedMs).toBeLessThan(GAME_REPLY_TIMEOUT_MS);

        // Nothing of it reached a board or moved HST: the play is open, no score exists.
        expect(await playState(playId)).toEqual({ status: 'open', scores: 0 });

        // Once a run could have taken that long, the honest score of the same play is taken.
        const [open] = await arcade.db.query<{ created_at: Date }>(
          'SELECT created_at FROM plays WHERE id = $1',
          [playId],
        );
        const wait = open!.created_at.getTime() + MIN_PLAY_MS + 200 - Date.now();
        if (wait > 0) await page.waitForTimeout(wait);
        const honest = await submit(frame, 1200);
        expect(honest).toMatchObject({ ok: true, value: { playId } });
        expect(await playState(playId)).toEqual({ status: 'scored', scores: 1 });

        // An older refusal comes back the same way: the play is no longer open.
        const again = await submit(frame, 1300);
        expect(again).toMatchObject({ ok: false, code: 'play_already_scored', status: 409 });
        expect(again.elapsedMs).toBeLessThan(GAME_REPLY_TIMEOUT_MS);
      } finally {
        await context.close();
      }
    }, 120_000);

    it('a forged replay rejects submitScore with what the verifier computed; the honest one scores', async () => {
      const { context, page, frame } = await openGame(verifiedId);
      try {
        const { playId, seed } = await play(page, frame);
        const moves = JSON.stringify([3, 5, 8]);
        const honest = earned(seed, [3, 5, 8]);

        const forged = await submit(frame, 4200, moves);
        expect(forged).toMatchObject({
          ok: false,
          name: 'BridgeRequestError',
          code: 'replay_rejected',
          status: 422,
          operation: 'submitScore',
        });
        expect(forged.message).toContain(`the replay earns ${honest}, not 4200`);
        await expectPromptAfterRefusal(forged, playId, 1);
        const missing = await submit(frame, honest);
        expect(missing).toMatchObject({ ok: false, code: 'replay_required', status: 422 });
        expect(await playState(playId)).toEqual({ status: 'open', scores: 0 });

        const taken = await submit(frame, honest, moves);
        expect(taken).toMatchObject({ ok: true, value: { playId } });
        expect(await playState(playId)).toEqual({ status: 'scored', scores: 1 });
      } finally {
        await context.close();
      }
    }, 120_000);

    it('a score without requestId (the published protocol) still gets no reply when refused', async () => {
      const { arcade } = server.api;
      const { context, page, frame } = await openGame(gameId);
      try {
        const { playId } = await play(page, frame);

        // As haste-arcade-sdk@1.1.5 posts it: no requestId.
        await frame.evaluate((message) => (globalThis as unknown as GameGlobals).postRaw(message), {
          type: 'score',
          gameId,
          playId,
          score: 9000,
        });
        await expect
          .poll(() => page.getByTestId('arcade-notice').textContent())
          .toBe(
            "The arcade refused this score: score 9,000 is above this tier's highest possible " +
              'score, 5,000. Your play stays open for a score within the game’s rules.',
          );
        const refusals = await arcade.db.query<{ reason: string }>(
          'SELECT reason FROM score_refusals WHERE play_id = $1',
          [playId],
        );
        expect(refusals).toEqual([{ reason: 'score_out_of_bounds' }]);
        // The host has answered by now if it ever will (an error reply follows the refusal
        // within milliseconds, as the first test shows); the game received nothing.
        await page.waitForTimeout(1_000);
        const received = await frame.evaluate(
          () => (globalThis as unknown as GameGlobals).received,
        );
        expect(received.filter((message) => message.type !== 'tierChange')).toEqual([
          {
            type: 'play',
            data: { playId, seed: expect.stringMatching(/^[0-9a-f]{64}$/) },
            requestId: expect.any(String),
          },
        ]);
      } finally {
        await context.close();
      }
    }, 120_000);

    it('a leaderboard read the arcade cannot answer rejects getLeaderboard at once; without requestId, no reply', async () => {
      const { context, page, frame } = await openGame(gameId);
      const readBoard = () =>
        frame.evaluate(() => (globalThis as unknown as GameGlobals).leaderboard());
      try {
        // Whatever the earlier tests left on the board: the same once the API is back.
        const board = await readBoard();
        expect(board).toMatchObject({ ok: true, value: { leaderboard: expect.any(Array) } });
        // The arcade's API unreachable: the page cannot load the board the game asks for (a
        // signed-in player's page reads the game from the player route, anyone's from the catalog).
        await page.route('**/catalog/games/**', (route) => route.abort());
        await page.route('**/player/games/**', (route) => route.abort());
        const failed = await readBoard();
        expect(failed).toMatchObject({
          ok: false,
          name: 'BridgeRequestError',
          code: 'bridge_request_failed',
          status: null,
          operation: 'getLeaderboard',
        });
        expect(failed.message).toMatch(/^the arcade could not read the board: /);
        expect(failed.elapsedMs).toBeLessThan(GAME_REPLY_TIMEOUT_MS / 10);

        // As haste-arcade-sdk@1.1.5 asks: no requestId, so no error reply it could not read.
        const before = await frame.evaluate(
          () => (globalThis as unknown as GameGlobals).received.length,
        );
        await frame.evaluate((message) => (globalThis as unknown as GameGlobals).postRaw(message), {
          type: 'leaderboard',
          gameId,
        });
        await page.waitForTimeout(1_000);
        const received = await frame.evaluate(
          () => (globalThis as unknown as GameGlobals).received,
        );
        expect(received.slice(before).filter((m) => m.type === 'leaderboard')).toEqual([]);

        await page.unroute('**/catalog/games/**');
        await page.unroute('**/player/games/**');
        expect(await readBoard()).toMatchObject({ ok: true, value: board.value });
      } finally {
        await context.close();
      }
    }, 120_000);

    /** A signed-in player with 100 test HST on the game's page in the arcade. */
    async function openGame(id: string) {
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      await injectWallet(page, privateKeyToAccount(generatePrivateKey()));
      await page.goto(`${server.urls['web']!}/games/${id}`);
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await page.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
      await page.getByRole('button', { name: 'Browser wallet' }).click();
      await openAccountMenu(page);
      await page.getByRole('button', { name: 'Get 100 test HST' }).click();
      await expect.poll(() => page.getByTestId('balance').textContent()).toBe('100 HST');
      return { context, page, frame: await gameFrame(page) };
    }

    /** Plays once, approving the play in the arcade's dialog; the play the game got. */
    async function play(page: Page, frame: Frame) {
      await frame.getByRole('button', { name: 'Play' }).click();
      await page
        .getByRole('dialog', { name: 'Lock HST to play?' })
        .getByRole('button', { name: 'Approve' })
        .click();
      const played = await frame.waitForFunction(
        () => (globalThis as unknown as GameGlobals).played,
      );
      const reply = (await played.jsonValue()) as { playId: string; seed: string };
      expect(reply.playId).toMatch(/^[0-9a-f-]{36}$/);
      expect(reply.seed).toMatch(/^[0-9a-f]{64}$/);
      return reply;
    }

    /** The game's frame on the arcade's game page, once its SDK is listening. */
    async function gameFrame(page: Page): Promise<Frame> {
      await page.locator('iframe.game-frame').waitFor();
      let frame: Frame | undefined;
      await expect
        .poll(() => {
          frame = page.frames().find((f) => f.url().includes('/game.html'));
          return (
            frame?.evaluate(() => (globalThis as unknown as GameGlobals).ready === true) ?? false
          );
        })
        .toBe(true);
      return frame!;
    }

    /** The play's status and how many scores it has. */
    async function playState(playId: string) {
      const [row] = await server.api.arcade.db.query<{ status: string; scores: number }>(
        `SELECT p.status, (SELECT count(*)::int FROM scores s WHERE s.play_id = p.id) AS scores
           FROM plays p WHERE p.id = $1`,
        [playId],
      );
      return row;
    }

    /** The game heard of the refusal within a second of the arcade recording it. */
    async function expectPromptAfterRefusal(outcome: Outcome, playId: string, count: number) {
      const rows = await server.api.arcade.db.query<{ created_at: Date; reason: string }>(
        'SELECT created_at, reason FROM score_refusals WHERE play_id = $1 ORDER BY created_at',
        [playId],
      );
      expect(rows).toHaveLength(count);
      const refusal = rows[count - 1]!;
      expect(refusal.reason).toBe(outcome.code);
      const afterRefusalMs = outcome.settledAt - refusal.created_at.getTime();
      expect(afterRefusalMs).toBeGreaterThanOrEqual(0);
      expect(afterRefusalMs).toBeLessThan(1_000);
    }
  },
);

interface Outcome {
  ok: boolean;
  value?: unknown;
  name?: string;
  code?: string;
  status?: number | null;
  operation?: string;
  message?: string;
  /** From the game's call to the promise settling. */
  elapsedMs: number;
  /** When it settled (ms since the epoch, this machine's clock, as the server's). */
  settledAt: number;
}

/** What the game page below exposes to the test. */
interface GameGlobals {
  ready?: boolean;
  played?: { playId: string; seed: string };
  received: { type: string; data?: unknown }[];
  submit(score: number, replay?: string): Promise<Outcome>;
  /** Reads the leaderboard through the SDK; what the promise settled to. */
  leaderboard(): Promise<Outcome>;
  /** Posts a message to the arcade as it is, as a game without the SDK would. */
  postRaw(message: unknown): void;
}

/** Has the game submit a score through its SDK; what the promise settled to. */
function submit(frame: Frame, score: number, replay?: string): Promise<Outcome> {
  return frame.evaluate(([s, r]) => (globalThis as unknown as GameGlobals).submit(s, r), [
    score,
    replay,
  ] as [number, string | undefined]);
}

/**
 * A game page on the SDK's bundle: plays, submits scores, tells its player what the arcade said,
 * and records every message the arcade posted to it.
 */
const GAME_PAGE = `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>Tiles</title>
    <script src="/game-sdk.min.js"></script></head>
  <body style="background:#fff;color:#111;font:16px sans-serif;padding:12px">
    <button id="play">Play</button>
    <p id="message" role="status">Press Play to start.</p>
    <script>
      'use strict';
      const params = new URLSearchParams(location.search);
      const game = new Coinop.GameService(params.get('game'), params.get('arcade'), {
        replyTimeoutMs: ${GAME_REPLY_TIMEOUT_MS},
      });
      window.received = [];
      window.addEventListener('message', (event) => {
        if (event.source === window.parent) window.received.push(event.data);
      });
      game.init();
      const say = (text) => { document.getElementById('message').textContent = text; };
      document.getElementById('play').addEventListener('click', async () => {
        const played = await game.play();
        if (played.playId) { window.played = played; say('Playing…'); }
      });
      window.submit = async (score, replay) => {
        const started = performance.now();
        try {
          const value = await game.submitScore(
            window.played.playId, score, replay === undefined ? {} : { replay });
          say('Score ' + score + ' submitted.');
          return { ok: true, value, elapsedMs: performance.now() - started, settledAt: Date.now() };
        } catch (error) {
          if (error instanceof Coinop.BridgeRequestError) {
            say('The arcade refused this score: ' + error.message +
              '. Your play is still open: play on and submit again.');
          }
          return {
            ok: false, name: error.name, code: error.code, status: error.status,
            operation: error.operation, message: error.message,
            elapsedMs: performance.now() - started, settledAt: Date.now(),
          };
        }
      };
      window.leaderboard = async () => {
        const started = performance.now();
        try {
          const value = await game.getLeaderboard();
          return { ok: true, value, elapsedMs: performance.now() - started, settledAt: Date.now() };
        } catch (error) {
          return {
            ok: false, name: error.name, code: error.code, status: error.status,
            operation: error.operation, message: error.message,
            elapsedMs: performance.now() - started, settledAt: Date.now(),
          };
        }
      };
      window.postRaw = (message) => window.parent.postMessage(message, params.get('arcade'));
      window.ready = true;
    </script>
  </body>
</html>`;
