import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Arcade, ArcadeApiError, ArcadeNetworkError, type ArcadeOptions } from '@coinop/server-sdk';
import { balanceOf, fundedPlayer, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { sdkOptions, startCoinop, type Coinop } from '@coinop/testkit/coinop';
import { startFaultyProxy, type FaultyProxy } from './fixtures/proxy.js';

const UNITS = 100_000_000n;

describe.each(storeVariants())('retries through a faulty network to coinop on %s', (variant) => {
  let coinop: Coinop;
  let proxy: FaultyProxy;
  let game: GameFixture;
  let options: ArcadeOptions;
  let arcade: Arcade;

  beforeAll(async () => {
    coinop = await startCoinop(variant);
    proxy = await startFaultyProxy(coinop.baseUrl);
    game = await gameWithTiers(coinop, { costs: [1, 10] });
    options = { ...sdkOptions(coinop, game), baseUrl: proxy.url, retryBaseDelayMs: 10 };
    arcade = await Arcade.build(options);
  });
  afterAll(async () => {
    await proxy.close();
    await expectLedgerBalanced(coinop.db);
    await coinop.close();
  });

  const sent = (method: string, suffix: string) =>
    proxy.seen.filter((r) => r.method === method && r.path.endsWith(suffix));
  const playsOf = async (playerId: string) =>
    coinop.db.query<{ id: string }>('SELECT id FROM plays WHERE player_id = $1', [playerId]);

  /** The play went through once: one play, its cost locked once, the rest still spendable. */
  const expectChargedOnce = async (player: { playerId: string; accountId: string }) => {
    expect(await playsOf(player.playerId)).toHaveLength(1);
    expect(await balanceOf(coinop, player.accountId)).toMatchObject({
      available: 10n * UNITS,
      pending: 10n * UNITS,
    });
  };

  it('repeats a play whose answer was lost with the same key, and charges once', async () => {
    const player = await fundedPlayer(coinop, 20);
    const before = sent('POST', '/play').length;
    proxy.inject('drop', 'POST', '/play');

    const play = await arcade.play(player.playerId, game.tiers[1]!.id);

    const attempts = sent('POST', '/play').slice(before);
    expect(attempts).toHaveLength(2);
    expect(attempts[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
    // Both attempts reached the server, which acted on the first and replayed it for the second.
    const answered = coinop.apiLog.filter((r) => r.idempotencyKey === attempts[0]!.idempotencyKey);
    expect(answered.map((r) => r.status)).toEqual([200, 200]);
    expect((await playsOf(player.playerId)).map((p) => p.id)).toEqual([play.id]);
    await expectChargedOnce(player);
  });

  it('repeats a play that timed out with the same key, and charges once', async () => {
    const impatient = await Arcade.build({ ...options, fetchTimeoutMs: 500 });
    const player = await fundedPlayer(coinop, 20);
    const before = sent('POST', '/play').length;
    proxy.inject('hold', 'POST', '/play');

    const play = await impatient.play(player.playerId, game.tiers[1]!.id);

    const attempts = sent('POST', '/play').slice(before);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
    expect((await playsOf(player.playerId)).map((p) => p.id)).toEqual([play.id]);
    await expectChargedOnce(player);
  });

  it('repeats a score whose answer was lost with the same key, and scores once', async () => {
    const player = await fundedPlayer(coinop, 20);
    const play = await arcade.play(player.playerId, game.tiers[0]!.id);
    const before = sent('POST', '/score').length;
    proxy.inject('drop', 'POST', '/score');

    const result = await arcade.score(play, 77);

    const attempts = sent('POST', '/score').slice(before);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.idempotencyKey).toBe(attempts[0]!.idempotencyKey);
    expect(result).toMatchObject({ playId: play.id, score: 77 });
    expect((await arcade.playTransaction(play.id)).status).toBe('posted');
    const mine = (await arcade.leaders(game.tiers[0]!.id)).filter(
      (l) => l.playerId === player.playerId,
    );
    expect(mine.map((l) => l.score)).toEqual([77]);
  });

  it('returns the first play for a repeated caller-chosen key', async () => {
    const player = await fundedPlayer(coinop, 20);
    const key = `session-${player.playerId}`;
    const first = await arcade.play(player.playerId, game.tiers[1]!.id, { idempotencyKey: key });
    const again = await arcade.play(player.playerId, game.tiers[1]!.id, { idempotencyKey: key });
    expect(again.id).toBe(first.id);
    await expectChargedOnce(player);
  });

  it('gives up after maxAttempts with ArcadeNetworkError, cause kept, still charged once', async () => {
    const player = await fundedPlayer(coinop, 20);
    const before = sent('POST', '/play').length;
    proxy.inject('drop', 'POST', '/play', 3);

    const error = await arcade.play(player.playerId, game.tiers[1]!.id).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ArcadeNetworkError);
    const networkError = error as ArcadeNetworkError;
    expect(networkError.code).toBe('network_error');
    expect(networkError.message).toMatch(
      new RegExp(
        `^POST /arcades/${game.arcadeId}/games/${game.gameId}/play \\(after 3 attempts\\): ` +
          'fetch failed: ',
      ),
    );
    expect(networkError.cause).toBeInstanceOf(TypeError);
    const attempts = sent('POST', '/play').slice(before);
    expect(new Set(attempts.map((a) => a.idempotencyKey)).size).toBe(1);
    expect(attempts).toHaveLength(3);
    await expectChargedOnce(player);
  });

  it('says network_timeout when no answer comes in time', async () => {
    const impatient = await Arcade.build({ ...options, fetchTimeoutMs: 300, maxAttempts: 2 });
    proxy.inject('hold', 'GET', '/leaders/' + game.tiers[0]!.id, 2);
    await expect(impatient.leaders(game.tiers[0]!.id)).rejects.toMatchObject({
      name: 'ArcadeNetworkError',
      code: 'network_timeout',
      message:
        `GET /arcades/${game.arcadeId}/games/${game.gameId}/leaders/${game.tiers[0]!.id} ` +
        '(after 2 attempts): no answer within 300 ms',
    });
  });

  it('repeats a read after a 5xx, and stops after maxAttempts', async () => {
    const path = `/leaders/${game.tiers[0]!.id}`;
    const before = sent('GET', path).length;
    proxy.inject('unavailable', 'GET', path);
    await arcade.leaders(game.tiers[0]!.id);
    expect(sent('GET', path).length).toBe(before + 2);

    proxy.inject('unavailable', 'GET', path, 3);
    const error = await arcade.leaders(game.tiers[0]!.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArcadeApiError);
    expect(error).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      message: 'the proxy answers 503',
    });
    expect(sent('GET', path).length).toBe(before + 5);
  });

  it('never repeats a 4xx', async () => {
    const poor = await fundedPlayer(coinop, 0);
    const before = sent('POST', '/play').length;
    await expect(arcade.play(poor.playerId, game.tiers[0]!.id)).rejects.toMatchObject({
      status: 402,
      code: 'insufficient_funds',
    });
    expect(sent('POST', '/play').length).toBe(before + 1);
  });

  it('refreshes a refused write token once, then reports invalid_write_token', async () => {
    const path = `/leaders/${game.tiers[0]!.id}`;
    const tokensBefore = sent('POST', '/oauth/writetoken').length;
    proxy.inject('unauthorized', 'GET', path, 2);
    await expect(arcade.leaders(game.tiers[0]!.id)).rejects.toMatchObject({
      status: 401,
      code: 'invalid_write_token',
      message: 'the proxy answers 401',
    });
    expect(sent('POST', '/oauth/writetoken').length).toBe(tokensBefore + 1);

    proxy.inject('unauthorized', 'GET', path, 1);
    expect(await arcade.leaders(game.tiers[0]!.id)).toBeInstanceOf(Array);
    expect(sent('POST', '/oauth/writetoken').length).toBe(tokensBefore + 2);
  });
});
