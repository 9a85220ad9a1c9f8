import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import {
  balanceOf,
  fundedPlayer,
  gameWithTiers,
  writeToken,
  type GameFixture,
} from '@coinop/testkit/arcade';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import { refusalsOfPlay } from '../../src/store/score-rules.js';

// Issue 30: an arcade paid whoever submitted the best number. Each play now carries a seed the
// server drew, and a game's score rules refuse absurd or impossibly fast scores before they
// touch the board or move HST; the play stays open for an honest score.

const HST = 100_000_000n;
const SEED = /^[0-9a-f]{64}$/;

describe.each(storeVariants())('score rules and seeds (issue 30) on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let token: string;

  beforeEach(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api, { costs: [1, 10] });
    token = await writeToken(api, game);
  });
  afterEach(async () => {
    await expectLedgerBalanced(api.db);
    await expectRankTreeConsistent(api.db);
    await api.close();
  });

  const gamePath = (path: string) => `/arcades/${game.arcadeId}/games/${game.gameId}/${path}`;
  const post = (path: string, payload: object) =>
    api.app.inject({
      method: 'POST',
      url: gamePath(path),
      headers: { authorization: `Bearer ${token}` },
      payload,
    });
  const tier = (n: number) => game.tiers[n]!.id;
  const play = async (playerId: string, leaderboardId = tier(1)) => {
    const res = await post('play', { playerId, leaderboardId });
    expect(res.statusCode).toBe(200);
    return res.json() as { id: string; seed: string; leaderboardId: string };
  };
  const score = (playId: string, value: number, extra: object = {}, leaderboardId = tier(1)) =>
    post('score', { playId, leaderboardId, score: value, ...extra });
  const playStatus = async (playId: string) =>
    (await api.db.query<{ status: string }>('SELECT status FROM plays WHERE id = $1', [playId]))[0]
      ?.status;
  const scoresOf = async (playId: string) =>
    (await api.db.query('SELECT id FROM scores WHERE play_id = $1', [playId])).length;
  const setGameRules = (rules: object) => api.app.arcade.scoreRules.changeGame(game.gameId, rules);

  it('draws a seed for every play: 64 hex, stored, answered, different each time', async () => {
    const alice = await fundedPlayer(api, 100);
    const first = await play(alice.playerId);
    const second = await play(alice.playerId, tier(0));
    expect(first.seed).toMatch(SEED);
    expect(second.seed).toMatch(SEED);
    expect(first.seed).not.toBe(second.seed);
    const stored = await api.db.query<{ id: string; seed: string }>(
      'SELECT id, seed FROM plays WHERE id = ANY($1::uuid[]) ORDER BY created_at, id',
      [[first.id, second.id]],
    );
    expect(new Map(stored.map((r) => [r.id, r.seed]))).toEqual(
      new Map([
        [first.id, first.seed],
        [second.id, second.seed],
      ]),
    );
    // The game server reads its own play back with the seed it was given.
    const read = await api.app.inject({
      method: 'GET',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/play/${first.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(read.statusCode).toBe(200);
    expect(read.json().seed).toBe(first.seed);
  });

  it('a game without rules takes a replay with its score, and refuses one too large', async () => {
    const alice = await fundedPlayer(api, 100);
    const opened = await play(alice.playerId);
    const max = api.config.verifier.replayMaxBytes;
    // 'é' is two bytes of UTF-8: half the limit in characters is over it in bytes.
    const tooLarge = await score(opened.id, 10, { replay: 'é'.repeat(max / 2 + 1) });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({
      code: 'replay_too_large',
      message: `replay is ${max + 2} bytes of UTF-8; this arcade takes at most ${max} (--replay-max-bytes)`,
    });
    expect(await playStatus(opened.id)).toBe('open');
    expect(await scoresOf(opened.id)).toBe(0);
    const accepted = await score(opened.id, 10, { replay: 'x'.repeat(max) });
    expect(accepted.statusCode).toBe(200);
    expect(await playStatus(opened.id)).toBe('scored');
  });

  it('refuses a score out of bounds: nothing written or moved, the play stays open', async () => {
    await setGameRules({ minScore: 10, maxScore: 5000 });
    const alice = await fundedPlayer(api, 100);
    const bob = await fundedPlayer(api, 100);
    const first = await play(bob.playerId);
    expect((await score(first.id, 700)).statusCode).toBe(200);
    const opened = await play(alice.playerId);
    const before = await Promise.all([alice, bob].map((p) => balanceOf(api, p.accountId)));

    for (const [value, message] of [
      [5000.5, "score 5,000.5 is above this tier's highest possible score, 5,000"],
      [9.99, "score 9.99 is below this tier's lowest possible score, 10"],
    ] as const) {
      const res = await score(opened.id, value, { replay: 'evidence' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'score_out_of_bounds', message });
    }
    expect(await Promise.all([alice, bob].map((p) => balanceOf(api, p.accountId)))).toEqual(before);
    expect(await playStatus(opened.id)).toBe('open');
    expect(await scoresOf(opened.id)).toBe(0);
    const leaders = await api.db.query<{ player_id: string }>(
      'SELECT player_id FROM leaders WHERE leaderboard_id = $1',
      [tier(1)],
    );
    expect(leaders.map((l) => l.player_id)).toEqual([bob.playerId]);

    const refusals = await refusalsOfPlay(api.db, opened.id);
    expect(refusals.map((r) => [r.reason, r.score, r.replay, r.playerId, r.leaderboardId])).toEqual(
      [
        ['score_out_of_bounds', 5000.5, 'evidence', alice.playerId, tier(1)],
        ['score_out_of_bounds', 9.99, 'evidence', alice.playerId, tier(1)],
      ],
    );
    expect(refusals[0]!.detail).toBe(
      "score 5,000.5 is above this tier's highest possible score, 5,000",
    );

    // The same play then scores what it earned, and pays as any score does.
    const honest = await score(opened.id, 5000);
    expect(honest.statusCode).toBe(200);
    expect(await playStatus(opened.id)).toBe('scored');
    const [aliceAfter, bobAfter] = await Promise.all(
      [alice, bob].map((p) => balanceOf(api, p.accountId)),
    );
    expect(aliceAfter!.available).toBe(90n * HST);
    expect(aliceAfter!.pending).toBe(0n);
    // Bob led the board when Alice's play began: 70 % of its 10 HST.
    expect(bobAfter!.available - before[1]!.available).toBe(7n * HST);
  });

  it('refuses a score sooner than the shortest play, then takes it once a run could end', async () => {
    await setGameRules({ minPlayMs: 10_000 });
    const alice = await fundedPlayer(api, 100);
    const opened = await play(alice.playerId);
    api.clock.advance(9_999);
    const early = await score(opened.id, 42);
    expect(early.statusCode).toBe(422);
    expect(early.json()).toMatchObject({
      code: 'score_too_fast',
      message:
        'the score came 9,999 ms after the play opened; a run of this tier takes at least 10,000 ms',
    });
    expect((await refusalsOfPlay(api.db, opened.id)).map((r) => [r.reason, r.playMs])).toEqual([
      ['score_too_fast', 9999],
    ]);
    expect(await playStatus(opened.id)).toBe('open');
    api.clock.advance(1);
    expect((await score(opened.id, 42)).statusCode).toBe(200);
    expect(await playStatus(opened.id)).toBe('scored');
  });

  it("a tier's override wins over its game's rule; a tier without one inherits it", async () => {
    await setGameRules({ maxScore: 5000 });
    await api.app.arcade.scoreRules.changeTier(game.gameId, tier(0), { maxScore: 100 });
    const alice = await fundedPlayer(api, 100);
    const cheap = await play(alice.playerId, tier(0));
    const dear = await play(alice.playerId, tier(1));
    const refused = await score(cheap.id, 200, {}, tier(0));
    expect(refused.json()).toMatchObject({
      code: 'score_out_of_bounds',
      message: "score 200 is above this tier's highest possible score, 100",
    });
    expect((await score(dear.id, 200)).statusCode).toBe(200);
    expect((await score(dear.id, 200)).statusCode).toBe(409);
    const inherits = await play(alice.playerId, tier(1));
    expect((await score(inherits.id, 5001)).json().code).toBe('score_out_of_bounds');
  });

  it('a game read shows each tier the rules in force on it, and none where none are', async () => {
    const read = async () => {
      const res = await api.app.inject({
        method: 'GET',
        url: `/arcades/${game.arcadeId}/developergames/${game.gameId}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ leaderboards: { id: string; scoreRules?: object }[] }>().leaderboards;
    };
    expect((await read()).map((t) => 'scoreRules' in t)).toEqual([false, false]);
    await api.app.arcade.scoreRules.changeTier(game.gameId, tier(0), { minPlayMs: 3000 });
    api.app.arcade.reads.invalidate(game.gameId);
    const tiers = await read();
    expect(tiers.map((t) => t.scoreRules)).toEqual([
      { minScore: null, maxScore: null, minPlayMs: 3000, replay: 'off' },
      undefined,
    ]);
  });

  it('a tier that requires replays refuses a score without one, and one no verifier runs', async () => {
    // The game has no verifier uploaded: a rule written around the settings (say, by an older
    // process) still refuses, never pays.
    await api.db.query("UPDATE leaderboards SET replay_rule = 'required' WHERE id = $1", [tier(1)]);
    api.app.arcade.games.invalidate(game.gameId);
    const alice = await fundedPlayer(api, 100);
    const opened = await play(alice.playerId);
    const missing = await score(opened.id, 10);
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({
      code: 'replay_required',
      message: "this tier requires a replay with each score, for the game's verifier",
    });
    const unverified = await score(opened.id, 10, { replay: '{"moves":"LR"}' });
    expect(unverified.statusCode).toBe(422);
    expect(unverified.json()).toMatchObject({
      code: 'replay_rejected',
      message: 'the game has no replay verifier',
    });
    expect(
      (await refusalsOfPlay(api.db, opened.id)).map((r) => [r.reason, r.replay, r.detail]),
    ).toEqual([
      [
        'replay_required',
        null,
        "this tier requires a replay with each score, for the game's verifier",
      ],
      ['replay_rejected', '{"moves":"LR"}', 'the game has no replay verifier'],
    ]);
    expect(await playStatus(opened.id)).toBe('open');
    expect(await balanceOf(api, alice.accountId)).toMatchObject({
      available: 90n * HST,
      pending: 10n * HST,
    });
  });
});
