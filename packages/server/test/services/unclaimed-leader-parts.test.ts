import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import type { ActivityItem, ActivityPage } from '@coinop/protocol';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import { createApiKey } from '../../src/credentials/api-keys.js';
import { findAccount } from '../../src/store/ledger.js';
import {
  postedBalance,
  tournamentWithRound,
  type TestTournament,
} from '../fixtures/tournaments.js';

/*
 * Security review (FINDINGS.md, finding 3): a developer may void any score of its own game, and
 * the leaders' part nobody was left to claim went to the developer: a tier play's (split.ts, with
 * no leader) and a whole round's pool (`tournament_unclaimed`, with nobody ranked). The party who
 * decided the void was the party it paid (a developer voiding every entrant's score took the
 * pool: 6 → 27 HST). Now the leaders' part no leader can claim goes back to whoever paid it: a
 * play's to its player (`payout_returned`), a round's to each entrant (`tournament_returned`);
 * the developer's and the arcade's parts are unchanged.
 */

const HOUR_MS = 3_600_000;
const HST = 100_000_000n;
const FEE = 10n * HST;

describe.each(storeVariants())('the leaders part nobody can claim, on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;

  afterEach(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  const server = async (path: string, payload: object) =>
    api.app.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`,
      headers: { authorization: `Bearer ${await writeToken(api, game)}` },
      payload,
    });

  async function scored(playerId: string, leaderboardId: string, score: number) {
    const play = await server('play', { playerId, leaderboardId });
    expect(play.statusCode, play.body).toBe(200);
    api.clock.advance(1000);
    const res = await server('score', { playId: play.json().id, leaderboardId, score });
    expect(res.statusCode, res.body).toBe(200);
    api.clock.advance(1000);
    return res.json().id as string;
  }

  async function developerVoid(scoreId: string) {
    const { apiKey } = await createApiKey(api.db, api.clock, game.developerId);
    const res = await api.app.inject({
      method: 'POST',
      url: `/developer/games/${game.gameId}/scores/${scoreId}/void`,
      headers: { 'api-key': apiKey },
      payload: { reason: 'suspicious' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  /** The player's history lines of what came back to them, as the operator's read answers. */
  async function returnedLines(playerId: string): Promise<readonly ActivityItem[]> {
    const res = await api.app.inject({
      method: 'GET',
      url: `/admin/players/${playerId}/activity?kind=returned`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ActivityPage>().items;
  }

  /** Posted and held (pending credit) balances of an account, in base units. */
  async function balances(accountId: string) {
    const a = await findAccount(api.db, accountId);
    if (!a) throw new Error(`no account ${accountId}`);
    return { posted: a.creditsPosted - a.debitsPosted, held: a.creditsPending };
  }

  it("gives a round's pool back to its entrants when the developer voided every score", async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [1] });
    const now = api.clock.now();
    const t: TestTournament = await tournamentWithRound(api.db, {
      gameId: game.gameId,
      funderAccountId: game.developerAccountId,
      entryFeeUnits: FEE,
      payoutTable: { places: [10000] },
      startsAt: new Date(now.getTime() - 1000),
      durationSeconds: 3600,
      now,
    });
    api.app.arcade.games.invalidate(game.gameId);
    const players = await Promise.all(['Ann', 'Bob', 'Cyd'].map((n) => fundedPlayer(api, 100, n)));
    const scoreIds: string[] = [];
    for (const [i, p] of players.entries())
      scoreIds.push(await scored(p.playerId, t.roundId, 10 + i));
    // Each fee: 7 HST into the pool, 2 to the developer, 1 to the arcade.
    expect(await postedBalance(api.db, t.roundId)).toBe(21n * HST);
    const developerBefore = await postedBalance(api.db, game.developerAccountId);
    expect(developerBefore).toBe(6n * HST);
    const arcadeBefore = await postedBalance(api.db, game.arcadeAccountId);
    for (const p of players) expect(await postedBalance(api.db, p.accountId)).toBe(90n * HST);

    for (const scoreId of scoreIds) await developerVoid(scoreId);
    api.clock.advance(HOUR_MS);
    await api.app.arcade.closer.closeDue(api.app.log);

    // Each entrant gets back their 7 HST of the pool; the developer keeps its 2 HST a fee and
    // gains nothing; the arcade keeps its 1 HST a fee; the pool ends empty.
    for (const p of players) expect(await postedBalance(api.db, p.accountId)).toBe(97n * HST);
    expect(await postedBalance(api.db, game.developerAccountId)).toBe(developerBefore);
    expect(await postedBalance(api.db, game.arcadeAccountId)).toBe(arcadeBefore);
    expect(await postedBalance(api.db, t.roundId)).toBe(0n);
    const returned = await api.db.query<{ credit_account_id: string; amount: string }>(
      `SELECT credit_account_id, amount::text AS amount FROM transfers
       WHERE debit_account_id = $1 ORDER BY credit_account_id`,
      [t.roundId],
    );
    expect(returned.map((r) => [r.credit_account_id, r.amount])).toEqual(
      players.map((p) => [p.accountId, (7n * HST).toString()]).sort(),
    );
    // Each entrant's history says so: a line of the round, with no play of its own.
    const roundName = (
      await api.db.query<{ name: string }>('SELECT name FROM leaderboards WHERE id = $1', [
        t.roundId,
      ])
    )[0]!.name;
    for (const p of players)
      expect(await returnedLines(p.playerId)).toEqual([
        expect.objectContaining({
          kind: 'returned',
          amount: '7',
          gameId: game.gameId,
          leaderboardId: t.roundId,
          tierName: roundName,
          playId: null,
          status: 'paid',
          paidTo: 'balance',
        }),
      ]);
  });

  it("returns a held play's leaders' part to its player when the developer voids the leader", async () => {
    api = await buildTestApi(variant, { payoutHoldSeconds: 86_400 });
    // One leader paid a play, so Pat's own scores (below Lea's) pay nobody until the void.
    game = await gameWithTiers(api, { costs: [10], leadersMax: 1 });
    const tier = game.tiers[0]!.id;
    const leader = await fundedPlayer(api, 100, 'Lea');
    const player = await fundedPlayer(api, 100, 'Pat');
    const leaderScore = await scored(leader.playerId, tier, 50);
    for (let i = 0; i < 3; i++) await scored(player.playerId, tier, 1);
    // The leader's own first play on an empty board: its 7 HST back to the leader, held. Each
    // of Pat's plays: 7 HST to the leader, 2 to the developer, 1 to the arcade, all held.
    expect(await balances(leader.accountId)).toEqual({ posted: 90n * HST, held: 28n * HST });
    expect(await balances(player.accountId)).toEqual({ posted: 70n * HST, held: 0n });
    expect(await balances(game.developerAccountId)).toEqual({ posted: 0n, held: 8n * HST });
    expect(await balances(game.arcadeAccountId)).toMatchObject({ held: 4n * HST });
    const arcadeBefore = await balances(game.arcadeAccountId);

    const outcome = await developerVoid(leaderScore);
    expect(outcome.resettledPlays).toHaveLength(3);

    // As if Lea's score had never been made: nobody led when Pat first played, so that play's
    // 7 HST goes back to Pat (held, as the play's other shares are); Pat's own first score led
    // the board for the next two, which pay Pat as their leader. None of it goes to the
    // developer, whose 2 HST a play and the arcade's 1 are unchanged.
    expect(await balances(leader.accountId)).toEqual({ posted: 90n * HST, held: 7n * HST });
    expect(await balances(player.accountId)).toEqual({ posted: 70n * HST, held: 21n * HST });
    expect(await balances(game.developerAccountId)).toEqual({ posted: 0n, held: 8n * HST });
    expect(await balances(game.arcadeAccountId)).toEqual(arcadeBefore);
    const reasons = await api.db.query<{ reason: string; n: string }>(
      `SELECT reason, count(*)::text AS n FROM transfers
       WHERE credit_account_id = $1 AND kind = 'pending' GROUP BY reason ORDER BY reason`,
      [player.accountId],
    );
    expect(reasons).toEqual([
      { reason: 'payout_leader', n: '2' },
      { reason: 'payout_returned', n: '1' },
    ]);
    // Pat's history shows the 7 HST coming back, held as the play's other shares are.
    const [back] = await returnedLines(player.playerId);
    expect(back).toMatchObject({
      kind: 'returned',
      amount: '7',
      status: 'held',
      tierName: 'Tier 1',
    });
    expect(back?.kind === 'returned' && back.releaseAt).toEqual(expect.any(String));
  });

  it("pays the first play on an empty tier's leaders' part back to its player", async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [10] });
    const first = await fundedPlayer(api, 100, 'Fay');
    const developerBefore = await postedBalance(api.db, game.developerAccountId);
    const arcadeBefore = await postedBalance(api.db, game.arcadeAccountId);
    await scored(first.playerId, game.tiers[0]!.id, 5);
    // 10 HST paid, 7 back (nobody to lead), 2 to the developer, 1 to the arcade.
    expect(await postedBalance(api.db, first.accountId)).toBe(97n * HST);
    expect(await postedBalance(api.db, game.developerAccountId)).toBe(developerBefore + 2n * HST);
    expect(await postedBalance(api.db, game.arcadeAccountId)).toBe(arcadeBefore + 1n * HST);
  });
});
