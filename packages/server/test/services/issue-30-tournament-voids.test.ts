import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import {
  mintTo,
  postedBalance,
  tournamentWithRound,
  type TestTournament,
} from '../fixtures/tournaments.js';

/*
 * Issue 30 and tournaments (docs/concepts/tournaments.md, "Voids and the close"): a round's plays
 * are not held, even under a payout hold; a score voided before the close leaves the round's
 * board and the close pays the corrected standings; a score voided after the close leaves the
 * board, and the prizes the close paid stay paid, as its results record them.
 */

const HOUR_MS = 3_600_000;
/** 2 HST entry fee: 70% of it (1.4 HST) goes into the pool per settled play. */
const FEE = 200_000_000n;
const GUARANTEE = 1_000_000_000n;
/** 10 HST guaranteed + 4 settled plays × 1.4 HST. */
const POOL = 1_560_000_000n;
/** The pool split 50/30/20 over three places. */
const PRIZES = [780_000_000n, 468_000_000n, 312_000_000n];

describe.each(storeVariants())('voids and the close of a round on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;

  afterEach(async () => {
    await expectLedgerBalanced(api.db);
    await expectRankTreeConsistent(api.db);
    await api.close();
  });

  const post = async (path: string, payload: object) =>
    api.app.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`,
      headers: { authorization: `Bearer ${await writeToken(api, game)}` },
      payload,
    });
  const voidScore = (scoreId: string) =>
    api.app.inject({
      method: 'POST',
      url: `/admin/scores/${scoreId}/void`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { reason: 'impossible score' },
    });
  const results = (roundId: string) =>
    api.db.query<{ place: number; player_id: string; score: number; prize_units: string }>(
      `SELECT place, player_id, score, prize_units::text AS prize_units
       FROM tournament_results WHERE round_id = $1 ORDER BY place`,
      [roundId],
    );
  const board = async (roundId: string) =>
    (
      await api.db.query<{ player_id: string; score: number }>(
        `SELECT player_id, score FROM leaders WHERE leaderboard_id = $1
         ORDER BY rank_key DESC, achieved_at`,
        [roundId],
      )
    ).map((r) => [r.player_id, Number(r.score)]);

  /**
   * A payout hold of an hour; a round that began a minute ago and ends in an hour; ann 120,
   * bob 200, cyd 100 and a cheater's 999, each a second apart.
   */
  async function playedRound() {
    api = await buildTestApi(variant, { payoutHoldSeconds: 3600 });
    game = await gameWithTiers(api, { costs: [1] });
    const mint = api.app.arcade.record.mintAccountId;
    await mintTo(api.db, mint, game.developerAccountId, 10n * GUARANTEE, api.clock.now());
    const now = api.clock.now();
    const t: TestTournament = await tournamentWithRound(api.db, {
      gameId: game.gameId,
      funderAccountId: game.developerAccountId,
      entryFeeUnits: FEE,
      guaranteeUnits: GUARANTEE,
      payoutTable: { places: [5000, 3000, 2000] },
      startsAt: new Date(now.getTime() - 60_000),
      durationSeconds: 3600,
      now,
    });
    api.app.arcade.games.invalidate(game.gameId);
    const [ann, bob, cyd, xavier] = await Promise.all(
      ['Ann', 'Bob', 'Cyd', 'Xavier'].map((n) => fundedPlayer(api, 100, n)),
    );
    const scoreIds: string[] = [];
    for (const [player, value] of [
      [ann!, 120],
      [bob!, 200],
      [cyd!, 100],
      [xavier!, 999],
    ] as const) {
      const play = await post('play', { playerId: player.playerId, leaderboardId: t.roundId });
      expect(play.statusCode, play.body).toBe(200);
      const res = await post('score', {
        playId: play.json().id,
        leaderboardId: t.roundId,
        score: value,
      });
      expect(res.statusCode, res.body).toBe(200);
      scoreIds.push(res.json().id);
      api.clock.advance(1000);
    }
    // Not held: the leaders' part went into the pool at once.
    const held = await api.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM plays WHERE leaderboard_id = $1 AND payouts_release_at IS NOT NULL',
      [t.roundId],
    );
    expect(Number(held[0]?.n)).toBe(0);
    expect(await postedBalance(api.db, t.roundId)).toBe(POOL);
    return { t, ann: ann!, bob: bob!, cyd: cyd!, xavier: xavier!, cheat: scoreIds[3]! };
  }

  const closeAfterTheEnd = async (roundId: string) => {
    api.clock.advance(HOUR_MS);
    const { closed } = await api.app.arcade.closer.closeDue(api.app.log);
    expect(closed.map((c) => [c.roundId, c.poolUnits])).toEqual([[roundId, POOL]]);
  };

  it('pays the corrected standings when the score is voided before the close', async () => {
    const { t, ann, bob, cyd, xavier, cheat } = await playedRound();
    const before = await Promise.all(
      [ann, bob, cyd, xavier].map((p) => postedBalance(api.db, p.accountId)),
    );
    const res = await voidScore(cheat);
    expect(res.statusCode, res.body).toBe(200);
    // Nothing held to re-settle: the pool does not depend on the standings.
    expect(res.json()).toMatchObject({ resettledPlays: [], moved: [] });
    expect(await postedBalance(api.db, t.roundId)).toBe(POOL);
    expect(await board(t.roundId)).toEqual([
      [bob.playerId, 200],
      [ann.playerId, 120],
      [cyd.playerId, 100],
    ]);

    await closeAfterTheEnd(t.roundId);
    expect(await results(t.roundId)).toEqual([
      { place: 1, player_id: bob.playerId, score: 200, prize_units: PRIZES[0]!.toString() },
      { place: 2, player_id: ann.playerId, score: 120, prize_units: PRIZES[1]!.toString() },
      { place: 3, player_id: cyd.playerId, score: 100, prize_units: PRIZES[2]!.toString() },
    ]);
    const after = await Promise.all(
      [ann, bob, cyd, xavier].map((p) => postedBalance(api.db, p.accountId)),
    );
    expect(after).toEqual([
      before[0]! + PRIZES[1]!,
      before[1]! + PRIZES[0]!,
      before[2]! + PRIZES[2]!,
      before[3]!, // the cheater wins nothing
    ]);
    expect(await postedBalance(api.db, t.roundId)).toBe(0n);
  });

  it('keeps the prizes paid when the score is voided after the close', async () => {
    const { t, ann, bob, cyd, xavier, cheat } = await playedRound();
    await closeAfterTheEnd(t.roundId);
    const paid = [
      { place: 1, player_id: xavier.playerId, score: 999, prize_units: PRIZES[0]!.toString() },
      { place: 2, player_id: bob.playerId, score: 200, prize_units: PRIZES[1]!.toString() },
      { place: 3, player_id: ann.playerId, score: 120, prize_units: PRIZES[2]!.toString() },
    ];
    expect(await results(t.roundId)).toEqual(paid);
    const balances = () =>
      Promise.all([ann, bob, cyd, xavier].map((p) => postedBalance(api.db, p.accountId)));
    const before = await balances();

    const res = await voidScore(cheat);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ resettledPlays: [], moved: [] });
    // The board (the standings shown) loses the score; the results record who was paid, and
    // every balance stays as the close left it: nobody's HST moves without their consent.
    expect(await board(t.roundId)).toEqual([
      [bob.playerId, 200],
      [ann.playerId, 120],
      [cyd.playerId, 100],
    ]);
    expect(await results(t.roundId)).toEqual(paid);
    expect(await balances()).toEqual(before);
    expect(await postedBalance(api.db, t.roundId)).toBe(0n);
    const again = await voidScore(cheat);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('score_already_voided');
  });
});
