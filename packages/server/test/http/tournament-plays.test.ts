import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tournament } from '@coinop/protocol';
import { uuidIds } from '../../src/ids.js';
import { createDeveloper } from '../../src/services/admin.js';
import { applyTransfers } from '../../src/store/ledger.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import {
  balanceOf,
  fundedPlayer,
  gameWithTiers,
  writeToken,
  type GameFixture,
} from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';

const HST = 100_000_000n;

/**
 * Issue 18: plays on a tournament round. Entering counts in the play's own transaction (limits
 * never passed, refusals charge nothing), the leaders' part of each settled play fills the pool,
 * and a round takes no play or score once it ended.
 */
describe.each(storeVariants())('tournament plays on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let apiKey: string;
  let token: { value: string; at: number } | null = null;

  /** A write token, fetched again once the test clock has moved past most of its life. */
  async function bearer(): Promise<string> {
    const now = api.clock.now().getTime();
    if (token === null || now - token.at > 60_000) {
      token = { value: await writeToken(api, game), at: now };
    }
    return `Bearer ${token.value}`;
  }
  const base = () => `/arcades/${game.arcadeId}/games/${game.gameId}`;
  const play = async (playerId: string, leaderboardId: string) =>
    api.app.inject({
      method: 'POST',
      url: `${base()}/play`,
      headers: { authorization: await bearer() },
      payload: { playerId, leaderboardId },
    });
  const score = async (playId: string, leaderboardId: string, value: number) =>
    api.app.inject({
      method: 'POST',
      url: `${base()}/score`,
      headers: { authorization: await bearer() },
      payload: { playId, leaderboardId, score: value },
    });
  const tournament = async (id: string) =>
    (await api.app.inject({ method: 'GET', url: `/catalog/tournaments/${id}` })).json<Tournament>();
  const entries = async (roundId: string) =>
    api.db.query<{ player_id: string; attempts: number }>(
      'SELECT player_id, attempts FROM tournament_entries WHERE round_id = $1',
      [roundId],
    );

  async function create(change: object): Promise<Tournament> {
    const res = await api.app.inject({
      method: 'POST',
      url: `/developer/games/${game.gameId}/tournaments`,
      headers: { 'api-key': apiKey },
      payload: {
        name: 'Cup',
        entryFee: '2',
        startsAt: new Date(api.clock.now().getTime() + 60_000).toISOString(),
        durationSeconds: 7200,
        payoutTable: { places: [5000, 3000, 2000] },
        guaranteedPool: '10',
        ...change,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Tournament>();
  }

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [1] });
    ({ apiKey } = await createDeveloper(api.app.arcade, game.developerWallet));
    await api.db.transaction((tx) =>
      applyTransfers(
        tx,
        [
          {
            id: uuidIds.next(),
            kind: 'posted',
            debitAccountId: api.app.arcade.record.mintAccountId,
            creditAccountId: game.developerAccountId,
            amount: 1000n * HST,
            pendingId: null,
            reason: 'mint',
            playId: null,
          },
        ],
        api.clock.now(),
      ),
    );
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  it('refuses plays before the start and after the end (409, nothing charged, nothing counted)', async () => {
    const t = await create({ name: 'Window' });
    const round = t.currentRound!;
    const { playerId, accountId } = await fundedPlayer(api, 10);
    for (const named of [round.id, t.id]) {
      const early = await play(playerId, named);
      expect(early.statusCode, early.body).toBe(409);
      expect(early.json()).toMatchObject({
        code: 'tournament_not_started',
        details: { field: 'leaderboardId', startsAt: round.startsAt },
      });
    }
    api.clock.advance(60_000 + 7_200_000);
    for (const named of [round.id, t.id]) {
      const late = await play(playerId, named);
      expect(late.statusCode, late.body).toBe(409);
      expect(late.json()).toMatchObject({
        code: 'tournament_closed',
        details: { field: 'leaderboardId' },
      });
    }
    expect((await balanceOf(api, accountId)).available).toBe(10n * HST);
    expect(await entries(round.id)).toEqual([]);
    expect((await tournament(t.id)).currentRound).toMatchObject({ entrants: 0, status: 'closed' });
  });

  it('fills the pool with the leaders’ part of each scored and expired play, to the unit', async () => {
    const t = await create({ name: 'Pool', maxAttempts: 5 });
    const round = t.currentRound!;
    api.clock.advance(60_000);
    const developerBefore = (await balanceOf(api, game.developerAccountId)).available;
    const arcadeBefore = (await balanceOf(api, game.arcadeAccountId)).available;
    const a = await fundedPlayer(api, 10, 'A');
    const b = await fundedPlayer(api, 10, 'B');
    // By the round's id and by the tournament's: both open a play on the round.
    const p1 = await play(a.playerId, round.id);
    expect(p1.statusCode, p1.body).toBe(200);
    const p2 = await play(b.playerId, t.id);
    expect(p2.statusCode, p2.body).toBe(200);
    const p3 = await play(a.playerId, t.id);
    expect(p3.statusCode, p3.body).toBe(200);
    const s1 = await score(p1.json().id, round.id, 70);
    expect(s1.statusCode, s1.body).toBe(200);
    // A game server may name the round by its tournament when scoring, as it did to play.
    const s2 = await score(p2.json().id, t.id, 90);
    expect(s2.statusCode, s2.body).toBe(200);
    // The third play expires unscored within the round: it settles as any play does.
    api.clock.advance(3600_000 + 1000);
    expect(await api.app.arcade.settleExpiredPlays()).toBeGreaterThanOrEqual(1);

    const fee = 2n * HST;
    const pool = 10n * HST + 3n * ((fee * 70n) / 100n);
    const now = await tournament(t.id);
    expect(now.currentRound).toMatchObject({ entrants: 2, pool: '14.2', status: 'open' });
    const account = await balanceOf(api, round.id);
    expect(account.creditsPosted).toBe(pool);
    expect((await balanceOf(api, game.developerAccountId)).available - developerBefore).toBe(
      3n * ((fee * 20n) / 100n),
    );
    expect((await balanceOf(api, game.arcadeAccountId)).available - arcadeBefore).toBe(
      3n * ((fee * 10n) / 100n),
    );
    expect((await balanceOf(api, a.accountId)).available).toBe(6n * HST);
    const reasons = await api.db.query<{ reason: string; n: number; units: string }>(
      `SELECT reason, count(*)::int AS n, sum(amount)::text AS units FROM transfers
       WHERE credit_account_id = $1 GROUP BY reason ORDER BY reason`,
      [round.id],
    );
    expect(reasons).toEqual([
      { reason: 'tournament_guarantee', n: 1, units: (10n * HST).toString() },
      { reason: 'tournament_pool', n: 3, units: (3n * 140_000_000n).toString() },
    ]);
    // The round's board ranks its players like a tier's.
    const board = await api.app.inject({
      method: 'GET',
      url: `/catalog/games/${game.gameId}/boards/${round.id}`,
    });
    expect(board.json().entries.map((e: { name: string }) => e.name)).toEqual(['B', 'A']);
    const entered = await entries(round.id);
    expect(entered.map((e) => e.attempts).sort()).toEqual([1, 2]);
  });

  it('refuses a score at or after the round’s end, and leaves its play to the close', async () => {
    const t = await create({ name: 'Late', durationSeconds: 600 });
    const round = t.currentRound!;
    api.clock.advance(60_000 + 300_000);
    const { playerId, accountId } = await fundedPlayer(api, 10);
    const opened = await play(playerId, round.id);
    expect(opened.statusCode, opened.body).toBe(200);
    api.clock.advance(300_000);
    const late = await score(opened.json().id, round.id, 10);
    expect(late.statusCode, late.body).toBe(409);
    expect(late.json()).toMatchObject({
      code: 'tournament_closed',
      details: { field: 'leaderboardId', endsAt: round.endsAt },
    });
    // Its expiry is the round's end (clipped); past it, the sweeper leaves it to the close, which
    // settles it as an expired play.
    api.clock.advance(3600_000);
    await api.app.arcade.settleExpiredPlays();
    const [row] = await api.db.query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [
      opened.json().id,
    ]);
    expect(row?.status).toBe('open');
    expect((await balanceOf(api, accountId)).pending).toBe(2n * HST);
    expect((await balanceOf(api, round.id)).creditsPosted).toBe(10n * HST);
  });

  it('clips a round play’s expiry to the round’s end, and tells the game', async () => {
    // With the play TTL (an hour) past the round's end, a play left unscored expired at the
    // close: its expiry is the round's end, exactly, as the play's answer says.
    const t = await create({ name: 'Clipped', durationSeconds: 3 * 3600 });
    const round = t.currentRound!;
    const { playerId } = await fundedPlayer(api, 10);
    // Two hours and fifty minutes in: 10 minutes left, less than the TTL.
    api.clock.advance(60_000 + 3 * 3600_000 - 600_000);
    const late = await play(playerId, round.id);
    expect(late.statusCode, late.body).toBe(200);
    expect(late.json()).toMatchObject({ expiresAt: round.endsAt });
    const [row] = await api.db.query<{ expires_at: Date }>(
      'SELECT expires_at FROM plays WHERE id = $1',
      [late.json().id],
    );
    expect(row?.expires_at.toISOString()).toBe(round.endsAt);
    // A play on a tier keeps the full TTL.
    const tier = await play(playerId, game.tiers[0]!.id);
    expect(tier.statusCode, tier.body).toBe(200);
    expect(tier.json().expiresAt).toBe(
      new Date(api.clock.now().getTime() + api.config.playTtlSeconds * 1000).toISOString(),
    );
  });

  it('keeps the full TTL for a round play opened with more than the TTL left', async () => {
    const t = await create({ name: 'Unclipped', durationSeconds: 3 * 3600 });
    const round = t.currentRound!;
    const { playerId } = await fundedPlayer(api, 10);
    api.clock.advance(60_000);
    const early = await play(playerId, t.id);
    expect(early.statusCode, early.body).toBe(200);
    expect(early.json().expiresAt).toBe(
      new Date(api.clock.now().getTime() + api.config.playTtlSeconds * 1000).toISOString(),
    );
    expect(early.json().leaderboardId).toBe(round.id);
  });

  it('refuses the attempt after the last and the entrant after the last (409, nothing charged)', async () => {
    const t = await create({ name: 'Limits', maxAttempts: 2, maxEntrants: 2, guaranteedPool: '0' });
    const round = t.currentRound!;
    api.clock.advance(60_000);
    const a = await fundedPlayer(api, 10);
    const b = await fundedPlayer(api, 10);
    const c = await fundedPlayer(api, 10);
    expect((await play(a.playerId, round.id)).statusCode).toBe(200);
    expect((await play(a.playerId, round.id)).statusCode).toBe(200);
    const third = await play(a.playerId, round.id);
    expect(third.statusCode, third.body).toBe(409);
    expect(third.json()).toMatchObject({
      code: 'tournament_attempts_exhausted',
      details: { field: 'leaderboardId', maxAttempts: 2 },
    });
    expect((await balanceOf(api, a.accountId)).available).toBe(6n * HST);
    expect((await play(b.playerId, t.id)).statusCode).toBe(200);
    const full = await play(c.playerId, t.id);
    expect(full.statusCode, full.body).toBe(409);
    expect(full.json()).toMatchObject({
      code: 'tournament_full',
      details: { field: 'leaderboardId', maxEntrants: 2 },
    });
    expect((await balanceOf(api, c.accountId)).available).toBe(10n * HST);
    // A play refused for funds counts nothing either.
    const poor = await fundedPlayer(api, 1);
    const t2 = await create({ name: 'Funds', maxEntrants: 1, guaranteedPool: '0' });
    api.clock.advance(60_000);
    const refused = await play(poor.playerId, t2.id);
    expect(refused.statusCode, refused.body).toBe(402);
    expect((await tournament(t2.id)).currentRound?.entrants).toBe(0);
    expect(await entries(t2.currentRound!.id)).toEqual([]);
    expect((await play(c.playerId, t2.id)).statusCode).toBe(200);
    expect((await tournament(t.id)).currentRound?.entrants).toBe(2);
  });

  it('lets exactly the limit in when plays race for the last entrant slot and the last attempt', async () => {
    const t = await create({
      name: 'Race',
      maxAttempts: 3,
      maxEntrants: 4,
      guaranteedPool: '0',
    });
    const round = t.currentRound!;
    api.clock.advance(60_000);
    const players = await Promise.all(
      Array.from({ length: 10 }, (_, i) => fundedPlayer(api, 10, `R${i}`)),
    );
    const raced = await Promise.all(players.map((p) => play(p.playerId, round.id)));
    const codes = raced.map((r) => (r.statusCode === 200 ? 'ok' : r.json().code));
    expect(codes.filter((c) => c === 'ok')).toHaveLength(4);
    expect(codes.filter((c) => c === 'tournament_full')).toHaveLength(6);
    const winner = players[codes.indexOf('ok')]!;
    const attempts = await Promise.all(
      Array.from({ length: 5 }, () => play(winner.playerId, round.id)),
    );
    const attemptCodes = attempts.map((r) => (r.statusCode === 200 ? 'ok' : r.json().code));
    expect(attemptCodes.filter((c) => c === 'ok')).toHaveLength(2);
    expect(attemptCodes.filter((c) => c === 'tournament_attempts_exhausted')).toHaveLength(3);
    expect((await balanceOf(api, winner.accountId)).available).toBe(4n * HST);
    expect((await tournament(t.id)).currentRound?.entrants).toBe(4);
    const charged = await Promise.all(players.map((p) => balanceOf(api, p.accountId)));
    expect(charged.filter((x) => x.available === 10n * HST)).toHaveLength(6);
  });
});
