import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import type { Browser, Page } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount, type LocalAccount } from 'viem/accounts';
import type { FastifyInstance } from 'fastify';
import { testConfig } from '../../src/config.js';
import { systemClock, uuidIds } from '../../src/ids.js';
import { buildAuth } from '../../src/signin/app.js';
import { testSecretBox } from '@coinop/testkit/secrets';
import {
  CLI_LOGIN_CSP,
  cliLoginScript,
  renderCliLoginPage,
} from '../../src/signin/pages/cli-login.js';
import type { Db } from '../../src/store/db.js';
import { findPlayerByWallet } from '../../src/store/players.js';
import {
  hasChromium,
  launchChromium,
  NO_CHROMIUM_REASON,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { openTestDb } from '@coinop/testkit/db';
import { publishedGame } from '@coinop/testkit/arcade';
import { injectWallet, walletCalls } from '@coinop/testkit/eip1193';

// Phone width: the page is opened from a QR code or a link on a phone as often as on a desktop.
const VIEWPORT = { width: 360, height: 740 };

interface TestSignin {
  url: string;
  db: Db;
  claimsNamespace: string;
  close(): Promise<void>;
}

/** A port free right now, so the EIP-4361 domain can name the address the browser opens. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The real sign-in listener in-process, as `coinop serve` runs it, on PGlite and the system
 * clock: the page must work against real time and a real socket. Storage variants are the
 * backend tests' concern; this one is about the page.
 */
async function startTestSignin(): Promise<TestSignin> {
  const port = await freePort();
  const config = testConfig({ authPort: port, authIssuer: `127.0.0.1:${port}` });
  const db = await openTestDb('pglite');
  const app: FastifyInstance = await buildAuth(config, {
    db,
    clock: systemClock,
    ids: uuidIds,
    secrets: testSecretBox(),
  });
  await app.listen({ host: '127.0.0.1', port });
  return {
    url: `http://127.0.0.1:${port}`,
    db,
    claimsNamespace: config.claimsNamespace,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

interface CliStart {
  browserUrl: string;
  requestorId: string;
  token: string;
  interval: number;
  userCode: string;
}

interface Poll {
  status: number;
  body: { access_token?: string; error?: string; code?: string; message?: string };
}

// Parses in Node without running: a syntax error in the string would otherwise only show up as a
// page that never leaves "Checking the sign-in request".
describe('cli login page assets', () => {
  it('ships browser code that parses', () => {
    expect(() => new Function(cliLoginScript)).not.toThrow();
  });

  it('renders the same HTML for every request, with nothing interpolated', () => {
    expect(renderCliLoginPage()).not.toContain('requestorId=');
    expect(renderCliLoginPage()).toContain('<html lang="en">');
  });
});

describe.skipIf(!hasChromium)(
  `cli login page in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let signin: TestSignin;
    let browser: Browser;

    beforeAll(async () => {
      signin = await startTestSignin();
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await signin?.close();
    });

    /** What a desktop game does first (spec 4.6): start a login with a description. */
    async function startCliLogin(description: string, gameId?: string): Promise<CliStart> {
      const res = await fetch(`${signin.url}/cli`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(gameId ? { description, gameId } : { description }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as CliStart;
    }

    async function pollOnce(cli: CliStart): Promise<Poll> {
      const res = await fetch(`${signin.url}/cli/${cli.requestorId}`, {
        headers: { authorization: `Bearer ${cli.token}` },
      });
      return { status: res.status, body: (await res.json()) as Poll['body'] };
    }

    /** Polls as the game would (spec 4.7), at the advertised interval, until no longer pending. */
    async function pollUntilDone(cli: CliStart): Promise<Poll> {
      for (let attempt = 0; attempt < 5; attempt++) {
        const result = await pollOnce(cli);
        if (result.body.error !== 'authorization_pending') return result;
        await new Promise((resolve) => setTimeout(resolve, cli.interval * 1000));
      }
      throw new Error('login still pending after 5 polls');
    }

    async function openPage(wallet?: { account: LocalAccount; refuseSignature?: boolean }) {
      const context = await browser.newContext({ viewport: VIEWPORT });
      const page = await context.newPage();
      const pageErrors: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      if (wallet) {
        await injectWallet(page, wallet.account, { refuseSignature: wallet.refuseSignature });
      }
      return { page, pageErrors, close: () => context.close() };
    }

    async function connectWallet(page: Page) {
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await page.getByRole('button', { name: 'Approve' }).waitFor();
    }

    const alertText = (page: Page) => page.getByRole('alert').textContent();

    it('serves the page with a strict content security policy', async () => {
      const res = await fetch(`${signin.url}/cli/login?requestorId=%3Cb%3E&code=x`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(CLI_LOGIN_CSP);
      expect(CLI_LOGIN_CSP).toContain("frame-ancestors 'none'");
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.text()).toBe(renderCliLoginPage());
      const script = await fetch(`${signin.url}/assets/cli-login.js`);
      expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect(await script.text()).toBe(cliLoginScript);
    });

    it('signs in with the wallet and approves: the game gets a token for that player', async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const cli = await startCliLogin('Linux · test runner');
      const { page, pageErrors, close } = await openPage({ account });
      try {
        await page.goto(`${signin.url}${cli.browserUrl}`);
        await expect
          .poll(() => page.locator('#description').textContent())
          .toBe('Linux · test runner');
        expect(await page.locator('#user-code').textContent()).toBe(cli.userCode);
        await saveScreenshot(page, 'cli-login-1-request');

        await connectWallet(page);
        expect(await walletCalls(page)).toEqual(['eth_requestAccounts', 'personal_sign']);
        expect(await page.locator('#account').textContent()).toBe(
          `Signed in with wallet ${account.address.slice(0, 6)}…${account.address.slice(-4)}.`,
        );
        await saveScreenshot(page, 'cli-login-2-connected');

        // Hold the approval at the network so the in-flight state can be read without timing.
        let buttonsWhileInFlight: boolean[] = [];
        await page.route('**/approve', async (route) => {
          buttonsWhileInFlight = await page.$$eval('button', (buttons) =>
            buttons.map((b) => (b as unknown as { disabled: boolean }).disabled),
          );
          await route.continue();
        });
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('heading', { name: 'Approved — return to your game' }).waitFor();
        expect(buttonsWhileInFlight).toEqual([true, true, true]);
        await saveScreenshot(page, 'cli-login-3-approved');
        expect(pageErrors).toEqual([]);

        const poll = await pollUntilDone(cli);
        expect(poll.status).toBe(200);
        const claims = decodeJwt(poll.body.access_token!);
        const player = await findPlayerByWallet(signin.db, account.address);
        expect(player).not.toBeNull();
        expect(claims[`https://${signin.claimsNamespace}/playerId`]).toBe(player!.id);

        // Handed out once (contract): the next poll finds nothing left to collect.
        const again = await pollOnce(cli);
        expect(again.body.error).toBe('expired_token');
      } finally {
        await close();
      }
    });

    it('names the game a login is for and grants it the daily allowance the player types', async () => {
      const gameId = await publishedGame(signin.db, 'High-Low');
      const account = privateKeyToAccount(generatePrivateKey());
      const cli = await startCliLogin('High-Low terminal on linux', gameId);
      const { page, pageErrors, close } = await openPage({ account });
      try {
        await page.goto(`${signin.url}${cli.browserUrl}`);
        await expect.poll(() => page.locator('#game-name').textContent()).toBe('High-Low');
        await connectWallet(page);
        const limit = page.getByLabel('HST a day (leave empty to keep your current allowance)');
        await limit.fill('2.123456789');
        await page.getByRole('button', { name: 'Approve' }).click();
        await expect
          .poll(() => alertText(page))
          .toBe(
            'Enter the HST a day as a number such as 20 or 2.5 (at most 8 decimals), or leave it empty.',
          );
        await limit.fill('12.5');
        await saveScreenshot(page, 'cli-login-7-allowance');
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('heading', { name: 'Approved — return to your game' }).waitFor();
        expect(await page.locator('#result-detail').textContent()).toBe(
          'Your game is now signed in, and High-Low may charge you up to 12.5 HST a day. ' +
            'You can close this page.',
        );
        await saveScreenshot(page, 'cli-login-8-allowance-granted');
        expect(pageErrors).toEqual([]);

        const player = await findPlayerByWallet(signin.db, account.address);
        const [row] = await signin.db.query<{ daily_units: string }>(
          'SELECT daily_units::text AS daily_units FROM allowances WHERE player_id = $1 AND game_id = $2',
          [player!.id, gameId],
        );
        expect(row?.daily_units).toBe('1250000000');
        expect((await pollUntilDone(cli)).status).toBe(200);
      } finally {
        await close();
      }
    });

    // Issue 27: the done text was built from a JSON number, so 999999999.99999999 read
    // 1000000000 (more than allowed) and 0.00000001 read 1e-8. It shows the server's exact text.
    it.each([
      { typed: '999999999.99999999', units: '99999999999999999' },
      { typed: '0.00000001', units: '1' },
    ])('grants $typed HST a day and says exactly that', async ({ typed, units }) => {
      const gameId = await publishedGame(signin.db, 'High-Low');
      const account = privateKeyToAccount(generatePrivateKey());
      const cli = await startCliLogin('High-Low terminal on linux', gameId);
      const { page, pageErrors, close } = await openPage({ account });
      try {
        await page.goto(`${signin.url}${cli.browserUrl}`);
        await expect.poll(() => page.locator('#game-name').textContent()).toBe('High-Low');
        await connectWallet(page);
        await page.getByLabel('HST a day (leave empty to keep your current allowance)').fill(typed);
        await page.getByRole('button', { name: 'Approve' }).click();
        await page.getByRole('heading', { name: 'Approved — return to your game' }).waitFor();
        expect(await page.locator('#result-detail').textContent()).toBe(
          `Your game is now signed in, and High-Low may charge you up to ${typed} HST a day. ` +
            'You can close this page.',
        );
        if (units === '1') await saveScreenshot(page, 'cli-login-9-smallest-allowance');
        expect(pageErrors).toEqual([]);
        const player = await findPlayerByWallet(signin.db, account.address);
        const [row] = await signin.db.query<{ daily_units: string }>(
          'SELECT daily_units::text AS daily_units FROM allowances WHERE player_id = $1 AND game_id = $2',
          [player!.id, gameId],
        );
        expect(row?.daily_units).toBe(units);
      } finally {
        await close();
      }
    });

    it('rejects: the game is told access_denied', async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const cli = await startCliLogin('Windows · reject me');
      const { page, pageErrors, close } = await openPage({ account });
      try {
        await page.goto(`${signin.url}${cli.browserUrl}`);
        await connectWallet(page);
        await page.getByRole('button', { name: 'Reject' }).click();
        await page.getByRole('heading', { name: 'Request rejected' }).waitFor();
        await saveScreenshot(page, 'cli-login-4-rejected');
        expect(pageErrors).toEqual([]);

        const poll = await pollUntilDone(cli);
        expect(poll.status).toBe(400);
        expect(poll.body.error).toBe('access_denied');
      } finally {
        await close();
      }
    });

    it('shows a description containing markup as text, and runs none of it', async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const description =
        '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
      const cli = await startCliLogin(description);
      const { page, close } = await openPage({ account });
      try {
        await page.goto(`${signin.url}${cli.browserUrl}`);
        await expect.poll(() => page.locator('#description').textContent()).toBe(description);
        expect(await page.locator('main script, main img').count()).toBe(0);
        expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
        await saveScreenshot(page, 'cli-login-5-markup-as-text');
      } finally {
        await close();
      }
    });

    it('says so when the code does not match the request', async () => {
      const cli = await startCliLogin('Linux · wrong code');
      const { page, close } = await openPage();
      try {
        await page.goto(`${signin.url}/cli/login?requestorId=${cli.requestorId}&code=BBBB-BBBB`);
        await expect
          .poll(() => alertText(page))
          .toBe(
            'This sign-in request was not found, or its code does not match. ' +
              'Start signing in again from your game.',
          );
        expect(await page.getByRole('button', { name: 'Connect wallet' }).isVisible()).toBe(false);
      } finally {
        await close();
      }
    });

    it('says so when the browser has no wallet', async () => {
      const cli = await startCliLogin('Linux · no wallet');
      const { page, close } = await openPage();
      try {
        await page.goto(`${signin.url}${cli.browserUrl}`);
        await page.getByRole('button', { name: 'Connect wallet' }).click();
        await expect
          .poll(() => alertText(page))
          .toBe(
            'No wallet was found in this browser. Install a wallet extension such as MetaMask, ' +
              'or open this page in your wallet app’s browser, then reload the page.',
          );
        await saveScreenshot(page, 'cli-login-6-no-wallet');
      } finally {
        await close();
      }
    });

    it('says so when the signature is refused in the wallet, and signs in no one', async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const cli = await startCliLogin('Linux · refused');
      const { page, close } = await openPage({ account, refuseSignature: true });
      try {
        await page.goto(`${signin.url}${cli.browserUrl}`);
        await page.getByRole('button', { name: 'Connect wallet' }).click();
        await expect
          .poll(() => alertText(page))
          .toBe('The signature was refused in your wallet, so you were not signed in.');
        expect(await page.getByRole('button', { name: 'Connect wallet' }).isEnabled()).toBe(true);
        expect(await findPlayerByWallet(signin.db, account.address)).toBeNull();
      } finally {
        await close();
      }
    });

    it('has no serious or critical accessibility violations (axe-core)', async () => {
      const account = privateKeyToAccount(generatePrivateKey());
      const cli = await startCliLogin('Linux · accessibility');
      const { page, close } = await openPage({ account });
      try {
        await page.goto(`${signin.url}${cli.browserUrl}`);
        await page.getByRole('button', { name: 'Connect wallet' }).waitFor();
        expect(await seriousViolations(page)).toEqual([]);
        await connectWallet(page);
        expect(await seriousViolations(page)).toEqual([]);
        // Nothing scrolls sideways at phone width.
        expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
          VIEWPORT.width,
        );
      } finally {
        await close();
      }
    });
  },
);
