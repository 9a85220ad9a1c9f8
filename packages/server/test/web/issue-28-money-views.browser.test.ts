import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arcadeVaultAbi, hstAbi, uuidToBytes16 } from '@coinop/contracts';
import type { Browser, Locator, Page } from 'playwright-core';
import { availableUnits } from '@coinop/core';
import { createWalletClient, http, parseEther, type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { anvil as anvilChain } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openSignedIn,
  DESKTOP,
  NO_CHROMIUM_REASON,
  PHONE,
  SCREENSHOT_DIR,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  openAccountMenu,
  saveScreenshot,
  seriousViolations,
  type Viewport,
} from '@coinop/testkit/browser';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { findAccount } from '../../src/store/ledger.js';
import { findPlayer } from '../../src/store/players.js';
import {
  chainConfigFor,
  HST,
  sealOperatorKey,
  startArcadeChain,
  type ArcadeChain,
} from '../fixtures/chain.js';
import { LONG, PAID_TIER_UNITS, seedLongArcade, type LongArcade } from '../fixtures/long-arcade.js';

/**
 * Issue 28, items 2 to 4, in headless Chromium against a real Anvil and an arcade in chain mode
 * whose faucet mints to the player's wallet, as `npm start` runs it (PGlite).
 *
 * What broke: after "Get 100 test HST" the account page kept "HST in your wallet 0 HST" and "Your
 * wallet has no ETH" until a reload, and the toast said "Added 100 test HST to your balance" while
 * the HST went to the wallet; every page scrolled sideways on a 360 px phone once the balance had
 * decimals (57.17027776 HST), the approval dialog cut off; addresses were lowercase in some
 * places and checksummed in others.
 */

const ADMIN_TOKEN = 'issue-28-admin-token';
const DEPOSIT = '57.17027776';
const DEPOSIT_UNITS = 5_717_027_776n;
/** Deposited from the wallet on chain before the phone pass: a balance in the billions. */
const LARGE_UNITS = 1_234_567_890n * HST + 12_345_678n;
/** A short phone: the approval dialog is taller than its screen. */
const SHORT_PHONE: Viewport = { width: 360, height: 640 };

const REACTION_SERVER = '@coinop/example-reaction/src/server.js';
interface ReactionServer {
  url: string;
  close(): Promise<void>;
}
type StartReaction = (options: {
  port: number;
  arcade: string;
  gameId?: string;
}) => Promise<ReactionServer>;

