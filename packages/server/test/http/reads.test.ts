import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';

describe.each(storeVariants())('game server reads on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let token: string;
  let leader: { playerId: string; accountId: string };
  let challenger: { playerId: string; accountId: string };
  let leaderPlayId: string;
  let challengerPlayId: string;

  const get = (url: string) =>
    api.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  const base = () => `/arcades/${game.arcadeId}/games/${game.gameId}`;
  const playAndScore = async (playerId: string, score: number | null): Promise<string> => {
    const headers = { authorization: `Bearer ${token}` };
    const leaderboardId = game.tiers[0]!.id;
    const play = await api.app.inject({
      method: 'POST',
      url: `${base()}/play`,
      headers,
      payload: { playerId, leaderboardId },
    });
    const playId = play.json().id as string;
    if (score !== null) {
      await api.app.inject({
        method: 'POST',
        url: `${base()}/score`,
        headers,
        payload: { playId, leaderboardId, score },
      });
    }
    return playId;
  };

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [10, 20] });
    token = await writeToken(api, game);
    leader = await fundedPlayer(api, 100, 'Lea');
    challenger = await fundedPlayer(api, 100, 'Cha');
    leaderPlayId = await playAndScore(leader.playerId, 300);
    // The challenger's play pays the leader 7 HST (70% of 10, one leader).
    challengerPlayId = await playAndScore(challenger.playerId, 200);
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  it('lists the leaders of a tier', async () => {
    const res = await get(`${base()}/leaders/${game.tiers[0]!.id}`);
    expect(res.statusCode).toBe(200);
    expect(
      res.json().leaders.map((l: { name: string; score: number }) => [l.name, l.score]),
    ).toEqual([
      ['Lea', 300],
      ['Cha', 200],
    ]);
  });

  it("gives a player's top score and rank, or null when they have none", async () => {
    const res = await get(`${base()}/topscore/${game.tiers[0]!.id}/${challenger.playerId}`);
    expect(res.json()).toEqual({
      userId: challenger.playerId,
      leaderboardId: game.tiers[0]!.id,
      value: 200,
      rank: 2,
    });
    const none = await get(`${base()}/topscore/${game.tiers[1]!.id}/${challenger.playerId}`);
    expect(none.json()).toEqual({
      userId: challenger.playerId,
      leaderboardId: game.tiers[1]!.id,
      value: null,
      rank: null,
    });
  });

  it("shows the game with one player's standing on each tier", async () => {
    const res = await get(
      `/arcades/${game.arcadeId}/developergames/${game.gameId}/player/${leader.playerId}`,
    );
    expect(res.statusCode).toBe(200);
    expect(
      res
        .json()
        .leaderboards.map((b: { playerBestScore: number | null; playerRank: number | null }) => [
          b.playerBestScore,
          b.playerRank,
        ]),
    ).toEqual([
      [300, 1],
      [null, null],
    ]);
  });

  it('lists leader payouts newest first and pages through them', async () => {
    const third = await fundedPlayer(api, 100, 'Thi');
    await playAndScore(third.playerId, 1);
    const all = await get(`${base()}/payouts/${leader.playerId}?limit=100`);
    expect(all.statusCode).toBe(200);
    const events = all.json().events as { eventId: string; details: Record<string, unknown> }[];
    expect(events.map((e) => [e.details['payerHandle'], e.details['paymentAmount']])).toEqual([
      ['Thi', 3.5], // two leaders share 7 HST
      ['Cha', 7],
    ]);
    expect(events[0]!.details).toMatchObject({ userId: leader.playerId, payeeHandle: 'Lea' });
    const page = await get(
      `${base()}/payouts/${leader.playerId}?limit=1&starting_after=${events[0]!.eventId}`,
    );
    expect(page.json().events.map((e: { eventId: string }) => e.eventId)).toEqual([
      events[1]!.eventId,
    ]);
    const back = await get(
      `${base()}/payouts/${leader.playerId}?limit=1&endingBefore=${events[1]!.eventId}`,
    );
    expect(back.json().events.map((e: { eventId: string }) => e.eventId)).toEqual([
      events[0]!.eventId,
    ]);
    const bad = await get(`${base()}/payouts/${leader.playerId}?limit=101`);
    expect(bad.statusCode).toBe(400);
  });

  it('returns a play and the state of its lock transfer', async () => {
    const open = await playAndScore(challenger.playerId, null);
    const play = await get(`${base()}/play/${open}`);
    expect(play.json()).toMatchObject({
      id: open,
      status: 'open',
      cost: 10,
      playerId: challenger.playerId,
    });
    const pending = await get(`${base()}/play/${open}/transaction`);
    expect(pending.json()).toMatchObject({
      playId: open,
      status: 'pending',
      amount: 10,
      tx: play.json().ilpRegistrationId,
    });
    const settled = await get(`${base()}/play/${challengerPlayId}/transaction`);
    expect(settled.json().status).toBe('posted');
    expect((await get(`${base()}/play/${leaderPlayId}`)).json().status).toBe('scored');
    const missing = await get(`${base()}/play/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('play_not_found');
  });

  it("gives a player's details with spendable and locked HST", async () => {
    const res = await get(`/players/${leader.playerId}/details`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    // 100 − 10 (own play) + 7 back (its board was empty: nobody led it) + 7 + 3.5 payouts;
    // nothing locked.
    expect(body).toMatchObject({
      id: leader.playerId,
      name: 'Lea',
      balance: 107.5,
      pending: 0,
      currency: 'HST',
    });
    expect(body.avatar).toBe(`http://127.0.0.1:8080/avatars/${leader.playerId}.svg`);
    const missing = await get(`/players/${randomUUID()}/details`);
    expect(missing.statusCode).toBe(404);
  });
  it('ranks an equal best behind the earlier one in a standing', async () => {
    const twin = await fundedPlayer(api, 100, 'Twin');
    api.clock.advance(1000); // The leader's 300 came first.
    await playAndScore(twin.playerId, 300);
    const standing = async (playerId: string) =>
      (await get(`${base()}/topscore/${game.tiers[0]!.id}/${playerId}`)).json();
    expect(await standing(leader.playerId)).toMatchObject({ value: 300, rank: 1 });
    expect(await standing(twin.playerId)).toMatchObject({ value: 300, rank: 2 });
    expect(await standing(challenger.playerId)).toMatchObject({ value: 200, rank: 3 });
  });
});
