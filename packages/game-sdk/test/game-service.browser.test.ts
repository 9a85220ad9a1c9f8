import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGameSdkBundle, readFixture } from './fixtures/bundles.js';
import {
  childFrame,
  hasChromium,
  launchChromium,
  NO_CHROMIUM_REASON,
} from '@coinop/testkit/browser';
import type { GamePage, HostPage } from './fixtures/pages.js';
import { html, script, serveFiles, type TestServer } from './fixtures/servers.js';

const LEADERS = [
  { txid: 'play-7', userId: 'player-1', score: 4200, displayName: 'Ada' },
  { txid: 'play-3', userId: 'player-2', score: 900, avatarUrl: 'https://example.test/b.png' },
];
const GAME_ID = 'c0ffee00-0000-4000-8000-000000000001';
const ID = /^[0-9a-z]{8}\.\d+$/;

if (!hasChromium) console.warn(NO_CHROMIUM_REASON);

// The arcade's host page on http://127.0.0.1:<port1>, the game in its iframe on
// http://localhost:<port2>: two origins, as in production, with the SDK from its <script> bundle.
describe.skipIf(!hasChromium)('GameService in Chromium, host and game on two origins', () => {
  let hostServer: TestServer;
  let gameServer: TestServer;
  let browser: Browser;
  let hostOrigin: string;
  let gameOrigin: string;

  beforeAll(async () => {
    const [bundle, hostHtml, gameHtml] = await Promise.all([
      buildGameSdkBundle(),
      readFixture('host.html'),
      readFixture('game.html'),
    ]);
    hostServer = await serveFiles({ '/host.html': html(hostHtml) });
    gameServer = await serveFiles({
      '/game.html': html(gameHtml),
      '/game-sdk.min.js': script(bundle.code),
    });
    hostOrigin = `http://127.0.0.1:${hostServer.port}`;
    gameOrigin = `http://localhost:${gameServer.port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await hostServer?.close();
    await gameServer?.close();
  });

  /** Opens the arcade page hosting the game; resolves once the game called init(). */
  async function openArcade(gameQuery = ''): Promise<{ page: Page; game: Frame }> {
    const page = await browser.newPage();
    const gameUrl = `${gameOrigin}/game.html?arcade=${encodeURIComponent(hostOrigin)}${gameQuery}`;
    await page.goto(`${hostOrigin}/host.html?game=${encodeURIComponent(gameUrl)}`);
    const game = await childFrame(page, 'game');
    await game.waitForFunction(() => (globalThis as unknown as GamePage).ready === true);
    return { page, game };
  }

  it('runs the whole exchange: every operation resolves and fires its event', async () => {
    const { page, game } = await openArcade();
    const results = await game.evaluate(async () => {
      const { game } = globalThis as unknown as GamePage;
      const play = await game.play();
      const score = await game.submitScore(play.playId!, 4200);
      const board = await game.getLeaderboard();
      const transfer = await game.hstTransfer(1.5);
      const alias = await game.transferHst(0.25);
      return { play, score, board, transfer, alias };
    });
    expect(results).toEqual({
      play: { playId: 'play-1' },
      score: { playId: 'play-1' },
      board: { leaderboard: LEADERS },
      transfer: { txid: 'tx-1' },
      alias: { txid: 'tx-2' },
    });
    expect(await game.evaluate(() => (globalThis as unknown as GamePage).events)).toEqual([
      ['play', { playId: 'play-1' }],
      ['score', { playId: 'play-1' }],
      ['leaderboard', { leaderboard: LEADERS }],
      ['hstTransfer', { txid: 'tx-1' }],
      ['hstTransfer', { txid: 'tx-2' }],
    ]);

    const host = await page.evaluate(() => (globalThis as unknown as HostPage).host);
    const requestId = expect.stringMatching(ID);
    expect(host.received).toEqual([
      { type: 'play', gameId: GAME_ID, requestId },
      { type: 'score', gameId: GAME_ID, playId: 'play-1', score: 4200, requestId },
      { type: 'leaderboard', gameId: GAME_ID, requestId },
      { type: 'transferHst', gameId: GAME_ID, amount: 1.5, requestId },
      { type: 'transferHst', gameId: GAME_ID, amount: 0.25, requestId },
    ]);
    const ids = host.received.map((r) => r.requestId);
    expect(new Set(ids).size).toBe(5);
    // The host echoed each request's id in its reply.
    expect(host.sent.map((r) => r.requestId)).toEqual(ids);
    await page.close();
  });

  it('a play and a transfer the player rejects resolve without playId and txid', async () => {
    const { page, game } = await openArcade();
    await page.evaluate(() => {
      const { host } = globalThis as unknown as HostPage;
      host.rejectPlay = true;
      host.rejectTransfer = true;
    });
    const results = await game.evaluate(async () => {
      const { game } = globalThis as unknown as GamePage;
      const play = await game.play();
      const transfer = await game.hstTransfer(3);
      return { play, hasPlayId: 'playId' in play, transfer, hasTxid: 'txid' in transfer };
    });
    expect(results).toEqual({ play: {}, hasPlayId: false, transfer: {}, hasTxid: false });
    expect(await game.evaluate(() => (globalThis as unknown as GamePage).events)).toEqual([
      ['play', {}],
      ['hstTransfer', {}],
    ]);
    await page.close();
  });

  it('ignores a forged reply from a sibling frame and from the game itself', async () => {
    const { page, game } = await openArcade();
    await page.evaluate(() => {
      (globalThis as unknown as HostPage).host.hold = ['play'];
    });
    await game.evaluate(() => {
      const page = globalThis as unknown as GamePage;
      void page.game.play().then((result) => {
        page.result = result;
      });
    });
    await page.waitForFunction(() => (globalThis as unknown as HostPage).host.held.length === 1);
    const requestId = await page.evaluate(
      () => (globalThis as unknown as HostPage).host.held[0]!.requestId,
    );
    const forged = { type: 'play', data: { playId: 'forged' }, requestId };

    // The sibling frame is on the arcade's own origin, but it is not the game's parent.
    const sibling = await childFrame(page, 'sibling');
    await sibling.evaluate((message) => {
      (globalThis as any).parent.frames.game.postMessage(message, '*');
    }, forged);
    await game.evaluate((message) => {
      (globalThis as any).postMessage(message, '*');
    }, forged);
    await game.waitForFunction(() => (globalThis as unknown as GamePage).seen.length === 2);
    expect(await game.evaluate(() => (globalThis as unknown as GamePage).result)).toBeUndefined();

    await page.evaluate(() => (globalThis as unknown as HostPage).host.release());
    await game.waitForFunction(() => (globalThis as unknown as GamePage).result !== undefined);
    const state = await game.evaluate(() => {
      const { result, events, seen } = globalThis as unknown as GamePage;
      return { result, events, seen };
    });
    expect({ result: state.result, events: state.events }).toEqual({
      result: { playId: 'play-1' },
      events: [['play', { playId: 'play-1' }]],
    });
    // The two forged messages come from two frames, so they may arrive in either order; the real
    // reply, released after both, comes last.
    expect(state.seen).toHaveLength(3);
    expect(state.seen.slice(0, 2)).toEqual(
      expect.arrayContaining([
        { origin: hostOrigin, fromParent: false, data: forged },
        { origin: gameOrigin, fromParent: false, data: forged },
      ]),
    );
    expect(state.seen[2]).toEqual({
      origin: hostOrigin,
      fromParent: true,
      data: { ...forged, data: { playId: 'play-1' } },
    });
    await page.close();
  });

  it('rejects with BridgeTimeoutError when the host never answers', async () => {
    const { page, game } = await openArcade('&timeout=300');
    await page.evaluate(() => {
      (globalThis as unknown as HostPage).host.hold = ['leaderboard'];
    });
    const error = await game.evaluate(() =>
      (globalThis as unknown as GamePage).game.getLeaderboard().then(
        () => undefined,
        (e: Record<string, unknown>) => ({
          name: e.name,
          code: e.code,
          operation: e.operation,
          timeoutMs: e.timeoutMs,
          message: e.message,
          isGameServiceError: (globalThis as unknown as GamePage).Coinop.isGameServiceError(e),
        }),
      ),
    );
    const requestId = await page.evaluate(
      () => (globalThis as unknown as HostPage).host.held[0]!.requestId,
    );
    expect(error).toEqual({
      name: 'BridgeTimeoutError',
      code: 'bridge_timeout',
      operation: 'getLeaderboard',
      timeoutMs: 300,
      message:
        `Bridge reply timed out: no reply to getLeaderboard() (request ${requestId}) ` +
        `from ${hostOrigin} within 300 ms`,
      isGameServiceError: true,
    });
    await page.close();
  });

  it('an operation before init() rejects with BridgeNotInitializedError', async () => {
    const { page, game } = await openArcade();
    const error = await game.evaluate((origin) => {
      const { Coinop } = globalThis as unknown as GamePage;
      return new Coinop.GameService('late', origin).play().then(
        () => undefined,
        (e: Record<string, unknown>) => ({ name: e.name, code: e.code, message: e.message }),
      );
    }, hostOrigin);
    expect(error).toEqual({
      name: 'BridgeNotInitializedError',
      code: 'bridge_not_initialized',
      message: 'Bridge not initialized: call init() before play()',
    });
    await page.close();
  });
});
