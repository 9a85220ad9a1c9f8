import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tournament, TournamentEntry } from '@coinop/protocol';
import { wholeHstToUnits } from '@coinop/core';
import { createDeveloper } from '../../src/services/admin.js';
import { mintHst } from '../../src/services/admin-hst.js';
import { storeVariants } from '@coinop/testkit/db';
import { gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';

/**
 * Issue 18: a player's own entry in a round, read from the round's entries (not counted from
 * their activity): attempts used and left, and their rank and best from the round's board.
 */
describe.each(storeVariants())("a player's tournament entry on %s", (variant) => {
  let s: TestSignin;
  let game: GameFixture;
  let apiKey: string;
  /** Two attempts a round, a season of ten-minute rounds. */
  let limited: Tournament;
  let unlimited: Tournament;

  const api = () => ({
    app: s.api,
    db: s.db,
    clock: s.clock,
    config: s.config,
    close: () => s.close(),
  });
  const base = () => `/arcades/${game.arcadeId}/games/${game.gameId}`;

  async function create(change: object): Promise<Tournament> {
    const res = await s.api.inject({
      method: 'POST',
      url: `/developer/games/${game.gameId}/tournaments`,
      headers: { 'api-key': apiKey },
      payload: {
        name: 'Entry Cup',
        entryFee: '1',
        startsAt: s.clock.now().toISOString(),
        durationSeconds: 600,
        payoutTable: { places: [10_000] },
        ...change,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Tournament>();
  }

  async function signedInPlayer(): Promise<{ playerId: string; token: string }> {
    const { access_token, playerId } = await walletSignIn(s.auth, newWallet());
    await mintHst(s.api.arcade, { id: playerId, amountUnits: wholeHstToUnits(10) });
    return { playerId, token: access_token };
  }

  /** A play on the round by the game's server, scored when `score` is given. */
  async function play(playerId: string, roundId: string, score: number | null) {
    const headers = { authorization: `Bearer ${await writeToken(api(), game)}` };
    const opened = await s.api.inject({
      method: 'POST',
      url: `${base()}/play`,
      headers,
      payload: { playerId, leaderboardId: roundId },
    });
    if (opened.statusCode !== 200 || score === null) return opened;
    const scored = await s.api.inject({
      method: 'POST',
      url: `${base()}/score`,
      headers,
      payload: { playId: opened.json().id, leaderboardId: roundId, score },
    });
    expect(scored.statusCode, scored.body).toBe(200);
    return opened;
  }

  const entryOf = (token: string, tournamentId: string, query = '') =>
    s.api.inject({
      method: 'GET',
      url: `/player/tournaments/${tournamentId}/entry${query}`,
      headers: { authorization: `Bearer ${token}` },
    });

  beforeAll(async () => {
    s = await buildTestSignin(variant, { faucetHst: 0 });
    game = await gameWithTiers(api(), { costs: [1] });
    ({ apiKey } = await createDeveloper(s.api.arcade, game.developerWallet));
    limited = await create({ maxAttempts: 2, recurrence: '* * * * *' });
    // An hour long: it is still open after the season's first round has closed.
    unlimited = await create({ name: 'Open Cup', durationSeconds: 3600 });
  });
  afterAll(async () => {
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  it('answers 0, 1 and all attempts, with the rank and best from the round board', async () => {
    const round = limited.currentRound!;
    const me = await signedInPlayer();
    const rival = await signedInPlayer();

    const before = await entryOf(me.token, limited.id);
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json<TournamentEntry>()).toEqual({
      tournamentId: limited.id,
      roundId: round.id,
      entered: false,
      attempts: 0,
      maxAttempts: 2,
      attemptsLeft: 2,
      rank: null,
      score: null,
    });

    expect((await play(me.playerId, round.id, 500)).statusCode).toBe(200);
    expect((await play(rival.playerId, round.id, 900)).statusCode).toBe(200);
    expect((await entryOf(me.token, limited.id)).json<TournamentEntry>()).toEqual({
      tournamentId: limited.id,
      roundId: round.id,
      entered: true,
      attempts: 1,
      maxAttempts: 2,
      attemptsLeft: 1,
      rank: 2,
      score: 500,
    });

    // An open play counts as an attempt before it scores.
    expect((await play(me.playerId, round.id, null)).statusCode).toBe(200);
    const full = (await entryOf(me.token, limited.id)).json<TournamentEntry>();
    expect(full).toMatchObject({ attempts: 2, attemptsLeft: 0, rank: 2, score: 500 });
    const refused = await play(me.playerId, round.id, null);
    expect(refused.json()).toMatchObject({ code: 'tournament_attempts_exhausted' });
    expect((await entryOf(me.token, limited.id)).json<TournamentEntry>()).toEqual(full);
    // The same round named explicitly answers the same.
    expect(
      (await entryOf(me.token, limited.id, `?roundId=${round.id}`)).json<TournamentEntry>(),
    ).toEqual(full);
    expect((await entryOf(rival.token, limited.id)).json<TournamentEntry>()).toMatchObject({
      attempts: 1,
      attemptsLeft: 1,
      rank: 1,
      score: 900,
    });

    // The round ends and closes: the current round is the season's next, not yet entered; the
    // closed one stays readable by its id.
    s.clock.advance(Date.parse(round.endsAt) + 1000 - s.clock.now().getTime());
    const { closed } = await s.api.arcade.closer.closeDue(s.api.log);
    expect(closed.map((c) => c.roundId)).toContain(round.id);
    const next = await entryOf(me.token, limited.id);
    expect(next.json<TournamentEntry>()).toMatchObject({
      entered: false,
      attempts: 0,
      attemptsLeft: 2,
      rank: null,
      score: null,
    });
    expect(next.json<TournamentEntry>().roundId).not.toBe(round.id);
    expect(
      (await entryOf(me.token, limited.id, `?roundId=${round.id}`)).json<TournamentEntry>(),
    ).toEqual(full);
  });

  it('answers null attempts left for a tournament without a limit', async () => {
    const me = await signedInPlayer();
    expect((await play(me.playerId, unlimited.currentRound!.id, 42)).statusCode).toBe(200);
    const res = await entryOf(me.token, unlimited.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<TournamentEntry>()).toEqual({
      tournamentId: unlimited.id,
      roundId: unlimited.currentRound!.id,
      entered: true,
      attempts: 1,
      maxAttempts: null,
      attemptsLeft: null,
      rank: 1,
      score: 42,
    });
  });

  it('refuses an unknown tournament or round (404 naming it) and a bad id (400 naming the field)', async () => {
    const me = await signedInPlayer();
    const unknown = '7b0c2f8e-1d3a-4c5b-9e6f-0a1b2c3d4e5f';
    const missing = await entryOf(me.token, unknown);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      code: 'tournament_not_found',
      message: `tournament ${unknown} does not exist`,
      details: { tournamentId: unknown },
    });

    // A round of another tournament is not a round of this one.
    const otherRound = unlimited.currentRound!.id;
    const wrongRound = await entryOf(me.token, limited.id, `?roundId=${otherRound}`);
    expect(wrongRound.statusCode).toBe(404);
    expect(wrongRound.json()).toMatchObject({
      code: 'tournament_round_not_found',
      details: { tournamentId: limited.id, roundId: otherRound },
    });

    const badId = await entryOf(me.token, 'not-a-tournament');
    expect(badId.statusCode).toBe(400);
    expect(badId.json()).toMatchObject({
      code: 'validation_failed',
      details: { field: 'tournamentId' },
    });
    const badRound = await entryOf(me.token, limited.id, '?roundId=round-1');
    expect(badRound.statusCode).toBe(400);
    expect(badRound.json()).toMatchObject({
      code: 'validation_failed',
      details: { field: 'roundId' },
    });

    const anonymous = await s.api.inject({
      method: 'GET',
      url: `/player/tournaments/${limited.id}/entry`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
