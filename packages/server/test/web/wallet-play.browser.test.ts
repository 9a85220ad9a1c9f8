import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arcadeVaultAbi, hstAbi, uuidToBytes16 } from '@coinop/contracts';
import type { Browser, Dialog, FrameLocator, Page } from 'playwright-core';
import { getAddress, parseEther, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE,
  DESKTOP,
  ARCADE_KEY_STORAGE,
  NO_CHROMIUM_REASON,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  saveScreenshot,
  seriousViolations,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { injectWallet, walletCalls } from '@coinop/testkit/eip1193';
import { testConfig } from '../../src/config.js';
import { uuidIds } from '../../src/ids.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { accountBalance } from '../../src/services/admin-hst.js';
import { formatHst } from '@coinop/protocol';
import { parseHst } from '@coinop/core';
import { findPlayLock } from '../../src/store/chain-play-locks.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { createPlayer } from '../../src/store/players.js';
import {
  chainConfigFor,
  HST,
  sealOperatorKey,
  startArcadeChain,
  type ArcadeChain,
} from '../fixtures/chain.js';
import { startCoverServer, type CoverServer } from '../fixtures/cover-server.js';

/**
 * Issue 15 in the game page, in headless Chromium against a real Anvil and an arcade in chain
 * mode with an operator key (PGlite): a player with HST and ETH in their arcade wallet chooses
 * "Lock from my wallet" in the play dialog; the game receives the play id and the lock's
 * transaction hash as `txid`, the vault holds the lock, the game scores, and the sender pays the
 * leader's and the developer's shares to their wallets to the unit. The arcade balance stays the
 * default (no wallet transaction), a wallet without ETH sees the option disabled, with why, and a
 * browser wallet that declines the permit leaves the game unstarted and nothing sent.
 */

const CONFIRMATIONS = 2;
const COST_HST = 5n;
const NO_GAS_LOCK =
  'Your wallet has no ETH to pay the network fee for a play lock. Add a little ETH on this ' +
  'chain to your wallet, then try again.';

/**
 * A game written against the bridge's wire protocol alone (spec 4.10): Play and Score buttons,
 * and each reply's data shown as JSON, so the test reads exactly what the game received.
 */
function lockTestGame(gameId: () => string): string {
  return `<!doctype html><html lang="en"><head><title>Lock Test</title></head><body>
<main><h1>Lock Test</h1>
<button id="play" type="button">Play</button>
<button id="score" type="button">Score 42</button>
<pre id="play-reply"></pre><pre id="score-reply"></pre></main>
<script>
let playId = null;
let n = 0;
addEventListener('message', (event) => {
  if (event.source !== parent) return;
  const { type, data } = event.data;
  if (type === 'play') {
    playId = data.playId ?? null;
    document.getElementById('play-reply').textContent = JSON.stringify(data);
  }
  if (type === 'score') document.getElementById('score-reply').textContent = JSON.stringify(data);
});
const ask = (message) => parent.postMessage({ ...message, gameId: ${JSON.stringify(gameId())}, requestId: 'r.' + ++n }, '*');
document.getElementById('play').onclick = () => {
  document.getElementById('play-reply').textContent = '';
  ask({ type: 'play' });
};
document.getElementById('score').onclick = () => ask({ type: 'score', playId, score: 42 });
</script></body></html>`;
}

describe.skipIf(!hasChromium)(
  `plays locked from the wallet in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let chain: ArcadeChain;
    let vault: Address;
    let dataDir: string;
    let server: RunningServer;
    let gameHost: CoverServer;
    let browser: Browser;
    let gameId = '';
    const leaderWallet = privateKeyToAccount(generatePrivateKey()).address;
    const developerWallet = privateKeyToAccount(generatePrivateKey()).address;

    beforeAll(async () => {
      ensureBrowserBuilds();
      chain = await startArcadeChain();
      const deployed = await chain.newVault();
      vault = deployed.vault;
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-wallet-play-'));
      const keyFile = await sealOperatorKey(chain, dataDir);
      gameHost = await startCoverServer({
        '/lock-test': (_request, response) =>
          response
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(lockTestGame(() => gameId)),
      });
      server = await startServer(
        testConfig({
          apiPort: 0,
          dataDir,
          adminToken: 'wallet-play-admin',
          chain: chainConfigFor(chain, deployed, {
            confirmations: CONFIRMATIONS,
            pollIntervalMs: 200,
            operatorKeyFile: keyFile,
            publicRpcUrl: chain.anvil.rpcUrl,
          }),
        }),
      );
      const { arcade } = server.api;
      const developer = await ensureDeveloper(
        arcade.db,
        arcade.clock,
        uuidIds,
        developerWallet.toLowerCase(),
      );
      const game = await registerGame(
        arcade,
        {
          developerId: developer.id,
          name: 'Lock Test',
          description: 'A game that shows what the bridge answers.',
          url: gameHost.url('/lock-test'),
        },
        [{ name: 'Standard', cost: COST_HST * HST }],
      );
      gameId = game.id;
      await publish(arcade, gameId);
      const tierId = (await arcade.games.get(gameId)).leaderboards[0]!.id;
      // A leader with a wallet: their share of the next play goes to that wallet on chain.
      const leader = await createPlayer(arcade.db, arcade.clock, uuidIds, {
        wallet: leaderWallet.toLowerCase(),
        name: 'Leader',
      });
      await deposited(leader.id, COST_HST * HST);
      const leaderPlay = await arcade.plays.open({
        gameId,
        playerId: leader.id,
        leaderboardId: tierId,
        idempotencyKey: null,
      });
      await arcade.plays.score({
        gameId,
        playId: leaderPlay.id,
        leaderboardId: tierId,
        score: 100,
        idempotencyKey: null,
      });
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await gameHost?.close();
      await chain?.stop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const hstOf = (address: Address) =>
      chain.admin.readContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'balanceOf',
        args: [address],
      });

    /**
     * Funds a player's balance by a deposit into the vault, credited once confirmed: a mint would
     * leave the vault short of the ledger, and the watcher would halt the senders (issue 27).
     */
    async function deposited(playerId: string, units: bigint) {
      // The admin service states balances as exact HST strings; compared here as one.
      const balance = async () => (await accountBalance(server.api.arcade, playerId)).balance;
      const expected = formatHst(parseHst(await balance(), 'balance') + units);
      await chain.deposit(vault, chain.players[0]!, playerId, units);
      await chain.mine(CONFIRMATIONS);
      // Also run from beforeAll, where expect.poll is not available.
      for (let look = 0; (await balance()) !== expected; look += 1) {
        if (look === 100) throw new Error(`the deposit for ${playerId} was never credited`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    /** A fresh arcade wallet with `hst` HST and `eth` ETH on chain, known to the test. */
    async function fundedWallet(hst: bigint, eth: string) {
      const key = generatePrivateKey();
      const address = privateKeyToAccount(key).address;
      const minted = await chain.admin.writeContract({
        address: chain.hst,
        abi: hstAbi,
        functionName: 'mint',
        args: [address, hst],
      });
      await chain.admin.waitForTransactionReceipt({ hash: minted });
      if (eth !== '0') {
        const sent = await chain.admin.sendTransaction({ to: address, value: parseEther(eth) });
        await chain.admin.waitForTransactionReceipt({ hash: sent });
      }
      return { key, address };
    }

    /** Signs in with the arcade wallet holding `key`, on the game's page. */
    async function signedInPage(key: string, viewport = DESKTOP) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.addInitScript({
        content: `localStorage.setItem(${JSON.stringify(ARCADE_KEY_STORAGE)}, ${JSON.stringify(key)});`,
      });
      await page.goto(`${server.urls['web']!}/games/${gameId}`);
      await page.getByRole('heading', { name: 'Lock Test', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Connect wallet' }).click();
      await page.getByRole('button', { name: 'Arcade wallet' }).click();
      await page.getByTestId('balance').waitFor();
      return { context, page, game: page.frameLocator('iframe.game-frame') };
    }

    /** Mines a block every 300 ms while `until` runs: locks and batches get confirmations. */
    async function mining<T>(until: () => Promise<T>): Promise<T> {
      let stop = false;
      const loop = (async () => {
        while (!stop) {
          await chain.mine(1);
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
      })();
      try {
        return await until();
      } finally {
        stop = true;
        await loop;
      }
    }

    const reply = async (game: FrameLocator, id: string) => {
      const text = (await game.locator(`#${id}`).textContent()) ?? '';
      return text === '' ? null : (JSON.parse(text) as Record<string, string>);
    };

    /** The next dialog the page opens, answered: accepted (leave) or dismissed (stay). */
    function nextDialog(page: Page, accept: boolean): Promise<Dialog> {
      return new Promise((resolve) => {
        page.once('dialog', (dialog) => {
          void (accept ? dialog.accept() : dialog.dismiss()).then(() => resolve(dialog));
        });
      });
    }

    /** No serious axe violations, and nothing wider than the viewport. */
    async function checkPage(page: Page, width: number, screenshot: string) {
      await saveScreenshot(page, screenshot);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        width,
      );
    }

    it(
      'locks a play from the wallet: the game gets the lock as txid, and the payout reaches the wallets',
      { timeout: 240_000 },
      async () => {
        const wallet = await fundedWallet(100n * HST, '1');
        const { context, page, game } = await signedInPage(wallet.key);
        try {
          const { arcade } = server.api;
          const player = (
            await arcade.db.query<{ id: string }>('SELECT id FROM players WHERE wallet = $1', [
              wallet.address.toLowerCase(),
            ])
          )[0]!;
          await deposited(player.id, 10n * HST);
          await page.reload();
          const balance = page.getByTestId('balance');
          await expect.poll(() => balance.textContent()).toBe('10 HST');

          // The dialog offers both; the arcade balance is chosen.
          await game.getByRole('button', { name: 'Play' }).click();
          const dialog = page.getByRole('dialog', { name: 'Lock HST to play?' });
          await dialog.waitFor();
          const choice = dialog.getByRole('group', { name: 'Pay for this play' });
          const fromBalance = choice.getByRole('radio', { name: 'From my arcade balance' });
          const fromWallet = choice.getByRole('radio', { name: 'Lock from my wallet' });
          await expect
            .poll(() => dialog.getByTestId('wallet-play-hst').textContent())
            .toBe('100 HST');
          expect(await dialog.getByTestId('wallet-play-eth').textContent()).toBe('1 ETH');
          expect(await fromBalance.isChecked()).toBe(true);
          expect(await fromWallet.isChecked()).toBe(false);
          expect(await fromWallet.isEnabled()).toBe(true);
          expect(await choice.textContent()).toContain(
            `On chain: your wallet pays a network fee in ETH, and the game starts after ${CONFIRMATIONS} blocks confirm it on the chain.`,
          );
          await checkPage(page, DESKTOP.width, 'wallet-play-dialog-1366');
          await page.setViewportSize(PHONE);
          await checkPage(page, PHONE.width, 'wallet-play-dialog-360');

          // Chosen with the keyboard: the arrow key moves within the radio group.
          await fromBalance.focus();
          await page.keyboard.press('ArrowDown');
          expect(await fromWallet.isChecked()).toBe(true);
          expect(await dialog.textContent()).toContain(
            'Your wallet signs once and sends one transaction locking the cost',
          );
          await dialog.getByRole('button', { name: 'Approve' }).click();

          // The lock's hash, then its confirmations, then the play opens and the game gets it.
          const card = page.getByTestId('wallet-play-progress');
          const step = card.locator('[data-step]');
          await expect
            .poll(() => step.textContent(), { timeout: 30_000 })
            .toBe('Lock of 5 HST is in a block: waiting for 2 more confirmations (0 of 2).');
          const hash = (await card.locator('[data-tx-hash]').getAttribute('data-tx-hash')) as Hash;
          // Not open before its confirmations: the game is still waiting for its answer.
          expect(await reply(game, 'play-reply')).toBeNull();
          await checkPage(page, PHONE.width, 'wallet-play-confirming-360');
          // Leaving now loses the play the lock opens (it asked nothing): a link of the app asks
          // first, saying why, and staying keeps following the lock; a reload asks too.
          const linkAsked = nextDialog(page, false);
          await page
            .getByRole('navigation', { name: 'Main' })
            .getByRole('link', { name: 'Games' })
            .click();
          expect((await linkAsked).message()).toBe(
            'Leave the game? Your lock of 5 HST from your wallet is still waiting for the chain, ' +
              'and the game cannot start its play once you leave. The arcade opens the play all ' +
              'the same once the lock is confirmed; when its time runs out without a score, its ' +
              'cost is paid out as a scored play’s is: to the leaders the board had when it ' +
              'began, the game’s developer and the arcade. If the board had no leaders, their ' +
              'part comes back to you (on a tournament round, it goes to the prize pool).',
          );
          expect(new URL(page.url()).pathname).toBe(`/games/${gameId}`);
          const reloadAsked = nextDialog(page, false);
          void page.reload().catch(() => undefined);
          expect((await reloadAsked).type()).toBe('beforeunload');
          expect(await step.getAttribute('data-step')).toBe('confirming');
          await mining(() =>
            expect.poll(() => step.getAttribute('data-step'), { timeout: 60_000 }).toBe('opened'),
          );
          expect(hash).toMatch(/^0x[0-9a-f]{64}$/);
          expect(await step.textContent()).toBe('Locked 5 HST from your wallet: the play is open.');
          await expect.poll(() => reply(game, 'play-reply')).not.toBeNull();
          const played = (await reply(game, 'play-reply'))!;
          expect(played).toEqual({
            playId: expect.any(String),
            seed: expect.stringMatching(/^[0-9a-f]{64}$/),
            txid: hash,
          });
          const receipt = await chain.admin.getTransactionReceipt({ hash });
          expect(receipt.status).toBe('success');
          expect(getAddress(receipt.to!)).toBe(getAddress(vault));
          const lock = await chain.admin.readContract({
            address: vault,
            abi: arcadeVaultAbi,
            functionName: 'playLock',
            args: [uuidToBytes16(played.playId!)],
          });
          expect(lock.state).toBe(1); // Locked
          expect(getAddress(lock.player)).toBe(getAddress(wallet.address));
          expect(lock.amount).toBe(COST_HST * HST);
          expect(await hstOf(wallet.address)).toBe(95n * HST);
          expect((await findPlayLock(arcade.db, played.playId!))?.lockTxHash).toBe(hash);
          // The arcade balance did not move.
          expect(await balance.textContent()).toBe('10 HST');
          await checkPage(page, PHONE.width, 'wallet-play-opened-360');

          // The game scores as usual; the sender pays the shares to the wallets.
          const leaderBefore = await hstOf(leaderWallet);
          const developerBefore = await hstOf(developerWallet);
          const vaultBefore = await hstOf(vault);
          await game.getByRole('button', { name: 'Score 42' }).click();
          await expect.poll(() => reply(game, 'score-reply')).toEqual({ playId: played.playId });
          await mining(() =>
            expect
              .poll(async () => (await findPlayLock(arcade.db, played.playId!))?.state, {
                timeout: 60_000,
              })
              .toBe('settled'),
          );
          const leaderShare = (COST_HST * HST * 70n) / 100n;
          const developerShare = (COST_HST * HST * 20n) / 100n;
          expect((await hstOf(leaderWallet)) - leaderBefore).toBe(leaderShare);
          expect((await hstOf(developerWallet)) - developerBefore).toBe(developerShare);
          expect(vaultBefore - (await hstOf(vault))).toBe(leaderShare + developerShare);
          expect(await hstOf(wallet.address)).toBe(95n * HST);

          // The default stays the arcade balance: a plain approval sends nothing from the wallet.
          const nonce = await chain.admin.getTransactionCount({ address: wallet.address });
          await game.getByRole('button', { name: 'Play' }).click();
          await dialog.waitFor();
          expect(await fromBalance.isChecked()).toBe(true);
          await dialog.getByRole('button', { name: 'Approve' }).click();
          await expect.poll(() => reply(game, 'play-reply')).not.toBeNull();
          const ledgerPlay = (await reply(game, 'play-reply'))!;
          expect(Object.keys(ledgerPlay)).toEqual(['playId', 'seed']);
          expect(ledgerPlay.playId).not.toBe(played.playId);
          await expect.poll(() => balance.textContent()).toBe('5 HST');
          expect(await chain.admin.getTransactionCount({ address: wallet.address })).toBe(nonce);
          expect(await hstOf(wallet.address)).toBe(95n * HST);

          // The history does not count the wallet's lock as HST out of the arcade balance (it
          // said "−5 HST", and the leader's payout "+3.5 HST", though neither moved a balance):
          // it says the cost came from the wallet, with the lock's transaction.
          await page.setViewportSize(DESKTOP);
          await page.goto(`${server.urls['web']!}/account`);
          const plays = page.locator('.history-table tr[data-kind="play"]');
          await expect.poll(() => plays.count(), { timeout: 15_000 }).toBe(2);
          const cells = (row: number) => plays.nth(row).locator('td');
          expect(await cells(0).nth(3).textContent()).toBe('−5 HST');
          expect(await plays.nth(0).getAttribute('data-on-chain')).toBeNull();
          expect(await cells(1).nth(1).textContent()).toBe(
            `Played Standard: scored 42, ranked #2 · locked from your wallet on chain ` +
              `Transaction ${hash.slice(0, 10)}…${hash.slice(-8)}${hash} Copy`,
          );
          expect(await cells(1).nth(3).textContent()).toBe('5 HST from your wallet');
          expect(await plays.nth(1).getAttribute('data-on-chain')).toBe('true');
          expect(await cells(1).locator('[data-tx-hash]').getAttribute('data-tx-hash')).toBe(hash);
          await checkPage(page, DESKTOP.width, 'wallet-play-history-1366');
          await page.setViewportSize(PHONE);
          await checkPage(page, PHONE.width, 'wallet-play-history-360');
          // The leader's payout of that play went to their wallet, by the vault's settlement.
          const settled = (await findPlayLock(arcade.db, played.playId!))!.settleTxHash;
          const leaderHistory = await fetch(
            `${server.urls['api']!}/admin/players/${leaderWallet}/activity?kind=payout`,
            { headers: { authorization: 'Bearer wallet-play-admin' } },
          );
          expect(leaderHistory.status).toBe(200);
          const { items } = (await leaderHistory.json()) as { items: Record<string, unknown>[] };
          expect(items.find((i) => i['playId'] === played.playId)).toMatchObject({
            amount: '3.5',
            paidTo: 'wallet',
            txHash: settled,
          });
        } finally {
          await context.close();
        }
      },
    );

    it('a wallet without ETH sees the option disabled, with why', async () => {
      const wallet = await fundedWallet(100n * HST, '0');
      const { context, page, game } = await signedInPage(wallet.key, PHONE);
      try {
        await game.getByRole('button', { name: 'Play' }).click();
        const dialog = page.getByRole('dialog', { name: 'Lock HST to play?' });
        await dialog.waitFor();
        const fromWallet = dialog.getByRole('radio', { name: 'Lock from my wallet' });
        await expect
          .poll(() => dialog.getByTestId('wallet-play-unavailable').textContent())
          .toBe(NO_GAS_LOCK);
        expect(await fromWallet.isDisabled()).toBe(true);
        expect(await dialog.getByTestId('wallet-play-eth').textContent()).toBe('0 ETH');
        // The reason is read with the option.
        const described = await fromWallet.getAttribute('aria-describedby');
        expect(described?.split(' ')).toHaveLength(2);
        await checkPage(page, PHONE.width, 'wallet-play-no-gas-360');
        await dialog.getByRole('button', { name: 'Reject' }).click();
        await expect.poll(() => reply(game, 'play-reply')).toEqual({});
        expect(await hstOf(wallet.address)).toBe(100n * HST);
      } finally {
        await context.close();
      }
    });

    it('a browser wallet that declines the permit: the game does not start, nothing is sent', async () => {
      const funded = await fundedWallet(100n * HST, '1');
      const account = privateKeyToAccount(funded.key);
      const context = await browser.newContext({ viewport: DESKTOP });
      const page = await context.newPage();
      await injectWallet(page, account, {
        chain: { rpcUrl: chain.anvil.rpcUrl, chainId: chain.chainId },
        refuseTypedData: true,
      });
      try {
        await page.goto(`${server.urls['web']!}/games/${gameId}`);
        await page.getByRole('button', { name: 'Connect wallet' }).click();
        await page.getByRole('button', { name: 'Browser wallet' }).click();
        await page.getByTestId('balance').waitFor();
        const game = page.frameLocator('iframe.game-frame');
        await game.getByRole('button', { name: 'Play' }).click();
        const dialog = page.getByRole('dialog', { name: 'Lock HST to play?' });
        await dialog.waitFor();
        const fromWallet = dialog.getByRole('radio', { name: 'Lock from my wallet' });
        await expect.poll(() => fromWallet.isEnabled()).toBe(true);
        await fromWallet.check();
        await dialog.getByRole('button', { name: 'Approve' }).click();
        await expect.poll(() => reply(game, 'play-reply')).toEqual({});
        expect(
          await page.getByTestId('wallet-play-progress').locator('[data-step]').textContent(),
        ).toBe('You declined the request in your wallet: nothing was sent.');
        const calls = await walletCalls(page);
        expect(calls).toContain('eth_signTypedData_v4');
        expect(calls).not.toContain('eth_sendTransaction');
        expect(await chain.admin.getTransactionCount({ address: account.address })).toBe(0);
        expect(await hstOf(account.address)).toBe(100n * HST);
        // The arcade was asked for a play id, and holds it only as a request: no play, no lock.
        const requests = await server.api.arcade.db.query<{ state: string }>(
          `SELECT l.state FROM chain_play_locks l JOIN players p ON p.id = l.player_id
             WHERE p.wallet = $1`,
          [account.address.toLowerCase()],
        );
        expect(requests).toEqual([{ state: 'requested' }]);
      } finally {
        await context.close();
      }
    });
  },
);
