import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHst, wholeHstToUnits } from '@coinop/core';
import {
  PHONE,
  DESKTOP,
  ARCADE_KEY_STORAGE,
  NO_CHROMIUM_REASON,
  brokenImages,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { testConfig } from '../../src/config.js';
import { uuidIds } from '../../src/ids.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';
import { createGameClient } from '../../src/credentials/game-clients.js';
import { updateGame } from '../../src/store/games.js';
import { createPlayer } from '../../src/store/players.js';

/**
 * Issue 18 in the web app, in headless Chromium (PGlite): tournament cards on the catalog, a
 * tournament's page (live countdown, payout table exact to the unit for a known pool, standings
 * with paging and "Around me", past rounds with their winners), and a round played from the
 * game page through the approval dialog, its refusal shown in words.
 *
 * The tournaments are made through the API (`POST /developer/games/{g}/tournaments` with the
 * developer's API key) and entered through the game-server play route; nothing is mocked.
 */

/** The reaction example (client-side), started from its own module. */
const REACTION_SERVER = '@coinop/example-reaction/src/server.js';
interface ReactionServer {
  url: string;
  close(): Promise<void>;
}
type StartReaction = (options: {
  port: number;
  arcade: string;
  gameId: string;
}) => Promise<ReactionServer>;

const BOARD_PLAYERS = 45;
const HOUR_MS = 3_600_000;
const NAMES = ['Ada', 'Bo', 'Cy', 'Dee', 'Eli', 'Fay', 'Gus', 'Hal', 'Ivy', 'Jo'];
/** The pool of the worked example (docs/concepts/tournaments.md): 18.4 HST. */
const POOL = '18.4';
const PAYOUT_PLACES = [5000, 3000, 2000];

/** A tournament as GET /catalog/tournaments answers it (docs/reference/tournaments.md). */
interface TournamentWire {
  id: string;
  gameId: string;
  gameName: string;
  name: string;
  entryFee: string;
  guaranteedPool: string;
  payoutTable: { places: number[] } | { topPercent: number };
  maxEntrants: number | null;
  maxAttempts: number | null;
  recurrence: string | null;
  durationSeconds: number;
  startsAt: string;
  stoppedAt: string | null;
  createdBy: 'developer' | 'operator';
  scoreDisplay: 'NORMAL' | 'REVERSE';
  scoreUnit: string;
  currentRound: {
    id: string;
    number: number;
    boardName: string;
    startsAt: string;
    endsAt: string;
    status: 'scheduled' | 'open' | 'closed';
    closedAt: string | null;
    entrants: number;
    pool: string;
    guaranteeFunded: boolean;
  } | null;
}

/** What the tests read back, whichever way the tournaments were made. */
interface Seeded {
  /** The live season: its current round holds the board. */
  season: {
    id: string;
    roundId: string;
    boardName: string;
    entryFee: string;
    maxAttempts: number;
  };
  /** Opens in a few hours. */
  upcoming: { id: string };
  /** One round, closed, with three winners. */
  sprint: { id: string; winners: { name: string; score: number; prize: string }[] };
}

/** floor(P × w / W) per place, in base units: the rule, restated here to check the page. */
function expectedPrizes(pool: string, places: number[]): string[] {
  const units = parseHst(pool, 'pool');
  const total = BigInt(places.reduce((a, b) => a + b, 0));
  return places.map((w) => formatUnits((units * BigInt(w)) / total));
}

function formatUnits(units: bigint): string {
  const whole = units / 100_000_000n;
  const fraction = (units % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
  return `${whole.toLocaleString('en')}${fraction ? `.${fraction}` : ''}`;
}

describe.skipIf(!hasChromium)(
  `tournaments in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let reaction: ReactionServer;
    let browser: Browser;
    let gameId: string;
    let arcadeId: string;
    let seeded: Seeded;
    const key = generatePrivateKey();
    const myWallet = privateKeyToAccount(key).address.toLowerCase();
    let me: { id: string; name: string };

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-tournaments-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'tournaments-admin', faucetHst: 100 }),
      );
      const { arcade } = server.api;
      arcadeId = arcade.record.id;
      const created = await server.api.inject({
        method: 'POST',
        url: '/admin/developers',
        headers: { authorization: 'Bearer tournaments-admin' },
        payload: { wallet: privateKeyToAccount(generatePrivateKey()).address.toLowerCase() },
      });
      expect(created.statusCode).toBe(201);
      const developer = created.json<{ developerId: string; apiKey: string }>();
      const game = await registerGame(
        arcade,
        {
          developerId: developer.developerId,
          name: 'Reaction',
          description: 'Click when it turns green.',
          tagLine: 'How fast are you?',
          scoreDisplay: 'REVERSE',
          scoreUnit: 'ms',
        },
        [{ name: 'Bronze', cost: 1 }],
      );
      gameId = game.id;
      const { startReactionServer } = (await import(REACTION_SERVER)) as {
        startReactionServer: StartReaction;
      };
      reaction = await startReactionServer({ port: 0, arcade: server.urls['web']!, gameId });
      await updateGame(arcade.db, arcade.clock, gameId, { url: reaction.url });
      await publish(arcade, gameId);
      const player = await createPlayer(arcade.db, arcade.clock, uuidIds, {
        wallet: myWallet,
        name: 'Morgan',
      });
      me = { id: player.id, name: 'Morgan' };
      await mintHst(arcade, { id: me.id, amountUnits: wholeHstToUnits(50) });
      seeded = await seedTournaments(developer.developerId, developer.apiKey);
      browser = await launchChromium();
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await reaction?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** 45 players at 150, 160, … ms, and Morgan at 395 ms (rank 26 of 46), on `boardId`. */
    async function seedBoard(boardId: string, play: PlayOn) {
      for (let n = 0; n < BOARD_PLAYERS; n++) {
        const player = await createPlayer(server.api.arcade.db, server.api.arcade.clock, uuidIds, {
          wallet: null,
          name: `${NAMES[n % NAMES.length]} ${Math.floor(n / NAMES.length) + 1}`,
        });
        await play(player.id, boardId, 150 + n * 10);
      }
      await play(me.id, boardId, 395);
    }

    type PlayOn = (playerId: string, leaderboardId: string, score: number) => Promise<void>;

    /**
     * The tournaments through the real API (docs/reference/tournaments.md): created with the
     * developer's API key, entered through the game-server play route. The sprint is one round
     * of 60 s whose close the test waits for.
     */
    async function seedTournaments(developerId: string, apiKey: string): Promise<Seeded> {
      const { arcade } = server.api;
      await mintHst(arcade, { id: developerId, amountUnits: wholeHstToUnits(100) });
      const client = await createGameClient(arcade.db, arcade.clock, gameId);
      const tokenRes = await server.api.inject({
        method: 'POST',
        url: '/oauth/writetoken',
        payload: { client_id: client.clientId, client_secret: client.clientSecret },
      });
      const writeToken = tokenRes.json<{ access_token: string }>().access_token;
      const create = async (body: Record<string, unknown>): Promise<TournamentWire> => {
        const res = await server.api.inject({
          method: 'POST',
          url: `/developer/games/${gameId}/tournaments`,
          headers: { 'api-key': apiKey },
          payload: body,
        });
        if (res.statusCode === 404) {
          throw new Error(
            `tournament routes missing: POST /developer/games/{g}/tournaments answered 404 (${res.body})`,
          );
        }
        expect(res.statusCode, res.body).toBe(201);
        return res.json<TournamentWire>();
      };
      const playByRoute: PlayOn = async (playerId, leaderboardId, score) => {
        const headers = { authorization: `Bearer ${writeToken}` };
        const opened = await server.api.inject({
          method: 'POST',
          url: `/arcades/${arcadeId}/games/${gameId}/play`,
          headers,
          payload: { playerId, leaderboardId },
        });
        expect(opened.statusCode, opened.body).toBe(200);
        const playId = opened.json<{ id: string }>().id;
        const scored = await server.api.inject({
          method: 'POST',
          url: `/arcades/${arcadeId}/games/${gameId}/score`,
          headers,
          payload: { playId, leaderboardId, score },
        });
        expect(scored.statusCode, scored.body).toBe(200);
      };
      const now = Date.now();
      // The sprint first: its one minute runs while the rest is made.
      const sprint = await create({
        name: 'Launch Sprint',
        entryFee: '0',
        startsAt: new Date(now).toISOString(),
        durationSeconds: 60,
        payoutTable: { places: PAYOUT_PLACES },
        guaranteedPool: '5',
      });
      const winners = [
        { name: 'Ada 1', score: 151, prize: '2.5' },
        { name: 'Bo 1', score: 163, prize: '1.5' },
        { name: 'Cy 1', score: 178, prize: '1' },
      ];
      for (const w of winners) {
        const p = await createPlayer(arcade.db, arcade.clock, uuidIds, {
          wallet: null,
          name: w.name,
        });
        await playByRoute(p.id, sprint.currentRound!.id, w.score);
      }
      // The season: free plays, so its pool is its guarantee, the worked example's 18.4 HST.
      const season = await create({
        name: 'Spring Cup',
        entryFee: '0',
        startsAt: new Date(now).toISOString(),
        durationSeconds: 604_800,
        recurrence: '0 0 * * 1',
        maxEntrants: 100,
        maxAttempts: 2,
        payoutTable: { places: PAYOUT_PLACES },
        guaranteedPool: POOL,
      });
      const roundId = season.currentRound!.id;
      await seedBoard(roundId, playByRoute);
      const upcoming = await create({
        name: 'Night Owl Open',
        entryFee: '1',
        startsAt: new Date(now + 5 * HOUR_MS).toISOString(),
        durationSeconds: 7_200,
        payoutTable: { topPercent: 10 },
        guaranteedPool: '25',
      });
      // The sprint's close: its round ends a minute after it opened (expect.poll is for tests,
      // not their setup).
      const closeBy = Date.now() + 150_000;
      for (;;) {
        const res = await server.api.inject({ url: `/catalog/tournaments/${sprint.id}` });
        if (res.json<TournamentWire>().currentRound === null) break;
        if (Date.now() > closeBy) throw new Error(`the sprint did not close: ${res.body}`);
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      }
      return {
        season: {
          id: season.id,
          roundId,
          boardName: season.currentRound!.boardName,
          entryFee: '0',
          maxAttempts: 2,
        },
        upcoming: { id: upcoming.id },
        sprint: { id: sprint.id, winners },
      };
    }

    async function openPage(
      path: string,
      viewport: { width: number; height: number },
      signedIn: boolean,
    ): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      if (signedIn) {
        await page.addInitScript({
          content: `localStorage.setItem(${JSON.stringify(ARCADE_KEY_STORAGE)}, ${JSON.stringify(key)});`,
        });
      }
      await page.goto(`${server.urls['web']!}${path}`);
      if (signedIn) {
        await page.getByRole('button', { name: 'Connect wallet' }).first().click();
        await page.getByRole('button', { name: 'Arcade wallet' }).click();
        await page.getByTestId('balance').waitFor();
      }
      return { context, page };
    }

    /** No serious axe violations, no broken image, and nothing wider than the viewport. */
    async function checkPage(page: Page, width: number, screenshot: string) {
      await saveScreenshot(page, screenshot);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await brokenImages(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      );
    }

    it.each([
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)(
      'the catalog shows live and upcoming tournaments as cards (%s)',
      async (name, viewport) => {
        const { context, page } = await openPage('/', viewport, false);
        try {
          const strip = page.getByRole('region', { name: 'Tournaments' });
          const cards = strip.getByRole('listitem');
          await expect.poll(() => cards.count()).toBe(2);
          // Open first, then upcoming; the ended sprint is not advertised.
          const live = cards.nth(0);
          expect(await live.getByRole('heading').textContent()).toBe('Spring Cup');
          const liveText = await live.textContent();
          expect(liveText).toContain('Live');
          expect(liveText).toContain(`Prize pool${POOL} HST`);
          expect(liveText).toContain(`Players${BOARD_PLAYERS + 1} of 100`);
          expect(liveText).toMatch(/Ends in\s*\d+d \d\d:\d\d:\d\d/);
          const soon = cards.nth(1);
          expect(await soon.getByRole('heading').textContent()).toBe('Night Owl Open');
          expect(await soon.textContent()).toMatch(/Starts in\s*0?[45]:\d\d:\d\d/);
          expect(await soon.textContent()).toContain('Upcoming');
          // The exact date is on the countdown's <time>.
          const time = live.locator('time');
          expect(Date.parse((await time.getAttribute('datetime'))!)).toBeGreaterThan(Date.now());
          expect(await time.getAttribute('title')).toMatch(/\d{4}/);
          await checkPage(page, viewport.width, `tournament-catalog-${name}`);
          // The card is the link to the tournament's page.
          await live.getByRole('link', { name: 'Spring Cup' }).click();
          await page.getByRole('heading', { level: 1, name: 'Spring Cup' }).waitFor();
          expect(new URL(page.url()).pathname).toBe(`/tournaments/${seeded.season.id}`);
        } finally {
          await context.close();
        }
      },
      60_000,
    );

    it.each([
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const)(
      'a tournament page: countdown, exact prizes, standings, around me (%s)',
      async (name, viewport) => {
        const { context, page } = await openPage(
          `/tournaments/${seeded.season.id}`,
          viewport,
          true,
        );
        try {
          await page.getByRole('heading', { level: 1, name: 'Spring Cup' }).waitFor();
          // The countdown ticks by itself.
          const clock = page.locator('.hero-clock time [aria-hidden="true"]');
          const first = await clock.textContent();
          await expect.poll(() => clock.textContent(), { timeout: 3_000 }).not.toBe(first);
          expect(await page.locator('.hero-clock').textContent()).toMatch(/^Ends in/);

          // The payout table: 50/30/20 of 18.4 HST, to the unit (the worked example).
          const prizes = page.getByRole('table', { name: /Prizes by place/ });
          await expect
            .poll(() => prizes.locator('tbody .payout-amount').allTextContents())
            .toEqual(expectedPrizes(POOL, PAYOUT_PLACES).map((p) => `${p} HST`));
          expect(expectedPrizes(POOL, PAYOUT_PLACES)).toEqual(['9.2', '5.52', '3.68']);
          expect(await prizes.locator('tbody td:nth-child(2)').allTextContents()).toEqual([
            '50%',
            '30%',
            '20%',
          ]);
          const facts = page.locator('.hero-facts');
          expect(await facts.textContent()).toContain(`Prize pool${POOL} HST`);
          expect(await facts.textContent()).toContain(`Players${BOARD_PLAYERS + 1} of 100`);
          // Morgan has played the round once of two.
          await expect.poll(() => page.getByTestId('attempts').textContent()).toBe('1 of 2 left');

          // Standings: twenty at a time, exact ranks, lowest time first.
          const standings = page.getByRole('region', { name: /Standings · round/ });
          const rows = standings
            .getByRole('table', { name: 'The leaderboard' })
            .locator('tbody tr');
          await expect.poll(() => rows.count()).toBe(20);
          expect(await rows.first().textContent()).toBe('#1Ada 1150 ms');
          await standings.getByRole('button', { name: 'Load more' }).click();
          await expect.poll(() => rows.count()).toBe(40);
          await standings.getByRole('button', { name: 'Load more' }).click();
          await expect.poll(() => rows.count()).toBe(BOARD_PLAYERS + 1);

          await standings.getByRole('button', { name: 'Show my place' }).click();
          expect(
            await standings.getByRole('status').filter({ hasText: 'You rank' }).textContent(),
          ).toBe(`You rank #26 of ${BOARD_PLAYERS + 1}.`);
          const around = standings.getByRole('table', {
            name: 'Your place and the players around you',
          });
          expect(await around.locator('tr[aria-current="true"]').textContent()).toBe(
            '#26Morgan (you)395 ms',
          );
          await page.getByRole('heading', { name: 'Prizes' }).scrollIntoViewIfNeeded();
          await checkPage(page, viewport.width, `tournament-page-${name}`);

          // The upcoming one: its clock counts to the start, its top 10% share the pool.
          await page.goto(`${server.urls['web']!}/tournaments/${seeded.upcoming.id}`);
          await page.getByRole('heading', { level: 1, name: 'Night Owl Open' }).waitFor();
          expect(await page.locator('.hero-clock').textContent()).toMatch(
            /^Starts in\s*0?[45]:\d\d:\d\d/,
          );
          expect(await page.locator('.payout').textContent()).toContain(
            'The top 10% of the field share the pool equally.',
          );
          expect(await page.getByRole('link', { name: 'Play this round' }).count()).toBe(0);
          expect(await page.locator('.hero-main').textContent()).toContain(
            'Plays open when the round starts.',
          );
          await checkPage(page, viewport.width, `tournament-upcoming-${name}`);

          // The ended sprint: no round to come, its one round's winners with their prizes.
          await page.goto(`${server.urls['web']!}/tournaments/${seeded.sprint.id}`);
          await page.getByRole('heading', { level: 1, name: 'Launch Sprint' }).waitFor();
          expect(await page.locator('.hero-clock').textContent()).toBe(
            'This tournament has ended.',
          );
          const winners = page.getByRole('table', { name: 'Winners of round 1' });
          await expect.poll(() => winners.locator('tbody tr').count()).toBe(3);
          // Each row: the place (disc and words), the player, the score (under the name on a
          // phone, in its column otherwise: both in the text), the prize.
          expect(await winners.locator('tbody tr').allTextContents()).toEqual(
            seeded.sprint.winners.map(
              (w, i) =>
                `${i + 1}${ordinal(i + 1)}${w.name}${w.score} ms${w.score} ms${w.prize} HST`,
            ),
          );
          await checkPage(page, viewport.width, `tournament-ended-${name}`);
        } finally {
          await context.close();
        }
      },
      90_000,
    );

    it('plays a round from the game page; the limit is refused in words', async () => {
      const { context, page } = await openPage(`/tournaments/${seeded.season.id}`, DESKTOP, true);
      try {
        await page.getByRole('link', { name: 'Play this round' }).click();
        await page.getByRole('heading', { level: 1, name: 'Reaction' }).waitFor();
        expect(new URL(page.url()).search).toBe(`?tournament=${seeded.season.id}`);
        // The round is chosen among the tiers, labelled as a tournament.
        const round = page.getByRole('radio', { name: /^Tournament: Spring Cup/ });
        await expect.poll(() => round.isChecked()).toBe(true);
        expect(await page.getByRole('radio', { name: /^Bronze/ }).isChecked()).toBe(false);
        await page.getByRole('region', { name: 'Standings: Spring Cup' }).waitFor();
        await page
          .getByRole('navigation', { name: 'Tournaments' })
          .getByRole('link', { name: 'Spring Cup' })
          .waitFor();

        const game = page.frameLocator('iframe.game-frame');
        await expect
          .poll(() => game.locator('#status').textContent(), { timeout: 15_000 })
          .toBe('Ready. Press Play to start.');
        await game.getByRole('button', { name: 'Play' }).click();
        const dialog = page.getByRole('dialog', { name: 'Lock HST to play?' });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain(`Tournament${seeded.season.boardName}`);
        expect(await dialog.textContent()).toContain(`${seeded.season.entryFee} HST`);
        expect(await dialog.textContent()).toContain('prize pool');
        await saveScreenshot(page, 'tournament-approval');
        await dialog.getByRole('button', { name: 'Approve' }).click();
        await expect
          .poll(() => game.locator('#status').textContent(), { timeout: 15_000 })
          .toBe('Green! Press now.');
        await game.locator('#pad').click();
        const notice = page.getByTestId('arcade-notice');
        await expect
          .poll(() => notice.textContent(), { timeout: 15_000 })
          .toMatch(
            /^Your score [\d,]+ ms ranks #\d+ in Spring Cup\. Prizes are paid when the round ends\.$/,
          );
        const plays = await server.api.arcade.db.query<{ cost_units: bigint; status: string }>(
          `SELECT cost_units, status FROM plays WHERE player_id = $1 AND leaderboard_id = $2
           ORDER BY created_at`,
          [me.id, seeded.season.roundId],
        );
        expect(plays).toEqual([
          { cost_units: parseHst(seeded.season.entryFee, 'fee'), status: 'scored' },
          { cost_units: parseHst(seeded.season.entryFee, 'fee'), status: 'scored' },
        ]);
        await checkPage(page, DESKTOP.width, 'tournament-game-page');

        // A third play is over the round's limit of two: refused, said in words, not charged.
        await expect
          .poll(() => game.locator('#status').textContent(), { timeout: 15_000 })
          .toMatch(/Press Play for another go/);
        await game.getByRole('button', { name: 'Play' }).click();
        await page
          .getByRole('dialog', { name: 'Lock HST to play?' })
          .getByRole('button', { name: 'Approve' })
          .click();
        const refusal =
          'You have used all your attempts in this tournament round. Nothing was charged.';
        await expect.poll(() => notice.textContent(), { timeout: 15_000 }).toBe(refusal);
        // Said once: the message is in sight beside the game, so no toast repeats it.
        expect(await page.getByTestId('toasts').textContent()).not.toContain(refusal);
        await saveScreenshot(page, 'tournament-refused');

        // Back on the tournament's page, the player's entry is read afresh: no attempt left.
        await page.goto(`${server.urls['web']!}/tournaments/${seeded.season.id}`);
        await page.getByRole('heading', { level: 1, name: 'Spring Cup' }).waitFor();
        await expect.poll(() => page.getByTestId('attempts').textContent()).toBe('0 of 2 left');
        expect(await page.locator('.hero-main .play-note').textContent()).toBe(
          'You have used all 2 attempts in this round.',
        );
        expect(await page.getByRole('link', { name: 'Play this round' }).count()).toBe(0);
      } finally {
        await context.close();
      }
    });

    it('the game page offers the open round beside the tiers on a phone', async () => {
      const { context, page } = await openPage(`/games/${gameId}`, PHONE, true);
      try {
        await page.getByRole('heading', { level: 1, name: 'Reaction' }).waitFor();
        const round = page.getByRole('radio', { name: /^Tournament: Spring Cup/ });
        await round.waitFor({ state: 'attached' });
        expect(await round.isChecked()).toBe(false);
        expect(await page.getByRole('radio', { name: /^Bronze/ }).isChecked()).toBe(true);
        const label = page.locator(`label[for="${await round.getAttribute('id')}"]`);
        expect(await label.textContent()).toMatch(/Ends in/);
        // A tap anywhere on the round's card lands on its radio, which spans the card.
        const card = (await label.boundingBox())!;
        await page.mouse.click(card.x + card.width - 8, card.y + card.height / 2);
        expect(await round.isChecked()).toBe(true);
        await page.getByRole('region', { name: 'Standings: Spring Cup' }).waitFor();
        await checkPage(page, PHONE.width, 'tournament-game-phone');
      } finally {
        await context.close();
      }
    });
  },
);

function ordinal(n: number): string {
  return `${n}${{ 1: 'st', 2: 'nd', 3: 'rd' }[n] ?? 'th'}`;
}
