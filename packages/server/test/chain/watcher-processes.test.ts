import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { uuidToBytes16 } from '@coinop/contracts';
import { availableUnits } from '@coinop/core';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import type { Hex } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CheckpointMoved, recordDepositRange } from '../../src/chain/deposits.js';
import { DepositWatcher, type WatcherLog } from '../../src/chain/watcher.js';
import type { ChainConfig } from '../../src/config.js';
import { uuidIds } from '../../src/ids.js';
import type { Db } from '../../src/store/db.js';
import { ensureCheckpoint, readCheckpoint } from '../../src/store/chain-checkpoints.js';
import { findAccount } from '../../src/store/ledger.js';
import { openPostgres } from '../../src/store/postgres.js';
import {
  chainConfigFor,
  HST,
  newChainArcade,
  startArcadeChain,
  type ArcadeChain,
} from '../fixtures/chain.js';

/**
 * The watcher as it runs in `coinop serve`: in a loop, in several processes on one database,
 * through a chain that goes away and comes back.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

/** A log that keeps its lines, as pino would print them. */
function capturingLog() {
  const lines: { level: 'info' | 'warn' | 'error'; message: string }[] = [];
  const at = (level: 'info' | 'warn' | 'error') => (message: unknown) => {
    lines.push({ level, message: String(message) });
  };
  const log = { info: at('info'), warn: at('warn'), error: at('error') } as unknown as WatcherLog;
  return { log, lines };
}

/** Another connection pool on the same database: what a second API process has. */
async function secondHandle(db: Db): Promise<{ db: Db; close(): Promise<void> }> {
  if (db.dialect === 'pglite') return { db, close: async () => undefined };
  const [row] = await db.query<{ name: string }>('SELECT current_database() AS name');
  const url = new URL(process.env['DATABASE_URL'] ?? '');
  url.pathname = `/${row?.name}`;
  const other = await openPostgres(url.toString(), 4);
  return { db: other, close: () => other.close() };
}

describe.each(storeVariants())('deposit watchers in several processes, on %s', (variant) => {
  let api: TestApi | null = null;
  const watchers: DepositWatcher[] = [];
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(watchers.splice(0).map((w) => w.stop()));
    for (const close of closers.splice(0)) await close();
    if (api) {
      await expectLedgerBalanced(api.db);
      await api.close();
    }
    api = null;
  });

  async function arcadeOnNewVault(overrides: Partial<ChainConfig> = {}) {
    const arcade = await newChainArcade(chain, variant, overrides);
    api = arcade.api;
    return arcade;
  }

  const watcherOn = (db: Db, api: TestApi, config: ChainConfig) => {
    const watcher = new DepositWatcher({
      db,
      clock: api.clock,
      ids: uuidIds,
      chain: config,
      playTtlSeconds: 3600,
    });
    watchers.push(watcher);
    return watcher;
  };

  const unitsOf = async (db: Db, accountId: string) => {
    const account = await findAccount(db, accountId);
    return account ? availableUnits(account) : null;
  };

  it('credits each deposit once with two watchers running on one database', async () => {
    const { api, vault, config } = await arcadeOnNewVault({ confirmations: 1 });
    const second = await secondHandle(api.db);
    closers.push(second.close);
    const player = await fundedPlayer(api, 0);
    const a = watcherOn(api.db, api, config);
    const b = watcherOn(second.db, api, config);
    const logA = capturingLog();
    const logB = capturingLog();
    a.start(logA.log);
    b.start(logB.log);
    for (let i = 1; i <= 5; i++) {
      await chain.deposit(vault, chain.players[i % 3]!, player.accountId, BigInt(i) * HST);
    }
    await chain.mine(1);
    await expect.poll(() => unitsOf(api.db, player.accountId), { timeout: 10_000 }).toBe(15n * HST);

    // Both ran rounds meanwhile; the deposits were credited once each, by one of them.
    await chain.mine(3);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await unitsOf(api.db, player.accountId)).toBe(15n * HST);
    const [counts] = await api.db.query<{ transfers: number; deposits: number }>(
      `SELECT (SELECT count(*)::int FROM transfers WHERE reason = 'deposit') AS transfers,
              (SELECT count(*)::int FROM chain_deposits WHERE status = 'credited') AS deposits`,
    );
    expect(counts).toEqual({ transfers: 5, deposits: 5 });
    const credited = [...logA.lines, ...logB.lines].filter((l) =>
      /deposits credited/.test(l.message),
    );
    expect(credited.length).toBeGreaterThan(0);
    expect([...logA.lines, ...logB.lines].filter((l) => l.level !== 'info')).toEqual([]);

    // The one reading the chain stops and gives up its lease: the other carries on at once,
    // not when the lease would have run out (30 s).
    const leader = (
      await api.db.query<{ leader_id: string }>('SELECT leader_id FROM chain_checkpoints')
    )[0]?.leader_id;
    expect(leader).toMatch(/^[0-9a-f-]{36}$/);
    await Promise.all([a.stop(), b.stop()]);
    const c = watcherOn(second.db, api, config);
    c.start(capturingLog().log);
    await chain.deposit(vault, chain.players[0]!, player.accountId, 2n * HST);
    await chain.mine(1);
    await expect.poll(() => unitsOf(api.db, player.accountId), { timeout: 5_000 }).toBe(17n * HST);
  });

  it('lets one of two writers of the same range record it; the other writes nothing', async () => {
    const { api } = await arcadeOnNewVault();
    const second = await secondHandle(api.db);
    closers.push(second.close);
    const player = await fundedPlayer(api, 0);
    const key = { chainId: 999_001, vaultAddress: `0x${randomBytes(20).toString('hex')}` };
    await ensureCheckpoint(api.db, api.clock, uuidIds, {
      ...key,
      tokenAddress: `0x${'1'.repeat(40)}`,
      startBlock: 100n,
    });
    const hash = (): Hex => `0x${randomBytes(32).toString('hex')}`;
    const events = Array.from({ length: 20 }, (_, i) => ({
      txHash: hash(),
      logIndex: i,
      blockNumber: 100n + BigInt(i),
      blockHash: hash(),
      account: uuidToBytes16(player.accountId),
      from: `0x${'2'.repeat(40)}` as Hex,
      amount: HST,
    }));
    const range = {
      key,
      from: { blockNumber: null, blockHash: null },
      to: { blockNumber: 119n, blockHash: hash() },
      headBlock: 130n,
      events,
    };
    const outcomes = await Promise.allSettled([
      recordDepositRange(api.db, api.clock, range),
      recordDepositRange(second.db, api.clock, range),
    ]);
    const done = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(done).toHaveLength(1);
    expect(done[0]?.value).toEqual({
      credited: 20,
      locks: { opened: 0, refused: [] },
      lockEnds: [],
      held: [],
      alreadyRecorded: 0,
    });
    expect(refused).toHaveLength(1);
    expect(refused[0]?.reason).toBeInstanceOf(CheckpointMoved);
    expect(await unitsOf(api.db, player.accountId)).toBe(20n * HST);
    expect(await readCheckpoint(api.db, key)).toMatchObject({
      blockNumber: 119n,
      blockHash: range.to.blockHash,
      headBlock: 130n,
    });
  });
});

