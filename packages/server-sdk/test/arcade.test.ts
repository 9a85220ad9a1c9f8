import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Arcade,
  ArcadeApiError,
  ArcadeNetworkError,
  isArcadeError,
  type Play,
  type Tournament,
} from '@coinop/server-sdk';
import { balanceOf, fundedPlayer, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { gameSignIn, newWallet } from '@coinop/testkit/signin';
import { count, fund, sdkOptions, startCoinop, type Coinop } from '@coinop/testkit/coinop';
import { freePort } from '@coinop/testkit/net';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';

const UNITS = 100_000_000n;

describe.each(storeVariants())('Arcade against a running coinop on %s', (variant) => {
  let coinop: Coinop;
  let game: GameFixture;
  let arcade: Arcade;

  beforeAll(async () => {
    coinop = await startCoinop(variant);
    game = await gameWithTiers(coinop, { costs: [1, 10] });
    arcade = await Arcade.build(sdkOptions(coinop, game));
  });
  afterAll(async () => {
    await expectLedgerBalanced(coinop.db);
    await coinop.close();
  });

  it('builds: one write token, then the game with its tiers', async () => {
    expect(count(coinop.apiLog, 'POST', '/oauth/writetoken')).toBe(1);
    expect(
      count(coinop.apiLog, 'GET', `/arcades/${game.arcadeId}/developergames/${game.gameId}`),
    ).toBe(1);
    expect(arcade.gameId).toBe(game.gameId);
    expect(arcade.arcadeId).toBe(game.arcadeId);
    expect(arcade.developerId).toBe(game.developerId);
    expect(arcade.game.id).toBe(game.gameId);
    expect(arcade.game.playerId).toBe(game.developerId);
    expect(
      arcade.game.leaderboards.map((t) => [t.id, t.name, t.cost, t.formattedCostString]),
    ).toEqual([
      [game.tiers[0]!.id, 'Tier 1', 1, '1 HST'],
      [game.tiers[1]!.id, 'Tier 2', 10, '10 HST'],
    ]);
  });

  it('plays and scores for a signed-in player, charging the tier once', async () => {
    const session = await gameSignIn(coinop.auth, newWallet(), game.gameId);
    const player = await arcade.validatePlayerToken(session.access_token);
    const details = await arcade.playerDetails(player.playerId);
    expect(player).toEqual({
      playerId: session.playerId,
      displayName: details.name,
      picture: null,
    });
    const accountId = await fund(coinop, player.playerId, 20);

    const tiers = await arcade.leaderboards();
    const play = await arcade.play(player.playerId, tiers[1]!.id);
    expect(play).toMatchObject({
      playerId: player.playerId,
      gameId: game.gameId,
      gameArcadeId: game.arcadeId,
      developerId: game.developerId,
      leaderboardId: tiers[1]!.id,
      cost: 10,
      status: 'open',
      deleted: false,
      deletedAt: null,
    });
    expect(await arcade.playerDetails(player.playerId)).toMatchObject({
      balance: 10,
      pending: 10,
      currency: 'HST',
    });
    expect(await arcade.playTransaction(play.id)).toEqual({
      id: play.ilpRegistrationId,
      playId: play.id,
      status: 'pending',
      tx: play.ilpRegistrationId,
      amount: 10,
    });

    const result = await arcade.score(play, 4200);
    expect(result).toMatchObject({
      playId: play.id,
      leaderboardId: tiers[1]!.id,
      score: 4200,
      isWinner: true,
      leaderRank: 1,
    });
    expect(result.leaders.map((l) => [l.playerId, l.score])).toEqual([[player.playerId, 4200]]);
    expect((await arcade.leaders(tiers[1]!.id)).map((l) => [l.playerId, l.score])).toEqual([
      [player.playerId, 4200],
    ]);
    expect(await arcade.topScore(tiers[1]!.id, player.playerId)).toEqual({
      userId: player.playerId,
      leaderboardId: tiers[1]!.id,
      value: 4200,
      rank: 1,
    });
    expect((await arcade.playById(play.id)).status).toBe('scored');
    expect((await arcade.playTransaction(play.id)).status).toBe('posted');
    expect(arcade.game.leaderboards[1]!.leaders).toEqual([]);
    await arcade.leaderboards();
    expect(arcade.game.leaderboards[1]!.leaders.map((l) => l.playerId)).toEqual([player.playerId]);
    expect((await balanceOf(coinop, accountId)).pending).toBe(0n);

    const plays = coinop.apiLog.filter((r) => r.path.endsWith('/play') && r.method === 'POST');
    expect(plays).toHaveLength(1);
    expect(plays[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('a play carries its seed; a score sends its replay, and one too large is refused (issue 30)', async () => {
    const p = await fundedPlayer(coinop, 3);
    const tier = game.tiers[0]!.id;
    const play = await arcade.play(p.playerId, tier);
    expect(play.seed).toMatch(/^[0-9a-f]{64}$/);
    expect((await arcade.playById(play.id)).seed).toBe(play.seed);
    await expect(arcade.score(play, 7, { replay: 'x'.repeat(65_537) })).rejects.toMatchObject({
      status: 413,
      code: 'replay_too_large',
    });
    const scored = await arcade.score(play, 7, { replay: JSON.stringify({ moves: 'LRUD' }) });
    expect(scored).toMatchObject({ playId: play.id, score: 7 });
    await expect(arcade.score(play, 7, { replay: 42 as unknown as string })).rejects.toThrow(
      new TypeError('options.replay must be a string, got number'),
    );
  });

  it('reads payouts a page at a time', async () => {
    const first = await fundedPlayer(coinop, 10, 'First');
    const second = await fundedPlayer(coinop, 10, 'Second');
    const tier = game.tiers[0]!.id;
    await arcade.score(await arcade.play(first.playerId, tier), 900);
    await arcade.score(await arcade.play(second.playerId, tier), 100);
    await arcade.score(await arcade.play(second.playerId, tier), 200);

    const all = await arcade.payouts(first.playerId);
    expect(all.events.length).toBeGreaterThanOrEqual(2);
    for (const event of all.events) expect(event.details.userId).toBe(first.playerId);
    expect(all.startingAfter).toBe(all.events[0]!.eventId);
    const one = await arcade.payouts(first.playerId, { limit: 1 });
    expect(one.events.map((e) => e.eventId)).toEqual([all.events[0]!.eventId]);
    const next = await arcade.payouts(first.playerId, {
      limit: 1,
      startingAfter: one.endingBefore!,
    });
    expect(next.events.map((e) => e.eventId)).toEqual([all.events[1]!.eventId]);
    const newcomer = await fundedPlayer(coinop, 1);
    expect(await arcade.payouts(newcomer.playerId)).toEqual({
      startingAfter: null,
      endingBefore: null,
      events: [],
    });
  });

  it('pages a board with exact ranks and finds a player with those around them', async () => {
    const tier = game.tiers[0]!.id;
    const players: string[] = [];
    for (const score of [30, 70, 50, 10]) {
      const p = await fundedPlayer(coinop, 1);
      await arcade.score(await arcade.play(p.playerId, tier), score);
      players.push(p.playerId);
    }
    const first = await arcade.boardPage(tier, { limit: 2 });
    expect(first.entries.map((e) => e.rank)).toEqual([1, 2]);
    const rest = [];
    for (let cursor = first.nextCursor; cursor !== null;) {
      const page = await arcade.boardPage(tier, { limit: 2, cursor });
      rest.push(...page.entries);
      cursor = page.nextCursor;
    }
    const all = [...first.entries, ...rest];
    expect(all.map((e) => e.rank)).toEqual(all.map((_, i) => i + 1));
    expect(all).toHaveLength(first.players);
    const scores = all.map((e) => e.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const around = await arcade.boardAround(tier, players[2]!, { count: 1 });
    const at = all.findIndex((e) => e.playerId === players[2]);
    expect(around.player).toEqual(all[at]);
    expect(around.above).toEqual([all[at - 1]]);
    expect(around.below).toEqual([all[at + 1]]);
    const newcomer = await fundedPlayer(coinop, 0);
    expect((await arcade.boardAround(tier, newcomer.playerId)).player).toBeNull();
    await expect(arcade.boardPage(tier, { cursor: 'nope' })).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
    });
  });

  it("lists the game's tournaments and plays a round by the tournament's id", async () => {
    const created = await coinop.app.inject({
      method: 'POST',
      url: '/admin/tournaments',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: {
        gameId: game.gameId,
        name: 'SDK Cup',
        entryFee: '1',
        startsAt: coinop.clock.now().toISOString(),
        durationSeconds: 3600,
        maxAttempts: 1,
        payoutTable: { places: [10000] },
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [cup] = await arcade.tournaments();
    expect(cup).toMatchObject({
      name: 'SDK Cup',
      entryFee: '1',
      currentRound: { number: 1, status: 'open', pool: '0', entrants: 0 },
    });
    const p = await fundedPlayer(coinop, 2);
    const play = await arcade.play(p.playerId, cup!.id);
    expect(play.leaderboardId).toBe(cup!.currentRound!.id);
    await arcade.score(play, 42);
    const [after] = await arcade.tournaments();
    expect(after?.currentRound).toMatchObject({ entrants: 1, pool: '0.7' });
    await expect(arcade.play(p.playerId, cup!.id)).rejects.toMatchObject({
      status: 409,
      code: 'tournament_attempts_exhausted',
    });
    expect((await balanceOf(coinop, p.accountId)).available).toBe(1n * UNITS);
  });

  it("reads a player's entry in a round: attempts, rank and best, for this game's tournaments only", async () => {
    const create = async (gameId: string, name: string) => {
      const res = await coinop.app.inject({
        method: 'POST',
        url: '/admin/tournaments',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
        payload: {
          gameId,
          name,
          entryFee: '1',
          startsAt: coinop.clock.now().toISOString(),
          durationSeconds: 3600,
          maxAttempts: 2,
          payoutTable: { places: [10000] },
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<Tournament>();
    };
    const cup = await create(game.gameId, 'Entry Cup');
    const roundId = cup.currentRound!.id;
    const me = await fundedPlayer(coinop, 5);
    const rival = await fundedPlayer(coinop, 5);

    expect(await arcade.tournamentEntry(cup.id, me.playerId)).toEqual({
      tournamentId: cup.id,
      roundId,
      entered: false,
      attempts: 0,
      maxAttempts: 2,
      attemptsLeft: 2,
      rank: null,
      score: null,
    });
    await arcade.score(await arcade.play(me.playerId, cup.id), 300);
    const mine = await arcade.tournamentEntry(cup.id, me.playerId, { roundId });
    expect(mine).toEqual({
      tournamentId: cup.id,
      roundId,
      entered: true,
      attempts: 1,
      maxAttempts: 2,
      attemptsLeft: 1,
      rank: 1,
      score: 300,
    });
    // A better score above: "you are 2nd".
    await arcade.score(await arcade.play(rival.playerId, roundId), 700);
    expect(await arcade.tournamentEntry(cup.id, me.playerId)).toMatchObject({
      rank: 2,
      score: 300,
    });
    expect(await arcade.tournamentEntry(cup.id, rival.playerId)).toMatchObject({
      attempts: 1,
      rank: 1,
      score: 700,
    });
    // An id nobody has reads as not entered, as the board reads answer "no score" for it.
    const nobody = '3f2b1c0d-9e8f-4a7b-8c6d-5e4f3a2b1c0d';
    expect(await arcade.tournamentEntry(cup.id, nobody)).toMatchObject({
      entered: false,
      attempts: 0,
      attemptsLeft: 2,
      rank: null,
    });

    // Another game (unpublished: its own server reads its tournaments all the same) cannot read
    // this game's tournament, nor this one its.
    const other = await gameWithTiers(coinop, { costs: [1], published: false });
    const otherArcade = await Arcade.build(sdkOptions(coinop, other));
    const otherCup = await create(other.gameId, 'Other Cup');
    expect(await otherArcade.tournamentEntry(otherCup.id, me.playerId)).toMatchObject({
      tournamentId: otherCup.id,
      entered: false,
      attemptsLeft: 2,
    });
    for (const [reader, tournamentId] of [
      [otherArcade, cup.id],
      [arcade, otherCup.id],
    ] as const) {
      const error = await reader
        .tournamentEntry(tournamentId, me.playerId)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ArcadeApiError);
      expect(error).toMatchObject({
        status: 404,
        code: 'tournament_not_found',
        message: `tournament ${tournamentId} does not exist`,
        details: { tournamentId },
      });
    }
    await expect(
      arcade.tournamentEntry(cup.id, me.playerId, { roundId: otherCup.currentRound!.id }),
    ).rejects.toMatchObject({
      status: 404,
      code: 'tournament_round_not_found',
      details: { tournamentId: cup.id, roundId: otherCup.currentRound!.id },
    });
    await expect(arcade.tournamentEntry(cup.id, 'player-1')).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
      details: { field: 'playerId' },
    });
  });

  it('throws ArcadeApiError with the problem body on a 402, and does not retry it', async () => {
    const poor = await fundedPlayer(coinop, 0.5);
    const before = count(coinop.apiLog, 'POST', /\/play$/);
    const error = await arcade.play(poor.playerId, game.tiers[0]!.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArcadeApiError);
    expect(isArcadeError(error)).toBe(true);
    const apiError = error as ArcadeApiError;
    expect(apiError.name).toBe('ArcadeApiError');
    expect(apiError.status).toBe(402);
    expect(apiError.code).toBe('insufficient_funds');
    expect(apiError.message).toBe(
      `player ${poor.playerId} can spend 0.5 HST but 1 HST is required`,
    );
    expect(apiError.details).toEqual({
      playerId: poor.playerId,
      accountId: poor.accountId,
      available: '0.5',
      required: '1',
    });
    expect(count(coinop.apiLog, 'POST', /\/play$/)).toBe(before + 1);
    expect((await balanceOf(coinop, poor.accountId)).available).toBe(UNITS / 2n);
  });

  it('names a wrong leaderboard and a scored play by their codes', async () => {
    const player = await fundedPlayer(coinop, 5);
    const unknownTier = '00000000-0000-4000-8000-000000000000';
    await expect(arcade.play(player.playerId, unknownTier)).rejects.toMatchObject({
      status: 422,
      code: 'leaderboard_not_in_game',
      message: `leaderboardId ${unknownTier} is not a leaderboard of game ${game.gameId}`,
    });
    const play = await arcade.play(player.playerId, game.tiers[0]!.id);
    await arcade.score(play, 1);
    await expect(arcade.score(play, 2)).rejects.toMatchObject({
      status: 409,
      code: 'play_already_scored',
    });
  });

  it('refuses wrong client credentials with invalid_client_credentials', async () => {
    const error = await Arcade.build({
      ...sdkOptions(coinop, game),
      clientSecret: 'csec_wrong',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArcadeApiError);
    expect(error).toMatchObject({ status: 401, code: 'invalid_client_credentials' });
  });

  it('throws ArcadeNetworkError, cause kept, when the arcade cannot be reached', async () => {
    // A port nothing listens on.
    const baseUrl = `http://127.0.0.1:${await freePort()}`;
    const error = await Arcade.build({
      ...sdkOptions(coinop, game),
      baseUrl,
      retryBaseDelayMs: 0,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ArcadeNetworkError);
    const networkError = error as ArcadeNetworkError;
    expect(networkError.code).toBe('network_error');
    expect(networkError.message).toMatch(
      /^POST \/oauth\/writetoken \(after 3 attempts\): fetch failed: ECONNREFUSED /,
    );
    expect(networkError.cause).toBeInstanceOf(TypeError);
  });

  it('treats misuse as a TypeError, before any request', async () => {
    const options = sdkOptions(coinop, game);
    await expect(Arcade.build({ ...options, clientId: '' })).rejects.toThrow(
      new TypeError('clientId must be a non-empty string'),
    );
    await expect(Arcade.build({ ...options, baseUrl: 'ftp://arcade' })).rejects.toThrow(
      new TypeError('baseUrl must be an http(s) URL, got ftp://arcade'),
    );
    await expect(Arcade.build({ ...options, maxAttempts: 0 })).rejects.toThrow(
      new TypeError('maxAttempts must be an integer from 1 to 10, got 0'),
    );
    const play = { id: 'p', leaderboardId: 'l' } as Play;
    await expect(arcade.score(play, Number.NaN)).rejects.toThrow(
      new TypeError('score must be a finite number, got NaN'),
    );
    await expect(arcade.payouts('x', { limit: 101 })).rejects.toThrow(
      new TypeError('limit must be an integer from 1 to 100'),
    );
    await expect(arcade.boardPage('l', { limit: 0 })).rejects.toThrow(
      new TypeError('limit must be an integer from 1 to 100'),
    );
    await expect(arcade.boardAround('l', 'p', { count: 51 })).rejects.toThrow(
      new TypeError('count must be an integer from 0 to 50'),
    );
    await expect(arcade.play('', 'l')).rejects.toThrow(
      new TypeError('playerId must be a non-empty string id'),
    );
    await expect(arcade.tournamentEntry('t', 'p', { roundId: '' })).rejects.toThrow(
      new TypeError('roundId must be a non-empty string id'),
    );
  });
});
