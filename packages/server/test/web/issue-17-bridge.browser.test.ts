import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeHstToUnits } from '@coinop/core';
import { Arcade } from '@coinop/server-sdk';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { uuidIds } from '../../src/ids.js';
import { publish } from '../../src/services/admin.js';
import { updateGame } from '../../src/store/games.js';
import { boardCursor, parseBoardCursor } from '../../src/http/shared/cursors.js';
import { BOARD_WALK_MAX_AGE_MS } from '../../src/store/board-pages.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { fundedPlayer, registerGame } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';
import { freePort } from '@coinop/testkit/net';
import {
  PHONE,
  DESKTOP,
  GAME_SDK_BUNDLE,
  NO_CHROMIUM_REASON,
  hasChromium,
  ensureBrowserBuilds,
  launchChromium,
  openAccountMenu,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { injectWallet } from '@coinop/testkit/eip1193';
import { BOARD_READS_GAME_PAGE } from '../fixtures/board-reads-game.js';

/**
 * The example games, started from their own modules (JavaScript workspaces without types, so
 * imported by names the type checker does not follow).
 */
const REACTION_SERVER = '@coinop/example-reaction/src/server.js';
const HIGH_LOW_SERVER = '@coinop/example-high-low/src/server.js';
interface ExampleServer {
  url: string;
  close(): Promise<void>;
}
type Card = { rank: number; suit: string };

const ADMIN_TOKEN = 'bridge-admin';
/** 7, then 9 (higher: right), then 3 (higher: wrong): a streak of 1 for "higher, higher". */
const DECK: Card[] = [7, 9, 3, 12, 2, 5].map((rank) => ({ rank, suit: '♣' }));

/**
 * Issue 17 in headless Chromium: the reaction example follows the tier the player picks on the
 * game page (bridge `tierChange`), and High-Low, a server-side game, is played in the arcade
 * from its own web page: the player signs in to it through the arcade (bridge `login`), and its
 * server opens the play and scores it.
 */
describe.skipIf(!hasChromium)(
  `issue 17: the bridge's tier event and High-Low in the arcade${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let reaction: ExampleServer;
    let highLow: ExampleServer;
    let browser: Browser;
    let reactionId: string;
    let highLowId: string;
    let reactionTiers: { id: string; name: string }[];
    let highLowTiers: { id: string; name: string }[];
    /** Issue 18: a game that reads its board over the bridge, served from a site of its own. */
    let boardsSite: Server;
    let boardsId: string;
    let boardsSdk: Arcade;
    let boardsTierId: string;

    const db = () => server.api.arcade.db;

    async function addGame(
      developerId: string,
      name: string,
      scoreDisplay: 'NORMAL' | 'REVERSE',
      tiers: [string, number][],
    ) {
      const { arcade } = server.api;
      const game = await registerGame(
        arcade,
        { developerId, name, description: `${name}, for issue 17.`, scoreDisplay },
        tiers.map(([name, cost]) => ({ name, cost })),
      );
      return game.id;
    }

    /** A client of the game through the admin API, and the SDK built with it. */
    async function sdkFor(gameId: string): Promise<Arcade> {
      const response = await fetch(`${server.urls['api']}/admin/games/${gameId}/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const client = (await response.json()) as { clientId: string; clientSecret: string };
      return Arcade.build({
        ...client,
        baseUrl: server.urls['api']!,
        authUrl: server.urls['auth']!,
      });
    }

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-issue-17-'));
      const authPort = await freePort();
      server = await startServer(
        testConfig({
          apiPort: 0,
          authPort,
          authIssuer: `127.0.0.1:${authPort}`,
          claimsNamespace: '127.0.0.1',
          dataDir,
          adminToken: ADMIN_TOKEN,
          faucetHst: 100,
        }),
      );
      const web = server.urls['web']!;
      const { arcade } = server.api;
      const developer = await ensureDeveloper(
        arcade.db,
        arcade.clock,
        uuidIds,
        '0x00000000000000000000000000000000000d1717',
      );
      reactionId = await addGame(developer.id, 'Reaction', 'REVERSE', [
        ['Bronze', 1],
        ['Gold', 5],
      ]);
      highLowId = await addGame(developer.id, 'High-Low', 'NORMAL', [
        ['Practice', 1],
        ['High stakes', 10],
      ]);

      const { startReactionServer } = (await import(REACTION_SERVER)) as {
        startReactionServer: (o: object) => Promise<ExampleServer>;
      };
      reaction = await startReactionServer({ port: 0, arcade: web, gameId: reactionId });
      const { startHighLowServer } = (await import(HIGH_LOW_SERVER)) as {
        startHighLowServer: (o: object) => Promise<ExampleServer>;
      };
      highLow = await startHighLowServer({
        arcade: await sdkFor(highLowId),
        authUrl: server.urls['auth'],
        arcadeOrigin: web,
        port: 0,
        newDeck: () => [...DECK],
      });
      for (const [id, url] of [
        [reactionId, reaction.url],
        [highLowId, highLow.url],
      ] as const) {
        await updateGame(arcade.db, arcade.clock, id, { url });
        await publish(arcade, id);
      }
      boardsId = await addGame(developer.id, 'Board Reads', 'NORMAL', [['Free', 0]]);
      const sdkBundle = await readFile(GAME_SDK_BUNDLE, 'utf8');
      boardsSite = createServer((req, res) => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        const [type, body] =
          path === '/game-sdk.min.js'
            ? ['text/javascript; charset=utf-8', sdkBundle]
            : ['text/html; charset=utf-8', BOARD_READS_GAME_PAGE];
        res.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
      });
      await new Promise<void>((resolve) => boardsSite.listen(0, '127.0.0.1', resolve));
      const boardsUrl =
        `http://127.0.0.1:${(boardsSite.address() as AddressInfo).port}/boards.html` +
        `?arcade=${encodeURIComponent(web)}&game=${boardsId}`;
      await updateGame(arcade.db, arcade.clock, boardsId, { url: boardsUrl });
      await publish(arcade, boardsId);
      boardsSdk = await sdkFor(boardsId);

      const tiersOf = async (id: string) =>
        (await arcade.games.get(id)).leaderboards.map((b) => ({ id: b.id, name: b.name }));
      reactionTiers = await tiersOf(reactionId);
      highLowTiers = await tiersOf(highLowId);

      // A leader on each reaction tier, played through the SDK as a game server would.
      const api = { db: arcade.db, clock: arcade.clock, app: server.api } as unknown as TestApi;
      const sdk = await sdkFor(reactionId);
      for (const [name, tier, ms] of [
        ['Ada', reactionTiers[0]!, 250],
        ['Grace', reactionTiers[1]!, 180],
      ] as const) {
        const player = await fundedPlayer(api, 10, name);
        const play = await sdk.play(player.playerId, tier.id);
        await sdk.score(play, ms);
      }
      // Four players on the board-reads game's free tier: 400, 300, 200, 100 points.
      boardsTierId = (await tiersOf(boardsId))[0]!.id;
      for (const [name, points] of [
        ['Hedy', 400],
        ['Alan', 300],
        ['Edsger', 200],
        ['Barbara', 100],
      ] as const) {
        const player = await fundedPlayer(api, 0, name);
        await boardsSdk.score(await boardsSdk.play(player.playerId, boardsTierId), points);
      }
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await highLow?.close();
      await reaction?.close();
      await server?.close();
      await new Promise((resolve) => boardsSite?.close(resolve));
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    async function statusIs(game: FrameLocator, text: string | RegExp) {
      await expect
        .poll(() => game.locator('#status').textContent(), { timeout: 15_000 })
        .toMatch(text);
    }

    it('changing tier on the game page shows the new tier’s board in the game', async () => {
      for (const [viewport, name] of [
        [DESKTOP, 'tier-change'],
        [PHONE, 'tier-change-phone'],
      ] as const) {
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        try {
          await page.goto(`${server.urls['web']}/games/${reactionId}`);
          const game = page.frameLocator('iframe.game-frame');
          const heading = game.locator('#leaders-heading');
          const board = game.locator('#leaders li');
          await expect.poll(() => heading.textContent()).toBe('Leaderboard: Bronze');
          await expect.poll(() => board.allTextContents()).toEqual(['Ada 250 ms']);

          await chooseTier(page, reactionTiers[1]!.name);
          await expect.poll(() => heading.textContent()).toBe('Leaderboard: Gold');
          await expect.poll(() => board.allTextContents()).toEqual(['Grace 180 ms']);
          // And back: each change is told.
          await chooseTier(page, reactionTiers[0]!.name);
          await expect.poll(() => board.allTextContents()).toEqual(['Ada 250 ms']);

          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );
          await page.locator('iframe.game-frame').scrollIntoViewIfNeeded();
          await saveScreenshot(page, name);
        } finally {
          await context.close();
        }
      }
    });

    /** Connects a new browser wallet on the page and takes test HST; the player's row. */
    async function connect(page: Page) {
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await page.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
      await page.getByRole('button', { name: 'Browser wallet' }).click();
      const balance = page.getByTestId('balance');
      await expect.poll(() => balance.textContent()).toBe('0 HST');
      await openAccountMenu(page);
      await page.getByRole('button', { name: 'Get 100 test HST' }).click();
      await expect.poll(() => balance.textContent()).toBe('100 HST');
    }

    it('plays a round of High-Low in the arcade: sign in through the arcade, deal, call, score', async () => {
      for (const [viewport, name] of [
        [DESKTOP, 'high-low'],
        [PHONE, 'high-low-phone'],
      ] as const) {
        const account = privateKeyToAccount(generatePrivateKey());
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await injectWallet(page, account);
        try {
          await page.goto(`${server.urls['web']}/games/${highLowId}`);
          await page.getByRole('heading', { name: 'High-Low', level: 1 }).waitFor();
          const game = page.frameLocator('iframe.game-frame');
          await statusIs(game, 'Sign in with your arcade account to play.');
          if (viewport === DESKTOP) {
            // Signed out, the game's sign-in opens the arcade's connect dialog; closed without
            // connecting, the game hears why ("Not signed in: the sign-in was not approved."
            // before, when nobody had asked the player anything).
            await game.getByRole('button', { name: 'Sign in with the arcade' }).click();
            const connecting = page.getByRole('dialog', { name: 'Connect a wallet' });
            await connecting.getByRole('button', { name: 'Cancel' }).click();
            await statusIs(game, 'Not signed in: connect a wallet in the arcade first.');
          }
          await connect(page);
          const [player] = await db().query<{ id: string; name: string; account_id: string }>(
            'SELECT id, name, account_id FROM players WHERE wallet = $1',
            [account.address.toLowerCase()],
          );

          // The page's server starts a login for this game; the arcade asks the player.
          await game.getByRole('button', { name: 'Sign in with the arcade' }).click();
          const dialog = page.getByRole('dialog', { name: 'Sign in to High-Low?' });
          await dialog.waitFor();
          const [login] = await db().query<{ user_code: string; description: string }>(
            'SELECT user_code, description FROM cli_logins WHERE game_id = $1 ' +
              "AND status = 'pending' ORDER BY created_at DESC LIMIT 1",
            [highLowId],
          );
          expect(await dialog.textContent()).toContain(login!.user_code);
          expect(await dialog.textContent()).toContain('High-Low web page in the arcade');
          await dialog.getByLabel('HST a day this game may charge you').fill('20');
          expect(await seriousViolations(page)).toEqual([]);
          await saveScreenshot(page, `${name}-sign-in`);
          await dialog.getByRole('button', { name: 'Sign in' }).click();
          await statusIs(game, `Signed in as ${player!.name}. Press Deal to play this tier.`);
          const [allowance] = await db().query<{ daily_units: bigint }>(
            'SELECT daily_units FROM allowances WHERE player_id = $1 AND game_id = $2',
            [player!.id, highLowId],
          );
          expect(allowance?.daily_units).toBe(wholeHstToUnits(20));
          // The panel under the game reads the allowance the approval granted.
          await expect
            .poll(() => page.getByText('This game may charge you up to 20 HST a day.').count())
            .toBe(1);

          // The tier picked in the arcade is the one the game plays.
          await chooseTier(page, highLowTiers[1]!.name);
          await expect
            .poll(() => game.locator('#leaders-heading').textContent())
            .toBe('Leaderboard: High stakes');
          expect(await game.locator('#tier').inputValue()).toBe(highLowTiers[1]!.id);
          // Only the arcade's picker chooses: the game's own one shows the choice and cannot
          // change it, so a Deal never charges a tier the arcade does not show.
          expect(await game.locator('#tier').isDisabled()).toBe(true);
          expect(
            await game.getByLabel('Tier (chosen in the arcade, beside the game)').count(),
          ).toBe(1);
          if (viewport === DESKTOP) {
            // Issue 28: the empty board said "1. No scores yet"; a message has no rank.
            await expect
              .poll(() => game.locator('#leaders-note').textContent())
              .toBe('No scores yet.');
            expect(await game.locator('#leaders').isHidden()).toBe(true);
          }

          await game.getByRole('button', { name: 'Deal' }).click();
          await statusIs(
            game,
            'Play opened. The card is 7♣: will the next one be higher or lower?',
          );
          await game.getByRole('button', { name: 'Higher' }).click();
          await statusIs(game, '9♣: Right! Streak 1. Higher or lower?');
          await game.getByRole('button', { name: 'Higher' }).click();
          await statusIs(game, /^3♣: Wrong\. Game over: streak 1 scored\./);

          // The server opened the play on the chosen tier for this player, and scored it.
          const plays = await db().query<{ status: string; cost_units: bigint; score: number }>(
            'SELECT p.status, p.cost_units, s.score FROM plays p JOIN scores s ON s.play_id = p.id ' +
              'WHERE p.player_id = $1',
            [player!.id],
          );
          expect(plays).toEqual([{ status: 'scored', cost_units: wholeHstToUnits(10), score: 1 }]);
          await expect
            .poll(() => game.locator('#leaders li').allTextContents())
            .toContain(`${player!.name} streak 1`);
          expect(await game.locator('#leaders-note').isHidden()).toBe(true);
          // The game read its board after the round: the header's balance follows the play. On
          // the empty board (the desktop run, the first) its leaders' 7 HST came back to the
          // player, nobody being there to lead; the phone run's play paid the desktop's leader.
          await expect
            .poll(() => page.getByTestId('balance').textContent())
            .toBe(viewport === DESKTOP ? '97 HST' : '90 HST');
          // And the allowance panel what the server spent of today's 20 HST.
          await expect
            .poll(() => page.locator('.allowance-facts').textContent())
            .toBe('Used today10 HSTRemaining today10 HST');

          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );
          await page.locator('iframe.game-frame').scrollIntoViewIfNeeded();
          await saveScreenshot(page, name);
        } finally {
          await context.close();
        }
      }
    }, 180_000);

    it('issue 18: a game reads board pages and the signed-in player’s place over the bridge', async () => {
      type Read = {
        first: { players: number; entries: { rank: number; name: string }[]; nextCursor: string };
        second: { entries: { rank: number; name: string }[]; nextCursor: string | null };
        around: {
          player: { rank: number; playerId: string } | null;
          above: { rank: number; name: string }[];
          below: { rank: number; name: string }[];
        };
      };
      async function read(game: FrameLocator): Promise<Read> {
        await game.getByRole('button', { name: 'Read the board' }).click();
        await expect.poll(() => game.locator('#result').textContent()).toMatch(/^\{/);
        return JSON.parse((await game.locator('#result').textContent())!) as Read;
      }
      for (const [viewport, name] of [
        [DESKTOP, 'bridge-board-reads'],
        [PHONE, 'bridge-board-reads-phone'],
      ] as const) {
        const account = privateKeyToAccount(generatePrivateKey());
        const context = await browser.newContext({ viewport });
        const page = await context.newPage();
        await injectWallet(page, account);
        try {
          await page.goto(`${server.urls['web']}/games/${boardsId}`);
          await page.getByRole('heading', { name: 'Board Reads', level: 1 }).waitFor();
          const game = page.frameLocator('iframe.game-frame');
          const players = viewport === DESKTOP ? 4 : 5;

          // Signed out: the pages, and nobody to be around.
          const out = await read(game);
          expect(out.first.players).toBe(players);
          expect(out.first.entries.map((e) => [e.rank, e.name])).toEqual([
            [1, 'Hedy'],
            [2, 'Alan'],
          ]);
          // The second page follows the first's cursor (the phone's run has the desktop's player
          // third by then).
          expect(out.second.entries.map((e) => e.rank)).toEqual([3, 4]);
          if (viewport === DESKTOP) {
            expect(out.second.entries.map((e) => e.name)).toEqual(['Edsger', 'Barbara']);
          }
          expect(out.around).toEqual({
            leaderboardId: boardsTierId,
            players,
            above: [],
            player: null,
            below: [],
          });

          // Signed in, with a score of 250 (its server scored it): third, between Alan and Edsger.
          await connect(page);
          const [me] = await db().query<{ id: string }>(
            'SELECT id FROM players WHERE wallet = $1',
            [account.address.toLowerCase()],
          );
          // Its server scores it: the arcade's leaders panel learns of it when the game next
          // reads its board over the bridge.
          const panel = page.getByRole('region', { name: 'Leaders: Free' });
          expect(await panel.locator('li.me').count()).toBe(0);
          const points = viewport === DESKTOP ? 250 : 50;
          const play = await boardsSdk.play(me!.id, boardsTierId);
          await boardsSdk.score(play, points);
          const mine = await read(game);
          await expect
            .poll(() => panel.locator('li.me .leader-score').textContent())
            .toBe(String(points));
          expect(mine.first.players).toBe(players + 1);
          if (viewport === DESKTOP) {
            expect(mine.around.player).toMatchObject({ rank: 3, playerId: me!.id });
            expect(mine.around.above.map((e) => [e.rank, e.name])).toEqual([[2, 'Alan']]);
            expect(mine.around.below.map((e) => [e.rank, e.name])).toEqual([[4, 'Edsger']]);

            // A cursor of a walk begun longer ago than a walk may last: the API answers 410, and
            // the game is told so at once (its reply timeout is ten seconds), not left waiting.
            const walk = parseBoardCursor(mine.first.nextCursor);
            const aged = boardCursor({
              ...walk,
              startedAtMs: walk.startedAtMs - BOARD_WALK_MAX_AGE_MS - 60_000,
            });
            await game.getByLabel('Cursor').fill(aged);
            await game.getByRole('button', { name: 'Read from the cursor' }).click();
            await expect
              .poll(() => game.locator('#result').textContent(), { timeout: 3_000 })
              .toMatch(/^\{"error"/);
            const { error } = JSON.parse((await game.locator('#result').textContent())!) as {
              error: object;
            };
            expect(error).toEqual({
              name: 'BridgeRequestError',
              code: 'cursor_expired',
              status: 410,
              operation: 'getBoardPage',
              message:
                'cursor is from a walk of this board that is too old to continue: start again ' +
                'from the first page (no cursor)',
            });
            // The walk's own cursor still reads its next page.
            await game.getByLabel('Cursor').fill(mine.first.nextCursor);
            await game.getByRole('button', { name: 'Read from the cursor' }).click();
            await expect.poll(() => game.locator('#result').textContent()).toMatch(/^\{"page"/);
          } else {
            // Last of six: one above, none below.
            expect(mine.around.player).toMatchObject({ rank: 6, playerId: me!.id });
            expect(mine.around.above.map((e) => [e.rank, e.name])).toEqual([[5, 'Barbara']]);
            expect(mine.around.below).toEqual([]);
          }
          expect(await seriousViolations(page)).toEqual([]);
          expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
            viewport.width,
          );
          await page.locator('iframe.game-frame').scrollIntoViewIfNeeded();
          await saveScreenshot(page, name);
        } finally {
          await context.close();
        }
      }
    });

    it('High-Low opened on its own says to open it from the arcade, at phone width', async () => {
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      try {
        await page.goto(highLow.url);
        await expect
          .poll(() => page.locator('#status').textContent())
          .toBe(
            'Open High-Low from the arcade’s catalog to play it here, or play it in a terminal ' +
              '(below).',
          );
        expect(await page.getByRole('button', { name: 'Sign in with the arcade' }).count()).toBe(0);
        expect(await page.locator('#tier option').allTextContents()).toEqual([
          'Practice — 1 HST a play',
          'High stakes — 10 HST a play',
        ]);
        expect(await page.locator('#leaders-note').textContent()).toBe(
          'The leaderboard shows in the arcade.',
        );
        await page.getByText('Play in a terminal instead').click();
        expect(await page.getByText(`--server ${highLow.url}`).count()).toBe(1);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          PHONE.width,
        );
        await saveScreenshot(page, 'high-low-standalone-phone');
      } finally {
        await context.close();
      }
    });
  },
);

/** Picks a tier on the game page's tier picker (radio cards named "<tier> — <cost> per play"). */
async function chooseTier(page: Page, name: string): Promise<void> {
  await page.getByRole('radio', { name: new RegExp(`^${name} `) }).check();
}
