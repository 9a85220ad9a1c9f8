import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE,
  DESKTOP,
  ARCADE_KEY_STORAGE,
  NO_CHROMIUM_REASON,
  brokenImages,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  openAccountMenu,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { announceWallets, announcedWalletCalls } from '@coinop/testkit/eip1193';
import { freePort } from '@coinop/testkit/net';
import { systemClock, uuidIds } from '../../src/ids.js';
import { testConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { ensureArcade } from '../../src/store/arcades.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { insertGame, publishGame } from '../../src/store/games.js';
import { findPlayerByWallet } from '../../src/store/players.js';

/**
 * Issue 17, "sign in everywhere with any wallet", in headless Chromium against a whole arcade
 * (PGlite): the High-Low terminal client's CLI login, approved with the arcade wallet in the web
 * app where the sign-in service's page now sends players; wallet extensions found through
 * EIP-6963; and a private key imported into the arcade wallet, with a way back.
 */

interface HighLowLoginOptions {
  authUrl: string;
  description?: string;
  gameId?: string;
  onPrompt: (prompt: { url: string; userCode: string; expiresInSeconds: number }) => void;
}
/** The High-Low terminal client's own login module (plain JS): the flow its players go through. */
const HIGH_LOW_LOGIN = '@coinop/example-high-low/src/login.js';

describe.skipIf(!hasChromium)(
  `wallets and the CLI login in the web app${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let browser: Browser;
    let web: string;
    let highLowGameId: string;
    let highLowLogin: (options: HighLowLoginOptions) => Promise<string>;

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-wallets-'));
      server = await startServer(
        testConfig({
          apiPort: 0,
          webPort: await freePort(),
          dataDir,
          adminToken: 'wallets-admin',
          // The client polls at the interval the service gives it: keep the test short.
          cliPollIntervalSeconds: 1,
        }),
      );
      web = server.urls['web']!;
      const { db } = server.api.arcade;
      const arcade = await ensureArcade(db, systemClock, uuidIds);
      const developer = await ensureDeveloper(
        db,
        systemClock,
        uuidIds,
        privateKeyToAccount(generatePrivateKey()).address,
      );
      const game = await db.transaction((tx) =>
        insertGame(
          tx,
          systemClock,
          uuidIds,
          arcade.id,
          {
            developerId: developer.id,
            name: 'High-Low',
            description: 'Call the next card.',
            category: 'Cards',
            developerInfo: '',
            tagLine: '',
            url: 'https://high-low.example',
            coverUrl: 'https://high-low.example/cover.png',
            scoreDisplay: 'NORMAL',
            prodDomain: null,
          },
          [{ name: 'Bronze', costUnits: 100_000_000n, leadersMax: 10 }],
        ),
      );
      await publishGame(db, systemClock, game.id);
      highLowGameId = game.id;
      ({ login: highLowLogin } = (await import(HIGH_LOW_LOGIN)) as {
        login: (options: HighLowLoginOptions) => Promise<string>;
      });
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    async function open(viewport: { width: number; height: number }) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      return { context, page, pageErrors };
    }

    /** Saved first, so a failing page can be looked at; then axe and the phone width. */
    async function checkPage(page: Page, screenshot: string, width: number) {
      await saveScreenshot(page, screenshot);
      expect(await seriousViolations(page)).toEqual([]);
      // The stand-in High-Low's cover is on a host the test does not run.
      const broken = await brokenImages(page);
      expect(broken.filter((src) => !src.startsWith('https://high-low.example/'))).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      );
    }

    const sessionAddress = (page: Page) =>
      page.evaluate(
        `JSON.parse(localStorage.getItem('coinop.session') ?? 'null')?.address ?? null`,
      ) as Promise<string | null>;

    const arcadeKeyAddress = async (page: Page) => {
      const key = (await page.evaluate(
        `localStorage.getItem('${ARCADE_KEY_STORAGE}')`,
      )) as `0x${string}`;
      return privateKeyToAccount(key).address;
    };

    /** The High-Low client starts its login; resolves the page it would show and its token. */
    async function startHighLowLogin(description?: string) {
      let prompted!: (prompt: { url: string; userCode: string }) => void;
      const prompt = new Promise<{ url: string; userCode: string }>((resolve) => {
        prompted = resolve;
      });
      const token = highLowLogin({
        authUrl: server.urls['auth']!,
        gameId: highLowGameId,
        onPrompt: prompted,
        ...(description === undefined ? {} : { description }),
      });
      token.catch(() => undefined);
      return { prompt: await prompt, token };
    }

    async function playerIdOfToken(token: string): Promise<string> {
      const claims = decodeJwt(token);
      expect(claims.aud).toBe('coinop:game');
      const playerId = Object.entries(claims).find(([name]) => name.endsWith('/playerId'))?.[1];
      expect(typeof playerId).toBe('string');
      return playerId as string;
    }

    it('sends the sign-in service page to the web app, with only the id and code', async () => {
      const res = await fetch(
        `${server.urls['auth']}/cli/login?requestorId=abc&code=WDJB-MJHT&next=https://evil.example`,
        { redirect: 'manual' },
      );
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe(`${web}/cli-login?requestorId=abc&code=WDJB-MJHT`);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    });

    it("approves the High-Low client's login with the arcade wallet (desktop, new player)", async () => {
      const { prompt, token } = await startHighLowLogin();
      expect(prompt.url.startsWith(`${server.urls['auth']}/cli/login?`)).toBe(true);
      const { context, page, pageErrors } = await open(DESKTOP);
      try {
        await page.goto(prompt.url);
        await page.waitForURL(`${web}/cli-login?**`);
        await page.getByRole('heading', { name: 'Step 1: choose your wallet' }).waitFor();
        // The tab names the page, as every other page of the arcade does.
        expect(await page.title()).toBe('Sign in to your game · coinop arcade');
        expect(await page.getByTestId('cli-user-code').textContent()).toBe(prompt.userCode);
        expect(await page.getByTestId('cli-description').textContent()).toMatch(
          /^High-Low terminal on /,
        );
        await expect(page.getByText('High-Low', { exact: true }).isVisible()).resolves.toBe(true);
        await checkPage(page, 'cli-login-choose-wallet-desktop', DESKTOP.width);

        await page.getByRole('button', { name: 'Arcade wallet' }).click();
        await page.getByRole('heading', { name: 'Step 2: approve or reject' }).waitFor();
        const address = await arcadeKeyAddress(page);
        await expect(page.getByText(address).isVisible()).resolves.toBe(true);
        // A new player's name is their wallet's short form: the page names the wallet once.
        expect(await page.locator('.cli-login-account').textContent()).toBe(
          `Signed in with the wallet${address}Use another wallet`,
        );
        await page.getByLabel('HST a day').fill('2.5.1');
        await page.getByRole('button', { name: 'Approve' }).click();
        await expect(page.getByRole('alert').textContent()).resolves.toContain(
          'Enter the HST a day as a number',
        );
        await page.getByLabel('HST a day').fill('5');
        // Correcting the value clears the complaint about the old one.
        await expect(page.getByRole('alert').count()).resolves.toBe(0);
        await checkPage(page, 'cli-login-approve-desktop', DESKTOP.width);
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('heading', { name: 'Approved — return to your game' }).waitFor();
        await expect(
          page.getByText('High-Low may charge you up to 5 HST a day').isVisible(),
        ).resolves.toBe(true);
        await checkPage(page, 'cli-login-approved-desktop', DESKTOP.width);

        const player = await findPlayerByWallet(server.api.arcade.db, address);
        expect(await playerIdOfToken(await token)).toBe(player!.id);
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('approves with the arcade wallet already signed in (phone); rejects; a wrong code finds nothing', async () => {
      const { context, page, pageErrors } = await open(PHONE);
      try {
        // The player signed in in the arcade earlier, with its arcade wallet.
        await page.goto(`${web}/`);
        await page.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('button', { name: 'Arcade wallet' }).click();
        await page.getByRole('button', { name: /^Account menu/ }).waitFor();
        const address = await arcadeKeyAddress(page);

        // Whoever starts a login chooses its description: it must stay text.
        const markup = '<img src=x onerror="window.__pwned=1"><b>High-Low</b> on my laptop';
        const { prompt, token } = await startHighLowLogin(markup);
        const requestorId = new URL(prompt.url).searchParams.get('requestorId');
        await page.goto(`${web}/cli-login?requestorId=${requestorId}&code=AAAA-BBBB`);
        await expect(page.getByRole('alert').textContent()).resolves.toContain(
          'was not found, or its code does not match',
        );

        // A login the player did not start is rejected, and the client is told so.
        const unwanted = await startHighLowLogin();
        await page.goto(unwanted.prompt.url);
        await page.getByRole('button', { name: 'Reject' }).click();
        await page.getByRole('heading', { name: 'Request rejected' }).waitFor();
        await expect(unwanted.token).rejects.toMatchObject({ code: 'access_denied' });

        // Signed in already, the decision is the only step: no "Step 2" without a Step 1.
        await page.goto(prompt.url);
        await page.getByRole('heading', { name: 'Approve or reject', exact: true }).waitFor();
        expect(await page.getByText('Step 1', { exact: false }).count()).toBe(0);
        expect(await page.getByTestId('cli-user-code').textContent()).toBe(prompt.userCode);
        expect(await page.getByTestId('cli-description').textContent()).toBe(markup);
        expect(await page.evaluate('window.__pwned')).toBeUndefined();
        await expect(page.getByText(address).isVisible()).resolves.toBe(true);
        await checkPage(page, 'cli-login-approve-phone', PHONE.width);
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('heading', { name: 'Approved — return to your game' }).waitFor();
        await expect(
          page.getByText('Your game is now signed in. You can close').isVisible(),
        ).resolves.toBe(true);
        await checkPage(page, 'cli-login-approved-phone', PHONE.width);

        const player = await findPlayerByWallet(server.api.arcade.db, address);
        expect(await playerIdOfToken(await token)).toBe(player!.id);
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    const red = privateKeyToAccount(generatePrivateKey());
    const blue = privateKeyToAccount(generatePrivateKey());

    async function withAnnouncedWallets(viewport: { width: number; height: number }) {
      const opened = await open(viewport);
      await announceWallets(opened.page, [
        { account: red, name: 'Red Wallet', rdns: 'com.example.red', color: '#c62828' },
        { account: blue, name: 'Blue Wallet', rdns: 'com.example.blue', color: '#1565c0' },
      ]);
      return opened;
    }

    for (const [viewport, label] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      it(`lists every EIP-6963 wallet and signs in with the one chosen (${label})`, async () => {
        const { context, page, pageErrors } = await withAnnouncedWallets(viewport);
        try {
          await page.goto(`${web}/`);
          await page.getByRole('button', { name: 'Connect wallet' }).click();
          const wallets = page.getByRole('list', { name: 'Wallets' });
          await wallets.getByRole('button', { name: 'Blue Wallet' }).waitFor();
          expect(await wallets.getByRole('button').allTextContents()).toEqual([
            'Red Wallet',
            'Blue Wallet',
            '◎Arcade wallet',
          ]);
          // Each wallet's own icon, as it announced it.
          expect(await wallets.locator('img.wallet-icon').count()).toBe(2);
          await checkPage(page, `wallet-chooser-${label}`, viewport.width);

          await wallets.getByRole('button', { name: 'Blue Wallet' }).click();
          await page.getByRole('button', { name: /^Account menu/ }).waitFor();
          expect(await sessionAddress(page)).toBe(blue.address);
          expect(await announcedWalletCalls(page)).toEqual([
            'Blue Wallet eth_requestAccounts',
            'Blue Wallet personal_sign',
          ]);

          // After a reload the same extension is found again, without a prompt.
          await page.reload();
          await page.getByRole('button', { name: /^Account menu/ }).waitFor();
          expect(await sessionAddress(page)).toBe(blue.address);
          await openAccountMenu(page);
          await page.getByRole('button', { name: 'Sign out' }).waitFor();
          await expect(
            page.getByRole('button', { name: 'Reconnect wallet' }).count(),
          ).resolves.toBe(0);
          expect(await announcedWalletCalls(page)).toEqual(['Blue Wallet eth_accounts']);
          expect(pageErrors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }

    async function importKey(page: Page, key: string) {
      await page.getByRole('textbox', { name: /^Private key/ }).fill(key);
      await page.getByRole('button', { name: 'Import and sign in' }).click();
    }

    for (const [viewport, label] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      it(`imports a private key into the arcade wallet, and switches back (${label})`, async () => {
        const { context, page, pageErrors } = await open(viewport);
        const first = generatePrivateKey();
        const second = generatePrivateKey();
        try {
          await page.goto(`${web}/`);
          await page.getByRole('button', { name: 'Connect wallet' }).click();
          await page.getByRole('button', { name: 'Import a private key' }).click();
          const dialog = page.getByRole('dialog', { name: 'Import a private key' });
          await importKey(page, '0x1234');
          await expect(dialog.getByRole('alert').textContent()).resolves.toBe(
            'A private key is 64 hexadecimal characters; this one has 4.',
          );
          await importKey(page, privateKeyToAccount(first).address);
          await expect(dialog.getByRole('alert').textContent()).resolves.toContain(
            'That is a wallet address, not a private key',
          );
          await importKey(page, `0x${'0'.repeat(64)}`);
          await expect(dialog.getByRole('alert').textContent()).resolves.toBe(
            'This is not a valid Ethereum private key.',
          );
          await checkPage(page, `import-key-invalid-${label}`, viewport.width);
          expect(await page.evaluate(`localStorage.getItem('${ARCADE_KEY_STORAGE}')`)).toBe(null);

          // Without 0x and in capitals, as some wallets export it.
          await importKey(page, first.slice(2).toUpperCase());
          await page.getByRole('button', { name: /^Account menu/ }).waitFor();
          expect(await sessionAddress(page)).toBe(privateKeyToAccount(first).address);

          // A second key replaces the arcade wallet only once the player confirms.
          await openAccountMenu(page);
          await page.getByRole('button', { name: 'Import key' }).click();
          await expect(
            dialog.getByText(privateKeyToAccount(first).address).isVisible(),
          ).resolves.toBe(true);
          await importKey(page, second);
          await dialog.getByRole('button', { name: 'Replace and sign in' }).waitFor();
          await checkPage(page, `import-key-replace-${label}`, viewport.width);
          await dialog.getByRole('button', { name: 'Replace and sign in' }).click();
          await dialog.waitFor({ state: 'detached' });
          await expect.poll(() => sessionAddress(page)).toBe(privateKeyToAccount(second).address);

          // The replaced key stayed in this browser: one click switches back.
          await openAccountMenu(page);
          await page.getByRole('button', { name: 'Import key' }).click();
          await dialog.getByRole('button', { name: 'Switch back' }).click();
          await dialog.waitFor({ state: 'detached' });
          await expect.poll(() => sessionAddress(page)).toBe(privateKeyToAccount(first).address);
          expect(await arcadeKeyAddress(page)).toBe(privateKeyToAccount(first).address);
          expect(pageErrors).toEqual([]);
        } finally {
          await context.close();
        }
      });
    }
  },
);
