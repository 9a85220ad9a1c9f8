import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintHst } from '../../src/services/admin-hst.js';
import { storeVariants } from '@coinop/testkit/db';
import { balanceOf, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import type { TestApi } from '@coinop/testkit/app';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';

/**
 * Issue 27, its last gap: allowances and the CLI login's granted allowance travelled as JSON
 * numbers, formatted from a JavaScript number, so a daily limit of 999999999.99999999 HST read
 * back as 1000000000 (more than the player allowed) and one of 0.00000001 as 1e-8. Every amount
 * of an allowance is now an exact decimal string written from base units (`formatHst`), from 1
 * base unit to the largest allowance; a request still takes a JSON number, as older clients send.
 */

const HST = 100_000_000n;

/** The largest allowance less one unit, and the smallest: what a double cannot write. */
const LIMITS = [
  { limit: '999999999.99999999', units: 1_000_000_000n * HST - 1n, numberText: '1000000000' },
  { limit: '0.00000001', units: 1n, numberText: '1e-8' },
] as const;

/** The operator's default: 17 significant digits, past what a double keeps. */
const DEFAULT_UNITS = 123_456_789n * HST + 12_345_678n;

describe.each(storeVariants())('allowance amounts exact to the unit on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  let gameToken: string;

  beforeAll(async () => {
    s = await buildTestSignin(variant, { defaultAllowanceUnits: DEFAULT_UNITS });
    api = testApiOf(s);
    game = await gameWithTiers(api, { costs: [1] });
    gameToken = await writeToken(api, game);
  });
  afterAll(async () => {
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  async function player() {
    const { access_token, playerId } = await walletSignIn(s.auth, newWallet());
    await mintHst(s.api.arcade, { id: playerId, amountUnits: 10n * HST });
    const { accountId } = await s.api.arcade.reads.player(playerId);
    const as = (method: 'GET' | 'PUT', url: string, payload?: object) =>
      s.api.inject({
        method,
        url,
        headers: { authorization: `Bearer ${access_token}` },
        ...(payload === undefined ? {} : { payload }),
      });
    return { token: access_token, playerId, accountId, as };
  }

  /** The game's server opens a 1-HST play for the player, as the reference SDK does. */
  const serverPlay = (playerId: string) =>
    s.api.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
      headers: { authorization: `Bearer ${gameToken}` },
      payload: { playerId, leaderboardId: game.tiers[0]!.id },
    });

  it("shows the operator's default to the unit", async () => {
    const p = await player();
    const list = await p.as('GET', '/player/allowances');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({ defaultDailyLimit: '123456789.12345678', allowances: [] });
    const one = await p.as('GET', `/player/allowances/${game.gameId}`);
    expect(one.json()).toMatchObject({
      source: 'default',
      dailyLimit: '123456789.12345678',
      spentToday: '0',
      remainingToday: '123456789.12345678',
    });
  });

  it.each(LIMITS)(
    'PUT /player/allowances with $limit HST answers and reads back exactly that',
    async ({ limit, numberText }) => {
      const p = await player();
      const set = await p.as('PUT', `/player/allowances/${game.gameId}`, { dailyLimit: limit });
      expect(set.statusCode, set.body).toBe(200);
      const exact = { source: 'player', dailyLimit: limit, spentToday: '0', remainingToday: limit };
      expect(set.json()).toMatchObject(exact);
      // The amounts, not the ids: a random game id can hold "1e-8" (CI met "…-701e-809c-…").
      const { gameId: _gameId, decidedAt: _decidedAt, ...amounts } = set.json();
      expect(JSON.stringify(amounts)).not.toContain(numberText);
      expect((await p.as('GET', `/player/allowances/${game.gameId}`)).json()).toMatchObject(exact);
      const list = (await p.as('GET', '/player/allowances')).json();
      expect(list.allowances).toEqual([expect.objectContaining({ gameId: game.gameId, ...exact })]);
    },
  );

  it('charges within 999999999.99999999 HST a day and says what remains, to the unit', async () => {
    const p = await player();
    await p.as('PUT', `/player/allowances/${game.gameId}`, { dailyLimit: LIMITS[0].limit });
    const opened = await serverPlay(p.playerId);
    expect(opened.statusCode, opened.body).toBe(200);
    expect((await p.as('GET', `/player/allowances/${game.gameId}`)).json()).toMatchObject({
      dailyLimit: '999999999.99999999',
      spentToday: '1',
      remainingToday: '999999998.99999999',
    });
  });

  it('refuses a 1-HST play on 0.00000001 HST a day, naming the limit exactly', async () => {
    const p = await player();
    await p.as('PUT', `/player/allowances/${game.gameId}`, { dailyLimit: LIMITS[1].limit });
    const refused = await serverPlay(p.playerId);
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'consent_required',
      details: { dailyLimit: '0.00000001', spentToday: '0', cost: '1' },
    });
    expect(await balanceOf(api, p.accountId)).toMatchObject({ available: 10n * HST, pending: 0n });
  });

  it('still takes a JSON number, and answers the exact string', async () => {
    const p = await player();
    const small = await p.as('PUT', `/player/allowances/${game.gameId}`, { dailyLimit: 7e-8 });
    expect(small.statusCode, small.body).toBe(200);
    expect(small.json()).toMatchObject({ dailyLimit: '0.00000007', remainingToday: '0.00000007' });
    const whole = await p.as('PUT', `/player/allowances/${game.gameId}`, { dailyLimit: 25 });
    expect(whole.json()).toMatchObject({ dailyLimit: '25', remainingToday: '25' });
  });

  it.each(LIMITS)(
    'the CLI login approved with $limit HST a day grants and answers exactly that',
    async ({ limit, units, numberText }) => {
      const p = await player();
      const start = await s.auth.inject({
        method: 'POST',
        url: '/cli',
        payload: { description: 'High-Low terminal', gameId: game.gameId },
      });
      expect(start.statusCode, start.body).toBe(200);
      const { requestorId, userCode } = start.json<Record<string, string>>();
      const approved = await s.auth.inject({
        method: 'POST',
        url: `/cli/${requestorId}/approve`,
        headers: { authorization: `Bearer ${p.token}` },
        payload: { userCode, dailyLimit: limit },
      });
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toEqual({ status: 'approved', grantedDailyLimit: limit });
      expect(approved.body).not.toContain(numberText);
      expect((await p.as('GET', `/player/allowances/${game.gameId}`)).json()).toMatchObject({
        source: 'player',
        dailyLimit: limit,
      });
      expect(
        await s.db.query<{ daily_units: bigint }>(
          'SELECT daily_units FROM allowances WHERE player_id = $1 AND game_id = $2',
          [p.playerId, game.gameId],
        ),
      ).toEqual([{ daily_units: units }]);
    },
  );
});
