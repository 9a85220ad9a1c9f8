import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGameSdkBundle, buildHasteArcadeSdkBundle, readFixture } from '../fixtures/bundles.js';
import {
  childFrame,
  hasChromium,
  launchChromium,
  NO_CHROMIUM_REASON,
} from '@coinop/testkit/browser';
import type { GamePage, HasteGamePage, HostPage } from '../fixtures/pages.js';
import { html, script, serveFiles, type TestServer } from '../fixtures/servers.js';
import { createThrowawayCertificate, hasOpenssl, OPENSSL_PATH } from '../fixtures/tls.js';

// haste-arcade-sdk@1.1.5 posts only to https://dev.hastearcade.com or https://app.hastearcade.com.
// Chromium resolves the demo one to our HTTPS server on 127.0.0.1 (every other name fails, so
// nothing leaves the machine) and trusts the throwaway certificate by its key alone.
const ARCADE_HOST = 'dev.hastearcade.com';
const ARCADE_ORIGIN = `https://${ARCADE_HOST}`;
const LEADERS = [
  { txid: 'play-7', userId: 'player-1', score: 4200, displayName: 'Ada' },
  { txid: 'play-3', userId: 'player-2', score: 900, avatarUrl: 'https://example.test/b.png' },
];
const HASTE_GAME_ID = 'c0ffee00-0000-4000-8000-000000000002';
const GAME_ID = 'c0ffee00-0000-4000-8000-000000000001';

const skipReason = !hasChromium
  ? NO_CHROMIUM_REASON
  : !hasOpenssl
    ? `${OPENSSL_PATH} not found`
    : '';
if (skipReason !== '') console.warn(`compatibility browser tests skipped: ${skipReason}`);

