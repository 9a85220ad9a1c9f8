import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import { findAccount } from '../../src/store/ledger.js';
import {
  LEADERS_MAX,
  modelEarnings,
  type ModelPlay,
  type ModelScore,
} from '../fixtures/void-model.js';

/**
 * Issue 30: two voids on one board. The first void re-settles a held play to its corrected
 * leaders, which may bring in a player its first leaders did not hold; a second void of that
 * player's score must find the play again and re-settle it once more, to the unit.
 */
describe.each(storeVariants())('two voids on one board on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let token: string;

  afterEach(async () => {
    await expectLedgerBalanced(api.db);
    await expectRankTreeConsistent(api.db);
    await api.close();
  });

  const post = (path: string, payload: object) =>
    api.app.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`,
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
  const voidScore = (scoreId: string, reason: string) =>
    api.app.inject({
      method: 'POST',
      url: `/admin/scores/${scoreId}/void`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { reason },
    });

  it('re-settles a held play again when the second void takes a leader the first brought in', async () => {
    api = await buildTestApi(variant, { payoutHoldSeconds: 3600 });
    game = await gameWithTiers(api, { costs: [1], leadersMax: LEADERS_MAX });
    token = await writeToken(api, game);
    const names = ['alice', 'bob', 'carol', 'dave', 'xavier'] as const;
    const players = Object.fromEntries(
      await Promise.all(names.map(async (n) => [n, await fundedPlayer(api, 10, n)] as const)),
    ) as unknown as Record<(typeof names)[number], { playerId: string; accountId: string }>;
    const accountOf = (playerId: string) =>
      Object.values(players).find((p) => p.playerId === playerId)!.accountId;
    const plays: ModelPlay[] = [];
    const scores: ModelScore[] = [];
    const leaderboardId = game.tiers[0]!.id;
    const scoreIdOf = new Map<string, string>();
    for (const [who, value] of [
      ['alice', 50],
      ['bob', 40],
      ['carol', 30],
      ['xavier', 999],
      ['dave', 1], // paid to xavier, alice and bob; carol is fourth
    ] as const) {
      const playerId = players[who].playerId;
      api.clock.advance(1000);
      const play = await post('play', { playerId, leaderboardId });
      expect(play.statusCode, play.body).toBe(200);
      plays.push({ playId: play.json().id, playerId, at: api.clock.now().getTime() });
      api.clock.advance(1000);
      const score = await post('score', { playId: play.json().id, leaderboardId, score: value });
      expect(score.statusCode, score.body).toBe(200);
      scores.push({ scoreId: score.json().id, playerId, value, at: api.clock.now().getTime() });
      scoreIdOf.set(who, score.json().id);
    }
    const davesPlay = plays.at(-1)!.playId;

    const expectOwed = async (voided: ReadonlySet<string>) => {
      const owed = modelEarnings(plays, scores, 'NORMAL', voided, accountOf, game);
      for (const n of names) {
        const accountId = players[n].accountId;
        expect((await findAccount(api.db, accountId))?.creditsPending, n).toBe(
          owed.get(accountId) ?? 0n,
        );
      }
      for (const accountId of [game.developerAccountId, game.arcadeAccountId]) {
        expect((await findAccount(api.db, accountId))?.creditsPending).toBe(owed.get(accountId));
      }
    };
    await expectOwed(new Set());

    const first = await voidScore(scoreIdOf.get('xavier')!, 'impossible score');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().resettledPlays).toContain(davesPlay);
    // Dave's play now pays alice, bob and carol.
    await expectOwed(new Set([scoreIdOf.get('xavier')!]));

    const second = await voidScore(scoreIdOf.get('carol')!, 'a bot');
    expect(second.statusCode, second.body).toBe(200);
    // Xavier's own play was led by alice, bob and carol from the start; dave's is led by carol
    // only since the first void.
    const xaviersPlay = plays[3]!.playId;
    expect([...second.json().resettledPlays].sort()).toEqual([davesPlay, xaviersPlay].sort());
    // Dave's play now pays alice and bob alone: carol's third is theirs.
    await expectOwed(new Set([scoreIdOf.get('xavier')!, scoreIdOf.get('carol')!]));
    const carol = await findAccount(api.db, players.carol.accountId);
    expect(carol?.creditsPending).toBe(0n);
  });
});