describe.skipIf(!hasChromium)(
  `money views and small screens in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let chain: ArcadeChain;
    let vault: Address;
    let dataDir: string;
    let server: RunningServer;
    let reaction: ReactionServer;
    let browser: Browser;
    let seeded: LongArcade;
    const key = generatePrivateKey();
    const wallet = privateKeyToAccount(key).address;
    const shortWallet = `${wallet.slice(0, 6)}…${wallet.slice(-4)}`;

    beforeAll(async () => {
      ensureBrowserBuilds();
      chain = await startArcadeChain();
      const deployed = await chain.newVault();
      vault = deployed.vault;
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-issue-28-'));
      const keyFile = await sealOperatorKey(chain, dataDir);
      server = await startServer(
        testConfig({
          apiPort: 0,
          dataDir,
          adminToken: ADMIN_TOKEN,
          faucetHst: 100,
          chain: chainConfigFor(chain, deployed, {
            confirmations: 0,
            pollIntervalMs: 200,
            operatorKeyFile: keyFile,
            publicRpcUrl: chain.anvil.rpcUrl,
            // The faucet mints test HST to the player's wallet, as on `--dev-chain`.
            devChainMinter: chain.admin.account.address,
          }),
        }),
      );
      const { startReactionServer } = (await import(REACTION_SERVER)) as {
        startReactionServer: StartReaction;
      };
      reaction = await startReactionServer({ port: 0, arcade: server.urls['web']! });
      seeded = await seedLongArcade(server, {
        wallet,
        gameUrl: reaction.url,
        adminToken: ADMIN_TOKEN,
      });
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await reaction?.close();
      await server?.close();
      await chain?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const signedIn = (viewport: Viewport, path: string) =>
      openSignedIn(browser, {
        url: `${server.urls['web']!}${path}`,
        key,
        viewport,
        permissions: ['clipboard-read', 'clipboard-write'],
      });

    const toasts = (page: Page) => page.getByTestId('toasts').textContent();
    const exactOf = (page: Page, testId: string) =>
      page.getByTestId(testId).locator('.hst').getAttribute('title');

    it('the faucet, the balances and the history follow each move without a reload, and say where the HST went', async () => {
      const { context, page } = await signedIn(DESKTOP, '/account');
      try {
        const walletHst = page.getByTestId('wallet-hst');
        await expect.poll(() => walletHst.textContent()).toBe('0 HST');
        expect(await page.getByTestId('wallet-eth').textContent()).toBe('0 ETH');
        // The wallet's lack points to the faucet, which is on this page too.
        expect(await page.getByTestId('no-gas').textContent()).toBe(
          'Your wallet holds no HST and no ETH to pay the network fee for a deposit. Get 100 ' +
            'test HST below: the faucet sends a little ETH for the fees with it.',
        );
        const offer = page.getByTestId('faucet-offer');
        expect(await offer.textContent()).toContain('sends 100 test HST to your wallet');
        // The checksummed address, as everywhere.
        expect(
          await page.locator('.wallet-facts [data-address]').getAttribute('data-address'),
        ).toBe(wallet);

        await offer.getByRole('button', { name: 'Get 100 test HST' }).click();
        await expect
          .poll(() => toasts(page))
          .toContain(
            `100 test HST sent to your wallet ${shortWallet}, not to your arcade balance: ` +
              'deposit it below to play with it.',
          );
        // The wallet's holdings are read again at once; the arcade balance did not move.
        await expect.poll(() => walletHst.textContent()).toBe('100 HST');
        expect(await page.getByTestId('wallet-eth').textContent()).toBe('1 ETH');
        expect(await page.getByTestId('no-gas').count()).toBe(0);
        expect(await page.getByTestId('no-hst').count()).toBe(0);
        expect(await page.getByTestId('balance').textContent()).toBe('0 HST');
        expect(await page.getByTestId('available').textContent()).toBe('0 HST');
        expect(await seriousViolations(page)).toEqual([]);
        await saveScreenshot(page, 'faucet-result');

        // A deposit with every decimal: the header, the balance, the wallet, the withdraw form's
        // hint and the history all follow.
        await page.getByLabel('Amount to deposit (HST)').fill(DEPOSIT);
        await page.getByRole('button', { name: 'Deposit', exact: true }).click();
        await expect
          .poll(() => page.locator('.progress-step').getAttribute('data-step'), {
            timeout: 30_000,
          })
          .toBe('credited');
        await expect.poll(() => exactOf(page, 'balance')).toBe(`${DEPOSIT} HST`);
        expect(await page.getByTestId('balance').locator('span[aria-hidden]').textContent()).toBe(
          '≈57.17',
        );
        expect(await page.getByTestId('available').textContent()).toContain(
          `Exactly ${DEPOSIT} HST`,
        );
        await expect.poll(() => walletHst.textContent()).toBe('42.82972224 HST');
        await expect
          .poll(() => page.locator('.history-table tbody tr').first().textContent())
          .toContain(`+${DEPOSIT} HST`);
        expect(await page.getByText(`${DEPOSIT} HST available.`).count()).toBe(1);
        // The exact amount is copied as an amount field takes it.
        await page
          .getByTestId('available')
          .getByRole('button', { name: `Copy the exact amount, ${DEPOSIT} HST` })
          .click();
        expect(await page.evaluate('navigator.clipboard.readText()')).toBe(DEPOSIT);
        await saveScreenshot(page, 'account-deposited');

        // The faucet in the header's menu, on a game page: it says where the HST went.
        await page.goto(`${server.urls['web']!}/games/${seeded.gameId}`);
        await page.getByRole('heading', { name: LONG.game, level: 1 }).waitFor();
        await openAccountMenu(page);
        expect(await page.getByTestId('menu-balance').textContent()).toBe(`${DEPOSIT} HST`);
        await page.getByRole('button', { name: 'Get 100 test HST to your wallet' }).click();
        await expect
          .poll(() => toasts(page))
          .toContain(
            `100 test HST sent to your wallet ${shortWallet}, not to your arcade balance: ` +
              'deposit it on your account page to play with it.',
          );

        // A play on the tier costing 1.23456789 HST: the header follows without a reload.
        await page.getByRole('radio', { name: new RegExp(`^${LONG.paidTier}`) }).check();
        const game = page.frameLocator('iframe.game-frame');
        await expect
          .poll(() => game.locator('#status').textContent(), { timeout: 15_000 })
          .toBe('Ready. Press Play to start.');
        await game.getByRole('button', { name: 'Play' }).click();
        const dialog = page.getByRole('dialog', { name: 'Lock HST to play?' });
        await dialog.waitFor();
        expect(await dialog.getByTestId('approval-amount').textContent()).toBe('1.23456789 HST');
        expect(await dialog.textContent()).toContain(`Your balance${DEPOSIT} HST`);
        await dialog.getByRole('button', { name: 'Approve' }).click();
        await expect
          .poll(() => game.locator('#status').textContent(), { timeout: 15_000 })
          .toBe('Wait for green…');
        await expect
          .poll(() => exactOf(page, 'balance'))
          .toBe(`${hstText(DEPOSIT_UNITS - PAID_TIER_UNITS)} HST`);
      } finally {
        await context.close();
      }
    }, 180_000);

    it('no page scrolls sideways at 360 px with a balance in the billions, long names and addresses', async () => {
      // 1,234,567,890.12345678 HST more, deposited from the wallet on chain: with the first
      // test's, 1,234,567,946.05916665 HST.
      await depositFromWallet(LARGE_UNITS);
      const balance = await availableOf(seeded.playerId);
      const { context, page } = await signedIn(PHONE, '/');
      const web = server.urls['web']!;
      try {
        // The header: the balance abbreviated, the exact one in its tooltip and for screen
        // readers, the chip inside the phone's width.
        await expect.poll(() => exactOf(page, 'balance')).toBe(`${hstText(balance)} HST`);
        const header = page.getByTestId('balance');
        expect(await header.locator('.hst-narrow').textContent()).toBe('≈1.23B');
        expect(await header.locator('.hst-narrow').isVisible()).toBe(true);
        expect(await header.locator('.hst-wide').isVisible()).toBe(false);
        // Screen readers hear the exact balance.
        const chip = page.getByRole('button', {
          name: `Account menu: ${LONG.player}, balance ${hstText(balance)} HST 1 invitation`,
        });
        const box = await chip.boundingBox();
        expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
        await openAccountMenu(page);
        await fitsPhone(page, 'long-account-menu-phone');
        await page.keyboard.press('Escape');

        const login = await startCliLogin();
        const pages: [name: string, path: string, ready: string][] = [
          ['catalog', '/', LONG.game],
          ['game', `/games/${seeded.gameId}`, LONG.game],
          ['board', `/games/${seeded.gameId}/boards/${seeded.freeTierId}`, LONG.freeTier],
          ['tournament', `/tournaments/${seeded.tournamentId}`, LONG.tournament],
          ['account', '/account', 'Your account'],
          ['allowances', '/account/allowances', 'Your allowances'],
          ['testing', '/account/testing', LONG.testGame],
          ['invited-game', `/games/${seeded.testGameId}`, LONG.testGame],
          ['portal', '/developer', 'Developer portal'],
          ['portal-new-game', '/developer/games/new', 'Register a game'],
          ['portal-game', `/developer/games/${seeded.gameId}`, LONG.game],
          // Each view of the game (issue 31), which were all on the one page before.
          ...[
            'details',
            'boards',
            'tournaments',
            'integration',
            'publishing',
            'reviews',
            'stats',
          ].map((section): [string, string, string] => [
            `portal-game-${section}`,
            `/developer/games/${seeded.gameId}/${section}`,
            LONG.game,
          ]),
          ['portal-integrate', `/developer/games/${seeded.gameId}/integrate`, LONG.game],
          ['demo', `/demo?game=${encodeURIComponent(reaction.url)}`, 'Demo arcade'],
          ['cli-login', login, LONG.cliDescription],
        ];
        for (const [name, path, ready] of pages) {
          await page.goto(`${web}${path}`);
          await page.getByText(ready).first().waitFor();
          // Not 'networkidle': a signed-in tab keeps its live stream open (issue 31). The page is
          // measured once it, its fonts and its images have loaded.
          await page.waitForLoadState('load');
          // A function, not a string: the page's CSP (script-src 'self') refuses a string's eval.
          await page.waitForFunction(() => {
            const { document } = globalThis as unknown as {
              document: { fonts: { status: string }; images: ArrayLike<{ complete: boolean }> };
            };
            return (
              document.fonts.status === 'loaded' &&
              Array.from(document.images).every((i) => i.complete)
            );
          });
          if (name === 'testing' || name === 'invited-game') await acceptAsksLimit(page);
          if (name === 'portal') await chartDrawsToday(page, 'Plays and earnings per day');
          if (name === 'portal-game-stats') await chartDrawsToday(page, 'Plays and earnings');
          if (name === 'cli-login') {
            // A player with a name of their own: the name, then the wallet, each said once.
            expect(await page.locator('.cli-login-account').textContent()).toBe(
              `Signed in as ${LONG.player} with the wallet${wallet}Use another wallet`,
            );
          }
          await fitsPhone(page, `long-${name}-phone`);
        }
        // On the account page: the balance abbreviated, the exact amount below it.
        await page.goto(`${web}/account`);
        const available = page.getByTestId('available');
        await expect.poll(() => available.textContent()).toContain(`Exactly ${hstText(balance)}`);
        expect(await available.locator('.hst-narrow').textContent()).toBe('≈1.23B');
        expect(await page.locator('.wallet-facts [data-address]').textContent()).toBe(wallet);
        // The faucet on the phone: its toast at the top, under the header.
        await page.getByTestId('faucet-offer').getByRole('button').click();
        await expect
          .poll(() => toasts(page))
          .toContain(`100 test HST sent to your wallet ${shortWallet}`);
        // What the player sees: the toast over the section they pressed it in.
        await page.screenshot({
          path: `${SCREENSHOT_DIR}faucet-result-phone.png`,
          animations: 'disabled',
        });

        // The approval dialog, with the exact balance in it, whole on the phone.
        await page.goto(`${web}/games/${seeded.gameId}`);
        await page.getByRole('radio', { name: new RegExp(`^${LONG.paidTier}`) }).check();
        const game = page.frameLocator('iframe.game-frame');
        await expect
          .poll(() => game.locator('#status').textContent(), { timeout: 15_000 })
          .toBe('Ready. Press Play to start.');
        await game.getByRole('button', { name: 'Play' }).click();
        const dialog = page.getByRole('dialog', { name: 'Lock HST to play?' });
        await dialog.waitFor();
        expect(await dialog.textContent()).toContain(`Your balance${hstText(balance)} HST`);
        await fitsPhone(page, 'long-game-approval-phone');
        // As the player sees it: the dialog over the page, not in the middle of a full page.
        await page.screenshot({
          path: `${SCREENSHOT_DIR}long-approval-phone.png`,
          animations: 'disabled',
        });
        await dialogOnScreen(page, dialog, PHONE);
        // A shorter phone (360x640): still whole on the screen, scrolling inside itself.
        await page.setViewportSize(SHORT_PHONE);
        await dialogOnScreen(page, dialog, SHORT_PHONE);
        expect(
          await dialog.evaluate((el) => el.scrollHeight > el.clientHeight),
          'taller than a 640 px screen, the dialog scrolls inside itself',
        ).toBe(true);
        await page.setViewportSize(PHONE);
        await dialog.getByRole('button', { name: 'Reject' }).click();

        // The operator console, every screen.
        await page.goto(`${web}/admin`);
        await fitsPhone(page, 'long-admin-sign-in-phone');
        await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByText(LONG.testGame).first().waitFor();
        const screens: [name: string, path: string, ready: string][] = [
          ['queue', '/admin', LONG.testGame],
          ['games', '/admin/games', LONG.game],
          ['tournaments', '/admin/tournaments', LONG.tournament],
          ['players', '/admin/players', LONG.player],
          ['player', `/admin/players/${seeded.playerId}`, LONG.player],
          ['developers', '/admin/developers', wallet],
          ['ledger', '/admin/ledger', 'Ledger'],
          ['chain', '/admin/chain', 'Watcher'],
          ['keys', '/admin/keys', 'keys'],
        ];
        for (const [name, path, ready] of screens) {
          await page.goto(`${web}${path}`);
          await page.getByText(ready).first().waitFor();
          await page.waitForLoadState('networkidle');
          await fitsPhone(page, `long-admin-${name}-phone`);
        }
        // The console writes addresses as the account page does: checksummed.
        await page.goto(`${web}/admin/players/${seeded.playerId}`);
        await page.getByText(wallet).first().waitFor();
        expect(await page.getByText(wallet.toLowerCase(), { exact: true }).count()).toBe(0);
      } finally {
        await context.close();
      }
    }, 300_000);

    /**
     * Waits for the game's daily chart in the section `region` to draw (it loads after the page),
     * not "Loading the chart…": today's bar counts every play of the game, all made today.
     */
    async function chartDrawsToday(page: Page, region: string) {
      const [plays] = await server.api.arcade.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM plays WHERE game_id = $1',
        [seeded.gameId],
      );
      expect(plays!.n).toBeGreaterThanOrEqual(LONG.leaders.length);
      const section = page.getByRole('main').getByRole('region', { name: region, exact: true });
      const figure = section.getByRole('figure', { name: /plays and HST earned per day/ });
      await figure.locator('.recharts-bar-rectangle').last().hover();
      expect(await figure.locator('.chart-tip li').allTextContents()).toEqual([
        `Plays: ${plays!.n}`,
        expect.stringMatching(/^HST earned: \S+ HST$/),
      ]);
      await page.mouse.move(0, 0);
      await figure.locator('.chart-tip').waitFor({ state: 'detached' });
      expect(await figure.getByText('Loading the chart…').count()).toBe(0);
    }

    /**
     * The invitation to test the long-named game: its price with every decimal, and Accept asking
     * for a daily limit, the field left empty for the player, the price only as an example.
     */
    async function acceptAsksLimit(page: Page) {
      const main = page.getByRole('main');
      expect(await main.textContent()).toContain(
        'A play costs up to 1.23456789 HST now; its developer may raise that. Your daily limit bounds what all its plays may lock a day.',
      );
      const limit = main.getByLabel(`Daily limit for ${LONG.testGame} (HST)`);
      expect(await limit.inputValue()).toBe('');
      expect(await limit.getAttribute('placeholder')).toBe('e.g. 1.23456789');
      expect(await limit.isVisible()).toBe(true);
    }

    /** The page, screenshot saved first, is no wider than a phone; names what sticks out. */
    async function fitsPhone(page: Page, screenshot: string) {
      await saveScreenshot(page, screenshot);
      // Only what sticks out of the page, not what scrolls inside a scroll region.
      const wide = await page.evaluate(`(() => {
        const scrolls = (el) => el !== null && el !== document.body &&
          (['auto', 'scroll'].includes(getComputedStyle(el).overflowX) || scrolls(el.parentElement));
        return [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > ${PHONE.width} + 1 && !scrolls(el.parentElement))
          .slice(0, 4)
          .map((el) => el.tagName + '.' + el.className + ': ' + (el.textContent || '').slice(0, 60));
      })()`);
      expect(
        await page.evaluate('document.documentElement.scrollWidth'),
        `${screenshot}: ${JSON.stringify(wide)}`,
      ).toBeLessThanOrEqual(PHONE.width);
      // Nor is anything inside it cut on its right or scrolled sideways (a card cut is as
      // unreadable), but for the tables that say they scroll: a focusable region a keyboard can
      // scroll, form fields and code blocks, text cut on purpose with an ellipsis, and visually
      // hidden text (by its class, or by the same style under a media query).
      const cut = await page.evaluate(`[...document.querySelectorAll('body *')]
        .filter((el) => el.scrollWidth > el.clientWidth + 1 && el.getBoundingClientRect().width > 1 &&
          !el.closest('.visually-hidden') && getComputedStyle(el).clipPath !== 'inset(50%)' &&
          !el.matches('input, textarea, select, pre') &&
          ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(el).overflowX) &&
          getComputedStyle(el).textOverflow !== 'ellipsis' &&
          el.getAttribute('role') !== 'region')
        .map((el) => el.tagName + '.' + el.className + ': ' + (el.textContent || '').slice(0, 60))`);
      expect(cut, screenshot).toEqual([]);
    }

    /**
     * The dialog is whole on a screen of `viewport`: nothing of it off the screen's edges, no
     * sideways scroll inside it; taller than the screen, it scrolls inside itself, so its last
     * button can be brought into view without the page moving.
     */
    async function dialogOnScreen(page: Page, dialog: Locator, viewport: Viewport) {
      const shown = (await dialog.boundingBox())!;
      expect(shown.x).toBeGreaterThanOrEqual(0);
      expect(shown.x + shown.width).toBeLessThanOrEqual(viewport.width);
      expect(shown.y).toBeGreaterThanOrEqual(0);
      expect(shown.y + shown.height).toBeLessThanOrEqual(viewport.height);
      expect(
        await dialog.evaluate((el) => el.scrollWidth <= el.clientWidth),
        'the dialog scrolls sideways',
      ).toBe(true);
      const approve = dialog.getByRole('button', { name: 'Approve' });
      await approve.scrollIntoViewIfNeeded();
      const button = (await approve.boundingBox())!;
      expect(button.y).toBeGreaterThanOrEqual(0);
      expect(button.y + button.height).toBeLessThanOrEqual(viewport.height);
      expect(await page.evaluate('window.scrollX')).toBe(0);
    }

    /** The player's available HST in the ledger, in base units. */
    async function availableOf(playerId: string): Promise<bigint> {
      const { db } = server.api.arcade;
      const player = await findPlayer(db, playerId);
      return availableUnits((await findAccount(db, player!.accountId))!);
    }

    /**
     * Mints `units` to the player's wallet (with ETH for the fees) and deposits them from it, as
     * a wallet app would; resolves once the arcade has credited them.
     */
    async function depositFromWallet(units: bigint) {
      const gas = await chain.admin.sendTransaction({ to: wallet, value: parseEther('1') });
      await chain.admin.waitForTransactionReceipt({ hash: gas });
      const minted = await chain.admin.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'mint',
        args: [wallet, units],
      });
      await chain.admin.waitForTransactionReceipt({ hash: minted });
      const own = createWalletClient({
        account: privateKeyToAccount(key),
        chain: anvilChain,
        transport: http(chain.anvil.rpcUrl),
      });
      const approved = await own.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'approve',
        args: [vault, units],
      });
      await chain.admin.waitForTransactionReceipt({ hash: approved });
      const deposited = await own.writeContract({
        address: vault,
        abi: arcadeVaultAbi,
        functionName: 'deposit',
        args: [units, uuidToBytes16(seeded.playerId)],
      });
      await chain.admin.waitForTransactionReceipt({ hash: deposited });
      await expect
        .poll(
          async () =>
            (
              await server.api.arcade.db.query<{ n: number }>(
                "SELECT count(*)::int AS n FROM chain_deposits WHERE tx_hash = $1 AND status = 'credited'",
                [deposited],
              )
            )[0]?.n,
          { timeout: 20_000 },
        )
        .toBe(1);
    }

    /** A CLI login request with a long description; the path the sign-in service sends to. */
    async function startCliLogin(): Promise<string> {
      const started = await server.auth.inject({
        method: 'POST',
        url: '/cli',
        payload: { description: LONG.cliDescription },
      });
      expect(started.statusCode, started.body).toBe(200);
      const { requestorId, userCode } = started.json<{ requestorId: string; userCode: string }>();
      return `/cli-login?requestorId=${requestorId}&code=${userCode}`;
    }
  },
);

/** Base units as the page writes them exactly: grouped, every decimal kept. */
function hstText(units: bigint): string {
  const digits = units.toString().padStart(9, '0');
  const whole = BigInt(digits.slice(0, -8)).toLocaleString('en');
  const fraction = digits.slice(-8).replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''}`;
}
