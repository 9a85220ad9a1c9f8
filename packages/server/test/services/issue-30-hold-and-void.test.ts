import { afterEach, describe, expect, it } from 'vitest';
import type { ScoreDisplay } from '@coinop/core';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import {
  balanceOf,
  fundedPlayer,
  gameWithTiers,
  writeToken,
  type GameFixture,
} from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import { findAccount } from '../../src/store/ledger.js';
import { pendingPayoutsOf } from '../../src/store/payout-holds.js';
import {
  COST,
  LEADERS_MAX,
  modelEarnings,
  modelLeaders,
  type ModelPlay,
  type ModelScore,
} from '../fixtures/void-model.js';

/**
 * Issue 30: a payout hold keeps every share of a settled play pending, so a false score can be
 * voided and the payouts it caused re-settled to the unit before anyone spends them. The expected
 * balances are computed here from a model of the board (brute force: every score, sorted), not by
 * the code under test.
 */

const HOLD_SECONDS = 3600;

describe.each(storeVariants())('payout hold and score void on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let token: string;

  afterEach(async () => {
    await expectLedgerBalanced(api.db);
    await expectRankTreeConsistent(api.db);
    await api.close();
  });

  async function setUp(display: ScoreDisplay, hold = HOLD_SECONDS) {
    api = await buildTestApi(variant, { payoutHoldSeconds: hold });
    game = await gameWithTiers(api, { costs: [1], leadersMax: LEADERS_MAX, scoreDisplay: display });
    token = await writeToken(api, game);
  }

  const post = (path: string, payload: object) =>
    api.app.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
  const voidScore = (scoreId: string, reason = 'impossible score') =>
    api.app.inject({
      method: 'POST',
      url: `/admin/scores/${scoreId}/void`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { reason },
    });

  /** A play and its score, one second apart, each at a distinct time; recorded in the model. */
  async function playAndScore(
    model: { plays: ModelPlay[]; scores: ModelScore[] },
    playerId: string,
    value: number,
  ): Promise<string> {
    api.clock.advance(1000);
    const play = await post('play', { playerId, leaderboardId: game.tiers[0]!.id });
    expect(play.statusCode, play.body).toBe(200);
    model.plays.push({ playId: play.json().id, playerId, at: api.clock.now().getTime() });
    api.clock.advance(1000);
    const score = await post('score', {
      playId: play.json().id,
      leaderboardId: game.tiers[0]!.id,
      score: value,
    });
    expect(score.statusCode, score.body).toBe(200);
    const scoreId: string = score.json().id;
    model.scores.push({ scoreId, playerId, value, at: api.clock.now().getTime() });
    return scoreId;
  }

  for (const display of ['NORMAL', 'REVERSE'] as const) {
    it(`voids inside the hold and re-settles every held payout to the unit (${display}, top 3 with ties)`, async () => {
      await setUp(display);
      // On a REVERSE board lower is better: the same story with the values mirrored.
      const v = (n: number) => (display === 'NORMAL' ? n : 1000 - n);
      const names = ['alice', 'bob', 'carol', 'dave', 'xavier'] as const;
      const players = Object.fromEntries(
        await Promise.all(names.map(async (n) => [n, await fundedPlayer(api, 100, n)] as const)),
      ) as unknown as Record<(typeof names)[number], { playerId: string; accountId: string }>;
      const accountOf = (playerId: string) =>
        Object.values(players).find((p) => p.playerId === playerId)!.accountId;
      const model = { plays: [] as ModelPlay[], scores: [] as ModelScore[] };

      await playAndScore(model, players.xavier.playerId, v(5)); // an honest, low score first
      await playAndScore(model, players.alice.playerId, v(50));
      await playAndScore(model, players.bob.playerId, v(50)); // ties alice: alice ranks first
      await playAndScore(model, players.carol.playerId, v(40));
      const cheat = await playAndScore(model, players.xavier.playerId, v(999));
      for (const [who, value] of [
        ['dave', 45],
        ['carol', 50], // ties alice and bob, later: ranks after them
        ['alice', 30], // not a new best
        ['dave', 60],
        ['bob', 10],
      ] as const) {
        await playAndScore(model, players[who].playerId, v(value));
      }

      // Held: every share is pending, nothing of it spendable.
      const before = modelEarnings(model.plays, model.scores, display, new Set(), accountOf, game);
      for (const [accountId, units] of before) {
        const account = await findAccount(api.db, accountId);
        expect(account?.creditsPending, accountId).toBe(units);
        expect((await pendingPayoutsOf(api.db, accountId)).units).toBe(units);
      }
      const spent = (n: string) =>
        BigInt(model.plays.filter((p) => p.playerId === players[n as 'alice'].playerId).length);
      for (const n of names) {
        expect((await balanceOf(api, players[n].accountId)).available).toBe(
          100n * COST - spent(n) * COST,
        );
      }

      const res = await voidScore(cheat);
      expect(res.statusCode, res.body).toBe(200);
      const voided = new Set([cheat]);
      const after = modelEarnings(model.plays, model.scores, display, voided, accountOf, game);
      const changed = model.plays.filter(
        (p) =>
          modelLeaders(model.scores, p.at, display, new Set()).join() !==
          modelLeaders(model.scores, p.at, display, voided).join(),
      );
      expect([...res.json().resettledPlays].sort()).toEqual(changed.map((p) => p.playId).sort());
      expect(changed.length).toBeGreaterThan(0);
      const moved = new Map<string, string>(
        res.json().moved.map((m: { accountId: string; amount: string }) => [m.accountId, m.amount]),
      );
      for (const id of new Set([...before.keys(), ...after.keys()])) {
        const delta = (after.get(id) ?? 0n) - (before.get(id) ?? 0n);
        expect(moved.get(id) ?? '0', id).toBe(delta === 0n ? '0' : formatSigned(delta));
      }

      // The cheater's best falls back to their honest score.
      const best = await api.db.query<{ score: number }>(
        'SELECT score FROM leaders WHERE leaderboard_id = $1 AND player_id = $2',
        [game.tiers[0]!.id, players.xavier.playerId],
      );
      expect(best.map((b) => b.score)).toEqual([v(5)]);

      // Voiding again changes nothing.
      const again = await voidScore(cheat);
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('score_already_voided');

      // The hold ends: two sweepers at once (as two processes on one Postgres) release every
      // held payout exactly once.
      api.clock.advance(HOLD_SECONDS * 1000);
      const sweep = () => api.app.arcade.releaseHeldPayouts();
      const released = await Promise.all([sweep(), sweep()]);
      expect(released[0] + released[1]).toBe(model.plays.length);
      expect(await api.app.arcade.releaseHeldPayouts()).toBe(0);
      for (const [accountId, units] of after) {
        const account = await findAccount(api.db, accountId);
        expect(account?.creditsPending, accountId).toBe(0n);
        const spentUnits = model.plays.some((p) => accountOf(p.playerId) === accountId)
          ? BigInt(model.plays.filter((p) => accountOf(p.playerId) === accountId).length) * COST
          : 0n;
        const minted = Object.values(players).some((p) => p.accountId === accountId)
          ? 100n * COST
          : 0n;
        expect(account?.creditsPosted, accountId).toBe(minted + units);
        expect(account && account.creditsPosted - account.debitsPosted, accountId).toBe(
          minted + units - spentUnits,
        );
      }
      const releases = await api.db.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM transfers WHERE reason = 'payout_release'",
      );
      const shares = [...model.plays].reduce(
        // One per leader (or one back to the player when there is none), the developer, the arcade.
        (n, p) => n + Math.max(1, modelLeaders(model.scores, p.at, display, voided).length) + 2,
        0,
      );
      expect(Number(releases[0]?.n)).toBe(shares);
    });
  }

  it('keeps every best, count and unit exact under 50 concurrent scores and voids', async () => {
    await setUp('NORMAL');
    const players = await Promise.all(
      Array.from({ length: 10 }, (_, i) => fundedPlayer(api, 100, `p${i}`)),
    );
    const model = { plays: [] as ModelPlay[], scores: [] as ModelScore[] };
    const first: string[] = [];
    for (const [i, p] of players.entries())
      first.push(await playAndScore(model, p.playerId, 10 * i));
    // 50 plays open; their leaders are the top 3 of the first round (p9, p8, p7).
    const leaderboardId = game.tiers[0]!.id;
    const opened = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        post('play', { playerId: players[i % 10]!.playerId, leaderboardId }),
      ),
    );
    expect(opened.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    api.clock.advance(1000);
    const [scores, voids] = await Promise.all([
      Promise.all(
        opened.map((r, i) =>
          post('score', { playId: r.json().id, leaderboardId, score: (i * 7) % 95 }),
        ),
      ),
      Promise.all(
        [first[9]!, first[8]!, first[5]!, first[2]!, first[7]!].map((id) => voidScore(id)),
      ),
    ]);
    expect(scores.map((r) => r.statusCode)).toEqual(Array(50).fill(200));
    expect(voids.map((r) => r.statusCode)).toEqual(Array(5).fill(200));

    // Every best is its player's best non-voided score.
    const bests = await api.db.query<{ player_id: string; score: number }>(
      'SELECT player_id, score FROM leaders WHERE leaderboard_id = $1',
      [leaderboardId],
    );
    const expected = await api.db.query<{ player_id: string; score: number }>(
      `SELECT player_id, max(score) AS score FROM scores
       WHERE leaderboard_id = $1 AND voided_at IS NULL GROUP BY player_id`,
      [leaderboardId],
    );
    const byPlayer = (rows: { player_id: string; score: number }[]) =>
      Object.fromEntries(rows.map((r) => [r.player_id, Number(r.score)]));
    expect(byPlayer(bests)).toEqual(byPlayer(expected));

    // No play pays out more or less than its cost, held or released: no double payout.
    api.clock.advance(HOLD_SECONDS * 1000);
    expect(await api.app.arcade.releaseHeldPayouts()).toBe(60);
    const escrows = await api.db.query<{
      id: string;
      cp: bigint;
      dp: bigint;
      dpe: bigint;
      pe: bigint;
    }>(
      `SELECT a.id, a.credits_posted AS cp, a.debits_posted AS dp, a.debits_pending AS dpe,
              a.credits_pending AS pe
       FROM accounts a JOIN plays p ON p.id = a.id WHERE p.game_id = $1`,
      [game.gameId],
    );
    expect(escrows).toHaveLength(60);
    for (const e of escrows) {
      expect([BigInt(e.cp), BigInt(e.dp), BigInt(e.dpe), BigInt(e.pe)], e.id).toEqual([
        COST,
        COST,
        0n,
        0n,
      ]);
    }
    const paid = await api.db.query<{ total: bigint }>(
      `SELECT coalesce(sum(t.amount), 0) AS total FROM transfers t
       WHERE t.reason = 'payout_release'`,
    );
    expect(BigInt(paid[0]!.total)).toBe(60n * COST);
  });

  it('takes nothing back after the release: the board changes, the balances do not', async () => {
    await setUp('NORMAL', 60);
    const alice = await fundedPlayer(api, 10, 'alice');
    const xavier = await fundedPlayer(api, 10, 'xavier');
    const model = { plays: [] as ModelPlay[], scores: [] as ModelScore[] };
    const cheat = await playAndScore(model, xavier.playerId, 999);
    await playAndScore(model, alice.playerId, 10); // pays xavier, the only leader
    api.clock.advance(61_000);
    expect(await api.app.arcade.releaseHeldPayouts()).toBe(2);
    const paid = await balanceOf(api, xavier.accountId);
    const res = await voidScore(cheat);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().resettledPlays).toEqual([]);
    expect(res.json().moved).toEqual([]);
    expect(await balanceOf(api, xavier.accountId)).toEqual(paid);
    const board = await api.db.query<{ player_id: string }>(
      'SELECT player_id FROM leaders WHERE leaderboard_id = $1',
      [game.tiers[0]!.id],
    );
    expect(board.map((b) => b.player_id)).toEqual([alice.playerId]);
  });

  it('pays at once with a zero hold, as before: nothing pending, nothing to release', async () => {
    await setUp('NORMAL', 0);
    const alice = await fundedPlayer(api, 10, 'alice');
    const bob = await fundedPlayer(api, 10, 'bob');
    const model = { plays: [] as ModelPlay[], scores: [] as ModelScore[] };
    await playAndScore(model, alice.playerId, 5);
    await playAndScore(model, bob.playerId, 3);
    const account = await findAccount(api.db, alice.accountId);
    expect(account?.creditsPending).toBe(0n);
    // Bob's play paid her 0.7 as its leader, and her own (nobody led yet) gave her 0.7 back.
    expect(account?.creditsPosted).toBe(10n * COST + 140_000_000n);
    const kinds = await api.db.query<{ kind: string }>(
      "SELECT DISTINCT kind FROM transfers WHERE reason LIKE 'payout_%'",
    );
    expect(kinds.map((k) => k.kind)).toEqual(['posted']);
    const held = await api.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM plays WHERE payouts_release_at IS NOT NULL',
    );
    expect(Number(held[0]?.n)).toBe(0);
  });

  it('settles an expired play with a hold too, and the sweep releases it', async () => {
    await setUp('NORMAL', 120);
    const alice = await fundedPlayer(api, 10, 'alice');
    const play = await post('play', { playerId: alice.playerId, leaderboardId: game.tiers[0]!.id });
    expect(play.statusCode).toBe(200);
    api.clock.advance(3600_000 + 1000);
    expect(await api.app.arcade.settleExpiredPlays()).toBe(1);
    const dev = await findAccount(api.db, game.developerAccountId);
    // The developer's 20 %; the leaders' 70 % went back to alice (nobody led), held as well.
    expect(dev?.creditsPending).toBe(20_000_000n);
    expect(dev?.creditsPosted).toBe(0n);
    expect((await findAccount(api.db, alice.accountId))?.creditsPending).toBe(70_000_000n);
    api.clock.advance(119_000);
    expect(await api.app.arcade.releaseHeldPayouts()).toBe(0);
    api.clock.advance(1000);
    expect(await api.app.arcade.releaseHeldPayouts()).toBe(1);
    const released = await findAccount(api.db, game.developerAccountId);
    expect(released?.creditsPending).toBe(0n);
    expect(released?.creditsPosted).toBe(20_000_000n);
  });
});

function formatSigned(units: bigint): string {
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  const whole = abs / COST;
  const fraction = (abs % COST).toString().padStart(8, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}
