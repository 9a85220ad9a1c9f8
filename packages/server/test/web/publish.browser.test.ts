import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, FrameLocator } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { uuidIds } from '../../src/ids.js';
import { updateGame } from '../../src/store/games.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import {
  checkAtBothSizes,
  DESKTOP,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  NO_CHROMIUM_REASON,
  openAccountMenu,
  openGameSection,
  SCREENSHOT_DIR,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { injectWallet } from '@coinop/testkit/eip1193';

/** The client-side example game, imported by a name the type checker does not follow. */
const REACTION_SERVER = '@coinop/example-reaction/src/server.js';
type StartReaction = (options: {
  port: number;
  arcade: string;
  gameId: string;
}) => Promise<{ url: string; close(): Promise<void> }>;

const ADMIN_TOKEN = 'publish-admin-token';

/**
 * Issue 17: "Open it in the arcade" on an unpublished game said "Game not found", a developer
 * could not ask for publishing, and everything an operator did was the CLI. Here a developer
 * previews and plays their unpublished game, requests publishing from the portal, reads the
 * operator's decline, asks again, and the operator approves in /admin: the game is in the
 * catalog. The console's other screens show real data: a balanced audit, a mint that moves a
 * balance, a key rotation. Every page is checked with axe at 1366×900 and 360 px.
 */
