import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BoardPage } from '@coinop/protocol';
import { bulkLoad } from '../../bench/board-load.mjs';
import {
  boardAround,
  boardPage,
  type BoardWalk,
  type RankedBest,
} from '../../src/store/board-pages.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';

/**
 * The bench's bulk loader (bench/board-load.mjs, issue 18) at a small size: what it loads is a
 * board the score path and the board reads agree with, every rank checked against a brute-force
 * order. Scores below 300 for 2,000 players, so most are tied and rank by who reached them first.
 */
const PLAYERS = 2000;

describe.each(storeVariants())('the bench board loader on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let board: string;
  /** Player ids in board order, by a plain ORDER BY over every best. */
  let order: string[];

  const bruteForceOrder = async () =>
    (
      await api.db.query<{ player_id: string }>(
        `SELECT player_id FROM leaders WHERE leaderboard_id = $1
         ORDER BY rank_key DESC, achieved_at, player_id`,
        [board],
      )
    ).map((r) => r.player_id);

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [0], scoreDisplay: 'NORMAL' });
    board = game.tiers[0]!.id;
    await bulkLoad(api.db, board, PLAYERS, { scoresBelow: 300 });
    order = await bruteForceOrder();
  }, 120_000);
  afterAll(() => api.close());

  it('builds the count tree the score path keeps', async () => {
    expect(order).toHaveLength(PLAYERS);
    await expectRankTreeConsistent(api.db);
  });

  it('gives every player the rank of a brute-force order, page by page', async () => {
    const seen: RankedBest[] = [];
    let cursor: BoardWalk | null = null;
    for (;;) {
      const page = await boardPage(api.db, board, cursor, 100);
      expect(page.players).toBe(PLAYERS);
      seen.push(...page.rows);
      if (!page.more) break;
      cursor = { s0: page.s0, position: page.rows.at(-1)!.position };
    }
    expect(seen.map((r) => r.playerId)).toEqual(order);
    expect(seen.map((r) => r.rank)).toEqual(order.map((_, i) => i + 1));
  });

  it('places a player among their neighbours at the top, middle and bottom', async () => {
    for (const at of [0, 1, PLAYERS / 2, PLAYERS - 2, PLAYERS - 1]) {
      const around = await boardAround(api.db, board, order[at]!, 5);
      expect(around.player?.rank).toBe(at + 1);
      expect(around.above.map((r) => r.playerId)).toEqual(order.slice(Math.max(0, at - 5), at));
      expect(around.below.map((r) => r.playerId)).toEqual(order.slice(at + 1, at + 6));
      expect(around.above.map((r) => r.rank)).toEqual(
        order.slice(Math.max(0, at - 5), at).map((id) => order.indexOf(id) + 1),
      );
    }
  });

  it('takes real scores on top: a loaded player who improves and a new one', async () => {
    const token = await writeToken(api, game);
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const headers = { authorization: `Bearer ${token}` };
    const score = async (playerId: string, points: number) => {
      const play = await api.app.inject({
        method: 'POST',
        url: `${base}/play`,
        headers,
        payload: { playerId, leaderboardId: board },
      });
      expect(play.statusCode, play.body).toBe(200);
      const res = await api.app.inject({
        method: 'POST',
        url: `${base}/score`,
        headers,
        payload: { playId: play.json<{ id: string }>().id, leaderboardId: board, score: points },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ leaderRank: number }>().leaderRank;
    };
    const last = order.at(-1)!;
    // 299.5 is above every loaded score (whole points below 300): the loaded player goes first.
    expect(await score(last, 299.5)).toBe(1);
    const newcomer = await fundedPlayer(api, 0);
    const below = (
      await api.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM leaders WHERE leaderboard_id = $1 AND score >= 150',
        [board],
      )
    )[0]!.n;
    expect(await score(newcomer.playerId, 150)).toBe(below + 1);

    await expectRankTreeConsistent(api.db);
    await expectLedgerBalanced(api.db);
    const now = await bruteForceOrder();
    expect(now).toHaveLength(PLAYERS + 1);
    const res = await api.app.inject({
      method: 'GET',
      url: `/catalog/games/${game.gameId}/boards/${board}?limit=3`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<BoardPage>().entries.map((e) => [e.rank, e.playerId])).toEqual(
      now.slice(0, 3).map((id, i) => [i + 1, id]),
    );
    const around = await boardAround(api.db, board, newcomer.playerId, 1);
    expect(around.player?.rank).toBe(now.indexOf(newcomer.playerId) + 1);
  });
});
