import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoinopError } from '@coinop/core';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';

const SEED = Number(process.env['COINOP_TEST_SEED'] ?? 20261122);
const STEPS = 80;

/** A small deterministic generator (Park–Miller), so a failing sequence can be replayed. */
function generator(seed: number) {
  let state = seed % 2_147_483_647 || 1;
  return (n: number) => {
    state = (state * 48_271) % 2_147_483_647;
    return state % n;
  };
}

describe.each(storeVariants())(
  'a seeded random sequence of plays, scores and expiries on %s',
  (variant) => {
    let api: TestApi;
    let games: GameFixture[];
    let players: { playerId: string }[];

    beforeAll(async () => {
      api = await buildTestApi(variant);
      games = [
        await gameWithTiers(api, { costs: [0, 1, 7], leadersMax: 3 }),
        await gameWithTiers(api, { costs: [3], scoreDisplay: 'REVERSE', leadersMax: 2 }),
      ];
      players = [];
      for (let i = 0; i < 6; i++) players.push(await fundedPlayer(api, 12 + i));
    });
    afterAll(() => api.close());

    it(`keeps the ledger balanced and the rank tree exact after every step (seed ${SEED})`, async () => {
      console.log(`random sequence seed ${SEED} (set COINOP_TEST_SEED to replay)`);
      const rand = generator(SEED);
      const open: { gameId: string; playId: string; leaderboardId: string }[] = [];
      const outcomes = new Map<string, number>();
      const count = (what: string) => outcomes.set(what, (outcomes.get(what) ?? 0) + 1);

      for (let step = 0; step < STEPS; step++) {
        const action = rand(10);
        try {
          if (action < 5 || open.length === 0) {
            const game = games[rand(games.length)]!;
            const tier = game.tiers[rand(game.tiers.length)]!;
            const play = await api.app.arcade.plays.open({
              gameId: game.gameId,
              playerId: players[rand(players.length)]!.playerId,
              leaderboardId: tier.id,
              idempotencyKey: rand(4) === 0 ? `k-${rand(6)}` : null,
            });
            if (play.status === 'open' && !open.some((p) => p.playId === play.id)) {
              open.push({ gameId: game.gameId, playId: play.id, leaderboardId: tier.id });
            }
            count('play');
          } else if (action < 9) {
            const [play] = open.splice(rand(open.length), 1);
            await api.app.arcade.plays.score({
              gameId: play!.gameId,
              playId: play!.playId,
              leaderboardId: play!.leaderboardId,
              score: rand(40) / 4,
              idempotencyKey: null,
            });
            count('score');
          } else {
            api.clock.advance(api.config.playTtlSeconds * 1000);
            const settled = await api.app.arcade.settleExpiredPlays();
            expect(settled, `step ${step}`).toBe(open.length);
            open.length = 0;
            count('expiry');
          }
        } catch (error) {
          // Refusals are part of the sequence: a poor player, a reused key, an expired play.
          if (!(error instanceof CoinopError)) throw error;
          count(error.code);
          if (error.code === 'play_expired') open.length = 0;
        }
        await expectLedgerBalanced(api.db);
        await expectRankTreeConsistent(api.db);
      }
      console.log(`outcomes: ${JSON.stringify(Object.fromEntries(outcomes))}`);
      // The sequence exercised every path it is meant to.
      expect(outcomes.get('play')).toBeGreaterThan(10);
      expect(outcomes.get('score')).toBeGreaterThan(10);
      expect(outcomes.get('expiry')).toBeGreaterThan(0);
    });
  },
);
