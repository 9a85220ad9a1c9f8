import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeHstToUnits } from '@coinop/core';
import { testConfig } from '../../src/config.js';
import { uuidIds } from '../../src/ids.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';
import { createGameClient } from '../../src/credentials/game-clients.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import {
  PHONE,
  DESKTOP,
  NO_CHROMIUM_REASON,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  saveScreenshot,
  seriousViolations,
  openAccountMenu,
  brokenImages,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { startCoverServer, type CoverServer } from '../fixtures/cover-server.js';
import { injectWallet } from '@coinop/testkit/eip1193';

/**
 * Consent to charges in the web app (docs/concepts/consent.md): a player whose game server was
 * refused follows the refusal's grantUrl to the game's page, sets a daily allowance, sees it spent,
 * revokes it there and on the account's allowances page; a developer invites a tester of an
 * unpublished game on the portal, and the player accepts with a daily limit (then is charged
 * within it), leaves (then is refused) on the account's Testing page (issue 27). Every choice is
 * checked where it is stored.
 */
describe.skipIf(!hasChromium)(
  `consent to charges in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let gameHost: CoverServer;
    let browser: Browser;
    let developer: PrivateKeyAccount;
    /** Published, played server to server: it needs the player's allowance. */
    let orbit: { id: string; tierId: string; clientId: string; clientSecret: string };
    /** Published too, so the account page lists more than one game. */
    let cometId: string;
    /** Not published: only its developer and the testers who accepted may be charged. */
    let nightShift: { id: string; tierId: string; clientId: string; clientSecret: string };

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-consent-'));
      // A stand-in for a game's own host: the page the arcade frames.
      gameHost = await startCoverServer({
        '/orbit': (_request, response) =>
          response
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(
              '<!doctype html><html lang="en"><title>Orbit Run</title>' +
                '<body style="margin:0;height:100vh;display:grid;place-items:center;' +
                'background:#101018;color:#f2f2f7;font:1.5rem system-ui">' +
                '<p>Orbit Run: played on the game&apos;s server</p></body></html>',
            ),
      });
      // The production default: a game server charges nobody who has not allowed it.
      server = await startServer(
        testConfig({
          apiPort: 0,
          dataDir,
          adminToken: 'consent-admin',
          defaultAllowanceUnits: 0n,
        }),
      );
      const { arcade } = server.api;
      developer = privateKeyToAccount(generatePrivateKey());
      const owner = await ensureDeveloper(arcade.db, arcade.clock, uuidIds, developer.address);
      const register = (name: string, url: string) =>
        registerGame(
          arcade,
          { developerId: owner.id, name, description: `${name}, a consent test game.`, url },
          [{ name: 'Standard', cost: 1 }],
        );
      const orbitGame = await register('Orbit Run', gameHost.url('/orbit'));
      await publish(arcade, orbitGame.id);
      const client = await createGameClient(arcade.db, arcade.clock, orbitGame.id);
      orbit = {
        id: orbitGame.id,
        tierId: (await arcade.games.get(orbitGame.id)).leaderboards[0]!.id,
        ...client,
      };
      cometId = (await register('Comet Dash', '')).id;
      await publish(arcade, cometId);
      const nightShiftGame = await register('Night Shift', '');
      nightShift = {
        id: nightShiftGame.id,
        tierId: (await arcade.games.get(nightShiftGame.id)).leaderboards[0]!.id,
        ...(await createGameClient(arcade.db, arcade.clock, nightShiftGame.id)),
      };
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await gameHost?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    /** The page's web session token, as the app keeps it. */
    const sessionToken = (page: Page) =>
      page.evaluate("JSON.parse(localStorage.getItem('coinop.session')).token") as Promise<string>;

    /** A request to the arcade API with a bearer token. */
    const apiCall = async (
      token: string,
      method: string,
      path: string,
      body?: unknown,
    ): Promise<{ status: number; body: Record<string, unknown> | null }> => {
      const res = await fetch(`${server.urls['api']!}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: text === '' ? null : (JSON.parse(text) as never) };
    };

    /** The game's server opening a 1 HST play for the player, as its SDK would. */
    const serverPlay = async (game: typeof orbit, playerId: string) => {
      const token = await fetch(`${server.urls['api']!}/oauth/writetoken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: game.clientId, client_secret: game.clientSecret }),
      }).then(async (res) => ((await res.json()) as { access_token: string }).access_token);
      const arcadeId = server.api.arcade.record.id;
      return apiCall(token, 'POST', `/arcades/${arcadeId}/games/${game.id}/play`, {
        playerId,
        leaderboardId: game.tierId,
      });
    };

    /** The daily limit in force as stored, whatever the player may see of the game. */
    const allowanceUnits = async (playerId: string, gameId: string) => {
      const { consent } = server.api.arcade;
      return (await consent.facts(gameId, playerId))?.dailyUnits ?? consent.defaultAllowanceUnits;
    };

    async function connectBrowserWallet(page: Page, scope = page.getByRole('banner')) {
      await scope.getByRole('button', { name: 'Connect wallet' }).click();
      await page.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
      await page.getByRole('button', { name: 'Browser wallet' }).click();
      await page.getByTestId('balance').waitFor();
    }

    it('a refused player allows a game 7.5 HST a day on its page, sees it spent, revokes it there and on the account page', async () => {
      const web = server.urls['web']!;
      const account = privateKeyToAccount(generatePrivateKey());
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      await injectWallet(page, account);
      const main = page.getByRole('main');
      const panel = main.getByRole('region', { name: 'What this game may charge you' });
      const summary = panel.getByTestId('allowance-summary');
      const limitField = panel.getByLabel('Daily limit (HST)');
      try {
        // Signed out, the panel asks for a wallet and offers no form.
        await page.goto(`${web}/games/${orbit.id}#allowance`);
        await panel
          .getByText('Connect a wallet to see and set what this game may charge you a day.')
          .waitFor();
        expect(await limitField.count()).toBe(0);
        await connectBrowserWallet(page);
        await page.goto(`${web}/`);
        await main.getByRole('heading', { level: 1 }).waitFor();
        const player = (
          await server.api.arcade.db.query<{ id: string }>(
            'SELECT id FROM players WHERE wallet = $1',
            [account.address.toLowerCase()],
          )
        )[0]!;
        await mintHst(server.api.arcade, { id: player.id, amountUnits: wholeHstToUnits(20) });

        // The game's server is refused and told where the player can consent.
        const refused = await serverPlay(orbit, player.id);
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ code: 'consent_required' });
        const grantUrl = new URL((refused.body!['details'] as { grantUrl: string }).grantUrl);
        expect(`${grantUrl.pathname}${grantUrl.hash}`).toBe(`/games/${orbit.id}#allowance`);

        // The grantUrl opens the game's page scrolled to the panel, below the full-height game.
        await page.goto(`${web}${grantUrl.pathname}${grantUrl.hash}`);
        await expect
          .poll(() => summary.textContent(), { timeout: 15_000 })
          .toBe('No allowance yet — server-side plays of this game need your consent.');
        // The whole panel is in view, though the game's frame alone fills the viewport.
        const box = await panel.boundingBox();
        expect(box!.y).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height).toBeLessThanOrEqual(DESKTOP.height);
        await panel
          .getByText(
            'plays you approve in the arcade with your wallet are asked each time and do not count against it',
            { exact: false },
          )
          .waitFor();

        // A limit the page refuses itself, then one the arcade refuses with its own message.
        const alert = panel.getByRole('alert');
        const status = panel.getByRole('status');
        await limitField.fill('1.123456789');
        await panel.getByRole('button', { name: 'Save' }).click();
        await expect
          .poll(() => alert.textContent())
          .toBe(
            'Enter the daily limit in HST as a number such as 10 or 2.5, with at most 8 decimals.',
          );
        await limitField.fill('2000000000');
        await panel.getByRole('button', { name: 'Save' }).click();
        await expect
          .poll(() => alert.textContent())
          .toBe('Could not save the daily limit: dailyLimit must be at most 1000000000 HST');
        expect(await allowanceUnits(player.id, orbit.id)).toBe(0n);

        // 7.5 HST a day: stored exactly, in base units.
        await limitField.fill('7.5');
        await panel.getByRole('button', { name: 'Save' }).click();
        await expect
          .poll(() => status.textContent())
          .toBe('Saved: Orbit Run may charge you up to 7.5 HST a day.');
        expect(await alert.count()).toBe(0);
        expect(await summary.textContent()).toBe('This game may charge you up to 7.5 HST a day.');
        expect(await allowanceUnits(player.id, orbit.id)).toBe(750_000_000n);
        const token = await sessionToken(page);
        const listed = await apiCall(token, 'GET', '/player/allowances');
        expect(listed.body).toEqual({
          defaultDailyLimit: '0',
          allowances: [
            {
              gameId: orbit.id,
              gameName: 'Orbit Run',
              source: 'player',
              dailyLimit: '7.5',
              spentToday: '0',
              remainingToday: '7.5',
              decidedAt: expect.any(String),
            },
          ],
        });

        // The game's server may now charge the player; the page shows what it spent today.
        expect((await serverPlay(orbit, player.id)).status).toBe(200);
        await page.reload();
        await expect
          .poll(() => panel.locator('dl').textContent(), { timeout: 15_000 })
          .toBe('Used today1 HSTRemaining today6.5 HST');
        expect(await limitField.inputValue()).toBe('7.5');
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'consent-game-allowance');

        // Revoke: stored as an explicit 0, and the game's server is refused again.
        await panel.getByRole('button', { name: 'Revoke' }).click();
        await expect
          .poll(() => status.textContent())
          .toBe('Revoked: Orbit Run can no longer charge you, from its next play.');
        expect(await summary.textContent()).toBe(
          'You revoked this game’s allowance: its server cannot charge you.',
        );
        expect(await allowanceUnits(player.id, orbit.id)).toBe(0n);
        expect((await apiCall(token, 'GET', `/player/allowances/${orbit.id}`)).body).toMatchObject({
          source: 'player',
          dailyLimit: '0',
          spentToday: '1',
          remainingToday: '0',
        });
        expect(await serverPlay(orbit, player.id)).toMatchObject({
          status: 403,
          body: { code: 'consent_required' },
        });
        // Nothing is left to revoke.
        expect(await panel.getByRole('button', { name: 'Revoke' }).count()).toBe(0);

        // Allow it again, and another game through the API, then revoke on the account page.
        await limitField.fill('5');
        await panel.getByRole('button', { name: 'Save' }).click();
        await expect
          .poll(() => status.textContent())
          .toBe('Saved: Orbit Run may charge you up to 5 HST a day.');
        expect(
          (await apiCall(token, 'PUT', `/player/allowances/${cometId}`, { dailyLimit: 2 })).status,
        ).toBe(200);
        await openAccountMenu(page);
        await page.getByRole('banner').getByRole('link', { name: 'Allowances' }).click();
        await page.waitForURL(`${web}/account/allowances`);
        await main.getByRole('heading', { name: 'Your allowances', level: 1 }).waitFor();
        await expect
          .poll(() => main.getByTestId('default-allowance').textContent())
          .toBe('The arcade’s default is 0 HST: a game you have not allowed cannot charge you.');
        const rows = main.locator('tbody tr');
        await expect.poll(() => rows.count()).toBe(2);
        const orbitRow = rows.filter({ hasText: 'Orbit Run' });
        expect(await orbitRow.locator('th, td').allTextContents()).toEqual([
          'Orbit Run',
          '5 HST a day',
          '1 HST',
          '4 HST',
          'You',
          expect.any(String),
          'Revoke',
        ]);
        expect(await orbitRow.getByRole('link', { name: 'Orbit Run' }).getAttribute('href')).toBe(
          `/games/${orbit.id}#allowance`,
        );
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'consent-account-allowances');
        // On a phone too: the table scrolls in its own region, never the page.
        await page.setViewportSize({ width: 360, height: 740 });
        await saveScreenshot(page, 'consent-account-allowances-phone');
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          360,
        );
        await page.setViewportSize({ width: 1366, height: 900 });

        await main.getByRole('button', { name: 'Revoke the allowance of Orbit Run' }).click();
        await expect
          .poll(() => main.getByRole('status').last().textContent())
          .toBe('Revoked: Orbit Run can no longer charge you, from its next play.');
        expect(await orbitRow.locator('td').first().textContent()).toBe('Revoked');
        expect(await allowanceUnits(player.id, orbit.id)).toBe(0n);
        expect(await allowanceUnits(player.id, cometId)).toBe(wholeHstToUnits(2));
      } finally {
        await context.close();
      }
    });

    it('on a phone: signed out, a line to connect; a new player sees the default, an empty list and the panel', async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: PHONE });
      const page = await context.newPage();
      await injectWallet(page, privateKeyToAccount(generatePrivateKey()));
      const main = page.getByRole('main');
      try {
        await page.goto(`${web}/account/allowances`);
        await main.getByText('Connect a wallet to see your allowances.').waitFor();
        await connectBrowserWallet(page);
        await main
          .getByText(
            'No allowances yet. When you allow a game to charge you, from its page, it is listed here.',
          )
          .waitFor();
        expect(await main.locator('table').count()).toBe(0);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          PHONE.width,
        );
        expect(await seriousViolations(page)).toEqual([]);

        // The game page's panel fits a phone too, and says the player allowed nothing yet.
        await page.goto(`${web}/games/${orbit.id}#allowance`);
        await expect
          .poll(() => main.getByTestId('allowance-summary').textContent(), { timeout: 15_000 })
          .toBe('No allowance yet — server-side plays of this game need your consent.');
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          PHONE.width,
        );
        expect(await seriousViolations(page)).toEqual([]);
        // An avatar that cannot load shows a placeholder, never a broken-image icon.
        expect(await brokenImages(page)).toEqual([]);
        await saveScreenshot(page, 'consent-game-allowance-phone');
      } finally {
        await context.close();
      }
    });

    it('a developer invites a tester on the portal; the player accepts with a 3 HST daily limit, is charged within it, leaves and is refused again', async () => {
      const web = server.urls['web']!;
      const devContext = await browser.newContext({ viewport: DESKTOP });
      const devPage = await devContext.newPage();
      await injectWallet(devPage, developer);
      const testerAccount = privateKeyToAccount(generatePrivateKey());
      const playerContext = await browser.newContext({ viewport: DESKTOP });
      const page = await playerContext.newPage();
      await injectWallet(page, testerAccount);
      const portal = devPage.getByRole('main');
      const testers = portal.getByRole('region', { name: 'Testers' });
      const field = testers.getByLabel('Tester wallet address');
      const wallet = testerAccount.address.toLowerCase();
      const bystander = privateKeyToAccount(generatePrivateKey()).address.toLowerCase();
      const listTesters = async () =>
        (
          await apiCall(
            await sessionToken(devPage),
            'GET',
            `/developer/games/${nightShift.id}/testers`,
          )
        ).body;
      const main = page.getByRole('main');
      try {
        await devPage.goto(`${web}/developer/games/${nightShift.id}/publishing`);
        await connectBrowserWallet(devPage, portal);
        await portal.getByRole('heading', { name: 'Night Shift', level: 1 }).waitFor();
        await testers
          .getByText(
            'Before the operator publishes this game, its server can charge only your own wallet and the testers who accepted your invitation; nobody else, and each only within the daily allowance they gave the game',
            { exact: false },
          )
          .waitFor();
        await testers
          .getByText(
            'No testers yet: only your own wallet can be charged before the game is published.',
          )
          .waitFor();

        // A malformed address is refused in the page, before the arcade sees it.
        await field.fill('0x1234');
        await testers.getByRole('button', { name: 'Invite tester' }).click();
        await expect
          .poll(() => testers.getByRole('alert').textContent())
          .toBe(
            'A wallet address is 0x followed by 40 hexadecimal digits (0–9, a–f), such as 0x52908400098527886E0F7030069857D2E4169EE7.',
          );
        expect(await listTesters()).toEqual({ testers: [] });

        // A checksummed address: stored lower-case, an invitation and no more.
        for (const address of [testerAccount.address, bystander]) {
          await field.fill(address);
          await testers.getByRole('button', { name: 'Invite tester' }).click();
          await expect
            .poll(() => testers.getByRole('status').first().textContent())
            .toBe(
              `Invitation sent to ${getAddress(address)}. It becomes a tester once its player accepts in the arcade (Account → Testing).`,
            );
        }
        // Stored lower-case, shown checksummed as every address (issue 28).
        await testers
          .getByRole('list', { name: 'Testers' })
          .getByText(testerAccount.address)
          .waitFor();
        expect(await field.inputValue()).toBe('');
        expect(await listTesters()).toEqual({
          testers: [
            { wallet, addedAt: expect.any(String), state: 'invited', answeredAt: null },
            { wallet: bystander, addedAt: expect.any(String), state: 'invited', answeredAt: null },
          ],
        });

        // The player signs in: nothing of theirs can be charged yet.
        await page.goto(`${web}/games/${nightShift.id}`);
        await main.getByRole('heading', { name: 'Game not found' }).waitFor();
        await connectBrowserWallet(page);
        const player = (
          await server.api.arcade.db.query<{ id: string }>(
            'SELECT id FROM players WHERE wallet = $1',
            [wallet],
          )
        )[0]!;
        await mintHst(server.api.arcade, { id: player.id, amountUnits: wholeHstToUnits(5) });
        expect((await serverPlay(nightShift, player.id)).body).toMatchObject({
          code: 'player_not_tester',
        });

        // They see the invitation where they will: a count on the account chip, and on the
        // game's page, which they cannot open yet.
        await expect
          .poll(() => page.getByTestId('invitation-count').textContent())
          .toBe('1 invitation to test waiting');
        const notice = main.getByRole('region', { name: 'Invitation to test Night Shift' });
        await notice
          .getByText('invited you to test Night Shift before the arcade publishes it.', {
            exact: false,
          })
          .waitFor();
        expect(await notice.textContent()).toContain(developer.address);
        // What accepting lets it charge: its one tier's 1 HST a play, as it stands, within the
        // daily limit the player types; nothing is typed for them.
        expect(await notice.textContent()).toContain(
          'A play costs up to 1 HST now; its developer may raise that. Your daily limit bounds what all its plays may lock a day.',
        );
        const noticeLimit = notice.getByLabel('Daily limit for Night Shift (HST)');
        expect(await noticeLimit.inputValue()).toBe('');
        expect(await noticeLimit.getAttribute('placeholder')).toBe('e.g. 1');
        expect(await main.getByText('Game not found').count()).toBe(0);
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'testing-invitation-game-page');

        // The Testing page, from the account menu, lists it with who invited them.
        await openAccountMenu(page);
        await page.getByRole('link', { name: /^Testing/ }).click();
        const waiting = main.getByRole('list', { name: 'Waiting for your answer' });
        await waiting.getByText('Night Shift', { exact: true }).waitFor();
        expect(await waiting.textContent()).toContain(`Invited by ${developer.address}`);
        expect(await waiting.textContent()).toContain(
          'A play costs up to 1 HST now; its developer may raise that.',
        );
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'testing-invitations');

        // Accept needs a daily limit the arcade takes: without one, the page says so and sends
        // nothing, and the invitation still waits.
        const answers: string[] = [];
        page.on('request', (request) => {
          if (request.url().includes('/player/testing/')) {
            answers.push(`${request.method()} ${request.postData() ?? ''}`);
          }
        });
        const limitField = waiting.getByLabel('Daily limit for Night Shift (HST)');
        const accept = waiting.getByRole('button', {
          name: 'Accept the invitation to test Night Shift',
        });
        await accept.click();
        await expect
          .poll(() => waiting.getByRole('alert').textContent())
          .toBe('Choose a daily limit in HST to accept, such as 5; 0 allows only free plays.');
        expect(await limitField.getAttribute('aria-invalid')).toBe('true');
        await limitField.fill('1.123456789');
        await accept.click();
        await expect
          .poll(() => waiting.getByRole('alert').textContent())
          .toBe(
            'Enter the daily limit in HST as a number such as 10 or 2.5, with at most 8 decimals.',
          );
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'testing-invitation-limit-refused');
        expect(answers).toEqual([]);
        const token = await sessionToken(page);
        expect((await apiCall(token, 'GET', '/player/testing')).body).toMatchObject({
          invitations: [{ gameId: nightShift.id, state: 'invited', dailyLimit: null }],
        });
        expect(await allowanceUnits(player.id, nightShift.id)).toBe(0n);

        // 3 HST a day: sent as typed, stored as the player's allowance for the game.
        await limitField.fill('3');
        await accept.click();
        await expect
          .poll(() => main.getByRole('status').first().textContent())
          .toBe('You test Night Shift. It may charge you up to 3 HST a day.');
        expect(answers).toEqual(['PUT {"dailyLimit":"3"}']);
        const testing = main.getByRole('list', { name: 'Games you test' });
        await testing.getByRole('link', { name: 'Night Shift' }).waitFor();
        expect(await testing.getByRole('listitem').textContent()).toContain(
          'A play costs up to 1 HST now; its developer may raise that. It may charge you up to 3 HST a day.',
        );
        expect(await main.getByRole('alert').count()).toBe(0);
        await expect.poll(() => page.getByTestId('invitation-count').count()).toBe(0);
        expect(await allowanceUnits(player.id, nightShift.id)).toBe(wholeHstToUnits(3));
        await saveScreenshot(page, 'testing-accepted');

        // Now the game's server may charge them three 1 HST plays a day, no more.
        for (let play = 1; play <= 3; play++) {
          expect((await serverPlay(nightShift, player.id)).status).toBe(200);
        }
        expect(await serverPlay(nightShift, player.id)).toMatchObject({
          status: 403,
          body: { code: 'consent_required' },
        });

        // They may open its preview, which shows the allowance and what it spent today.
        await testing.getByRole('link', { name: 'Night Shift' }).click();
        await main.getByRole('heading', { name: 'Night Shift', level: 1 }).waitFor();
        await main
          .getByText('Only its developer and testers can open this game', { exact: false })
          .waitFor();
        const panel = main.getByRole('region', { name: 'What this game may charge you' });
        await expect
          .poll(() => panel.getByTestId('allowance-summary').textContent(), { timeout: 15_000 })
          .toBe('This game may charge you up to 3 HST a day.');
        expect(await panel.locator('dl').textContent()).toBe('Used today3 HSTRemaining today0 HST');
        expect(await panel.getByLabel('Daily limit (HST)').inputValue()).toBe('3');
        expect(
          await main.getByRole('link', { name: 'What this game may charge you a day' }).count(),
        ).toBe(1);
        // The three plays its server opened are left open: one line each, what they become once.
        const openPlays = main.getByTestId('open-play-notice');
        await expect
          .poll(() => openPlays.getByRole('listitem').allTextContents(), { timeout: 15_000 })
          .toEqual([
            expect.stringMatching(/^Standard, 1 HST, ends at /),
            expect.stringMatching(/^Standard, 1 HST, ends at /),
            expect.stringMatching(/^Standard, 1 HST, ends at /),
          ]);
        expect(await openPlays.locator('strong').textContent()).toBe(
          'You have 3 open plays on this game:',
        );
        expect(await seriousViolations(page)).toEqual([]);
        await panel.scrollIntoViewIfNeeded();
        await saveScreenshot(page, 'testing-preview-allowance');

        await devPage.reload();
        await testers
          .getByRole('list', { name: 'Testers' })
          .getByText('Accepted', { exact: true })
          .waitFor();
        expect(await seriousViolations(devPage)).toEqual([]);
        await testers.scrollIntoViewIfNeeded();
        await saveScreenshot(devPage, 'consent-portal-testers');

        // They leave: the game is refused again.
        await page.goto(`${web}/account/testing`);
        await testing.getByRole('button', { name: 'Stop testing Night Shift' }).click();
        await expect
          .poll(() => main.getByRole('status').first().textContent())
          .toBe('You left Night Shift: it can no longer charge you, from its next play.');
        await main
          .getByRole('list', { name: 'Declined or left' })
          .getByText('Night Shift', { exact: true })
          .waitFor();
        expect((await serverPlay(nightShift, player.id)).body).toMatchObject({
          code: 'player_not_tester',
        });
        // Leaving revoked the allowance too.
        expect(await allowanceUnits(player.id, nightShift.id)).toBe(0n);
        expect(await server.api.arcade.reads.playerDetails(player.id)).toMatchObject({
          balanceUnits: wholeHstToUnits(2),
        });

        // On a phone, the page reads as well.
        await page.setViewportSize(PHONE);
        await page.reload();
        await main
          .getByRole('list', { name: 'Declined or left' })
          .getByText('Night Shift', { exact: true })
          .waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'testing-invitations-phone');

        // They change their mind on the game's page: accepting there, with a new limit, opens
        // the preview.
        await page.setViewportSize(DESKTOP);
        await page.goto(`${web}/games/${nightShift.id}`);
        const again = main.getByRole('region', { name: 'Invitation to test Night Shift' });
        await again
          .getByText('You left: it cannot charge you. You may still accept.', { exact: false })
          .waitFor();
        expect(await again.getByLabel('Daily limit for Night Shift (HST)').inputValue()).toBe('');
        await again.getByLabel('Daily limit for Night Shift (HST)').fill('2.5');
        await again
          .getByRole('button', { name: 'Accept the invitation to test Night Shift' })
          .click();
        await main.getByRole('heading', { name: 'Night Shift', level: 1 }).waitFor();
        await main
          .getByText('Only its developer and testers can open this game', { exact: false })
          .waitFor();
        await expect
          .poll(() => panel.getByTestId('allowance-summary').textContent(), { timeout: 15_000 })
          .toBe('This game may charge you up to 2.5 HST a day.');
        expect(await allowanceUnits(player.id, nightShift.id)).toBe(250_000_000n);

        // The developer withdraws the other invitation.
        await devPage.reload();
        await testers
          .getByRole('button', { name: `Withdraw the invitation of ${getAddress(bystander)}` })
          .click();
        await expect
          .poll(() => testers.getByRole('status').first().textContent())
          .toBe(`Invitation of ${getAddress(bystander)} withdrawn.`);
        expect(await listTesters()).toEqual({
          testers: [
            {
              wallet,
              addedAt: expect.any(String),
              state: 'accepted',
              answeredAt: expect.any(String),
            },
          ],
        });
        expect(await seriousViolations(devPage)).toEqual([]);
      } finally {
        await devContext.close();
        await playerContext.close();
      }
    }, 180_000);
  },
);
