import { CoinopError } from '@coinop/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uuidIds } from '../../src/ids.js';
import { PlayService } from '../../src/services/plays.js';
import { playPolicy } from '../../src/services/arcade-services.js';
import type { ScoreVerification } from '../../src/services/score-rules-gate.js';
import type { StoredPlay } from '../../src/store/plays.js';
import { refusalsOfPlay } from '../../src/store/score-rules.js';
import type { VerifyInput, VerifyOutcome } from '../../src/verifier/index.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { balanceOf, fundedPlayer, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';

// The play service's side of a required replay (issue 30), with a stand-in for the sandbox: the
// service hands the verifier the play's own seed, the replay and the claimed score, and refuses
// what it refuses without writing the score. The real sandbox end to end is i30-sandbox's and
// i30-game's test (a verifier uploaded, a forged replay refused, a valid one paid).

const HST = 100_000_000n;

/** A verifier that answers what the test tells it, and records what it was asked. */
class ScriptedVerifier implements ScoreVerification {
  readonly asked: VerifyInput[] = [];
  next: VerifyOutcome = { ok: true };
  readonly verifier = {
    verify: (input: VerifyInput): Promise<VerifyOutcome> => {
      this.asked.push(input);
      return Promise.resolve(this.next);
    },
  };
  hasVerifier(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

describe.each(storeVariants())('required replays in the play service, on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let plays: PlayService;
  let scripted: ScriptedVerifier;

  beforeEach(async () => {
    scripted = new ScriptedVerifier();
    api = await buildTestApi(variant, {}, { scoreVerification: scripted });
    game = await gameWithTiers(api, { costs: [5] });
    plays = new PlayService(
      api.db,
      api.clock,
      uuidIds,
      api.app.arcade.games,
      playPolicy(api.config),
      null,
      scripted,
    );
    await api.app.arcade.scoreRules.changeGame(game.gameId, { replay: 'required' });
  });
  afterEach(async () => {
    await expectLedgerBalanced(api.db);
    await api.close();
  });

  const tier = () => game.tiers[0]!.id;
  const open = (playerId: string) =>
    plays.open({ gameId: game.gameId, playerId, leaderboardId: tier(), idempotencyKey: null });
  const score = (play: StoredPlay, value: number, replay: string | null) =>
    plays.score({
      gameId: game.gameId,
      playId: play.id,
      leaderboardId: tier(),
      score: value,
      replay,
      idempotencyKey: null,
    });
  const refusalOf = (promise: Promise<unknown>) =>
    promise.then(
      () => {
        throw new Error('the score was accepted');
      },
      (error: unknown) => {
        if (!(error instanceof CoinopError)) throw error;
        return { code: error.code, message: error.message };
      },
    );

  it('asks the verifier with the play’s seed and pays only the score it reproduces', async () => {
    const alice = await fundedPlayer(api, 20);
    const play = await open(alice.playerId);
    expect(play.seed).toMatch(/^[0-9a-f]{64}$/);

    scripted.next = {
      ok: false,
      reason: 'mismatch',
      detail: 'the replay earns 120, not 4200',
      computed: 120,
    };
    expect(await refusalOf(score(play, 4200, 'v1:LLRR'))).toEqual({
      code: 'replay_rejected',
      message: 'the replay earns 120, not 4200',
    });
    expect(scripted.asked).toEqual([
      {
        gameId: game.gameId,
        seed: play.seed,
        replay: 'v1:LLRR',
        score: 4200,
        leaderboardId: tier(),
      },
    ]);
    scripted.next = {
      ok: false,
      reason: 'time_limit',
      detail: 'the verifier ran out of time (250 ms)',
    };
    expect(await refusalOf(score(play, 120, 'v1:LLRR'))).toEqual({
      code: 'replay_rejected',
      message: 'the verifier ran out of time (250 ms)',
    });
    expect(await refusalOf(score(play, 120, null))).toMatchObject({ code: 'replay_required' });
    expect(scripted.asked).toHaveLength(2);
    expect(
      (await refusalsOfPlay(api.db, play.id)).map((r) => [r.reason, r.score, r.replay]),
    ).toEqual([
      ['replay_rejected', 4200, 'v1:LLRR'],
      ['replay_rejected', 120, 'v1:LLRR'],
      ['replay_required', 120, null],
    ]);
    expect(await balanceOf(api, alice.accountId)).toMatchObject({
      available: 15n * HST,
      pending: 5n * HST,
    });

    scripted.next = { ok: true };
    const accepted = await score(play, 120, 'v1:LLRR');
    expect(accepted.score).toMatchObject({ playId: play.id, score: 120, leaderRank: 1 });
    // Settled: nobody led the tier, so the leaders' 3.5 of the 5 HST come back to alice.
    expect(await balanceOf(api, alice.accountId)).toMatchObject({
      available: 1_850_000_000n,
      pending: 0n,
    });
  });

  it('checks bounds before the verifier runs: a refused bound costs no sandbox time', async () => {
    await api.app.arcade.scoreRules.changeGame(game.gameId, { maxScore: 1000 });
    const alice = await fundedPlayer(api, 20);
    const play = await open(alice.playerId);
    expect(await refusalOf(score(play, 1001, 'v1:R'))).toMatchObject({
      code: 'score_out_of_bounds',
    });
    expect(scripted.asked).toEqual([]);
  });

  it('a tier may turn off the replay its game requires', async () => {
    await api.app.arcade.scoreRules.changeTier(game.gameId, tier(), { replay: 'off' });
    const alice = await fundedPlayer(api, 20);
    const play = await open(alice.playerId);
    expect((await score(play, 5, null)).score.score).toBe(5);
    expect(scripted.asked).toEqual([]);
  });
});