describe.skipIf(skipReason !== '')('wire compatibility with haste-arcade-sdk@1.1.5', () => {
  let arcadeServer: TestServer;
  let gameServer: TestServer;
  let browser: Browser;
  let gameOrigin: string;

  beforeAll(async () => {
    const [certificate, ours, theirs, hostHtml, gameHtml, hasteGameHtml] = await Promise.all([
      createThrowawayCertificate([ARCADE_HOST]),
      buildGameSdkBundle(),
      buildHasteArcadeSdkBundle(),
      readFixture('host.html'),
      readFixture('game.html'),
      readFixture('haste-game.html'),
    ]);
    arcadeServer = await serveFiles({ '/host.html': html(hostHtml) }, certificate);
    gameServer = await serveFiles({
      '/haste-game.html': html(hasteGameHtml),
      '/haste-arcade-sdk.js': script(theirs),
      '/game.html': html(gameHtml),
      '/game-sdk.min.js': script(ours.code),
    });
    // localhost counts as a secure origin, so the HTTPS arcade may frame the game over HTTP.
    gameOrigin = `http://localhost:${gameServer.port}`;
    browser = await launchChromium([
      `--host-resolver-rules=MAP ${ARCADE_HOST} 127.0.0.1:${arcadeServer.port},` +
        ' MAP * ~NOTFOUND, EXCLUDE localhost',
      `--ignore-certificate-errors-spki-list=${certificate.spkiSha256}`,
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await arcadeServer?.close();
    await gameServer?.close();
  });

  /** Opens our host page at the Haste demo arcade's origin, framing the given game page. */
  async function openArcade(
    gamePath: string,
    hostQuery = '',
  ): Promise<{ page: Page; game: Frame }> {
    const page = await browser.newPage();
    const gameUrl = `${gameOrigin}${gamePath}`;
    await page.goto(`${ARCADE_ORIGIN}/host.html?game=${encodeURIComponent(gameUrl)}${hostQuery}`);
    const game = await childFrame(page, 'game');
    await game.waitForFunction(() => (globalThis as unknown as { ready?: boolean }).ready === true);
    return { page, game };
  }

  const hostState = (page: Page) =>
    page.evaluate(() => {
      const { received, sent } = (globalThis as unknown as HostPage).host;
      return { received, sent };
    });

  it('a game on the unchanged library plays, scores, reads leaders, pays in our host', async () => {
    const { page, game } = await openArcade('/haste-game.html');
    expect(page.url()).toBe(
      `${ARCADE_ORIGIN}/host.html?game=${encodeURIComponent(`${gameOrigin}/haste-game.html`)}`,
    );
    const results = await game.evaluate(async () => {
      const { service } = globalThis as unknown as HasteGamePage;
      const play = await service.play();
      const score = await service.submitScore(play.playId as string, 4200);
      const board = await service.getLeaderboard();
      const transfer = await service.transferHst(2);
      return { play, score, board, transfer };
    });
    expect(results).toEqual({
      play: { playId: 'play-1' },
      score: { playId: 'play-1' },
      board: { leaderboard: LEADERS },
      transfer: { txid: 'tx-1' },
    });
    // The published shapes exactly: no requestId up, none down.
    expect(await hostState(page)).toEqual({
      received: [
        { type: 'play', gameId: HASTE_GAME_ID },
        { type: 'score', gameId: HASTE_GAME_ID, score: 4200, playId: 'play-1' },
        { type: 'leaderboard', gameId: HASTE_GAME_ID },
        { type: 'transferHst', gameId: HASTE_GAME_ID, amount: 2 },
      ],
      sent: [
        { type: 'play', data: { playId: 'play-1' } },
        { type: 'score', data: { playId: 'play-1' } },
        { type: 'leaderboard', data: { leaderboard: LEADERS } },
        { type: 'transferHst', data: { txid: 'tx-1' } },
      ],
    });
    await page.close();
  });

  it('its events and the player saying no work too', async () => {
    const { page, game } = await openArcade('/haste-game.html');
    await page.evaluate(() => {
      const { host } = globalThis as unknown as HostPage;
      host.rejectPlay = true;
      host.rejectTransfer = true;
    });
    const rejected = await game.evaluate(async () => {
      const { service } = globalThis as unknown as HasteGamePage;
      return { play: await service.play(), transfer: await service.transferHst(1) };
    });
    expect(rejected).toEqual({ play: {}, transfer: {} });

    await page.evaluate(() => {
      (globalThis as unknown as HostPage).host.rejectPlay = false;
    });
    // With a handler registered, that library hands the reply to the handler only.
    await game.evaluate(() => {
      const page = globalThis as unknown as HasteGamePage;
      page.service.on('play', (data) => page.events.push(['play', data]));
      page.service.on('leaderboard', (data) => page.events.push(['leaderboard', data]));
      void page.service.play();
      void page.service.getLeaderboard();
    });
    await game.waitForFunction(() => (globalThis as unknown as HasteGamePage).events.length === 2);
    expect(await game.evaluate(() => (globalThis as unknown as HasteGamePage).events)).toEqual([
      ['play', { playId: 'play-1' }],
      ['leaderboard', { leaderboard: LEADERS }],
    ]);
    await page.close();
  });

  it('our GameService runs in a host of the published protocol (no requestId echoed)', async () => {
    const { page, game } = await openArcade('/game.html?arcade=HASTE_DEV', '&echo=0');
    const results = await game.evaluate(async () => {
      const { game } = globalThis as unknown as GamePage;
      const [first, second, board, pay] = await Promise.all([
        game.play(),
        game.play(),
        game.getLeaderboard(),
        game.transferHst(2),
      ]);
      const score = await game.submitScore(first.playId!, 10);
      return { origin: game.origin, first, second, board, pay, score };
    });
    expect(results).toEqual({
      origin: ARCADE_ORIGIN,
      first: { playId: 'play-1' },
      second: { playId: 'play-2' },
      board: { leaderboard: LEADERS },
      pay: { txid: 'tx-1' },
      score: { playId: 'play-1' },
    });
    expect(await game.evaluate(() => (globalThis as unknown as GamePage).events)).toEqual([
      ['play', { playId: 'play-1' }],
      ['play', { playId: 'play-2' }],
      ['leaderboard', { leaderboard: LEADERS }],
      ['hstTransfer', { txid: 'tx-1' }],
      ['score', { playId: 'play-1' }],
    ]);
    const { received, sent } = await hostState(page);
    // Our requests are the published ones plus requestId, which that host ignores.
    expect(received.map(({ requestId: _, ...published }) => published)).toEqual([
      { type: 'play', gameId: GAME_ID },
      { type: 'play', gameId: GAME_ID },
      { type: 'leaderboard', gameId: GAME_ID },
      { type: 'transferHst', gameId: GAME_ID, amount: 2 },
      { type: 'score', gameId: GAME_ID, playId: 'play-1', score: 10 },
    ]);
    expect(sent.every((reply) => !('requestId' in reply))).toBe(true);
    await page.close();
  });
});
