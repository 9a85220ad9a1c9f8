import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import { privateKeyToAccount, generatePrivateKey } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeHstToUnits } from '@coinop/core';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { uuidIds } from '../../src/ids.js';
import { publish } from '../../src/services/admin.js';
import { updateGame } from '../../src/store/games.js';
import { auditLedger, findAccount } from '../../src/store/ledger.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import {
  NO_CHROMIUM_REASON,
  hasChromium,
  ensureBrowserBuilds,
  launchChromium,
  saveScreenshot,
  seriousViolations,
  openAccountMenu,
  brokenImages,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { injectWallet } from '@coinop/testkit/eip1193';

/**
 * The client-side example game (examples/reaction), started from its own module. A JavaScript
 * workspace without types, so it is imported by a name the type checker does not follow.
 */
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

/**
 * The whole client-side path, end to end: a player connects an EIP-1193 wallet (a real key),
 * takes test HST, picks a tier, and plays the reaction example inside the arcade's iframe —
 * approving the play, scoring, paying for the gold theme — while the ledger and the leaderboard
 * move exactly as they should, and the rejected play and payment leave no records.
 */
describe.skipIf(!hasChromium)(
  `the arcade hosting the reaction example in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let reaction: ReactionServer;
    let browser: Browser;
    let gameId: string;
    let developerAccountId: string;
    let tiers: { id: string; name: string }[];

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-arcade-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'arcade-admin', faucetHst: 100 }),
      );
      const web = server.urls['web']!;
      const { arcade } = server.api;
      const developer = await ensureDeveloper(
        arcade.db,
        arcade.clock,
        uuidIds,
        '0x00000000000000000000000000000000000dE7e1',
      );
      developerAccountId = developer.accountId;
      const game = await registerGame(
        arcade,
        {
          developerId: developer.id,
          name: 'Reaction',
          description: 'Click when it turns green.',
          tagLine: 'How fast are you?',
          scoreDisplay: 'REVERSE',
          scoreUnit: 'ms',
        },
        [
          { name: 'Bronze', cost: 1 },
          { name: 'Gold', cost: 5 },
        ],
      );
      gameId = game.id;
      const { startReactionServer } = (await import(REACTION_SERVER)) as {
        startReactionServer: StartReaction;
      };
      reaction = await startReactionServer({ port: 0, arcade: web, gameId });
      await updateGame(arcade.db, arcade.clock, gameId, { url: reaction.url });
      await publish(arcade, gameId);
      tiers = (await arcade.games.get(gameId)).leaderboards.map((b) => ({
        id: b.id,
        name: b.name,
      }));
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await reaction?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const count = async (sql: string, params: unknown[] = []) =>
      Number(
        (
          await server.api.arcade.db.query<{ n: number }>(
            `SELECT count(*)::int AS n ${sql}`,
            params,
          )
        )[0]?.n,
      );

    async function expectStatus(game: FrameLocator, text: string | RegExp) {
      await expect
        .poll(() => game.locator('#status').textContent(), { timeout: 15_000 })
        .toMatch(text);
    }

    async function approvalDialog(page: Page, title: string) {
      const dialog = page.getByRole('dialog', { name: title });
      await dialog.waitFor();
      return dialog;
    }

    it('a player plays, scores and pays with approvals; rejections record nothing', async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      await injectWallet(page, account);
      const web = server.urls['web']!;
      try {
        await page.goto(`${web}/games/${gameId}`);
        await page.getByRole('heading', { name: 'Reaction', level: 1 }).waitFor();

        // Connect the wallet, then take test HST from the faucet.
        await page.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
        await page.getByRole('button', { name: 'Browser wallet' }).click();
        const balance = page.getByTestId('balance');
        await expect.poll(() => balance.textContent()).toBe('0 HST');
        await openAccountMenu(page);
        await page.getByRole('button', { name: 'Get 100 test HST' }).click();
        await expect.poll(() => balance.textContent()).toBe('100 HST');
        // The faucet says it paid, and where the HST went, in a toast (not only in a visually
        // hidden span).
        await expect
          .poll(() => page.getByTestId('toasts').textContent())
          .toContain('100 test HST added to your arcade balance (now 100 HST).');
        const player = (
          await server.api.arcade.db.query<{ id: string; name: string; account_id: string }>(
            'SELECT id, name, account_id FROM players WHERE wallet = $1',
            [account.address.toLowerCase()],
          )
        )[0]!;

        // The Gold tier, 5 HST a play.
        await page.getByRole('radio', { name: new RegExp(`^${tiers[1]!.name} `) }).check();
        const game = page.frameLocator('iframe.game-frame');
        await expectStatus(game, 'Ready. Press Play to start.');
        await saveScreenshot(page, 'game-page-ready');

        // A play the player rejects: the game does not start and nothing is recorded.
        const transfersBefore = await count('FROM transfers');
        await game.getByRole('button', { name: 'Play' }).click();
        let dialog = await approvalDialog(page, 'Lock HST to play?');
        expect(await dialog.textContent()).toContain('Gold');
        expect(await dialog.textContent()).toContain('5 HST');
        await dialog.getByRole('button', { name: 'Reject' }).click();
        await expectStatus(game, 'The play was not approved, so the game did not start.');
        expect(await count('FROM plays WHERE player_id = $1', [player.id])).toBe(0);
        expect(await count('FROM wallet_approvals WHERE player_id = $1', [player.id])).toBe(0);
        expect(await count('FROM transfers')).toBe(transfersBefore);

        // A play the player approves: the wallet signs, 5 HST are locked, the round starts.
        // Approve takes no click for its first 800 ms (a game decides when the dialog opens, and
        // could time it under a click meant for the game): watched from inside the page.
        await page.evaluate(`(() => {
          const seen = {};
          window.approveArming = seen;
          const check = () => {
            const approve = [...document.querySelectorAll('dialog button')].find(
              (b) => b.textContent === 'Approve',
            );
            if (!approve) return;
            seen.shownAt ??= performance.now();
            seen.disabledWhenShown ??= approve.disabled;
            if (!approve.disabled) seen.armedAt ??= performance.now();
          };
          new MutationObserver(check).observe(document.body, {
            subtree: true,
            childList: true,
            attributes: true,
            attributeFilter: ['disabled'],
          });
        })()`);
        await game.getByRole('button', { name: 'Play' }).click();
        dialog = await approvalDialog(page, 'Lock HST to play?');
        const approve = dialog.getByRole('button', { name: 'Approve' });
        await expect.poll(() => approve.isEnabled()).toBe(true);
        const arming = (await page.evaluate('window.approveArming')) as {
          shownAt: number;
          disabledWhenShown: boolean;
          armedAt: number;
        };
        expect(arming.disabledWhenShown).toBe(true);
        expect(arming.armedAt - arming.shownAt).toBeGreaterThanOrEqual(799);
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'approval');
        await approve.click();
        await expectStatus(game, 'Wait for green…');
        await expect.poll(() => balance.textContent()).toBe('95 HST');
        await expectStatus(game, 'Green! Press now.');
        await game.locator('#pad').click();
        await expectStatus(game, /^\d+ ms: score submitted\. Press Play for another go\.$/);
        const reactionMs = Number(
          /^(\d+) ms/.exec((await game.locator('#status').textContent())!)![1],
        );

        // The score is on the board, the player sees the rank, the HST moved. The arcade groups
        // a score's thousands (1,234 ms); the game writes its own digits.
        const shownMs = reactionMs.toLocaleString('en-US');
        const notice = page.getByTestId('arcade-notice');
        await expect
          .poll(() => notice.textContent())
          .toBe(`Your score ${shownMs} ms ranks #1: you made the leaderboard!`);
        const leaders = page.getByRole('region', { name: 'Leaders: Gold' });
        await expect
          .poll(() => leaders.locator('li').first().textContent())
          .toBe(`${player.name}${shownMs} ms`);
        // Leading the board is celebrated beside it.
        expect(await page.locator('.celebration strong').textContent()).toBe('Top of the board!');
        await saveScreenshot(page, 'game-page-scored');
        // The same moment on a phone, for the screenshots of every page (docs/screenshots).
        await page.setViewportSize({ width: 360, height: 740 });
        await page.getByTestId('arcade-notice').scrollIntoViewIfNeeded();
        await saveScreenshot(page, 'game-page-scored-phone');
        await page.setViewportSize({ width: 1366, height: 900 });
        const plays = await server.api.arcade.db.query<{
          id: string;
          status: string;
          cost_units: bigint;
        }>('SELECT id, status, cost_units FROM plays WHERE player_id = $1', [player.id]);
        expect(plays).toEqual([
          { id: expect.any(String), status: 'scored', cost_units: wholeHstToUnits(5) },
        ]);
        const scores = await server.api.arcade.db.query<{ score: number; leader_rank: number }>(
          'SELECT score, leader_rank FROM scores WHERE play_id = $1',
          [plays[0]!.id],
        );
        expect(scores).toEqual([{ score: reactionMs, leader_rank: 1 }]);
        const approvals = await server.api.arcade.db.query<{ kind: string; wallet: string }>(
          'SELECT kind, wallet FROM wallet_approvals WHERE subject_id = $1 ORDER BY kind',
          [plays[0]!.id],
        );
        const wallet = account.address.toLowerCase();
        expect(approvals).toEqual([
          { kind: 'play', wallet },
          { kind: 'score', wallet },
        ]);
        const playerAccount = await findAccount(server.api.arcade.db, player.account_id);
        // Nobody led the board when the play began: the leaders' 70% (3.5 HST) came back to the
        // player, never to the developer, who takes its 20% (1 HST) as for any play.
        expect(playerAccount!.creditsPosted - playerAccount!.debitsPosted).toBe(
          wholeHstToUnits(95) + (wholeHstToUnits(5) * 70n) / 100n,
        );
        const developer = await findAccount(server.api.arcade.db, developerAccountId);
        expect(developer!.creditsPosted).toBe(wholeHstToUnits(1));

        // A payment the player rejects: no theme, no transfer.
        const beforePayment = await count('FROM transfers');
        await game.getByRole('button', { name: 'Gold theme — 1 HST' }).click();
        dialog = await approvalDialog(page, 'Pay the developer?');
        await dialog.getByRole('button', { name: 'Reject' }).click();
        await expectStatus(game, 'The payment was not made, so the gold theme was not applied.');
        expect(await count('FROM transfers')).toBe(beforePayment);
        expect(await count('FROM game_purchases WHERE player_id = $1', [player.id])).toBe(0);

        // A payment the player approves: 1 HST to the developer, the theme is provisioned.
        await game.getByRole('button', { name: 'Gold theme — 1 HST' }).click();
        dialog = await approvalDialog(page, 'Pay the developer?');
        await dialog.getByRole('button', { name: 'Approve' }).click();
        await expectStatus(
          game,
          /^Paid \(transaction [0-9a-f-]{36}\)\. The gold theme is yours\.$/,
        );
        await expect.poll(() => balance.textContent()).toBe('97.5 HST');
        const purchases = await server.api.arcade.db.query<{ amount_units: bigint }>(
          'SELECT amount_units FROM game_purchases WHERE player_id = $1',
          [player.id],
        );
        expect(purchases).toEqual([{ amount_units: wholeHstToUnits(1) }]);
        expect((await findAccount(server.api.arcade.db, developerAccountId))!.creditsPosted).toBe(
          wholeHstToUnits(1) + wholeHstToUnits(1),
        );

        expect(await seriousViolations(page)).toEqual([]);
        // An avatar that cannot load shows a placeholder, never a broken-image icon.
        expect(await brokenImages(page)).toEqual([]);
        await saveScreenshot(page, 'game-page');

        // Another tier: the last score's rank no longer holds, and that tier's board shows.
        await page.getByRole('radio', { name: new RegExp(`^${tiers[0]!.name} `) }).check();
        expect(await notice.textContent()).toBe('');
        const bronze = page.getByRole('region', { name: 'Leaders: Bronze' });
        await bronze.waitFor();
        expect(await bronze.locator('li').count()).toBe(0);
        expect(await bronze.locator('p.empty-board').textContent()).toBe('No scores yet');
        expect(await page.locator('.celebration').count()).toBe(0);
        await page.getByRole('radio', { name: new RegExp(`^${tiers[1]!.name} `) }).check();
        await expect
          .poll(() => leaders.locator('li').first().textContent())
          .toBe(`${player.name}${shownMs} ms`);

        // The session and the balance survive a reload.
        await page.reload();
        await expect.poll(() => page.getByTestId('balance').textContent()).toBe('97.5 HST');
        expect(await page.locator('.account-name').textContent()).toBe(player.name);

        const audit = await auditLedger(server.api.arcade.db);
        expect(audit.balanced).toBe(true);
      } finally {
        await context.close();
      }
    });

    it('a signed-out player pressing Play is asked to connect; closing it tells the game why', async () => {
      const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
      const page = await context.newPage();
      try {
        const playsBefore = await count('FROM plays');
        await page.goto(`${server.urls['web']!}/games/${gameId}`);
        const game = page.frameLocator('iframe.game-frame');
        await expectStatus(game, 'Ready. Press Play to start.');
        // Play opens the header's connect dialog, where the player is looking (not a line above
        // the game, off screen on a phone); closing it without connecting refuses the play, and
        // the game hears why (the reply's `refusal`), not "the play was not approved".
        await game.getByRole('button', { name: 'Play' }).click();
        const connect = page.getByRole('dialog', { name: 'Connect a wallet' });
        await connect.waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'connect-dialog-phone');
        await connect.getByRole('button', { name: 'Cancel' }).click();
        const notSignedIn = 'Not signed in: connect a wallet in the arcade first.';
        await expectStatus(game, notSignedIn);
        await expect.poll(() => page.getByTestId('arcade-notice').textContent()).toBe(notSignedIn);
        // On a phone that message is above the game, out of sight: a toast shows it too.
        const toasts = page.getByTestId('toasts');
        expect(await toasts.textContent()).toContain(notSignedIn);
        // At the top, under the header, full width: clear of the keyboard and the button pressed.
        const header = (await page.locator('.site-header').boundingBox())!;
        const home = (await toasts.boundingBox())!;
        expect(home.y).toBeGreaterThanOrEqual(header.y + header.height);
        expect(home.y + home.height).toBeLessThan(740 / 2);
        expect(home.width).toBeGreaterThanOrEqual(360 - 2 * 16);
        // A field focused where the toasts are sends them to the other edge, and back when it goes.
        const field = (await page.evaluate(`(() => {
          const input = document.createElement('input');
          input.setAttribute('aria-label', 'Probe');
          input.style.cssText = 'position:fixed;left:0;width:100%;top:${home.y}px;height:${home.height}px';
          document.body.append(input);
          input.focus();
          return input.getBoundingClientRect().toJSON();
        })()`)) as { y: number; height: number };
        const away = (await toasts.boundingBox())!;
        expect(away.y).toBeGreaterThanOrEqual(field.y + field.height);
        await page.evaluate(`document.querySelector('input[aria-label="Probe"]').remove()`);
        await expect.poll(async () => (await toasts.boundingBox())!.y).toBe(home.y);
        await saveScreenshot(page, 'toast-phone');
        expect(await count('FROM plays')).toBe(playsBefore);
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          360,
        );
        expect(await seriousViolations(page)).toEqual([]);

        // Play again, and connect this time: the play goes on to its approval.
        await game.getByRole('button', { name: 'Play' }).click();
        await connect.waitFor();
        await page.getByRole('button', { name: 'Arcade wallet' }).click();
        await page.getByTestId('balance').waitFor();
        const approval = await approvalDialog(page, 'Lock HST to play?');
        // The message about the signed-out player went with the sign-in, and its toast too.
        await expect.poll(() => page.getByTestId('arcade-notice').textContent()).toBe('');
        expect(await page.getByTestId('toasts').textContent()).not.toContain(notSignedIn);
        // A new player has no HST: the dialog says where to get some.
        expect(await approval.getByRole('alert').textContent()).toBe(
          'Not enough HST: you have 0 HST. Add HST on your account page.',
        );
        const addHst = approval.getByRole('link', { name: 'Add HST on your account page' });
        expect(await addHst.getAttribute('href')).toBe('/account');
        await saveScreenshot(page, 'approval-not-enough-phone');
        await approval.getByRole('button', { name: 'Reject' }).click();
        await expectStatus(game, 'The play was not approved, so the game did not start.');
        expect(await count('FROM plays')).toBe(playsBefore);

        // The account menu opens from the header's chip, on a phone too.
        await openAccountMenu(page);
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'account-menu-phone');
        await page.keyboard.press('Escape');
        await page.locator('.account-menu:popover-open').waitFor({ state: 'detached' });
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          360,
        );
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'game-page-phone');
      } finally {
        await context.close();
      }
    });

    it("a signed-out player's payment asks them to connect, as Play does; closing it tells the game why", async () => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
      const page = await context.newPage();
      try {
        const purchasesBefore = await count('FROM game_purchases');
        await page.goto(`${server.urls['web']!}/games/${gameId}`);
        const game = page.frameLocator('iframe.game-frame');
        await expectStatus(game, 'Ready. Press Play to start.');
        // The gold theme asks for a payment. Signed out, the page said "Connect a wallet to pay."
        // above the game and the game heard only "not paid"; now the header's connect dialog
        // opens, and closing it answers the game with the reason (the reply's `refusal`).
        const buy = game.getByRole('button', { name: 'Gold theme — 1 HST' });
        await buy.click();
        const connect = page.getByRole('dialog', { name: 'Connect a wallet' });
        await connect.waitFor();
        await connect.getByRole('button', { name: 'Cancel' }).click();
        const notSignedIn = 'Not signed in: connect a wallet in the arcade first.';
        await expectStatus(game, notSignedIn);
        await expect.poll(() => page.getByTestId('arcade-notice').textContent()).toBe(notSignedIn);
        // Beside the game on a laptop, in sight: said once, with no toast.
        expect(await page.getByTestId('toasts').textContent()).not.toContain(notSignedIn);
        await saveScreenshot(page, 'payment-signed-out');

        // Again, connecting this time: the payment goes on to its approval.
        await buy.click();
        await connect.waitFor();
        await page.getByRole('button', { name: 'Arcade wallet' }).click();
        await page.getByTestId('balance').waitFor();
        const approval = await approvalDialog(page, 'Pay the developer?');
        await expect.poll(() => page.getByTestId('arcade-notice').textContent()).toBe('');
        await approval.getByRole('button', { name: 'Reject' }).click();
        await expectStatus(game, 'The payment was not made, so the gold theme was not applied.');
        expect(await count('FROM game_purchases')).toBe(purchasesBefore);
      } finally {
        await context.close();
      }
    });
  },
);
