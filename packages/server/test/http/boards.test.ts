import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardAround, BoardEntry, BoardPage } from '@coinop/protocol';
import { publish } from '../../src/services/admin.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';

/** Issue 17: board pages with exact ranks, and a player's place with the players around them. */
describe.each(storeVariants())('board reads on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let token: string;
  /** Players in board order, as the scores below rank them. */
  let expected: { playerId: string; score: number }[];
  const scores = [50, 80, 80, 10, 95, 80, 30, 60, 60, 5, 70, 40, 20, 90, 15, 65, 80, 25, 45, 55];

  const board = () => `/catalog/games/${game.gameId}/boards/${game.tiers[0]!.id}`;
  const get = async (url: string, headers: Record<string, string> = {}) =>
    api.app.inject({ method: 'GET', url, headers });

  async function playAndScore(playerId: string, score: number, tier = game.tiers[0]!.id) {
    const headers = { authorization: `Bearer ${token}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const play = await api.app.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId, leaderboardId: tier },
    });
    expect(play.statusCode, play.body).toBe(200);
    const res = await api.app.inject({
      method: 'POST',
      url: `${base}/score`,
      headers,
      payload: { playId: play.json().id, leaderboardId: tier, score },
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  async function walk(limit: number): Promise<BoardPage[]> {
    const pages: BoardPage[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? '' : `&cursor=${cursor}`;
      const res = await get(`${board()}?limit=${limit}${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<BoardPage>();
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor !== null);
    return pages;
  }

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [0, 1], scoreDisplay: 'NORMAL' });
    await publish(api.app.arcade, game.gameId);
    token = await writeToken(api, game);
    const entered: { playerId: string; score: number; n: number }[] = [];
    for (const [n, score] of scores.entries()) {
      const { playerId } = await fundedPlayer(api, 0, `P${n}`);
      await playAndScore(playerId, score);
      // Equal scores: the earlier one ranks higher (the test clock moves on between scores).
      api.clock.advance(1000);
      entered.push({ playerId, score, n });
    }
    expected = entered
      .sort((a, b) => b.score - a.score || a.n - b.n)
      .map(({ playerId, score }) => ({ playerId, score }));
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await expectRankTreeConsistent(api.db);
    await api.close();
  });

  it('pages through a quiet board: every player once, ranks 1..n, ties to the earlier score', async () => {
    const pages = await walk(6);
    expect(pages.map((p) => p.entries.length)).toEqual([6, 6, 6, 2]);
    const entries = pages.flatMap((p) => p.entries);
    expect(entries.map((e) => e.rank)).toEqual(expected.map((_, i) => i + 1));
    expect(entries.map((e) => [e.playerId, e.score])).toEqual(
      expected.map((e) => [e.playerId, e.score]),
    );
    expect(pages.every((p) => p.players === scores.length)).toBe(true);
    expect(entries[0]).toMatchObject({ name: 'P4', score: 95 });
    expect(entries[0]!.avatar).toMatch(/^\/avatars\/|^https?:/);
    // A page size that divides the board exactly still ends with a null cursor.
    const exact = await walk(10);
    expect(exact.map((p) => p.entries.length)).toEqual([10, 10]);
    expect(exact[1]!.nextCursor).toBeNull();
  });

  it('answers a tier nobody scored on with no entries, and the default page of 25', async () => {
    const empty = await get(`/catalog/games/${game.gameId}/boards/${game.tiers[1]!.id}`);
    expect(empty.json()).toEqual({
      leaderboardId: game.tiers[1]!.id,
      players: 0,
      entries: [],
      nextCursor: null,
    });
    const all = (await get(board())).json<BoardPage>();
    expect(all.entries).toHaveLength(scores.length);
    expect(all.nextCursor).toBeNull();
  });

  it('shows a player with the players around them: top, middle, bottom', async () => {
    const around = async (playerId: string, count: number) => {
      const res = await get(`${board()}/players/${playerId}?count=${count}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<BoardAround>();
    };
    const ids = (list: readonly BoardEntry[]) => list.map((e) => [e.rank, e.playerId]);
    const top = await around(expected[0]!.playerId, 3);
    expect(top.above).toEqual([]);
    expect(top.player).toMatchObject({ rank: 1, playerId: expected[0]!.playerId, score: 95 });
    expect(ids(top.below)).toEqual(expected.slice(1, 4).map((e, i) => [i + 2, e.playerId]));

    const middle = await around(expected[9]!.playerId, 2);
    expect(ids(middle.above)).toEqual([
      [8, expected[7]!.playerId],
      [9, expected[8]!.playerId],
    ]);
    expect(middle.player?.rank).toBe(10);
    expect(ids(middle.below)).toEqual([
      [11, expected[10]!.playerId],
      [12, expected[11]!.playerId],
    ]);

    const last = expected.length;
    const bottom = await around(expected[last - 1]!.playerId, 50);
    expect(bottom.player?.rank).toBe(last);
    expect(ids(bottom.above)).toEqual(
      expected.slice(0, last - 1).map((e, i) => [i + 1, e.playerId]),
    );
    expect(bottom.below).toEqual([]);

    // Tied players (three scored 80) rank by who scored first, and agree with the page.
    const tied = expected.findIndex((e) => e.score === 80) + 1;
    expect((await around(expected[tied]!.playerId, 0)).player?.rank).toBe(tied + 1);
  });

  it('answers a player with no score with player null, and an unknown player with 404', async () => {
    const { playerId } = await fundedPlayer(api, 0, 'Newcomer');
    const res = await get(`${board()}/players/${playerId}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      leaderboardId: game.tiers[0]!.id,
      players: scores.length,
      above: [],
      player: null,
      below: [],
    });
    const unknown = await get(`${board()}/players/${randomUUID()}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('player_not_found');
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=ten', 'limit'],
    ['cursor=not-a-cursor', 'cursor'],
    ['cursor=' + Buffer.from('b1.1.2.x').toString('base64url'), 'cursor'],
    [
      'cursor=' + Buffer.from(`b2.1.1.${2n ** 63n}.1.${randomUUID()}`).toString('base64url'),
      'cursor',
    ],
    [
      'cursor=' + Buffer.from(`b2.${2n ** 63n}.1.5.1.${randomUUID()}`).toString('base64url'),
      'cursor',
    ],
    ['cursor=' + Buffer.from(`a1.1.${randomUUID()}`).toString('base64url'), 'cursor'],
    // Instants no row has, which Postgres would refuse with an error (a 500 before).
    [
      'cursor=' +
        Buffer.from(`b2.1.1.5.99999999999999999999.${randomUUID()}`).toString('base64url'),
      'cursor',
    ],
    ['cursor=' + Buffer.from(`b2.1.1.5.-1.${randomUUID()}`).toString('base64url'), 'cursor'],
  ])('refuses %s with 400 naming %s', async (query, field) => {
    const res = await get(`${board()}?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(res.json())).toContain(field);
  });

  it.each([['count=51'], ['count=-1']])('refuses around-me with %s', async (query) => {
    const res = await get(`${board()}/players/${expected[0]!.playerId}?${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });

  it('refuses a tier of another game, and an unpublished game on the public route', async () => {
    const other = await gameWithTiers(api, { costs: [0], published: false });
    const res = await get(`/catalog/games/${game.gameId}/boards/${other.tiers[0]!.id}`);
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('leaderboard_not_in_game');
    const unpublished = await get(`/catalog/games/${other.gameId}/boards/${other.tiers[0]!.id}`);
    expect(unpublished.statusCode).toBe(404);
    expect(unpublished.json().code).toBe('game_not_found');
    // The game's own server reads its boards before it is published.
    const otherToken = await writeToken(api, other);
    const own = await get(
      `/arcades/${other.arcadeId}/games/${other.gameId}/boards/${other.tiers[0]!.id}?limit=5`,
      { authorization: `Bearer ${otherToken}` },
    );
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ players: 0, entries: [], nextCursor: null });
  });

  it('ranks a lower-is-better board lowest first', async () => {
    const fastest = await gameWithTiers(api, { costs: [0], scoreDisplay: 'REVERSE' });
    const fastestToken = await writeToken(api, fastest);
    const headers = { authorization: `Bearer ${fastestToken}` };
    const base = `/arcades/${fastest.arcadeId}/games/${fastest.gameId}`;
    const leaderboardId = fastest.tiers[0]!.id;
    for (const [n, score] of [12.5, 9.75, 30, 9.75].entries()) {
      const { playerId } = await fundedPlayer(api, 0, `R${n}`);
      const play = await api.app.inject({
        method: 'POST',
        url: `${base}/play`,
        headers,
        payload: { playerId, leaderboardId },
      });
      await api.app.inject({
        method: 'POST',
        url: `${base}/score`,
        headers,
        payload: { playId: play.json().id, leaderboardId, score },
      });
      api.clock.advance(1000);
    }
    const page = await get(`${base}/boards/${leaderboardId}?limit=3`, headers);
    expect(page.json<BoardPage>().entries.map((e) => [e.rank, e.name, e.score])).toEqual([
      [1, 'R1', 9.75],
      [2, 'R3', 9.75],
      [3, 'R0', 12.5],
    ]);
    const next = await get(
      `${base}/boards/${leaderboardId}?limit=3&cursor=${page.json<BoardPage>().nextCursor}`,
      headers,
    );
    expect(next.json<BoardPage>().entries.map((e) => [e.rank, e.name])).toEqual([[4, 'R2']]);
  });

  it('serves game servers the same pages and ranks as the catalog', async () => {
    const url = `/arcades/${game.arcadeId}/games/${game.gameId}/boards/${game.tiers[0]!.id}`;
    const headers = { authorization: `Bearer ${token}` };
    const page = await get(`${url}?limit=4`, headers);
    expect(page.json()).toEqual((await get(`${board()}?limit=4`)).json());
    const around = await get(`${url}/players/${expected[3]!.playerId}?count=1`, headers);
    expect(around.json<BoardAround>().player?.rank).toBe(4);
    expect((await get(`${url}?limit=4`)).statusCode).toBe(401);
  });

  it('walks the board as of its first page: a best that passes the cursor is still seen once, at its old place, with its rank now', async () => {
    const first = (await get(`${board()}?limit=5`)).json<BoardPage>();
    const jumper = expected[12]!.playerId; // rank 13: on the third page of 5
    await playAndScore(jumper, 1000);
    const second = (await get(`${board()}?limit=5&cursor=${first.nextCursor}`)).json<BoardPage>();
    // The rows after the cursor did not move, but one more player now ranks before each of them.
    expect(second.entries.map((e) => e.playerId)).toEqual(
      expected.slice(5, 10).map((e) => e.playerId),
    );
    expect(second.entries.map((e) => e.rank)).toEqual([7, 8, 9, 10, 11]);
    const third = (await get(`${board()}?limit=5&cursor=${second.nextCursor}`)).json<BoardPage>();
    // The jumper keeps its place in the walk, showing its best and rank now; the players it
    // passed are one place down, those it did not pass are where they were.
    expect(third.entries.map((e) => e.playerId)).toEqual(
      expected.slice(10, 15).map((e) => e.playerId),
    );
    expect(third.entries.map((e) => e.rank)).toEqual([12, 13, 1, 14, 15]);
    expect(third.entries[2]).toMatchObject({ playerId: jumper, score: 1000 });
    const fresh = (await get(`${board()}?limit=1`)).json<BoardPage>();
    expect(fresh.entries[0]).toMatchObject({ rank: 1, playerId: jumper, score: 1000 });
    expected = [
      { playerId: jumper, score: 1000 },
      ...expected.filter((e) => e.playerId !== jumper),
    ];
  });

  it('keeps the ranks of a page consistent with each other while scores arrive', async () => {
    const newcomers = await Promise.all(
      Array.from({ length: 12 }, (_, n) => fundedPlayer(api, 0, `C${n}`)),
    );
    let writing = true;
    const writes = (async () => {
      try {
        for (const [n, p] of newcomers.entries()) await playAndScore(p.playerId, 7 + n * 9);
      } finally {
        writing = false;
      }
    })();
    const seen: BoardPage[] = [];
    while (writing) {
      seen.push(...(await walk(4)));
      // Reads on the embedded database resolve without I/O: give the score batches' timers a turn.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    await writes;
    for (const page of seen) {
      // Newcomers join but nobody improves: a page's ranks rise (a newcomer who joined between
      // two of its rows since the walk began is not in the walk, so a rank may be skipped).
      const ranks = page.entries.map((e) => e.rank);
      expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
      expect(new Set(ranks).size).toBe(ranks.length);
      const sorted = [...page.entries].sort((a, b) => b.score - a.score);
      expect(page.entries.map((e) => e.score)).toEqual(sorted.map((e) => e.score));
      expect(ranks[0]! + ranks.length - 1).toBeLessThanOrEqual(page.players);
    }
    expect(seen.length).toBeGreaterThan(0);
    // Quiet again: the whole board is exact, as a window over the bests counts it.
    const all = (await walk(7)).flatMap((p) => p.entries);
    expect(all.map((e) => e.rank)).toEqual(all.map((_, i) => i + 1));
    const truth = await api.db.query<{ player_id: string; rank: string }>(
      `SELECT player_id, (row_number() OVER (ORDER BY rank_key DESC, achieved_at, player_id))::text
         AS rank FROM leaders WHERE leaderboard_id = $1`,
      [game.tiers[0]!.id],
    );
    expect(all.map((e) => [e.playerId, e.rank])).toEqual(
      truth.map((t) => [t.player_id, Number(t.rank)]),
    );
    expect(all).toHaveLength(scores.length + newcomers.length);
  });
});
