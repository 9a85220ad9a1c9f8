import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openSignedIn,
  DESKTOP,
  NO_CHROMIUM_REASON,
  ensureBrowserBuilds,
  hasChromium,
  launchChromium,
  saveScreenshot,
} from '@coinop/testkit/browser';
import { registerGame } from '@coinop/testkit/arcade';
import { testConfig } from '../../src/config.js';
import { uuidIds } from '../../src/ids.js';
import { startServer, type RunningServer } from '../../src/main.js';
import { publish } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';
import { updateGame } from '../../src/store/games.js';
import { createPlayer } from '../../src/store/players.js';

/**
 * Issue 27 finding 5 in the web app (headless Chromium, PGlite): a player plays tournament rounds
 * whose entry fees a JavaScript number cannot write, 0.00000007 HST (`7e-8`) and
 * 1000000000.00000001 HST (`1000000000`). The approval dialog shows each fee to the unit, the
 * wallet signs `Lock: <fee> HST` as documented, the arcade accepts it and locks exactly the fee,
 * and the balance in the header's tooltip reads to the unit throughout.
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

const HST = 100_000_000n;
const FEES = [
  { fee: '0.00000007', units: 7n, shown: '0.00000007 HST' },
  {
    fee: '1000000000.00000001',
    units: 1_000_000_000n * HST + 1n,
    shown: '1,000,000,000.00000001 HST',
  },
] as const;

describe.skipIf(!hasChromium)(
  `exact amounts in the web app in headless Chromium${hasChromium ? '' : ` (${NO_CHROMIUM_REASON})`}`,
  () => {
    let dataDir: string;
    let server: RunningServer;
    let reaction: ReactionServer;
    let browser: Browser;
    let gameId: string;
    let playerId: string;
    const tournaments = new Map<string, { id: string; roundId: string }>();
    const key = generatePrivateKey();
    const wallet = privateKeyToAccount(key).address.toLowerCase();

    beforeAll(async () => {
      ensureBrowserBuilds();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-amounts-'));
      server = await startServer(
        testConfig({ apiPort: 0, dataDir, adminToken: 'amounts-admin', faucetHst: 0 }),
      );
      const { arcade } = server.api;
      const created = await server.api.inject({
        method: 'POST',
        url: '/admin/developers',
        headers: { authorization: 'Bearer amounts-admin' },
        payload: { wallet: privateKeyToAccount(generatePrivateKey()).address.toLowerCase() },
      });
      expect(created.statusCode, created.body).toBe(201);
      const developer = created.json<{ developerId: string; apiKey: string }>();
      const game = await registerGame(
        arcade,
        {
          developerId: developer.developerId,
          name: 'Reaction',
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
      for (const { fee } of FEES) {
        const res = await server.api.inject({
          method: 'POST',
          url: `/developer/games/${gameId}/tournaments`,
          headers: { 'api-key': developer.apiKey },
          payload: {
            name: `Cup at ${fee}`,
            entryFee: fee,
            startsAt: new Date().toISOString(),
            durationSeconds: 3600,
            payoutTable: { topPercent: 50 },
          },
        });
        expect(res.statusCode, res.body).toBe(201);
        const t = res.json<{ id: string; currentRound: { id: string } }>();
        tournaments.set(fee, { id: t.id, roundId: t.currentRound.id });
      }
      const player = await createPlayer(arcade.db, arcade.clock, uuidIds, {
        wallet,
        name: 'Morgan',
      });
      playerId = player.id;
      // 2,000,000,000.12345678 HST: more digits than a JSON number keeps.
      for (const amountUnits of [1_000_000_000n * HST, 1_000_000_000n * HST, 12_345_678n]) {
        await mintHst(arcade, { id: playerId, amountUnits });
      }
      browser = await launchChromium();
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      await reaction?.close();
      await server?.close();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    const signedInPage = (path: string) =>
      openSignedIn(browser, { url: `${server.urls['web']!}${path}`, key, viewport: DESKTOP });

    it('shows, signs and locks each round fee to the unit', async () => {
      let balance = 2_000_000_000n * HST + 12_345_678n;
      for (const { fee, units, shown } of FEES) {
        const { id: tournamentId, roundId } = tournaments.get(fee)!;
        const { context, page } = await signedInPage(`/games/${gameId}?tournament=${tournamentId}`);
        try {
          // The header rounds it (issue 28); its tooltip, and screen readers, have it exactly.
          const header = page.getByTestId('balance').locator('.hst');
          await expect.poll(() => header.getAttribute('title')).toBe(hstText(balance));
          const round = page.getByRole('radio', { name: new RegExp(`^Tournament: Cup at ${fee}`) });
          await expect.poll(() => round.isChecked()).toBe(true);

          const game = page.frameLocator('iframe.game-frame');
          await expect
            .poll(() => game.locator('#status').textContent(), { timeout: 15_000 })
            .toBe('Ready. Press Play to start.');
          await game.getByRole('button', { name: 'Play' }).click();
          const dialog = page.getByRole('dialog', { name: 'Lock HST to play?' });
          await dialog.waitFor();
          expect(await dialog.getByTestId('approval-amount').textContent()).toBe(shown);
          expect(await dialog.textContent()).toContain(`Your balance${hstText(balance)}`);
          await saveScreenshot(page, `issue-27-approval-${units === 7n ? 'small' : 'large'}-fee`);
          await dialog.getByRole('button', { name: 'Approve' }).click();
          await expect
            .poll(() => game.locator('#status').textContent(), { timeout: 15_000 })
            .toBe('Wait for green…');

          const locked = await server.api.arcade.db.query<{ cost_units: bigint; message: string }>(
            `SELECT p.cost_units, a.message
               FROM plays p JOIN wallet_approvals a ON a.subject_id = p.id AND a.kind = 'play'
              WHERE p.player_id = $1 AND p.leaderboard_id = $2`,
            [playerId, roundId],
          );
          expect(locked).toEqual([
            { cost_units: units, message: expect.stringContaining(`\nLock: ${fee} HST\n`) },
          ]);
          balance -= units;
          await expect.poll(() => header.getAttribute('title')).toBe(hstText(balance));
        } finally {
          await context.close();
        }
      }
      // 2,000,000,000.12345678 less both fees, as the header's tooltip shows it.
      expect(hstText(balance)).toBe('1,000,000,000.1234567 HST');
    });
  },
);

/** The header's text of a balance: grouped, every decimal kept, the ticker after. */
function hstText(units: bigint): string {
  const digits = units.toString().padStart(9, '0');
  const whole = BigInt(digits.slice(0, -8)).toLocaleString('en');
  const fraction = digits.slice(-8).replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} HST`;
}
