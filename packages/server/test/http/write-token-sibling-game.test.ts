import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';

/**
 * A write token used on another game of the same developer answered 404 `game_not_found`
 * "game … does not exist", although the developer knows the game exists. It now answers 403
 * `token_scope_mismatch` naming both games; another developer's game still answers exactly as a
 * missing game, so a token cannot probe ids.
 */
describe.each(storeVariants())('a write token on a game not its own, on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let sibling: GameFixture;
  let stranger: GameFixture;
  let token: string;
  let playerId: string;

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api);
    sibling = await gameWithTiers(api, { developerWallet: game.developerWallet });
    stranger = await gameWithTiers(api);
    token = await writeToken(api, game);
    playerId = (await fundedPlayer(api, 100)).playerId;
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  const countPlays = async () =>
    Number((await api.db.query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM plays'))[0]!.n);

  const send = (route: 'play' | 'score', gameId: string, leaderboardId: string) =>
    api.app.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${gameId}/${route}`,
      headers: { authorization: `Bearer ${token}` },
      payload:
        route === 'play'
          ? { playerId, leaderboardId }
          : { playId: randomUUID(), leaderboardId, score: 5 },
    });

  it.each(['play', 'score'] as const)(
    '%s on a game of the same developer is 403 token_scope_mismatch naming both games',
    async (route) => {
      expect(sibling.developerId).toBe(game.developerId);
      const res = await send(route, sibling.gameId, sibling.tiers[0]!.id);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'token_scope_mismatch',
        message:
          `this write token is for game ${game.gameId}, not ${sibling.gameId}: get a write ` +
          "token with that game's client",
        details: { gameId: sibling.gameId, tokenGameId: game.gameId },
      });
      expect(await countPlays()).toBe(0);
    },
  );

  it.each(['play', 'score'] as const)(
    "%s on another developer's game answers exactly as on a game that does not exist",
    async (route) => {
      const missingId = randomUUID();
      const foreign = await send(route, stranger.gameId, stranger.tiers[0]!.id);
      const missing = await send(route, missingId, stranger.tiers[0]!.id);
      expect(foreign.statusCode).toBe(404);
      expect(missing.statusCode).toBe(404);
      const shape = (body: Record<string, unknown>, gameId: string) =>
        JSON.stringify(body).replaceAll(gameId, '<gameId>');
      expect(shape(foreign.json(), stranger.gameId)).toBe(shape(missing.json(), missingId));
      expect(foreign.json()).toEqual({
        type: 'https://coinop.dev/errors/game_not_found',
        title: 'Game not found',
        status: 404,
        code: 'game_not_found',
        detail: `game ${stranger.gameId} does not exist`,
        message: `game ${stranger.gameId} does not exist`,
        details: { gameId: stranger.gameId },
      });
      expect(await countPlays()).toBe(0);
    },
  );

  it('plays on its own game as before', async () => {
    const res = await send('play', game.gameId, game.tiers[0]!.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(await countPlays()).toBe(1);
  });
});
