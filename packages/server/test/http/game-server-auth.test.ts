import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';

describe.each(storeVariants())('game server auth and bad input on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let other: GameFixture;
  let token: string;
  let player: { playerId: string; accountId: string };

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api);
    other = await gameWithTiers(api);
    token = await writeToken(api, game);
    player = await fundedPlayer(api, 100);
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  const playUrl = (g: GameFixture, arcadeId = g.arcadeId) =>
    `/arcades/${arcadeId}/games/${g.gameId}/play`;
  const validPlay = () => ({ playerId: player.playerId, leaderboardId: game.tiers[0]!.id });
  const countPlays = async () =>
    Number((await api.db.query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM plays'))[0]!.n);

  describe('POST /oauth/writetoken', () => {
    it('accepts the camelCase body of @hastearcade/server', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: '/oauth/writetoken',
        payload: {
          clientId: game.clientId,
          clientSecret: game.clientSecret,
          environment: 'nonproduction',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        token_type: 'Bearer',
        expires_in: 3600,
        developerId: game.developerId,
        gameId: game.gameId,
        arcadeId: game.arcadeId,
      });
    });

    it.each([
      [{ client_id: 'nope', client_secret: 'x' }, 401, 'invalid_client_credentials'],
      [{ client_secret: 'x' }, 400, 'validation_failed'],
      [{ client_id: 'x' }, 400, 'validation_failed'],
      [{ client_id: 1, client_secret: 'x' }, 400, 'validation_failed'],
      [{ client_id: 'x', client_secret: 'y', admin: true }, 400, 'validation_failed'],
    ])('refuses %j with %s %s', async (payload, status, code) => {
      const res = await api.app.inject({ method: 'POST', url: '/oauth/writetoken', payload });
      expect(res.statusCode).toBe(status);
      expect(res.json().code).toBe(code);
    });

    it('refuses the right client id with a wrong secret', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: '/oauth/writetoken',
        payload: { client_id: game.clientId, client_secret: `${game.clientSecret}x` },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        code: 'invalid_client_credentials',
        message: 'client_id or client_secret is not valid',
      });
    });
  });

  describe('write token checks', () => {
    const send = (authorization: string | undefined, url = playUrl(game)) =>
      api.app.inject({
        method: 'POST',
        url,
        headers: authorization === undefined ? {} : { authorization },
        payload: validPlay(),
      });

    it.each([
      [undefined, 'missing_bearer_token'],
      ['Basic abc', 'missing_bearer_token'],
      ['Bearer not.a.jwt', 'invalid_write_token'],
    ])('Authorization %s → 401 %s', async (authorization, code) => {
      const res = await send(authorization);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe(code);
    });

    it('refuses an expired token, saying so', async () => {
      const key = api.app.arcade.writeTokenKey;
      const past = Math.floor(api.clock.now().getTime() / 1000) - 7200;
      const expired = await new SignJWT({
        developerId: game.developerId,
        gameId: game.gameId,
        arcadeId: game.arcadeId,
      })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('coinop:api')
        .setAudience('coinop:write')
        .setSubject(game.clientId)
        .setIssuedAt(past)
        .setExpirationTime(past + 60)
        .sign(key);
      const res = await send(`Bearer ${expired}`);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({
        code: 'invalid_write_token',
        message: 'write token has expired; request a new one at POST /oauth/writetoken',
      });
    });

    it('refuses a token signed with another key', async () => {
      const forged = await new SignJWT({
        developerId: game.developerId,
        gameId: game.gameId,
        arcadeId: game.arcadeId,
      })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('coinop:api')
        .setAudience('coinop:write')
        .setSubject(game.clientId)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('a'.repeat(32)));
      const res = await send(`Bearer ${forged}`);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('invalid_write_token');
    });

    it("answers another game's token as an unknown game: 404, and an unknown arcade 404", async () => {
      // Issue 12: a 403 here and a 404 for a random id told a write token which ids are games.
      const otherToken = await writeToken(api, other);
      const forbidden = await send(`Bearer ${otherToken}`);
      expect(forbidden.statusCode).toBe(404);
      expect(forbidden.json()).toMatchObject({
        code: 'game_not_found',
        message: `game ${game.gameId} does not exist`,
      });
      const unknownGame = await send(
        `Bearer ${token}`,
        `/arcades/${game.arcadeId}/games/${randomUUID()}/play`,
      );
      expect(unknownGame.statusCode).toBe(404);
      expect(unknownGame.json().code).toBe('game_not_found');
      const unknownArcade = await send(`Bearer ${token}`, playUrl(game, randomUUID()));
      expect(unknownArcade.statusCode).toBe(404);
      expect(unknownArcade.json().code).toBe('arcade_not_found');
      expect(await countPlays()).toBe(0);
    });
  });

  describe('bad play and score input', () => {
    const auth = () => ({ authorization: `Bearer ${token}` });

    it.each<[string, unknown, number, string, string]>([
      [
        'a non-UUID playerId',
        { playerId: 'bob', leaderboardId: randomUUID() },
        400,
        'validation_failed',
        'playerId',
      ],
      [
        'a missing leaderboardId',
        { playerId: randomUUID() },
        400,
        'validation_failed',
        'leaderboardId',
      ],
      [
        'an unknown field',
        { playerId: randomUUID(), leaderboardId: randomUUID(), cost: 0 },
        400,
        'validation_failed',
        'cost',
      ],
      [
        'a numeric playerId',
        { playerId: 7, leaderboardId: randomUUID() },
        400,
        'validation_failed',
        'playerId',
      ],
      ['an array body', [1, 2], 400, 'validation_failed', 'body'],
    ])('play with %s → %s naming the field', async (_name, payload, status, code, field) => {
      const res = await api.app.inject({
        method: 'POST',
        url: playUrl(game),
        headers: auth(),
        payload: payload as object,
      });
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ code });
      expect(res.json().message).toContain(field);
      expect(await countPlays()).toBe(0);
    });

    it('play with malformed JSON → 400 malformed_json', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: playUrl(game),
        headers: { ...auth(), 'content-type': 'application/json' },
        payload: '{"playerId": ',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('malformed_json');
    });

    it('play with an oversized body → 413', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: playUrl(game),
        headers: { ...auth(), 'content-type': 'application/json' },
        payload: JSON.stringify({ playerId: 'x'.repeat(api.config.bodyLimitBytes) }),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({
        code: 'body_too_large',
        message: `request body is larger than the limit of ${api.config.bodyLimitBytes} bytes for this route`,
        details: { limitBytes: api.config.bodyLimitBytes },
      });
    });

    it('play for an unknown player → 404, for a tier of another game → 422', async () => {
      const unknown = await api.app.inject({
        method: 'POST',
        url: playUrl(game),
        headers: auth(),
        payload: { playerId: randomUUID(), leaderboardId: game.tiers[0]!.id },
      });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().code).toBe('player_not_found');
      const foreign = await api.app.inject({
        method: 'POST',
        url: playUrl(game),
        headers: auth(),
        payload: { playerId: player.playerId, leaderboardId: other.tiers[0]!.id },
      });
      expect(foreign.statusCode).toBe(422);
      expect(foreign.json()).toMatchObject({
        code: 'leaderboard_not_in_game',
        message: `leaderboardId ${other.tiers[0]!.id} is not a leaderboard of game ${game.gameId}`,
      });
      expect(await countPlays()).toBe(0);
    });

    it.each<[string, unknown]>([
      ['negative', -1],
      ['a string', '12'],
      ['null', null],
    ])('score %s → 400 naming score, nothing settled', async (_name, score) => {
      const opened = await api.app.inject({
        method: 'POST',
        url: playUrl(game),
        headers: auth(),
        payload: validPlay(),
      });
      const playId = opened.json().id as string;
      const res = await api.app.inject({
        method: 'POST',
        url: `/arcades/${game.arcadeId}/games/${game.gameId}/score`,
        headers: auth(),
        payload: { playId, leaderboardId: game.tiers[0]!.id, score },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
      expect(res.json().message).toContain('score');
      const [row] = await api.db.query<{ status: string }>(
        'SELECT status FROM plays WHERE id = $1',
        [playId],
      );
      expect(row?.status).toBe('open');
    });

    it('score for an unknown play → 404', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: `/arcades/${game.arcadeId}/games/${game.gameId}/score`,
        headers: auth(),
        payload: { playId: randomUUID(), leaderboardId: game.tiers[0]!.id, score: 1 },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('play_not_found');
    });
  });
});