describe.skipIf(!hasChromium)(
  `preview, publish requests and the operator console in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let reaction: { close(): Promise<void> };
    let gameId: string;
    const developerKey = privateKeyToAccount(generatePrivateKey());

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-publish-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: ADMIN_TOKEN, faucetHst: 100 }),
      );
      const { arcade } = server.api;
      const developer = await ensureDeveloper(
        arcade.db,
        arcade.clock,
        uuidIds,
        developerKey.address,
      );
      const game = await registerGame(
        arcade,
        {
          developerId: developer.id,
          name: 'Quick Draw',
          description: 'Click when it turns green; the fastest hand tops the board.',
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
      const started = await startReactionServer({ port: 0, arcade: server.urls['web']!, gameId });
      reaction = started;
      await updateGame(arcade.db, arcade.clock, gameId, { url: started.url });
      browser = await launchChromium();
    }, 180_000);
    afterAll(async () => {
      await browser?.close();
      await reaction?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const status = (game: FrameLocator, text: string | RegExp) =>
      expect.poll(() => game.locator('#status').textContent(), { timeout: 15_000 }).toMatch(text);

    it('a developer previews and requests publishing; the operator approves in /admin', async () => {
      const web = server.urls['web']!;
      const developerContext = await browser.newContext({ viewport: DESKTOP });
      const operatorContext = await browser.newContext({ viewport: DESKTOP });
      const strangerContext = await browser.newContext({ viewport: DESKTOP });
      const dev = await developerContext.newPage();
      const op = await operatorContext.newPage();
      const stranger = await strangerContext.newPage();
      op.on('dialog', (dialog) => void dialog.accept());
      await injectWallet(dev, developerKey);
      try {
        // Signed in with the developer's wallet, the portal links to a preview of the game.
        await dev.goto(`${web}/developer`);
        await dev.getByRole('main').getByRole('button', { name: 'Connect wallet' }).click();
        await dev.getByRole('dialog', { name: 'Connect a wallet' }).waitFor();
        await dev.getByRole('button', { name: 'Browser wallet' }).click();
        await dev.getByRole('main').getByRole('link', { name: 'Quick Draw' }).click();
        await openGameSection(dev, 'Publishing');
        await dev.getByRole('heading', { name: 'Publishing', level: 2 }).waitFor();
        // The game's overview carries its links.
        await openGameSection(dev, 'Overview');
        await dev
          .getByRole('main')
          .getByRole('link', { name: 'Preview it in the arcade', exact: true })
          .click();

        // The preview: a clear banner, and a real play approved and charged as any play.
        await dev.waitForURL(`${web}/games/${gameId}`);
        await dev.getByRole('heading', { name: 'Quick Draw', level: 1 }).waitFor();
        expect(await dev.getByTestId('preview-banner').textContent()).toContain(
          'Preview — not listed in the catalog.',
        );
        const balance = dev.getByTestId('balance');
        await openAccountMenu(dev);
        await dev.getByRole('button', { name: 'Get 100 test HST' }).click();
        await expect.poll(() => balance.textContent()).toBe('100 HST');
        const frame = dev.frameLocator('iframe.game-frame');
        await status(frame, 'Ready. Press Play to start.');
        await frame.getByRole('button', { name: 'Play' }).click();
        const approval = dev.getByRole('dialog', { name: 'Lock HST to play?' });
        await approval.waitFor();
        await approval.getByRole('button', { name: 'Approve' }).click();
        await expect.poll(() => balance.textContent()).toBe('99 HST');
        await status(frame, 'Green! Press now.');
        await frame.locator('#pad').click();
        await status(frame, /^\d+ ms: score submitted\./);
        await checkAtBothSizes(dev, 'preview-game');

        // Anyone else is told the game does not exist, as before.
        await stranger.goto(`${web}/games/${gameId}`);
        await stranger.getByRole('heading', { name: 'Game not found', level: 1 }).waitFor();
        await stranger.getByText('Connect your wallet to preview it.', { exact: false }).waitFor();

        // The developer asks for publishing.
        await dev.goto(`${web}/developer/games/${gameId}/publishing`);
        const publishing = dev.getByRole('region', { name: 'Publishing' });
        await publishing.getByLabel('Note to the operator (optional)').fill('First release.');
        await publishing.getByRole('button', { name: 'Request publishing' }).click();
        await publishing.getByText('Waiting for review').waitFor();
        await checkAtBothSizes(dev, 'portal-publish-pending');
        await publishing.screenshot({
          path: `${SCREENSHOT_DIR}portal-publish-section-pending.png`,
        });

        // The operator signs in to the console with the admin token; a wrong one is refused.
        await op.goto(`${web}/admin`);
        await op.getByRole('heading', { name: 'Operator sign-in', level: 1 }).waitFor();
        await checkAtBothSizes(op, 'admin-sign-in');
        await op.getByLabel('Admin token').fill('not-the-token');
        await op.getByRole('button', { name: 'Sign in' }).click();
        await op
          .getByRole('alert')
          .getByText('That is not the admin token of this arcade.')
          .waitFor();
        await op.getByLabel('Admin token').fill(ADMIN_TOKEN);
        await op.getByRole('button', { name: 'Sign in' }).click();
        const queue = op.getByRole('list', { name: 'Publish requests' });
        const card = queue.getByRole('listitem').filter({ hasText: 'Quick Draw' });
        await card.getByText('First release.').waitFor();
        // Checksummed, as every address the arcade shows (issue 28).
        await card.getByText(developerKey.address).waitFor();
        await checkAtBothSizes(op, 'admin-queue');

        // Declined with a reason, which the developer reads; they ask again.
        await card.getByRole('button', { name: 'Decline…' }).click();
        await card.getByLabel('Reason for the developer').fill('Add a cover image first.');
        await card.getByRole('button', { name: 'Decline request' }).click();
        await op.getByText('Quick Draw: declined.').waitFor();
        await op.getByText('No requests waiting.').waitFor();
        // Issue 31: the portal shows the decision live, and the bell tells of it.
        await publishing.getByText('Add a cover image first.').waitFor();
        const bell = dev.getByTestId('notifications-bell');
        await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications: 1 new');
        await checkAtBothSizes(dev, 'portal-publish-declined');
        await bell.click();
        await dev
          .getByTestId('notifications-list')
          .getByRole('link', { name: 'Quick Draw was not published: Add a cover image first.' })
          .waitFor();
        await checkAtBothSizes(dev, 'portal-publish-declined-notification');
        await dev.keyboard.press('Escape');
        await publishing.screenshot({
          path: `${SCREENSHOT_DIR}portal-publish-section-declined.png`,
        });
        await publishing.getByLabel('Note to the operator (optional)').fill('Cover added.');
        await publishing.getByRole('button', { name: 'Request publishing' }).click();
        await publishing.getByText('Waiting for review').waitFor();

        // Approved: the game is in the catalog, its page without the preview banner.
        await op.reload();
        await card.getByText('Cover added.').waitFor();
        await card.getByRole('button', { name: 'Approve and publish' }).click();
        await op.getByText('Quick Draw: approved and published.').waitFor();
        await stranger.goto(`${web}/`);
        await stranger.getByRole('main').getByText('Quick Draw').first().waitFor();
        await stranger.goto(`${web}/games/${gameId}`);
        await stranger.getByRole('heading', { name: 'Quick Draw', level: 1 }).waitFor();
        expect(await stranger.getByTestId('preview-banner').count()).toBe(0);
        // Live again: no reload.
        await publishing.getByText("The game is in the arcade's catalog.").waitFor();
        await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notifications: 1 new');
      } finally {
        await developerContext.close();
        await strangerContext.close();
        await operatorContext.close();
      }
    }, 180_000);

    it('the console shows real data: games, people, a balanced audit, a mint, a key rotation', async () => {
      const web = server.urls['web']!;
      const context = await browser.newContext({ viewport: DESKTOP });
      const op = await context.newPage();
      op.on('dialog', (dialog) => void dialog.accept());
      const { arcade } = server.api;
      const [player] = await arcade.db.query<{ id: string; name: string }>(
        'SELECT id, name FROM players WHERE wallet = $1',
        [developerKey.address.toLowerCase()],
      );
      try {
        await op.goto(`${web}/admin/games`);
        await op.getByLabel('Admin token').fill(ADMIN_TOKEN);
        await op.getByRole('button', { name: 'Sign in' }).click();
        const row = op.getByRole('row').filter({ hasText: 'Quick Draw' });
        await row.getByText('published', { exact: true }).waitFor();
        await checkAtBothSizes(op, 'admin-games');

        // Suspend and resume from the table.
        await row.getByRole('button', { name: 'Suspend Quick Draw' }).click();
        await row.getByText('suspended', { exact: true }).waitFor();
        await row.getByRole('button', { name: 'Resume Quick Draw' }).click();
        await row.getByText('published', { exact: true }).waitFor();

        // The player who previewed, found by name: 99.7 HST after their one play settled (a board
        // nobody led: its leaders' 0.7 HST came back to them).
        await op
          .getByRole('navigation', { name: 'Console' })
          .getByRole('link', { name: 'Players' })
          .click();
        await op.getByLabel('Search by id, wallet or name').fill(player!.name);
        await op.getByRole('button', { name: 'Search' }).click();
        const playerRow = op.getByRole('row').filter({ hasText: player!.id });
        await playerRow.getByText('99.7 HST').waitFor();
        await checkAtBothSizes(op, 'admin-players');

        // Their screen: balances and their history, the preview's play with its score in ms.
        await playerRow.getByRole('link', { name: player!.name }).click();
        await op.waitForURL(`${web}/admin/players/${player!.id}`);
        await op.getByRole('heading', { name: player!.name, level: 1 }).waitFor();
        const history = op.getByRole('region', { name: 'History' });
        const playLine = history.locator('tr[data-kind="play"]');
        await expect
          .poll(() => playLine.locator('td').nth(1).textContent())
          .toMatch(/^Played Bronze: scored [\d,]+ ms, ranked #1$/);
        expect(await playLine.locator('td').nth(2).textContent()).toBe('Quick Draw');
        expect(await history.locator('tr[data-kind="grant"] td').nth(3).textContent()).toBe(
          '+100 HST',
        );
        expect(await history.locator('tr[data-kind="returned"] td').nth(3).textContent()).toBe(
          '+0.7 HST',
        );
        await history.getByText('That is everything since they joined.').waitFor();
        await checkAtBothSizes(op, 'admin-player');

        await op
          .getByRole('navigation', { name: 'Console' })
          .getByRole('link', { name: 'Developers' })
          .click();
        await op.getByRole('row').filter({ hasText: developerKey.address }).waitFor();
        await checkAtBothSizes(op, 'admin-developers');

        // The ledger balances; a mint of 12.5 HST moves the player's balance to 112.2 HST.
        await op
          .getByRole('navigation', { name: 'Console' })
          .getByRole('link', { name: 'Ledger' })
          .click();
        await expect
          .poll(() => op.getByTestId('audit-verdict').textContent())
          .toBe('Balanced: debits equal credits, no account below zero.');
        const mintForm = op.getByRole('region', { name: 'Mint HST' });
        await mintForm.getByLabel('Account, player, developer id or wallet').fill(player!.id);
        await mintForm.getByLabel('Amount (HST)').fill('12.5');
        await op.getByRole('button', { name: 'Mint', exact: true }).click();
        await op
          .getByText(`Minted 12.5 HST into ${player!.id}: its balance is now 112.2 HST.`)
          .waitFor();
        await expect
          .poll(() => op.getByTestId('audit-verdict').textContent())
          .toContain('Balanced');
        await checkAtBothSizes(op, 'admin-ledger');

        // A key rotation names the new key and the one it retired.
        const [before] = await arcade.db.query<{ kid: string }>(
          'SELECT kid FROM signing_keys WHERE retired_at IS NULL AND activated_at IS NOT NULL',
        );
        await op
          .getByRole('navigation', { name: 'Console' })
          .getByRole('link', { name: 'Sign-in keys' })
          .click();
        await op.getByRole('button', { name: 'Rotate the signing key' }).click();
        await op.getByText(`${before!.kid} is retired`, { exact: false }).waitFor();
        await checkAtBothSizes(op, 'admin-keys');
        // After a leak, every key goes: the new active one and its next are all that remain.
        await op.getByRole('button', { name: 'Revoke every signing key' }).click();
        await op.getByText('every session signed before is refused', { exact: false }).waitFor();
        const left = await arcade.db.query<{ kid: string; active: boolean }>(
          `SELECT kid, activated_at IS NOT NULL AS active FROM signing_keys ORDER BY 2 DESC`,
        );
        expect(left.map((k) => k.active)).toEqual([true, false]);
        await op
          .getByText(new RegExp(`^Revoked \\d+ keys: new key ${left[0]!.kid} signs from now on`))
          .waitFor();

        // Signing out forgets the token: the console asks for it again.
        await op.getByRole('button', { name: 'Sign out' }).click();
        await op.getByRole('heading', { name: 'Operator sign-in', level: 1 }).waitFor();
        expect(await op.evaluate('sessionStorage.length')).toBe(0);
      } finally {
        await context.close();
      }
    });
  },
);
