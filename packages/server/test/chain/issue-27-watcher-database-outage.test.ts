import { availableUnits } from '@coinop/core';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DepositWatcher, type WatcherLog } from '../../src/chain/watcher.js';
import { uuidIds } from '../../src/ids.js';
import type { Db } from '../../src/store/db.js';
import { findAccount } from '../../src/store/ledger.js';
import { openPostgres } from '../../src/store/postgres.js';
import { chainConfigFor, HST, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';
import { startTcpProxy } from '../fixtures/tcp-proxy.js';

/**
 * Issue 27: background loops must not log a line per tick while the database cannot be reached
 * (the outage is logged once for the process). The deposit watcher keeps reading the chain, fails
 * quietly on the database, and credits what arrived meanwhile once it is back. Postgres only: the
 * embedded database cannot go away and come back while its process lives.
 */

describe.each(storeVariants())('the deposit watcher through a database outage (%s)', (variant) => {
  // Only Postgres can go away and come back; the embedded store's case is skipped, and says so.
  const onPostgres = variant === 'postgres';
  let chain: ArcadeChain;
  beforeAll(async () => {
    if (onPostgres) chain = await startArcadeChain();
  });
  afterAll(() => chain?.stop());

  it.runIf(onPostgres)(
    'stays quiet while the database cannot be reached, and credits what arrived once it is back',
    async () => {
      const vault = await chain.newVault();
      const config = chainConfigFor(chain, vault, {
        confirmations: 1,
        pollIntervalMs: 20,
        retryMaxMs: 160,
      });
      const api: TestApi = await buildTestApi(variant, { chain: config });
      // The watcher reaches the same database through a proxy the test can cut.
      const [row] = await api.db.query<{ name: string }>('SELECT current_database() AS name');
      const url = new URL(process.env['DATABASE_URL'] ?? '');
      const proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
      url.host = `127.0.0.1:${proxy.port}`;
      url.pathname = `/${row?.name}`;
      const db: Db = await openPostgres(url.toString(), 4);
      const watcher = new DepositWatcher({
        db,
        clock: api.clock,
        ids: uuidIds,
        chain: config,
        playTtlSeconds: 3600,
      });
      const lines: { level: string; message: string }[] = [];
      const at = (level: string) => (message: unknown) => {
        lines.push({ level, message: String(message) });
      };
      const log = { info: at('info'), warn: at('warn'), error: at('error') } as WatcherLog;
      const unitsOf = async (accountId: string) => {
        const account = await findAccount(api.db, accountId);
        return account ? availableUnits(account) : null;
      };
      try {
        const player = await fundedPlayer(api, 0);
        watcher.start(log);
        await chain.deposit(vault.vault, chain.players[0]!, player.accountId, 2n * HST);
        await chain.mine(1);
        await expect.poll(() => unitsOf(player.accountId), { timeout: 10_000 }).toBe(2n * HST);

        await proxy.cut();
        await chain.deposit(vault.vault, chain.players[1]!, player.accountId, 3n * HST);
        await chain.mine(1);
        // Many rounds meet the outage: backing off from 40 ms to 160 ms, a second is a dozen.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(db.availability.isUnavailable).toBe(true);
        expect(lines.filter((l) => l.level !== 'info')).toEqual([]);
        expect(await unitsOf(player.accountId)).toBe(2n * HST);

        await proxy.restore();
        await expect.poll(() => unitsOf(player.accountId), { timeout: 10_000 }).toBe(5n * HST);
        // Nothing said about the chain, which never failed; and no warning or error at all.
        expect(lines.filter((l) => l.level !== 'info')).toEqual([]);
        expect(lines.some((l) => /the chain answers again/.test(l.message))).toBe(false);
        expect(watcher.state.lastError).toBeNull();
        await expectLedgerBalanced(api.db);
      } finally {
        await watcher.stop();
        await db.close();
        await proxy.close();
        await api.close();
      }
    },
    60_000,
  );
});
