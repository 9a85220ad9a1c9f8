import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { publishGame, updateGame } from '../../src/store/games.js';

describe.each(storeVariants())('public catalog on %s', (variant) => {
  let api: TestApi;
  let puzzle: GameFixture;
  let racer: GameFixture;
  let hidden: GameFixture;

  beforeAll(async () => {
    api = await buildTestApi(variant);
    puzzle = await gameWithTiers(api, { costs: [1, 10], published: false });
    racer = await gameWithTiers(api, { costs: [2], published: false });
    hidden = await gameWithTiers(api, { published: false });
    await updateGame(api.db, api.clock, puzzle.gameId, {
      category: 'Puzzle',
      tagLine: 'Match 100% of the tiles',
    });
    await updateGame(api.db, api.clock, racer.gameId, { category: 'Racing', tagLine: 'Go fast' });
    await publishGame(api.db, api.clock, puzzle.gameId);
    api.clock.advance(1000);
    await publishGame(api.db, api.clock, racer.gameId);
  });
  afterAll(async () => {
    await api?.close();
  });

  const list = async (query = '') => {
    const res = await api.app.inject({ method: 'GET', url: `/catalog/games${query}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { games: { id: string }[] }).games;
  };

  it('lists published games only, newest first, with their tiers and no credentials', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/catalog/games' });
    expect(res.statusCode).toBe(200);
    const { games } = res.json() as { games: Record<string, unknown>[] };
    expect(games.map((g) => g.id)).toEqual([racer.gameId, puzzle.gameId]);
    expect(games[1]).toEqual({
      id: puzzle.gameId,
      name: expect.stringMatching(/^Game \d+$/),
      tagLine: 'Match 100% of the tiles',
      category: 'Puzzle',
      coverUrl: 'https://game.example/cover.png',
      url: 'https://game.example',
      leaderboards: [
        {
          id: puzzle.tiers[0]!.id,
          name: 'Tier 1',
          cost: 1,
          currency: 'HST',
          formattedCostString: '1 HST',
        },
        {
          id: puzzle.tiers[1]!.id,
          name: 'Tier 2',
          cost: 10,
          currency: 'HST',
          formattedCostString: '10 HST',
        },
      ],
      developerId: puzzle.developerId,
      publishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      playsThisWeek: 0,
      poolThisWeek: '0',
      poolThisWeekUnits: '0',
    });
    expect(games.map((g) => g.id)).not.toContain(hidden.gameId);
  });

  it('filters by search words and by category, case-insensitively', async () => {
    expect((await list('?search=go%20FAST')).map((g) => g.id)).toEqual([racer.gameId]);
    expect((await list('?category=puzzle')).map((g) => g.id)).toEqual([puzzle.gameId]);
    expect(await list('?category=Puzzle&search=fast')).toEqual([]);
    // LIKE wildcards are taken literally.
    expect((await list('?search=100%25')).map((g) => g.id)).toEqual([puzzle.gameId]);
    expect(await list('?search=_')).toEqual([]);
    expect((await list('?search=%20&category=')).length).toBe(2);
  });

  it('serves a published game with its tiers and current leaders', async () => {
    const player = await fundedPlayer(api, 5, 'Ada');
    const token = await writeToken(api, puzzle);
    const headers = { authorization: `Bearer ${token}` };
    const base = `/arcades/${puzzle.arcadeId}/games/${puzzle.gameId}`;
    const leaderboardId = puzzle.tiers[0]!.id;
    const play = await api.app.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId: player.playerId, leaderboardId },
    });
    expect(play.statusCode).toBe(200);
    const score = await api.app.inject({
      method: 'POST',
      url: `${base}/score`,
      headers,
      payload: { playId: play.json().id, leaderboardId, score: 42 },
    });
    expect(score.statusCode).toBe(200);

    const res = await api.app.inject({ method: 'GET', url: `/catalog/games/${puzzle.gameId}` });
    expect(res.statusCode).toBe(200);
    const game = res.json();
    expect(game).toMatchObject({ id: puzzle.gameId, published: true, category: 'Puzzle' });
    expect(game.leaderboards.map((b: { name: string }) => b.name)).toEqual(['Tier 1', 'Tier 2']);
    expect(game.leaderboards[0].leaders).toEqual([
      { playerId: player.playerId, score: 42, name: 'Ada', avatar: expect.any(String) },
    ]);
  });

  it('answers 404 game_not_found for an unpublished or unknown game', async () => {
    for (const id of [hidden.gameId, randomUUID()]) {
      const res = await api.app.inject({ method: 'GET', url: `/catalog/games/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'game_not_found',
        message: `game ${id} does not exist`,
      });
    }
  });

  it('rejects a game id that is not a uuid', async () => {
    const res = await api.app.inject({ method: 'GET', url: '/catalog/games/nope' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
  });
});
