import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { TestApi } from '@coinop/testkit/app';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import {
  fundedPlayer,
  gameWithTiers,
  playAndScore,
  type GameFixture,
} from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';
import type { ArcadeDailyStats, DeveloperDailyStats } from '@coinop/protocol';

/**
 * Issue 31, charts: a developer's plays and earnings per UTC day and game, and the arcade's
 * plays, volume, active players and payouts per UTC day. Days with nothing are listed as zeros,
 * a play one second before midnight counts on its own day, and only the developer's own games
 * are charted. The split is the default: leaders 70 %, developer 20 %, arcade 10 %; a play with
 * no leaders gives the leaders' part back to its player, not to the developer.
 */

const DAY_MS = 86_400_000;
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

describe.each(storeVariants())('daily stats on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let wallet: PrivateKeyAccount;
  let token: string;
  /** The developer's 10 HST game: a play at 23:59:59 on day 1, one at 00:00:01 on day 2. */
  let tens: GameFixture;
  /** The developer's 1 HST game: two scored plays on day 2. */
  let ones: GameFixture;
  /** Another developer's game: one play on day 2. */
  let theirs: GameFixture;
  /** The three days of the window, oldest first; day 0 has nothing. */
  let days: [string, string, string];

  const get = async (url: string, authorization = `Bearer ${token}`) => {
    const res = await s.api.inject({ method: 'GET', url, headers: { authorization } });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };
  const admin = (url: string) => get(url, `Bearer ${TEST_ADMIN_TOKEN}`);

  async function play(game: GameFixture, score?: number): Promise<void> {
    await playAndScore(api, game, (await fundedPlayer(api, 20)).playerId, score);
  }

  beforeAll(async () => {
    s = await buildTestSignin(variant);
    api = testApiOf(s);
    wallet = newWallet();
    tens = await gameWithTiers(api, { costs: [10], developerWallet: wallet.address });
    ones = await gameWithTiers(api, { costs: [1], developerWallet: wallet.address });
    theirs = await gameWithTiers(api, { costs: [10] });
    // One second before a UTC midnight, at least a day from now.
    const now = s.clock.now().getTime();
    s.clock.advance(Math.ceil(now / DAY_MS) * DAY_MS + DAY_MS - 1000 - now);
    const day1 = s.clock.now();
    // No leaders yet: the developer gets 20 % of 10 = 2 (the leaders' 7 go back to the player).
    await play(tens, 100);
    s.clock.advance(2000);
    // Alice leads: the developer gets 2, Alice 7.
    await play(tens, 50);
    // No leaders: 0.2 to the developer (0.7 back to the player); then 0.2, and 0.7 to the first
    // player.
    await play(ones, 10);
    await play(ones, 5);
    // Another developer's game: in the arcade's chart, not in this developer's.
    await play(theirs);
    days = [utcDay(new Date(day1.getTime() - DAY_MS)), utcDay(day1), utcDay(s.clock.now())];
    token = (await walletSignIn(s.auth, wallet)).access_token;
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
  });
  afterAll(async () => {
    await s?.close();
  });

  it("lists every day of each of the developer's games, with exact HST, split at UTC midnight", async () => {
    const res = await get('/developer/stats/daily?days=3');
    expect(res.status).toBe(200);
    const stats = res.body as unknown as DeveloperDailyStats;
    expect({ days: stats.days, from: stats.from, to: stats.to }).toEqual({
      days: 3,
      from: days[0],
      to: days[2],
    });
    const byGame = Object.fromEntries(stats.games.map((g) => [g.gameId, g.days]));
    expect(Object.keys(byGame).sort()).toEqual([tens.gameId, ones.gameId].sort());
    expect(byGame[tens.gameId]).toEqual([
      { day: days[0], plays: 0, hstEarned: '0' },
      { day: days[1], plays: 1, hstEarned: '2' },
      { day: days[2], plays: 1, hstEarned: '2' },
    ]);
    expect(byGame[ones.gameId]).toEqual([
      { day: days[0], plays: 0, hstEarned: '0' },
      { day: days[1], plays: 0, hstEarned: '0' },
      { day: days[2], plays: 2, hstEarned: '0.4' },
    ]);
    // Sorted by name, as the portal lists them.
    const names = stats.games.map((g) => g.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b)));
  });

  it("sums to the game's own stats, and defaults to 30 days ending today", async () => {
    const res = await get(`/developer/stats/daily?gameId=${tens.gameId}`);
    expect(res.status).toBe(200);
    const stats = res.body as unknown as DeveloperDailyStats;
    expect(stats.games.map((g) => g.gameId)).toEqual([tens.gameId]);
    const series = stats.games[0]!.days;
    expect(series).toHaveLength(30);
    expect(series.at(-1)).toEqual({ day: days[2], plays: 1, hstEarned: '2' });
    expect(series.at(-2)).toEqual({ day: days[1], plays: 1, hstEarned: '2' });
    expect(series.slice(0, -2).every((d) => d.plays === 0 && d.hstEarned === '0')).toBe(true);
    const own = await get(`/developer/games/${tens.gameId}/stats`);
    expect(own.body.hstEarned).toBe('4');
    expect(own.body.plays).toMatchObject({ total: 2 });
  });

  it('answers a window of one day with today only', async () => {
    const stats = (await get(`/developer/stats/daily?days=1&gameId=${ones.gameId}`))
      .body as unknown as DeveloperDailyStats;
    expect(stats).toEqual({
      days: 1,
      from: days[2],
      to: days[2],
      games: [
        {
          gameId: ones.gameId,
          name: expect.any(String),
          days: [{ day: days[2], plays: 2, hstEarned: '0.4' }],
        },
      ],
    });
  });

  it("answers another developer's game as not found", async () => {
    const res = await get(`/developer/stats/daily?gameId=${theirs.gameId}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      code: 'game_not_found',
      message: `game ${theirs.gameId} does not exist`,
    });
  });

  it('refuses a window out of 1 to 90 days, or a game id that is not one, naming it', async () => {
    for (const bad of ['0', '91', '-1', '1.5', 'x', '']) {
      for (const res of [
        await get(`/developer/stats/daily?days=${bad}`),
        await admin(`/admin/stats/daily?days=${bad}`),
      ]) {
        expect(res.status, `days=${bad}`).toBe(400);
        expect(res.body.code).toBe('validation_failed');
        expect(String(res.body.message)).toMatch(/days/);
      }
    }
    const res = await get('/developer/stats/daily?gameId=not-a-game');
    expect(res.status).toBe(400);
    expect(String(res.body.message)).toMatch(/gameId/);
  });

  it("charts the arcade's plays, volume, active players and leader payouts per UTC day", async () => {
    const res = await admin('/admin/stats/daily?days=3');
    expect(res.status).toBe(200);
    expect(res.body as unknown as ArcadeDailyStats).toEqual({
      days: 3,
      from: days[0],
      to: days[2],
      series: [
        { day: days[0], plays: 0, volume: '0', activePlayers: 0, paidOut: '0' },
        { day: days[1], plays: 1, volume: '10', activePlayers: 1, paidOut: '0' },
        // 10 + 1 + 1 + 10 locked; Alice's 7 and the first 1 HST player's 0.7 paid.
        { day: days[2], plays: 4, volume: '22', activePlayers: 4, paidOut: '7.7' },
      ],
    });
    const month = (await admin('/admin/stats/daily')).body as unknown as ArcadeDailyStats;
    expect(month.series).toHaveLength(30);
    expect(month.series.at(-1)?.day).toBe(days[2]);
  });
});

describe.each(storeVariants())('daily stats with a payout hold on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  let wallet: PrivateKeyAccount;
  let days: [string, string];

  beforeAll(async () => {
    s = await buildTestSignin(variant, { payoutHoldSeconds: 86_400 });
    api = testApiOf(s);
    wallet = newWallet();
    game = await gameWithTiers(api, { costs: [10], developerWallet: wallet.address });
    // Noon UTC, so the hold of a day ends at noon the next day.
    const now = s.clock.now().getTime();
    s.clock.advance(Math.ceil(now / DAY_MS) * DAY_MS + DAY_MS / 2 - now);
    for (const score of [100, 50]) {
      await playAndScore(api, game, (await fundedPlayer(api, 20)).playerId, score);
    }
    const settled = utcDay(s.clock.now());
    s.clock.advance(DAY_MS + 1000);
    expect(await s.api.arcade.releaseHeldPayouts()).toBe(2);
    days = [settled, utcDay(s.clock.now())];
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('counts held shares on the day their hold ends, not the day the play settled', async () => {
    const token = (await walletSignIn(s.auth, wallet)).access_token;
    const developer = await s.api.inject({
      method: 'GET',
      url: '/developer/stats/daily?days=2',
      headers: { authorization: `Bearer ${token}` },
    });
    expect((developer.json() as DeveloperDailyStats).games[0]?.days).toEqual([
      { day: days[0], plays: 2, hstEarned: '0' },
      // 2 from each play (the first's leaders' part went back to its player: no leaders).
      { day: days[1], plays: 0, hstEarned: '4' },
    ]);
    const arcade = await s.api.inject({
      method: 'GET',
      url: '/admin/stats/daily?days=2',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect((arcade.json() as ArcadeDailyStats).series).toEqual([
      { day: days[0], plays: 2, volume: '20', activePlayers: 2, paidOut: '0' },
      { day: days[1], plays: 0, volume: '0', activePlayers: 0, paidOut: '7' },
    ]);
  });
});