describe('a deposit watcher whose chain goes away', () => {
  let proxy: Server;
  let down = false;
  let proxyUrl: string;
  const KEY = `k${randomUUID().replaceAll('-', '')}`;

  beforeAll(async () => {
    // Stands for a provider's endpoint, its key in the path, in front of Anvil.
    proxy = createServer((req, res) => {
      if (down) {
        res.writeHead(503, { 'content-type': 'text/plain' }).end(`no service for ${KEY}`);
        return;
      }
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        fetch(chain.anvil.rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: Buffer.concat(chunks),
        })
          .then(async (answer) => res.writeHead(answer.status).end(await answer.text()))
          .catch(() => res.writeHead(502).end());
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v3/${KEY}`;
  });
  afterAll(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
  });

  it('keeps trying, backing off, logging without the RPC key, and credits once it is back', async () => {
    const vault = await chain.newVault();
    const config = chainConfigFor(chain, vault, {
      rpcUrl: proxyUrl,
      confirmations: 1,
      pollIntervalMs: 20,
      retryMaxMs: 160,
    });
    const api = await buildTestApi('pglite', { chain: config });
    try {
      const player = await fundedPlayer(api, 0);
      const watcher = api.app.arcade.chain!;
      const { log, lines } = capturingLog();
      down = true;
      watcher.start(log);
      await expect.poll(() => lines.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(5);
      const failures = lines.slice(0, 5);
      for (const line of failures) {
        expect(line.level).toBe('warn');
        expect(line.message).toMatch(
          /^chain watcher: HTTP request failed\. .*; trying again in \d+ ms$/,
        );
        expect(line.message).not.toContain(KEY);
      }
      // Twice as long after each failure, up to the most it waits.
      expect(failures.map((l) => Number(/in (\d+) ms/.exec(l.message)?.[1]))).toEqual([
        40, 80, 160, 160, 160,
      ]);
      expect(watcher.state.lastError?.message).toMatch(/^HTTP request failed\./);
      expect(watcher.state.lastError?.message).not.toContain(KEY);
      const status = await api.app.inject({
        method: 'GET',
        url: '/admin/chain',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expect(status.json()).toMatchObject({
        enabled: true,
        state: 'failing',
        rpcUrl: `${new URL(proxyUrl).origin}/…`,
        chainId: null,
        lastError: { message: expect.stringMatching(/^HTTP request failed\./) },
      });
      expect(status.body).not.toContain(KEY);

      await chain.deposit(vault.vault, chain.players[0]!, player.accountId, 8n * HST);
      await chain.mine(1);
      down = false;
      await expect
        .poll(async () => unitsOf(api.db, player.accountId), { timeout: 5_000 })
        .toBe(8n * HST);
      // The round goes on after crediting (surplus, reconciliation): it ends a moment later.
      await expect
        .poll(() => lines.some((l) => /the chain answers again after \d+ failures/.test(l.message)))
        .toBe(true);
      expect(watcher.state.lastError).toBeNull();
      expect(lines.every((l) => !l.message.includes(KEY))).toBe(true);
      await expectLedgerBalanced(api.db);
    } finally {
      await api.close();
    }
  });

  const unitsOf = async (db: Db, accountId: string) => {
    const account = await findAccount(db, accountId);
    return account ? availableUnits(account) : null;
  };
});
