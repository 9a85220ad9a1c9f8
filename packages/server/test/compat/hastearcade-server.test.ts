import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { balanceOf, fundedPlayer, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';

// The published game server SDK, unchanged: a CommonJS package using axios.
const require = createRequire(import.meta.url);
const { Haste, HasteConfiguration } = require('@hastearcade/server') as {
  Haste: {
    build(id: string, secret: string, env: string, config: unknown): Promise<HasteGame>;
  };
  HasteConfiguration: new (env: string, host: string, protocol: string, port: number) => unknown;
};

interface HasteLeaderboard {
  id: string;
  name: string;
  cost: number;
  currency: string;
  formattedName: string;
}
interface HasteGame {
  game: {
    details: { id: string; leaderboards: HasteLeaderboard[] };
    leaderboards(playerId?: string): Promise<HasteLeaderboard[]>;
    play(
      player: { id: string },
      leaderboard: { id: string },
    ): Promise<{ id: string; leaderboard: HasteLeaderboard; cost: number }>;
    score(
      play: unknown,
      score: number,
    ): Promise<{ leaderRank: number; isWinner: boolean; leaders: { playerId: string }[] }>;
    leaders(leaderboard: { id: string }): Promise<{ playerId: string; score: number }[]>;
    topscore(player: { id: string }, leaderboard: { id: string }): Promise<{ value: number }>;
    payouts(player: { id: string }, limit?: number): Promise<{ events: unknown[] }>;
  };
  play: {
    find(id: string): Promise<{ id: string }>;
    transaction(id: string): Promise<{ status: string }>;
  };
}

describe.each(storeVariants())(
  'unchanged @hastearcade/server@3.0.0 against coinop on %s',
  (variant) => {
    let api: TestApi;
    let game: GameFixture;
    let port: number;

    beforeAll(async () => {
      api = await buildTestApi(variant);
      game = await gameWithTiers(api, { costs: [1, 10] });
      await api.app.listen({ host: '127.0.0.1', port: 0 });
      const address = api.app.server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      port = address.port;
    });
    afterAll(async () => {
      await expectLedgerBalanced(api.db);
      await api.close();
    });

    it('builds, lists tiers, plays, scores and reads leaders and payouts', async () => {
      const config = new HasteConfiguration('nonproduction', '127.0.0.1', 'http', port);
      const haste = await Haste.build(game.clientId, game.clientSecret, 'nonproduction', config);
      expect(haste.game.details.id).toBe(game.gameId);

      const tiers = await haste.game.leaderboards();
      expect(tiers.map((t) => [t.name, t.cost, t.currency, t.formattedName])).toEqual([
        ['Tier 1', 1, 'HST', '1 HST'],
        ['Tier 2', 10, 'HST', '10 HST'],
      ]);

      const first = await fundedPlayer(api, 20, 'First');
      const second = await fundedPlayer(api, 20, 'Second');
      const play1 = await haste.game.play({ id: first.playerId }, tiers[1]!);
      expect(play1.cost).toBe(10);
      expect(play1.leaderboard.name).toBe('Tier 2');
      const result1 = await haste.game.score(play1, 500);
      expect(result1).toMatchObject({ leaderRank: 1, isWinner: true });

      const play2 = await haste.game.play({ id: second.playerId }, tiers[1]!);
      const result2 = await haste.game.score(play2, 100);
      expect(result2.leaderRank).toBe(2);

      const leaders = await haste.game.leaders(tiers[1]!);
      expect(leaders.map((l) => [l.playerId, l.score])).toEqual([
        [first.playerId, 500],
        [second.playerId, 100],
      ]);
      expect((await haste.game.topscore({ id: second.playerId }, tiers[1]!)).value).toBe(100);
      const payouts = await haste.game.payouts({ id: first.playerId });
      expect(payouts.events).toHaveLength(1);
      expect((await haste.play.find(play2.id)).id).toBe(play2.id);
      expect((await haste.play.transaction(play2.id)).status).toBe('posted');
      // 20 - 10, 7 back from their own play (nobody led yet) and 7 as the leader of play2.
      expect((await balanceOf(api, first.accountId)).available).toBe(24n * 100_000_000n);
    });

    it('surfaces our error message through the SDK', async () => {
      const config = new HasteConfiguration('nonproduction', '127.0.0.1', 'http', port);
      const haste = await Haste.build(game.clientId, game.clientSecret, 'nonproduction', config);
      const poor = await fundedPlayer(api, 0.5);
      const tiers = await haste.game.leaderboards();
      await expect(haste.game.play({ id: poor.playerId }, tiers[0]!)).rejects.toThrow(
        `player ${poor.playerId} can spend 0.5 HST but 1 HST is required`,
      );
    });
  },
);
