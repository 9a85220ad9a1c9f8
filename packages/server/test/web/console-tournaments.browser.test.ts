import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeHstToUnits } from '@coinop/core';
import type { Tournament, TournamentRoundDetail } from '@coinop/protocol';
import {
  NO_CHROMIUM_REASON,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';
import { seedEntrants, tournamentWithRound } from '../fixtures/tournaments.js';

/**
 * Issue 18 in the operator console, in headless Chromium (PGlite): the operator reads every
 * tournament (round, fee, pool, entrants, schedule), a closed round's winners, stops one and
 * creates one for a game, funded by the arcade. What the console did is read back from the API.
 */

const ADMIN_TOKEN = 'console-tournaments-admin';
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1366, height: 900 };

describe.skipIf(!hasChromium)(
  `tournaments in the operator console${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let gameId: string;
    let weekly: Tournament;
    let sprintId: string;
    let backroomId: string;

    const admin = async <T>(method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await server.api.inject({
        method,
        url,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        ...(payload === undefined ? {} : { payload }),
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json<T>();
    };
    const listed = async (name: string) => {
      const { tournaments } = await admin<{ tournaments: Tournament[] }>(
        'GET',
        '/admin/tournaments',
      );
      const found = tournaments.find((t) => t.name === name);
      expect(found, name).toBeDefined();
      return found!;
    };

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-console-tournaments-'));
      server = await startServer(testConfig({ apiPort: 0, dataDir, adminToken: ADMIN_TOKEN }));
      const { arcade } = server.api;
      const developer = await admin<{ developerId: string }>('POST', '/admin/developers', {
        wallet: privateKeyToAccount(generatePrivateKey()).address.toLowerCase(),
      });
      const game = await registerGame(
        arcade,
        {
          developerId: developer.developerId,
          name: 'Cup Putt',
          description: 'Mini golf in the browser.',
          scoreUnit: 'pts',
        },
        [{ name: 'Bronze', cost: 1 }],
      );
      gameId = game.id;
      await publish(arcade, gameId);
      // A game not yet published: its tournaments are the operator's to see, not the public's.
      const hidden = await registerGame(
        arcade,
        { developerId: developer.developerId, name: 'Back Room' },
        [{ name: 'Bronze', cost: 1 }],
      );
      // The arcade's account funds the operator's guarantees: 5 + 5 + 2 of it below.
      await mintHst(arcade, { id: arcade.record.id, amountUnits: wholeHstToUnits(52) });

      await admin<Tournament>('POST', '/admin/tournaments', {
        gameId: hidden.id,
        name: 'Staff Trial',
        entryFee: '0',
        startsAt: new Date(Date.now() + 3_600_000).toISOString(),
        durationSeconds: 3_600,
        payoutTable: { topPercent: 10 },
      });
      weekly = await admin<Tournament>('POST', '/admin/tournaments', {
        gameId,
        name: 'Weekly Cup',
        entryFee: '2',
        guaranteedPool: '5',
        startsAt: new Date().toISOString(),
        durationSeconds: 3 * 86_400,
        recurrence: '30 18 * * 5',
        maxEntrants: 500,
        payoutTable: { places: [5000, 3000, 2000] },
      });

      // A one-round sprint that ended a minute ago, three players on its board: the closer
      // closes it at once and pays its 5 HST pool 2.5 / 1.5 / 1.
      const now = new Date();
      const sprint = await tournamentWithRound(arcade.db, {
        gameId,
        funderAccountId: arcade.record.accountId,
        createdBy: 'operator',
        name: 'Launch Sprint',
        guaranteeUnits: wholeHstToUnits(5),
        payoutTable: { places: [5000, 3000, 2000] },
        startsAt: new Date(now.getTime() - 120_000),
        durationSeconds: 60,
        now,
      });
      sprintId = sprint.tournamentId;
      // The same on the unpublished game: two players, a 2 HST pool, its results the operator's
      // alone.
      const backroom = await tournamentWithRound(arcade.db, {
        gameId: hidden.id,
        funderAccountId: arcade.record.accountId,
        createdBy: 'operator',
        name: 'Backroom Sprint',
        guaranteeUnits: wholeHstToUnits(2),
        payoutTable: { places: [10_000] },
        startsAt: new Date(now.getTime() - 120_000),
        durationSeconds: 60,
        now,
      });
      backroomId = backroom.tournamentId;
      for (const [roundId, entrants] of [
        [sprint.roundId, 3],
        [backroom.roundId, 2],
      ] as const) {
        await seedEntrants(arcade.db, roundId, entrants, now);
        // Entering counts an entrant; the bulk seed writes the bests alone, so count them here.
        await arcade.db.query('UPDATE tournament_rounds SET entrants = $2 WHERE id = $1', [
          roundId,
          entrants,
        ]);
      }
      // Closed now, by this call or by the server's own closer if it looked first.
      for (let look = 0; ; look += 1) {
        await arcade.closer.closeDue(server.api.log);
        const { tournaments } = await admin<{ tournaments: Tournament[] }>(
          'GET',
          '/admin/tournaments',
        );
        const open = tournaments.filter(
          (t) => (t.id === sprintId || t.id === backroomId) && t.currentRound !== null,
        );
        if (open.length === 0) break;
        if (look === 20) throw new Error(`not closed: ${open.map((t) => t.name).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('the operator reads, stops and creates tournaments in the console', async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      const main = page.getByRole('main');
      try {
        await page.goto(`${web}/admin/tournaments`);
        await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await main.getByRole('heading', { name: 'Tournaments', level: 1 }).waitFor();
        expect(
          await page
            .getByRole('navigation', { name: 'Console' })
            .getByRole('link', {
              name: 'Tournaments',
            })
            .getAttribute('aria-current'),
        ).toBe('page');

        // The weekly cup: round 1 open and counting down, its fee and pool with the HST mark.
        const row = (name: string) => main.getByRole('row').filter({ hasText: name });
        const cup = row('Weekly Cup');
        await cup.getByText('1, open').waitFor();
        await cup.getByText('Ends in').waitFor();
        expect(await cup.getByRole('cell').nth(1).textContent()).toBe('2 HST');
        expect(await cup.getByRole('cell').nth(2).textContent()).toBe('5 HST');
        expect(await cup.getByRole('cell').nth(3).textContent()).toBe('0 of 500');
        await cup.getByText('Every Friday at 18:30 UTC').waitFor();
        await cup.getByText('running', { exact: true }).waitFor();
        expect(await cup.getByRole('rowheader').textContent()).toBe('Weekly CupCup Putt');
        expect(
          await cup.getByRole('link', { name: 'Public page of Weekly Cup' }).getAttribute('href'),
        ).toBe(`/tournaments/${weekly.id}`);

        // The closed sprint: no round to come; its winners, as the catalog's round says.
        const sprint = row('Launch Sprint');
        await sprint.getByText('None to come').waitFor();
        await sprint.getByText('ended', { exact: true }).waitFor();
        expect(await sprint.getByRole('button', { name: 'Stop Launch Sprint' }).count()).toBe(0);
        await sprint.getByRole('button', { name: 'Results of Launch Sprint' }).click();
        const results = main.getByRole('region', { name: 'Past rounds of Launch Sprint' });
        const winners = results.getByRole('table', { name: 'Winners of round 1' });
        await winners.waitFor();
        await results.getByText('3 players', { exact: false }).waitFor();
        const { rounds } = (await (
          await server.api.inject({ url: `/catalog/tournaments/${sprintId}/rounds` })
        ).json()) as { rounds: { id: string }[] };
        const round = (
          await server.api.inject({
            url: `/catalog/tournaments/${sprintId}/rounds/${rounds[0]!.id}`,
          })
        ).json<TournamentRoundDetail>();
        expect(round.results.map((r) => r.prize)).toEqual(['2.5', '1.5', '1']);
        const shown = await winners
          .locator('tbody tr')
          .evaluateAll((rows) =>
            rows.map((r) => [
              r.querySelector('th')?.textContent,
              r.querySelector('.board-player > span')?.firstChild?.textContent,
              r.querySelector('td.prize')?.textContent,
            ]),
          );
        expect(shown).toEqual(
          round.results.map((r) => [`${r.place}${ordinal(r.place)}`, r.name, `${r.prize} HST`]),
        );
        expect(
          await sprint
            .getByRole('button', { name: 'Results of Launch Sprint' })
            .getAttribute('aria-expanded'),
        ).toBe('true');

        // The unpublished game's tournaments: listed, with no public page; their results are
        // read through the admin API, which the catalog does not answer for them.
        const trial = row('Staff Trial');
        await trial.getByText('1, scheduled').waitFor();
        await trial.getByText('Starts in').waitFor();
        await trial.getByText('Game not published').waitFor();
        expect(await trial.getByRole('link').count()).toBe(0);
        await trial.getByRole('button', { name: 'Results of Staff Trial' }).click();
        await main
          .getByRole('region', { name: 'Past rounds of Staff Trial' })
          .getByText('No round has ended yet')
          .waitFor();
        const hiddenSprint = row('Backroom Sprint');
        await hiddenSprint.getByText('Game not published').waitFor();
        await hiddenSprint.getByRole('button', { name: 'Results of Backroom Sprint' }).click();
        const backroomWinners = main
          .getByRole('region', { name: 'Past rounds of Backroom Sprint' })
          .getByRole('table', { name: 'Winners of round 1' });
        await backroomWinners.waitFor();
        const catalogRounds = await server.api.inject({
          url: `/catalog/tournaments/${backroomId}/rounds`,
        });
        expect(catalogRounds.statusCode).toBe(404);
        const [closedRound] = (
          await admin<{ rounds: { id: string }[] }>(
            'GET',
            `/admin/tournaments/${backroomId}/rounds`,
          )
        ).rounds;
        const backroomRound = await admin<TournamentRoundDetail>(
          'GET',
          `/admin/tournaments/${backroomId}/rounds/${closedRound!.id}`,
        );
        expect(backroomRound.results.map((r) => [r.place, r.prize])).toEqual([[1, '2']]);
        expect(
          await backroomWinners
            .locator('tbody tr')
            .evaluateAll((rows) =>
              rows.map((r) => r.querySelector('.board-player > span')?.firstChild?.textContent),
            ),
        ).toEqual([backroomRound.results[0]!.name]);
        await page.evaluate('window.scrollTo(0, document.body.scrollHeight / 3)');
        await saveScreenshot(page, 'console-tournaments-unpublished-results');
        await sprint.getByRole('button', { name: 'Results of Launch Sprint' }).click();
        await winners.waitFor();

        // Stop: the confirmation names the effect; the list and the API say stopped.
        let asked = '';
        page.once('dialog', (dialog) => {
          asked = dialog.message();
          void dialog.accept();
        });
        await cup.getByRole('button', { name: 'Stop Weekly Cup' }).click();
        await main.getByText('Weekly Cup: stopped.', { exact: false }).waitFor();
        expect(asked).toContain('No round after the current one will open.');
        expect(asked).toContain('still runs to its end, closes and pays its pool');
        await cup.getByText('stopped', { exact: true }).waitFor();
        expect(await cup.getByRole('button', { name: 'Stop Weekly Cup' }).count()).toBe(0);
        const stopped = await listed('Weekly Cup');
        expect(stopped.stoppedAt).not.toBeNull();
        expect(stopped.currentRound?.number).toBe(1);

        // Create for a game, funded by the arcade: its balance is the one shown.
        const form = page.getByRole('form', { name: 'New tournament' });
        const { balance } = await admin<{ balance: string }>('GET', '/admin/hst/balances/arcade');
        expect(balance).toBe('40');
        await form.getByText(`from the arcade's balance (available: 40 HST).`).waitFor();
        expect(
          await form.getByLabel('Game', { exact: true }).locator('option').allTextContents(),
        ).toEqual(['Choose a game…', 'Back Room (unpublished)', 'Cup Putt']);
        await form.getByLabel('Tournament name').fill('Operator Open');
        await form.getByRole('button', { name: 'Create tournament' }).click();
        await form.getByText('Choose the game the tournament is played in.').waitFor();
        await form.getByLabel('Game', { exact: true }).selectOption({ label: 'Cup Putt' });
        await form.getByLabel('Entry fee (HST)').fill('1.5');
        await form.getByLabel('Length of a round').fill('2');
        await form.getByLabel('Length unit').selectOption('hours');
        await form.getByLabel('Prize split').selectOption('custom');
        await form.getByLabel('Percent per place, 1st first').fill('70, 30');
        // The guarantee moves the arcade's HST: asked first; declined, nothing is sent.
        const answer = (accept: boolean) =>
          new Promise<string>((resolve) => {
            page.once('dialog', (dialog) => {
              resolve(dialog.message());
              void (accept ? dialog.accept() : dialog.dismiss());
            });
          });
        await form.getByLabel('Guaranteed pool (HST)').fill('3');
        let question = answer(false);
        await form.getByRole('button', { name: 'Create tournament' }).click();
        expect(await question).toBe(
          "Create Operator Open for Cup Putt? 3 HST moves from the arcade's account into its " +
            "round's pool as it opens.",
        );
        const afterDecline = await admin<{ tournaments: Tournament[] }>(
          'GET',
          '/admin/tournaments',
        );
        expect(afterDecline.tournaments.map((t) => t.name)).not.toContain('Operator Open');
        // More than the arcade holds: 402, explained by the pool field.
        await form.getByLabel('Guaranteed pool (HST)').fill('500');
        question = answer(true);
        await form.getByRole('button', { name: 'Create tournament' }).click();
        await question;
        await form
          .getByText("The arcade's balance (40 HST) does not cover this guaranteed pool")
          .waitFor();
        await form.getByLabel('Guaranteed pool (HST)').fill('3');
        question = answer(true);
        await form.getByRole('button', { name: 'Create tournament' }).click();
        await question;
        await main.getByText('Tournament Operator Open created for Cup Putt.').waitFor();
        await row('Operator Open').getByText('3 HST', { exact: true }).waitFor();
        await form.getByText('(available: 37 HST)').waitFor();
        const created = await listed('Operator Open');
        expect(created).toMatchObject({
          gameId,
          entryFee: '1.5',
          guaranteedPool: '3',
          payoutTable: { places: [7000, 3000] },
          durationSeconds: 7200,
          recurrence: null,
          createdBy: 'operator',
          stoppedAt: null,
        });
        expect(created.currentRound).toMatchObject({ number: 1, pool: '3', entrants: 0 });

        await page.evaluate('window.scrollTo(0, 0)');
        await saveScreenshot(page, 'console-tournaments-desktop');
        expect(await seriousViolations(page)).toEqual([]);

        // The phone: every column named by its label, nothing wider than the screen.
        await page.setViewportSize(PHONE);
        await cup.getByText('stopped', { exact: true }).waitFor();
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          PHONE.width,
        );
        await saveScreenshot(page, 'console-tournaments-phone');
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });
  },
);

/** A place as the winners table says it to a screen reader, after its disc: "1st". */
function ordinal(place: number): string {
  return `${place}${place === 1 ? 'st' : place === 2 ? 'nd' : place === 3 ? 'rd' : 'th'}`;
}
