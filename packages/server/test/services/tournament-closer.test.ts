import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import { within } from '@coinop/testkit/poll';
import { uuidIds } from '../../src/ids.js';
import { loadConfig } from '../../src/config.js';
import { ArcadeMetrics } from '../../src/metrics/arcade-metrics.js';
import { TournamentCloser } from '../../src/services/tournament-closer.js';
import type { Db } from '../../src/store/db.js';
import { closeRound } from '../../src/store/tournament-close.js';
import {
  fillPoolTo,
  mintTo,
  postedBalance,
  seedEntrants,
  tournamentWithRound,
  type TestTournament,
} from '../fixtures/tournaments.js';

/*
 * The close of a tournament round (docs/concepts/tournaments.md, "Closing"), on each store.
 * Tournaments and rounds are written by a fixture (so a test may choose what the routes would
 * refuse: a start in the past, any funder); plays on a round go through the play routes with the
 * round's id as their leaderboardId, and their fees fill the pool. Where a rule needs a pool of
 * an exact size, a mint tops it up before the close.
 */

const HOUR_MS = 3_600_000;
/** 2 HST, the worked example's entry fee. */
const FEE = 200_000_000n;
/** 10 HST, the worked example's guarantee. */
const GUARANTEE = 1_000_000_000n;

describe.each(storeVariants())('closing tournament rounds on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;

  const base = () => `/arcades/${game.arcadeId}/games/${game.gameId}`;
  // A fresh write token for each request: the tests move the clock by hours.
  const post = async (path: string, payload: object) =>
    api.app.inject({
      method: 'POST',
      url: `${base()}/${path}`,
      headers: { authorization: `Bearer ${await writeToken(api, game)}` },
      payload,
    });
  const play = async (playerId: string, roundId: string): Promise<string> => {
    const res = await post('play', { playerId, leaderboardId: roundId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string }>().id;
  };
  const score = async (playId: string, roundId: string, value: number) => {
    const res = await post('score', { playId, leaderboardId: roundId, score: value });
    expect(res.statusCode, res.body).toBe(200);
    // Each score a second after the last, so that equal scores have an order.
    api.clock.advance(1000);
  };
  const mint = () => api.app.arcade.record.mintAccountId;
  const closeDue = () => api.app.arcade.closer.closeDue(api.app.log);
  /** A round that began a minute ago and ends in an hour, its board known to the game cache. */
  const round = async (
    options: Partial<Parameters<typeof tournamentWithRound>[1]> & {
      payoutTable: Parameters<typeof tournamentWithRound>[1]['payoutTable'];
    },
  ): Promise<TestTournament> => {
    const now = api.clock.now();
    const t = await tournamentWithRound(api.db, {
      gameId: game.gameId,
      funderAccountId: game.developerAccountId,
      startsAt: new Date(now.getTime() - 60_000),
      durationSeconds: 3600,
      now,
      ...options,
    });
    api.app.arcade.games.invalidate(game.gameId);
    return t;
  };
  const roundRow = async (roundId: string) => {
    const [row] = await api.db.query<{
      status: string;
      pool_units: string | null;
      closed_at: Date | null;
    }>(
      'SELECT status, pool_units::text AS pool_units, closed_at FROM tournament_rounds WHERE id = $1',
      [roundId],
    );
    return row;
  };
  const results = (roundId: string) =>
    api.db.query<{ place: number; player_id: string; score: number; prize_units: string }>(
      `SELECT place, player_id, score, prize_units::text AS prize_units
       FROM tournament_results WHERE round_id = $1 ORDER BY place`,
      [roundId],
    );

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [1] });
    // The developer funds the guarantees.
    await mintTo(api.db, mint(), game.developerAccountId, 100n * GUARANTEE, api.clock.now());
  });
  afterAll(async () => {
    await expectLedgerBalanced(api.db);
    await expectRankTreeConsistent(api.db);
    await api.close();
  });

  it('pays the worked example to the unit, settles the open play and freezes the standings', async () => {
    const t = await round({
      entryFeeUnits: FEE,
      guaranteeUnits: GUARANTEE,
      payoutTable: { places: [5000, 3000, 2000] },
    });
    expect(await postedBalance(api.db, t.roundId)).toBe(GUARANTEE);
    const ann = await fundedPlayer(api, 100, 'Ann');
    const bob = await fundedPlayer(api, 100, 'Bob');
    const cyd = await fundedPlayer(api, 100, 'Cyd');
    // Seven plays by three players; six scored, Cyd's second never: the close settles it.
    for (const [player, value] of [
      [ann, 120],
      [bob, 200],
      [cyd, 100],
      [ann, 310],
      [bob, 150],
      [ann, 305],
    ] as const) {
      await score(await play(player.playerId, t.roundId), t.roundId, value);
    }
    const open = await play(cyd.playerId, t.roundId);
    // Each settled play put its leaders' part (70% of 2 HST) into the pool:
    // P = 1,000,000,000 + 6 × 140,000,000.
    expect(await postedBalance(api.db, t.roundId)).toBe(1_840_000_000n);

    const before = {
      ann: await postedBalance(api.db, ann.accountId),
      bob: await postedBalance(api.db, bob.accountId),
      cyd: await postedBalance(api.db, cyd.accountId),
      arcade: await postedBalance(api.db, game.arcadeAccountId),
    };
    const cydPending = (
      await api.db.query<{ debits_pending: string }>(
        'SELECT debits_pending::text AS debits_pending FROM accounts WHERE id = $1',
        [cyd.accountId],
      )
    )[0]!.debits_pending;
    expect(BigInt(cydPending)).toBe(FEE);

    // Not due yet: nothing happens.
    expect((await closeDue()).closed).toEqual([]);
    api.clock.advance(HOUR_MS);
    const { closed } = await closeDue();
    expect(closed).toEqual([
      expect.objectContaining({
        roundId: t.roundId,
        rankedPlayers: 3,
        // P = 1,840,000,000 + the leaders' part of Cyd's unscored play, 140,000,000.
        poolUnits: 1_980_000_000n,
        paidPlaces: 3,
        payoutTransfers: 3,
        expiredPlays: 1,
        voidedPlays: 0,
        next: null,
      }),
    ]);

    expect(await postedBalance(api.db, ann.accountId)).toBe(before.ann + 990_000_000n);
    expect(await postedBalance(api.db, bob.accountId)).toBe(before.bob + 594_000_000n);
    // Cyd's open play is settled as an expired play: its locked fee is posted (not given back)
    // and Cyd gains the third prize; nothing is pending any more.
    expect(await postedBalance(api.db, cyd.accountId)).toBe(before.cyd - FEE + 396_000_000n);
    const cydAfter = await api.db.query<{ debits_pending: string }>(
      'SELECT debits_pending::text AS debits_pending FROM accounts WHERE id = $1',
      [cyd.accountId],
    );
    expect(cydAfter[0]!.debits_pending).toBe('0');
    // The arcade's part of Cyd's fee (10%); the pool divides with no remainder.
    expect(await postedBalance(api.db, game.arcadeAccountId)).toBe(before.arcade + 20_000_000n);
    expect(await postedBalance(api.db, t.roundId)).toBe(0n);

    const [expired] = await api.db.query<{ status: string }>(
      'SELECT status FROM plays WHERE id = $1',
      [open],
    );
    expect(expired?.status).toBe('expired');
    expect(await results(t.roundId)).toEqual([
      { place: 1, player_id: ann.playerId, score: 310, prize_units: '990000000' },
      { place: 2, player_id: bob.playerId, score: 200, prize_units: '594000000' },
      { place: 3, player_id: cyd.playerId, score: 100, prize_units: '396000000' },
    ]);
    expect(await roundRow(t.roundId)).toEqual({
      status: 'closed',
      pool_units: '1980000000',
      closed_at: api.clock.now(),
    });
    const [tournament] = await api.db.query<{ stopped_at: Date | null }>(
      'SELECT stopped_at FROM tournaments WHERE id = $1',
      [t.tournamentId],
    );
    expect(tournament?.stopped_at).toEqual(api.clock.now());

    // Standings frozen: a score for the settled play is refused and the board stays as it was.
    const late = await post('score', { playId: open, leaderboardId: t.roundId, score: 999 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'play_expired', details: { playId: open } });
    const leaders = await api.app.inject({
      method: 'GET',
      url: `${base()}/leaders/${t.roundId}`,
      headers: { authorization: `Bearer ${await writeToken(api, game)}` },
    });
    expect(
      leaders
        .json<{ leaders: { playerId: string; score: number }[] }>()
        .leaders.map((l) => [l.playerId, l.score]),
    ).toEqual([
      [ann.playerId, 310],
      [bob.playerId, 200],
      [cyd.playerId, 100],
    ]);

    // A second close of the same round does nothing.
    expect((await closeDue()).closed).toEqual([]);
    const again = await api.db.transaction((tx) =>
      closeRound(tx, t.roundId, {
        now: api.clock.now(),
        arcadeAccountId: game.arcadeAccountId,
        splitRule: api.config.splitRule,
        nextId: () => uuidIds.next(),
      }),
    );
    expect(again).toEqual({ closed: false, reason: 'already_closed' });
    expect(await results(t.roundId)).toHaveLength(3);
    await expectLedgerBalanced(api.db);
  });

  it('settles a play still open at the close as an expired play: no refund, its leaders’ part paid out', async () => {
    // The free roll this closes: a player who left a bad run unscored got its fee back at the
    // close. Now an unscored play costs what an expired one does, and its leaders' part is in
    // the pool the close pays.
    const t = await round({ entryFeeUnits: FEE, payoutTable: { places: [10000] } });
    const ann = await fundedPlayer(api, 10, 'Ann');
    const bob = await fundedPlayer(api, 10, 'Bob');
    await score(await play(ann.playerId, t.roundId), t.roundId, 50);
    const unscored = await play(bob.playerId, t.roundId);
    const pending = async (accountId: string) =>
      (
        await api.db.query<{ debits_pending: string }>(
          'SELECT debits_pending::text AS debits_pending FROM accounts WHERE id = $1',
          [accountId],
        )
      )[0]!.debits_pending;
    expect(await pending(bob.accountId)).toBe(FEE.toString());
    const before = {
      ann: await postedBalance(api.db, ann.accountId),
      bob: await postedBalance(api.db, bob.accountId),
      developer: await postedBalance(api.db, game.developerAccountId),
      arcade: await postedBalance(api.db, game.arcadeAccountId),
    };
    // Ann's scored play put 70% of 2 HST in the pool.
    expect(await postedBalance(api.db, t.roundId)).toBe(140_000_000n);

    api.clock.advance(HOUR_MS);
    const { closed } = await closeDue();
    expect(closed.find((c) => c.roundId === t.roundId)).toMatchObject({
      rankedPlayers: 1,
      // P = 140,000,000 (Ann's play) + 140,000,000 (Bob's, settled by the close).
      poolUnits: 280_000_000n,
      paidPlaces: 1,
      expiredPlays: 1,
      voidedPlays: 0,
    });
    // Ann wins the whole pool, Bob's leaders' part included.
    expect(await postedBalance(api.db, ann.accountId)).toBe(before.ann + 280_000_000n);
    // Bob is not refunded: his locked fee is posted and split.
    expect(await postedBalance(api.db, bob.accountId)).toBe(before.bob - FEE);
    expect(await pending(bob.accountId)).toBe('0');
    expect(await postedBalance(api.db, game.developerAccountId)).toBe(
      before.developer + 40_000_000n,
    );
    expect(await postedBalance(api.db, game.arcadeAccountId)).toBe(before.arcade + 20_000_000n);
    expect(await postedBalance(api.db, t.roundId)).toBe(0n);
    expect(await results(t.roundId)).toEqual([
      { place: 1, player_id: ann.playerId, score: 50, prize_units: '280000000' },
    ]);
    // Settled as the expiry sweep settles a round play: the same transfers, and `expired`.
    const [row] = await api.db.query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [
      unscored,
    ]);
    expect(row?.status).toBe('expired');
    const moved = await api.db.query<{ reason: string; credit: string; amount: string }>(
      `SELECT reason, credit_account_id AS credit, amount::text AS amount FROM transfers
       WHERE play_id = $1 ORDER BY reason`,
      [unscored],
    );
    expect(moved).toEqual([
      { reason: 'payout_arcade', credit: game.arcadeAccountId, amount: '20000000' },
      { reason: 'payout_developer', credit: game.developerAccountId, amount: '40000000' },
      { reason: 'play_lock', credit: unscored, amount: FEE.toString() },
      { reason: 'play_settle', credit: unscored, amount: FEE.toString() },
      { reason: 'tournament_pool', credit: t.roundId, amount: '140000000' },
    ]);
    // A score after the close is refused; the play stays settled.
    const late = await post('score', { playId: unscored, leaderboardId: t.roundId, score: 999 });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ code: 'play_expired', details: { playId: unscored } });
    await expectLedgerBalanced(api.db);
  });

  it('settles alike an unswept play that expired within the round and one whose expiry outlives the round', async () => {
    // A round of two hours: a play opened at its start expires (TTL) an hour before the end but
    // the sweep has not run; another was opened before expiries were clipped to the round's end
    // (its expiry is past the end). The close settles both, as the sweep would have.
    const t = await round({
      entryFeeUnits: FEE,
      durationSeconds: 7200,
      payoutTable: { places: [10000] },
    });
    const ann = await fundedPlayer(api, 10, 'Ann');
    const bob = await fundedPlayer(api, 10, 'Bob');
    const unswept = await play(bob.playerId, t.roundId);
    const unclipped = await play(bob.playerId, t.roundId);
    await api.db.query('UPDATE plays SET expires_at = $2 WHERE id = $1', [
      unclipped,
      new Date(t.endsAt.getTime() + HOUR_MS),
    ]);
    api.clock.advance(HOUR_MS + 60_000);
    await score(await play(ann.playerId, t.roundId), t.roundId, 9);
    const before = {
      ann: await postedBalance(api.db, ann.accountId),
      bob: await postedBalance(api.db, bob.accountId),
      developer: await postedBalance(api.db, game.developerAccountId),
      arcade: await postedBalance(api.db, game.arcadeAccountId),
    };
    api.clock.advance(t.endsAt.getTime() - api.clock.now().getTime());
    const { closed } = await closeDue();
    expect(closed.find((c) => c.roundId === t.roundId)).toMatchObject({
      poolUnits: 3n * 140_000_000n,
      expiredPlays: 2,
      voidedPlays: 0,
    });
    expect(await postedBalance(api.db, ann.accountId)).toBe(before.ann + 420_000_000n);
    expect(await postedBalance(api.db, bob.accountId)).toBe(before.bob - 2n * FEE);
    expect(await postedBalance(api.db, game.developerAccountId)).toBe(
      before.developer + 2n * 40_000_000n,
    );
    expect(await postedBalance(api.db, game.arcadeAccountId)).toBe(
      before.arcade + 2n * 20_000_000n,
    );
    const statuses = await api.db.query<{ status: string }>(
      'SELECT status FROM plays WHERE id = ANY($1::uuid[])',
      [[unswept, unclipped]],
    );
    expect(statuses.map((r) => r.status)).toEqual(['expired', 'expired']);
    await expectLedgerBalanced(api.db);
  });

  it('renormalizes over the places that exist and gives the remainder to the arcade', async () => {
    const t = await round({ payoutTable: { places: [5000, 3000, 2000] } });
    const ann = await fundedPlayer(api, 10, 'Ann');
    const bob = await fundedPlayer(api, 10, 'Bob');
    await score(await play(ann.playerId, t.roundId), t.roundId, 50);
    await score(await play(bob.playerId, t.roundId), t.roundId, 40);
    await fillPoolTo(api.db, mint(), t.roundId, 1_840_000_001n, api.clock.now());
    const arcade = await postedBalance(api.db, game.arcadeAccountId);
    api.clock.advance(HOUR_MS);
    await closeDue();
    // W = 8,000: floor(1,840,000,001 × 5000 / 8000) and × 3000 / 8000; 1 unit left.
    expect((await results(t.roundId)).map((r) => r.prize_units)).toEqual([
      '1150000000',
      '690000000',
    ]);
    expect(await postedBalance(api.db, game.arcadeAccountId)).toBe(arcade + 1n);
    expect(await postedBalance(api.db, t.roundId)).toBe(0n);
  });

  it('pays the top 10% equally over a large field, the remainder to the arcade', async () => {
    const t = await round({ payoutTable: { topPercent: 10 } });
    const players = await seedEntrants(api.db, t.roundId, 205, api.clock.now());
    await fillPoolTo(api.db, mint(), t.roundId, 1_000_000_007n, api.clock.now());
    const arcade = await postedBalance(api.db, game.arcadeAccountId);
    api.clock.advance(HOUR_MS);
    const [closed] = (await closeDue()).closed;
    // ceil(205 × 10 / 100) = 21 places of floor(1,000,000,007 / 21) = 47,619,047 units; the
    // 20 units left go to the arcade.
    expect(closed).toMatchObject({ rankedPlayers: 205, paidPlaces: 21, payoutTransfers: 22 });
    const paid = await results(t.roundId);
    expect(paid.map((r) => r.player_id)).toEqual(players.slice(0, 21));
    expect(new Set(paid.map((r) => r.prize_units))).toEqual(new Set(['47619047']));
    expect(await postedBalance(api.db, game.arcadeAccountId)).toBe(arcade + 20n);
    expect(await postedBalance(api.db, t.roundId)).toBe(0n);
  });

  it('counts a score that commits before the close and refuses one that comes after', async () => {
    const t = await round({ entryFeeUnits: FEE, payoutTable: { places: [5000, 3000, 2000] } });
    const racers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => fundedPlayer(api, 10, `Racer ${i}`)),
    );
    const plays: string[] = [];
    for (const racer of racers) plays.push(await play(racer.playerId, t.roundId));
    // The scores are sent in the round's last second (so the score route takes them), and the
    // close runs as at its end, at the same time: the database decides which commits first.
    api.clock.advance(t.endsAt.getTime() - api.clock.now().getTime() - 1000);
    const [, ...answers] = await Promise.all([
      api.db.transaction((tx) =>
        closeRound(tx, t.roundId, {
          now: t.endsAt,
          arcadeAccountId: game.arcadeAccountId,
          splitRule: api.config.splitRule,
          nextId: () => uuidIds.next(),
        }),
      ),
      ...plays.map((playId, i) =>
        post('score', { playId, leaderboardId: t.roundId, score: 100 + i }),
      ),
    ]);
    const statuses = await api.db.query<{ id: string; status: string }>(
      'SELECT id, status FROM plays WHERE id = ANY($1::uuid[])',
      [plays],
    );
    const statusOf = new Map(statuses.map((r) => [r.id, r.status]));
    answers.forEach((answer, i) => {
      // Counted (its play scored before the close settled it), or refused (settled first, as an
      // expired play).
      if (answer.statusCode === 200) expect(statusOf.get(plays[i]!)).toBe('scored');
      else {
        expect(answer.json()).toMatchObject({ code: 'play_expired' });
        expect(statusOf.get(plays[i]!)).toBe('expired');
      }
    });
    const scored = plays
      .map((playId, i) => ({ playId, score: 100 + i, player: racers[i]!.playerId }))
      .filter((p) => statusOf.get(p.playId) === 'scored')
      .sort((a, b) => b.score - a.score);
    // The results are the board as the close froze it: the scores that were counted.
    expect((await results(t.roundId)).map((r) => [r.player_id, r.score])).toEqual(
      scored.slice(0, 3).map((p) => [p.player, p.score]),
    );
    const [board] = await api.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM leaders WHERE leaderboard_id = $1',
      [t.roundId],
    );
    expect(board?.n).toBe(scored.length);
    expect(await postedBalance(api.db, t.roundId)).toBe(0n);
    await expectLedgerBalanced(api.db);
  });

  it('breaks a tie by the earlier score', async () => {
    const t = await round({ payoutTable: { places: [6000, 4000] } });
    const early = await fundedPlayer(api, 10, 'Early');
    const late = await fundedPlayer(api, 10, 'Late');
    await score(await play(early.playerId, t.roundId), t.roundId, 500);
    await score(await play(late.playerId, t.roundId), t.roundId, 500);
    await fillPoolTo(api.db, mint(), t.roundId, 1_000n, api.clock.now());
    api.clock.advance(HOUR_MS);
    await closeDue();
    expect(
      (await results(t.roundId)).map((r) => [r.place, r.player_id, r.score, r.prize_units]),
    ).toEqual([
      [1, early.playerId, 500, '600'],
      [2, late.playerId, 500, '400'],
    ]);
  });

  it('with nobody ranked, gives the guarantee back to its funder and nothing to the developer', async () => {
    // An operator's tournament: the arcade funds the guarantee.
    await mintTo(api.db, mint(), game.arcadeAccountId, GUARANTEE, api.clock.now());
    const t = await round({
      createdBy: 'operator',
      funderAccountId: game.arcadeAccountId,
      entryFeeUnits: FEE,
      guaranteeUnits: GUARANTEE,
      payoutTable: { topPercent: 10 },
    });
    const player = await fundedPlayer(api, 10, 'Nobody');
    // Never scored: the close settles it, its leaders' part (140,000,000) into the pool.
    const open = await play(player.playerId, t.roundId);
    // HST in the pool that no entrant paid (the entrants' own parts go back to them: see
    // round-pool-voids.test.ts); it goes to the arcade, as any remainder does.
    await fillPoolTo(api.db, mint(), t.roundId, GUARANTEE + 280_000_000n, api.clock.now());
    const arcade = await postedBalance(api.db, game.arcadeAccountId);
    const developer = await postedBalance(api.db, game.developerAccountId);
    const playerBefore = await postedBalance(api.db, player.accountId);
    api.clock.advance(HOUR_MS);
    const { closed } = await closeDue();
    expect(closed).toEqual([
      expect.objectContaining({
        rankedPlayers: 0,
        paidPlaces: 0,
        payoutTransfers: 3,
        poolUnits: GUARANTEE + 420_000_000n,
        expiredPlays: 1,
        voidedPlays: 0,
      }),
    ]);
    // The guarantee back to its funder (the arcade), which also takes the 280,000,000 no
    // entrant paid (a remainder) and 10% of the unscored fee.
    expect(await postedBalance(api.db, game.arcadeAccountId)).toBe(
      arcade + GUARANTEE + 280_000_000n + 20_000_000n,
    );
    // The developer: 20% of the unscored fee, nothing of the pool.
    expect(await postedBalance(api.db, game.developerAccountId)).toBe(developer + 40_000_000n);
    // The unscored play cost its fee, less its leaders' part back from the pool (nobody ranked).
    expect(await postedBalance(api.db, player.accountId)).toBe(playerBefore - FEE + 140_000_000n);
    expect(await results(t.roundId)).toEqual([]);
    const [row] = await api.db.query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [
      open,
    ]);
    expect(row?.status).toBe('expired');
  });

  it("opens a season's next round at once, with its guarantee, or without it when the funder is short", async () => {
    // Hourly rounds of 30 minutes, the first at the next full hour, the clock a minute into it.
    const hour = new Date((Math.floor(api.clock.now().getTime() / HOUR_MS) + 1) * HOUR_MS);
    api.clock.advance(hour.getTime() - api.clock.now().getTime() + 60_000);
    const season = {
      recurrence: '0 * * * *',
      startsAt: hour,
      durationSeconds: 1800,
      guaranteeUnits: GUARANTEE,
      payoutTable: { places: [10000] },
    };
    const developer = await postedBalance(api.db, game.developerAccountId);
    const funded = await round(season);
    // A sponsor who can cover one guarantee and no more.
    const sponsor = await fundedPlayer(api, 10, 'Sponsor');
    const short = await round({ ...season, name: 'Sponsored', funderAccountId: sponsor.accountId });
    expect(await postedBalance(api.db, sponsor.accountId)).toBe(0n);
    const winner = await fundedPlayer(api, 10, 'Winner');
    await score(await play(winner.playerId, funded.roundId), funded.roundId, 7);
    await score(await play(winner.playerId, short.roundId), short.roundId, 7);
    await fillPoolTo(api.db, mint(), funded.roundId, GUARANTEE, api.clock.now());
    await fillPoolTo(api.db, mint(), short.roundId, GUARANTEE, api.clock.now());
    // Past the rounds' end.
    api.clock.advance(funded.endsAt.getTime() - api.clock.now().getTime() + 1000);
    const { closed } = await closeDue();
    const next = new Map(closed.map((c) => [c.tournamentId, c.next]));
    const window = {
      number: 2,
      startsAt: new Date(hour.getTime() + HOUR_MS),
      endsAt: new Date(hour.getTime() + HOUR_MS + 1_800_000),
    };
    expect(next.get(funded.tournamentId)).toEqual({
      roundId: expect.any(String),
      ...window,
      guaranteeFunded: true,
    });
    expect(next.get(short.tournamentId)).toEqual({
      roundId: expect.any(String),
      ...window,
      guaranteeFunded: false,
    });
    const fundedNext = next.get(funded.tournamentId)!.roundId;
    const shortNext = next.get(short.tournamentId)!.roundId;
    // Round 2 of the funded season holds its guarantee, taken from the developer.
    expect(await postedBalance(api.db, fundedNext)).toBe(GUARANTEE);
    expect(await postedBalance(api.db, game.developerAccountId)).toBe(developer - 2n * GUARANTEE);
    // The sponsor's guarantee went to the winner of round 1: round 2 opens without one.
    expect(await postedBalance(api.db, shortNext)).toBe(0n);
    const rows = await api.db.query<{
      id: string;
      number: number;
      status: string;
      guarantee_units: string;
      guarantee_funded: boolean;
    }>(
      `SELECT id, number, status, guarantee_units::text AS guarantee_units, guarantee_funded
       FROM tournament_rounds WHERE tournament_id = $1 ORDER BY number`,
      [short.tournamentId],
    );
    expect(rows).toEqual([
      expect.objectContaining({
        number: 1,
        status: 'closed',
        guarantee_units: GUARANTEE.toString(),
      }),
      { id: shortNext, number: 2, status: 'open', guarantee_units: '0', guarantee_funded: false },
    ]);
    const [board] = await api.db.query<{ name: string; tournament_id: string }>(
      'SELECT name, tournament_id FROM leaderboards WHERE id = $1',
      [fundedNext],
    );
    expect(board).toEqual({ name: 'Weekly Cup #2', tournament_id: funded.tournamentId });
  });

  it('closes due rounds by itself, counts them in the metrics, and outlives a failing database', async () => {
    const metrics = new ArcadeMetrics();
    const changedGames: string[] = [];
    const closerOn = (db: Db) =>
      new TournamentCloser({
        db,
        clock: api.clock,
        ids: uuidIds,
        arcadeAccountId: () => game.arcadeAccountId,
        splitRule: api.config.splitRule,
        metrics,
        gameChanged: (gameId) => changedGames.push(gameId),
        closePauseMs: 0,
      });
    const metric = async (name: string) => {
      const { body } = await metrics.render();
      const line = body.split('\n').find((l) => l.startsWith(`${name} `));
      return line === undefined ? undefined : Number(line.slice(name.length + 1));
    };
    const t = await round({ payoutTable: { places: [10000] } });
    const player = await fundedPlayer(api, 10, 'Solo');
    await score(await play(player.playerId, t.roundId), t.roundId, 3);
    await fillPoolTo(api.db, mint(), t.roundId, 5_000n, api.clock.now());

    // A database whose transactions fail: the close is counted as failed, and left due.
    const down = new Error('database down');
    const failing: Db = { ...api.db, transaction: () => Promise.reject(down) };
    api.clock.advance(HOUR_MS);
    const broken = closerOn(failing);
    expect(await broken.closeDue(api.app.log)).toEqual({ closed: [], leftDue: true });
    // This round, and any round of the tests before that the hour made due.
    const failed = (await metric('coinop_tournament_round_close_failures_total')) ?? 0;
    expect(failed).toBeGreaterThanOrEqual(1);
    // A failed close is tried again after a second, not at once.
    expect(await broken.closeDue(api.app.log)).toEqual({ closed: [], leftDue: true });
    expect(await metric('coinop_tournament_round_close_failures_total')).toBe(failed);
    api.clock.advance(1000);
    await broken.closeDue(api.app.log);
    expect(await metric('coinop_tournament_round_close_failures_total')).toBe(2 * failed);
    expect((await roundRow(t.roundId))?.status).toBe('open');

    // The loop, started as the server starts it, closes the round at its next look.
    const closer = closerOn(api.db);
    closer.start(api.app.log);
    try {
      await within(5_000, async () => (await roundRow(t.roundId))?.status === 'closed');
    } finally {
      await closer.stop();
    }
    // Each round that failed is closed once.
    expect(await metric('coinop_tournament_round_close_seconds_count')).toBe(failed);
    expect(await metric('coinop_tournament_round_payout_transfers_count')).toBe(failed);
    expect((await results(t.roundId)).map((r) => [r.player_id, r.prize_units])).toEqual([
      [player.playerId, '5000'],
    ]);
    expect(await postedBalance(api.db, t.roundId)).toBe(0n);
    // This process's caches were told the game's rounds changed, once per close.
    expect(changedGames.length).toBe(failed);
    expect(new Set(changedGames)).toEqual(new Set([game.gameId]));
  });
});

describe("the close's test hook (COINOP_TEST_CLOSE_PAUSE_MS)", () => {
  it('is off unless set, and refuses a value that is not whole milliseconds, naming itself', () => {
    expect(loadConfig({}, {}, false).closeTestPauseMs).toBe(0);
    expect(loadConfig({}, { COINOP_TEST_CLOSE_PAUSE_MS: '250' }, false).closeTestPauseMs).toBe(250);
    for (const bad of ['-1', '1.5', 'soon', '600001']) {
      expect(() => loadConfig({}, { COINOP_TEST_CLOSE_PAUSE_MS: bad }, false)).toThrow(
        `COINOP_TEST_CLOSE_PAUSE_MS must be whole milliseconds from 0 to 600000, got ${bad}`,
      );
    }
  });
});
