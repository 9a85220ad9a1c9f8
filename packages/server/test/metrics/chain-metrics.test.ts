import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { ManualClock, uuidIds } from '../../src/ids.js';
import { ArcadeMetrics } from '../../src/metrics/arcade-metrics.js';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer } from '@coinop/testkit/arcade';
import { openTestDb } from '@coinop/testkit/db';
import { testSecretBox } from '@coinop/testkit/secrets';
import { chainConfigFor, HST, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/** The chain metrics, read from what the deposit watcher recorded: its lag and the withdrawals. */

function sample(text: string, line: RegExp): number | undefined {
  const found = line.exec(text);
  return found ? Number(found[1]) : undefined;
}

describe('chain metrics', () => {
  let chain: ArcadeChain;
  beforeAll(async () => {
    chain = await startArcadeChain();
  }, 120_000);
  afterAll(() => chain?.stop());

  it("reports the watcher's lag in blocks and the withdrawals waiting", async () => {
    const vault = await chain.newVault();
    const config = testConfig({ chain: chainConfigFor(chain, vault, { confirmations: 3 }) });
    const db = await openTestDb('pglite');
    const metrics = new ArcadeMetrics();
    const clock = new ManualClock(new Date());
    const app = await buildApi(config, {
      db,
      clock,
      ids: uuidIds,
      writeTokenKey: randomBytes(32),
      secrets: testSecretBox(),
      adminToken: TEST_ADMIN_TOKEN,
      metrics,
    });
    try {
      const scrape = async () => (await metrics.render()).body;
      // Before the watcher has read anything there is no lag to report, nor a head's age.
      expect(await scrape()).not.toMatch(/^coinop_chain_watcher_lag_blocks\{/m);
      expect(await scrape()).not.toMatch(/^coinop_chain_watcher_head_age_seconds\{/m);

      const api: TestApi = { app, db, clock, config, close: async () => undefined };
      const player = await fundedPlayer(api, 0);
      await chain.deposit(vault.vault, chain.players[0]!, player.accountId, 5n * HST);
      await chain.mine(3);
      await app.arcade.chain!.runOnce();
      // A scrape reads the database at most every few seconds: wait out the cached reading.
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      const text = await scrape();
      expect(
        sample(
          text,
          new RegExp(`^coinop_chain_watcher_lag_blocks\\{vault="${vault.vault}"\\} (\\S+)$`, 'm'),
        ),
      ).toBe(3);
      // The round just got the head: its age is the few seconds waited above.
      const headAge = sample(
        text,
        new RegExp(
          `^coinop_chain_watcher_head_age_seconds\\{vault="${vault.vault}"\\} (\\S+)$`,
          'm',
        ),
      );
      expect(headAge).toBeGreaterThanOrEqual(0);
      expect(headAge).toBeLessThan(60);
      expect(sample(text, /^coinop_chain_withdrawals\{state="queued"\} (\S+)$/m)).toBe(0);
      expect(sample(text, /^coinop_chain_withdrawals\{state="sent"\} (\S+)$/m)).toBe(0);
      expect(
        sample(text, new RegExp(`^coinop_chain_halted\\{vault="${vault.vault}"\\} (\\S+)$`, 'm')),
      ).toBe(0);
      // The deposit was credited: 5 HST came into the ledger from the vault, none minted.
      expect(sample(text, /^coinop_ledger_minted_units (\S+)$/m)).toBe(0);

      // HST the operator key pays out of the vault outside coinop leaves the vault short: the
      // watcher halts the senders.
      await chain.payOutsideCoinop(vault.vault, chain.admin.account.address, HST);
      await chain.mine(3);
      clock.advance(config.chain!.reconcileIntervalMs);
      await app.arcade.chain!.runOnce();
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      expect(
        sample(
          await scrape(),
          new RegExp(`^coinop_chain_halted\\{vault="${vault.vault}"\\} (\\S+)$`, 'm'),
        ),
      ).toBe(1);
    } finally {
      await app.close();
      await db.close();
    }
  });
});
