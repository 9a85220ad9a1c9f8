import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerTransfer, LedgerTransferPage } from '@coinop/protocol';
import { publish } from '../../src/services/admin.js';
import { uuidIds } from '../../src/ids.js';
import { applyTransfers } from '../../src/store/ledger.js';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { mintTo, tournamentWithRound } from '../fixtures/tournaments.js';

/**
 * Issue 31: the console's Ledger screen was an audit summary and a mint form with no list of
 * transfers. GET /admin/ledger/transfers lists them newest first, filtered, a keyset page at a time.
 */
describe.each(storeVariants())('the ledger transfer list on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let alice: { playerId: string; accountId: string; wallet: string };
  let bob: { playerId: string; accountId: string; wallet: string };
  /** Every transfer the setup wrote, with its time, as the database has them. */
  let all: { id: string; at: Date }[];

  const asAdmin = (url: string) =>
    api.app.inject({
      method: 'GET',
      url,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });

  async function page(query: string): Promise<LedgerTransferPage> {
    const res = await asAdmin(`/admin/ledger/transfers?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<LedgerTransferPage>();
  }

  /** Every page of a query, `between` run after each page (to write new transfers meanwhile). */
  async function walk(query: string, between?: () => Promise<void>): Promise<LedgerTransfer[]> {
    const seen: LedgerTransfer[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const after: string = cursor === null ? '' : `&cursor=${cursor}`;
      const p = await page(`${query}${after}`);
      seen.push(...p.transfers);
      cursor = p.nextCursor;
      pages += 1;
      expect(pages).toBeLessThan(100);
      await between?.();
    } while (cursor !== null);
    return seen;
  }

  /** A mint to `accountId` at the clock's time, with a random (not time-ordered) id. */
  async function mintAt(accountId: string, units: bigint): Promise<string> {
    const id = randomUUID();
    await api.db.transaction((tx) =>
      applyTransfers(
        tx,
        [
          {
            id,
            kind: 'posted',
            debitAccountId: api.app.arcade.record.mintAccountId,
            creditAccountId: accountId,
            amount: units,
            pendingId: null,
            reason: 'mint',
            playId: null,
          },
        ],
        api.clock.now(),
      ),
    );
    return id;
  }

  async function playAndScore(playerId: string, score: number): Promise<string> {
    const headers = { authorization: `Bearer ${await writeToken(api, game)}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const leaderboardId = game.tiers[0]!.id;
    const play = await api.app.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId, leaderboardId },
    });
    expect(play.statusCode, play.body).toBe(200);
    const scored = await api.app.inject({
      method: 'POST',
      url: `${base}/score`,
      headers,
      payload: { playId: play.json().id, leaderboardId, score },
    });
    expect(scored.statusCode, scored.body).toBe(200);
    return play.json<{ id: string }>().id;
  }

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [10], scoreDisplay: 'NORMAL' });
    await publish(api.app.arcade, game.gameId);
    // Two funding mints at one instant: a tie in created_at, broken by the id.
    alice = await fundedPlayer(api, 100, 'Alice');
    bob = await fundedPlayer(api, 100, 'Bob');
    api.clock.advance(1000);
    await playAndScore(alice.playerId, 50);
    api.clock.advance(1000);
    await playAndScore(bob.playerId, 40);
    api.clock.advance(1000);
    // Five more mints in one microsecond, with random ids.
    for (let i = 0; i < 5; i += 1) await mintAt(bob.accountId, BigInt(i + 1));
    api.clock.advance(1000);
    const rows = await api.db.query<{ id: string; created_at: Date }>(
      'SELECT id, created_at FROM transfers',
    );
    all = rows
      .map((r) => ({ id: r.id, at: r.created_at }))
      .sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1));
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  it('lists every transfer newest first, ties in time broken by the larger id first', async () => {
    expect(all.length).toBeGreaterThan(12);
    const first = await page('limit=100');
    expect(first.nextCursor).toBeNull();
    expect(first.transfers.map((t) => t.id)).toEqual(all.map((t) => t.id));
    // The tie is real: five mints share one instant.
    const times = first.transfers.map((t) => t.createdAt);
    expect(new Set(times).size).toBeLessThan(times.length - 4);
  });

  it('names each side with its owner, the amount as exact text, and the play', async () => {
    const { transfers } = await page('limit=100');
    const funding = transfers.find(
      (t) => t.reason === 'mint' && t.credit.accountId === alice.accountId,
    );
    expect(funding).toMatchObject({
      kind: 'posted',
      amount: '100',
      playId: null,
      pendingId: null,
      debit: { kind: 'mint', label: 'Mint', playerId: null, developerId: null },
      credit: { kind: 'player', label: 'Alice', playerId: alice.playerId, developerId: null },
    });
    const lock = transfers.find(
      (t) => t.reason === 'play_lock' && t.debit.accountId === bob.accountId,
    )!;
    expect(lock).toMatchObject({ kind: 'pending', amount: '10', pendingId: null });
    expect(lock.credit).toMatchObject({
      kind: 'escrow',
      accountId: lock.playId,
      label: `Escrow of play ${lock.playId}`,
    });
    const posted = transfers.find((t) => t.pendingId === lock.id);
    expect(posted).toMatchObject({ kind: 'post_pending', playId: lock.playId });
    const developer = transfers.find((t) => t.reason === 'payout_developer');
    expect(developer?.credit).toMatchObject({
      kind: 'developer',
      developerId: game.developerId,
      label: `Developer ${game.developerWallet}`,
    });
    const arcade = transfers.find((t) => t.reason === 'payout_arcade');
    expect(arcade?.credit).toMatchObject({ kind: 'arcade', accountId: expect.any(String) });
    expect(arcade?.credit.label).not.toBe('');
    const small = transfers.filter((t) => t.reason === 'mint' && t.amount.startsWith('0.'));
    expect(small.map((t) => t.amount).sort()).toEqual([
      '0.00000001',
      '0.00000002',
      '0.00000003',
      '0.00000004',
      '0.00000005',
    ]);
  });

  it('filters by account on either side, and by player id or wallet', async () => {
    const byAccount = await walk(`limit=2&account=${bob.accountId}`);
    expect(byAccount.length).toBeGreaterThan(6);
    for (const t of byAccount) {
      expect([t.debit.accountId, t.credit.accountId]).toContain(bob.accountId);
    }
    expect(byAccount.some((t) => t.debit.accountId === bob.accountId)).toBe(true);
    expect(byAccount.some((t) => t.credit.accountId === bob.accountId)).toBe(true);
    const expected = all.map((a) => a.id).filter((id) => byAccount.some((t) => t.id === id));
    expect(byAccount.map((t) => t.id)).toEqual(expected);
    const sides = await api.db.query<{ n: string }>(
      'SELECT count(*)::text AS n FROM transfers WHERE $1 IN (debit_account_id, credit_account_id)',
      [bob.accountId],
    );
    expect(String(byAccount.length)).toBe(sides[0]!.n);

    const byId = await walk(`limit=3&player=${bob.playerId}`);
    const byWallet = await walk(`limit=100&player=${bob.wallet}`);
    expect(byId.map((t) => t.id)).toEqual(byAccount.map((t) => t.id));
    expect(byWallet.map((t) => t.id)).toEqual(byAccount.map((t) => t.id));
  });

  it('filters by kind and by reason', async () => {
    const pending = await walk('limit=100&kind=pending');
    expect(pending.length).toBeGreaterThan(0);
    expect(new Set(pending.map((t) => t.kind))).toEqual(new Set(['pending']));
    const mints = await walk('limit=4&reason=mint');
    expect(mints.length).toBe(7);
    expect(new Set(mints.map((t) => t.reason))).toEqual(new Set(['mint']));
    const both = await walk(`limit=100&reason=play_lock&kind=pending&player=${alice.playerId}`);
    expect(both).toHaveLength(1);
    expect(both[0]).toMatchObject({ reason: 'play_lock', kind: 'pending', amount: '10' });
  });

  it('filters by time, half-open: from included, to excluded, to the microsecond', async () => {
    const start = new Date(all.at(-1)!.at);
    const secondPlay = new Date(start.getTime() + 2000);
    const inclusive = await walk(`limit=100&from=${secondPlay.toISOString()}`);
    expect(inclusive.map((t) => t.id)).toEqual(
      all.filter((a) => a.at >= secondPlay).map((a) => a.id),
    );
    const before = await walk(`limit=100&to=${secondPlay.toISOString()}`);
    expect(before.map((t) => t.id)).toEqual(all.filter((a) => a.at < secondPlay).map((a) => a.id));
    expect(inclusive.length + before.length).toBe(all.length);
    // One microsecond later leaves the instant's transfers out.
    const micro = secondPlay.toISOString().replace('Z', '001Z');
    const after = await walk(`limit=100&from=${micro}`);
    expect(after.length).toBeLessThan(inclusive.length);
    const window = await walk(
      `limit=100&from=${secondPlay.toISOString()}&to=${encodeURIComponent(
        // The same instant as secondPlay + 1 s, written with an offset.
        offsetText(new Date(secondPlay.getTime() + 1000)),
      )}`,
    );
    expect(window.length).toBeGreaterThan(0);
    expect(window.every((t) => t.createdAt === secondPlay.toISOString())).toBe(true);
  });

  it('pages to the end with no duplicate and no gap while new transfers arrive', async () => {
    const before = await walk('limit=3', async () => {
      // Newer than every cursor: a walk that began earlier never reaches them.
      api.clock.advance(10);
      await mintAt(alice.accountId, 7n);
    });
    expect(before.map((t) => t.id)).toEqual(all.map((t) => t.id));
    expect(new Set(before.map((t) => t.id)).size).toBe(before.length);
    // A new walk sees them, newest first.
    const now = await page('limit=2');
    expect(now.transfers[0]).toMatchObject({ reason: 'mint', amount: '0.00000007' });
  });

  it('keeps amounts above 2^53 base units exact', async () => {
    const whale = await fundedPlayer(api, '100000000.00000001', 'Whale');
    const res = await asAdmin(`/admin/ledger/transfers?limit=1&account=${whale.accountId}`);
    expect(res.statusCode, res.body).toBe(200);
    // 10^16 + 1 base units: a JSON number would have rounded it.
    expect(res.body).toContain('"amount":"100000000.00000001"');
    expect(res.json<LedgerTransferPage>().transfers[0]?.credit.label).toBe('Whale');
  });

  it('refuses a bad parameter with 400 naming it, and an unknown player with 404', async () => {
    const cursor = (text: string) => Buffer.from(text).toString('base64url');
    for (const [query, field] of [
      ['cursor=nope', 'cursor'],
      [`cursor=${cursor(`a1.1.${randomUUID()}`)}`, 'cursor'],
      [`cursor=${cursor(`l1.999999999999999999.${randomUUID()}`)}`, 'cursor'],
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=1.5', 'limit'],
      ['account=nope', 'account'],
      ['player=nobody', 'player'],
      [`account=${bob.accountId}&player=${bob.playerId}`, 'player'],
      ['kind=settled', 'kind'],
      ['reason=gift', 'reason'],
      ['from=yesterday', 'from'],
      ['from=2026-02-30T00:00:00Z', 'from'],
      ['to=2026-11-28T25:00:00Z', 'to'],
      ['to=2026-11-28T12:00:00', 'to'],
      ['from=2026-11-28T12:00:00.1234567Z', 'from'],
      ['from=2026-11-28T12:00:00Z&to=2026-11-28T12:00:00Z', 'from'],
      ['from=2026-11-28T13:00:00%2B01:00&to=2026-11-28T12:00:00Z', 'from'],
    ] as const) {
      const res = await asAdmin(`/admin/ledger/transfers?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toMatchObject({ code: 'validation_failed', details: { field } });
    }
    const missing = await asAdmin(`/admin/ledger/transfers?player=${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'player_not_found' });
  });

  it('reads the owners of a page in one statement, however many rows', async () => {
    const statements: string[] = [];
    const query = api.db.query.bind(api.db);
    api.db.query = ((sql: string, ...rest: unknown[]) => {
      statements.push(sql);
      return (query as (...a: unknown[]) => unknown)(sql, ...rest);
    }) as typeof api.db.query;
    try {
      const p = await page('limit=100');
      expect(p.transfers.length).toBeGreaterThan(20);
    } finally {
      api.db.query = query;
    }
    expect(statements).toHaveLength(2);
    expect(statements[1]).toContain('FROM accounts a');
  });

  it('answers only the admin token', async () => {
    const none = await api.app.inject({ method: 'GET', url: '/admin/ledger/transfers' });
    expect(none.statusCode).toBe(401);
    const wrong = await api.app.inject({
      method: 'GET',
      url: '/admin/ledger/transfers',
      headers: { authorization: `Bearer ${uuidIds.next()}` },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it("names a tournament round's pool and the arcade that funded it", async () => {
    const { arcade } = api.app;
    const now = api.clock.now();
    await mintTo(api.db, arcade.record.mintAccountId, arcade.record.accountId, 500n, now);
    const { roundId } = await tournamentWithRound(api.db, {
      gameId: game.gameId,
      funderAccountId: arcade.record.accountId,
      createdBy: 'operator',
      name: 'Ledger Cup',
      guaranteeUnits: 500n,
      payoutTable: { places: [10_000] },
      startsAt: now,
      durationSeconds: 3600,
      now,
    });
    const { transfers } = await page('reason=tournament_guarantee');
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({
      kind: 'posted',
      amount: '0.000005',
      debit: { kind: 'arcade', accountId: arcade.record.accountId, label: arcade.record.name },
      credit: { kind: 'pool', accountId: roundId, label: 'Prize pool of Ledger Cup, round 1' },
    });
  });
});

/** An instant written with a +02:00 offset: the same instant as `date`. */
function offsetText(date: Date): string {
  const shifted = new Date(date.getTime() + 2 * 3600_000);
  return shifted.toISOString().replace('Z', '+02:00');
}
