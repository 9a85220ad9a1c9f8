import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewDetail, ReviewItem } from '@coinop/protocol';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';
import { GameVerifiers } from '../../src/services/game-verifiers.js';
import { findDeveloper } from '../../src/store/developers.js';

/**
 * Issue 30's evidence: a reported or outlier score could not be looked at, because only refused
 * attempts kept their replay. Every accepted score that came with a replay now keeps it, written
 * with the score, and the review queue hands it to the operator and the game's developer. And a
 * void from any route closes the score's open reviews, in the void's transaction.
 */

// The moves' sum plus a bonus drawn from the seed, as the verified-scores test's verifier.
const VERIFIER = `export function verify({ seed, replay }) {
  const moves = JSON.parse(replay);
  return moves.reduce((sum, move) => sum + move, 0) + (parseInt(seed.slice(0, 2), 16) % 10);
}`;
const earned = (seed: string, moves: number[]) =>
  moves.reduce((sum, move) => sum + move, 0) + (parseInt(seed.slice(0, 2), 16) % 10);

describe.each(storeVariants())('replays kept as evidence, on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  /** Tier 0 takes any score; tier 1 requires a replay its verifier reproduces. */
  let game: GameFixture;
  let token: string;
  let reporter: Record<string, string>;
  let developer: Record<string, string>;
  let stranger: Record<string, string>;
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  const developerWallet = newWallet();

  const send = (
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => s.api.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const base = () => `/arcades/${game.arcadeId}/games/${game.gameId}`;
  const gameServer = () => ({ authorization: `Bearer ${token}` });

  async function open(playerId: string, tier: number): Promise<{ id: string; seed: string }> {
    const leaderboardId = game.tiers[tier]!.id;
    const play = await send('POST', `${base()}/play`, gameServer(), { playerId, leaderboardId });
    expect(play.statusCode, play.body).toBe(200);
    return play.json();
  }

  function score(playId: string, tier: number, value: number, replay?: string, key?: string) {
    const leaderboardId = game.tiers[tier]!.id;
    const headers = { ...gameServer(), ...(key === undefined ? {} : { 'idempotency-key': key }) };
    return send('POST', `${base()}/score`, headers, {
      playId,
      leaderboardId,
      score: value,
      ...(replay === undefined ? {} : { replay }),
    });
  }

  const keptReplays = async (scoreIds: readonly string[]) =>
    s.db.query<{ score_id: string; replay: string }>(
      'SELECT score_id, replay FROM score_replays WHERE score_id = ANY($1::uuid[]) ORDER BY replay',
      [scoreIds],
    );

  async function report(scoreId: string, headers = reporter): Promise<string> {
    const res = await send('POST', `/player/scores/${scoreId}/report`, headers, {
      reason: 'impossible',
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ reportId: string }>().reportId;
  }

  async function review(id: string): Promise<ReviewItem> {
    const res = await send('GET', `/admin/reviews/${id}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ReviewDetail>().review;
  }

  const signedIn = async () => ({
    authorization: `Bearer ${(await walletSignIn(s.auth, newWallet())).access_token}`,
  });

  beforeAll(async () => {
    s = await buildTestSignin(variant, { faucetHst: 100 });
    api = testApiOf(s);
    game = await gameWithTiers(api, { costs: [1, 2], developerWallet: developerWallet.address });
    token = await writeToken(api, game);
    const owner = await findDeveloper(api.db, game.developerId);
    await new GameVerifiers(api.app.arcade).upload(owner!, game.gameId, VERIFIER);
    await api.app.arcade.scoreRules.changeTier(game.gameId, game.tiers[1]!.id, {
      replay: 'required',
    });
    reporter = await signedIn();
    const faucet = await send('POST', '/player/faucet', reporter);
    expect(faucet.statusCode, faucet.body).toBe(200);
    developer = {
      authorization: `Bearer ${(await walletSignIn(s.auth, developerWallet)).access_token}`,
    };
    stranger = await signedIn();
  });
  afterAll(async () => {
    await expectLedgerBalanced(s.db);
    await expectRankTreeConsistent(s.db);
    await s.close();
  });

  it('keeps the replay of every accepted score that came with one, and nothing for the rest', async () => {
    const players = await Promise.all(
      Array.from({ length: 8 }, (_, i) => fundedPlayer(api, 10, `Batch ${i}`)),
    );
    const plays = await Promise.all(players.map((p) => open(p.playerId, 0)));
    // Sent together, so they share score batches: replays and none, side by side.
    const replays = plays.map((_, i) => (i % 2 === 0 ? `{"run":${i},"moves":"↑↑↓ é"}` : undefined));
    const answers = await Promise.all(
      plays.map((p, i) => score(p.id, 0, 10 + i, replays[i], `batch-${p.id}`)),
    );
    const scoreIds = answers.map((res) => {
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: string }>().id;
    });
    expect(await keptReplays(scoreIds)).toEqual(
      scoreIds
        .map((id, i) => ({ score_id: id, replay: replays[i] }))
        .filter((r) => r.replay !== undefined)
        .sort((a, b) => (a.replay! < b.replay! ? -1 : 1)),
    );
    // A retry of a scored play answers the first score and writes no second replay.
    const again = await score(plays[0]!.id, 0, 10, replays[0], `batch-${plays[0]!.id}`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json<{ id: string }>().id).toBe(scoreIds[0]);
    expect(await keptReplays(scoreIds)).toHaveLength(4);
  });

  it("hands a verified score's replay to the operator and the game's developer", async () => {
    const ace = await fundedPlayer(api, 10, 'Ace');
    const play = await open(ace.playerId, 1);
    const moves = [30, 40, 50];
    // The seed adds 0 to 9: no seed makes [9000] earn 9010.
    const forged = await score(play.id, 1, 9010, JSON.stringify([9000]));
    expect(forged.statusCode).toBe(422);
    expect(forged.json()).toMatchObject({ code: 'replay_rejected' });
    const replay = JSON.stringify(moves);
    const accepted = await score(play.id, 1, earned(play.seed, moves), replay);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const scoreId = accepted.json<{ id: string }>().id;
    expect(await keptReplays([scoreId])).toEqual([{ score_id: scoreId, replay }]);

    const reviewId = await report(scoreId);
    expect(await review(reviewId)).toMatchObject({ kind: 'reported', scoreId, hasReplay: true });
    const listed = await send('GET', `/developer/games/${game.gameId}/reviews`, developer);
    expect(listed.json<{ reviews: ReviewItem[] }>().reviews).toContainEqual(
      expect.objectContaining({ id: reviewId, hasReplay: true }),
    );
    for (const [url, headers] of [
      [`/admin/reviews/${reviewId}/replay`, admin],
      [`/developer/games/${game.gameId}/reviews/${reviewId}/replay`, developer],
    ] as const) {
      const download = await send('GET', url, headers);
      expect(download.statusCode, url).toBe(200);
      expect(download.body).toBe(replay);
      expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(download.headers['content-disposition']).toBe(
        `attachment; filename="replay-${reviewId}.txt"`,
      );
      expect(download.headers['x-content-type-options']).toBe('nosniff');
    }
    // The refused attempt keeps its own (forged) replay, listed beside the score's review.
    const refusals = await send('GET', `/admin/reviews?state=refused&gameId=${game.gameId}`, admin);
    const [refusal] = refusals.json<{ reviews: ReviewItem[] }>().reviews;
    expect(refusal).toMatchObject({ kind: 'replay_rejected', hasReplay: true, scoreId: null });
    const refused = await send('GET', `/admin/reviews/${refusal!.id}/replay`, admin);
    expect(refused.body).toBe('[9000]');
  });

  it("re-runs the game's current verifier on a kept replay, on demand, writing nothing", async () => {
    const ace = await fundedPlayer(api, 10, 'Verified');
    const play = await open(ace.playerId, 1);
    const moves = [7, 8, 9];
    const value = earned(play.seed, moves);
    const accepted = await score(play.id, 1, value, JSON.stringify(moves));
    expect(accepted.statusCode, accepted.body).toBe(200);
    const reviewId = await report(accepted.json<{ id: string }>().id);
    const verify = (headers: Record<string, string>, id = reviewId, gameId = game.gameId) =>
      send(
        'POST',
        headers === admin
          ? `/admin/reviews/${id}/verify`
          : `/developer/games/${gameId}/reviews/${id}/verify`,
        headers,
      );
    for (const headers of [admin, developer]) {
      const res = await verify(headers);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        reviewId,
        verdict: 'reproduced',
        detail: `the replay earns ${value}, as claimed`,
        computed: value,
        verifierVersion: 1,
        checkedAt: s.clock.now().toISOString(),
      });
    }
    // A fixed verifier judges the same replay afresh: the reviewer sees what it makes of it now.
    const owner = await findDeveloper(api.db, game.developerId);
    await new GameVerifiers(api.app.arcade).upload(
      owner!,
      game.gameId,
      'export function verify({ replay }) { return JSON.parse(replay).length; }',
    );
    const stricter = await verify(admin);
    expect(stricter.json()).toMatchObject({
      verdict: 'mismatch',
      detail: `the replay earns 3, not ${value}`,
      computed: 3,
      verifierVersion: 2,
    });
    await new GameVerifiers(api.app.arcade).upload(owner!, game.gameId, VERIFIER);
    // A replay the verifier cannot read: its error, never a 5xx.
    const garbled = await fundedPlayer(api, 10, 'Garbled');
    const other = await open(garbled.playerId, 0);
    const kept = await score(other.id, 0, 5, 'not json');
    const garbledReview = await report(kept.json<{ id: string }>().id);
    const threw = await verify(admin, garbledReview);
    expect(threw.statusCode, threw.body).toBe(200);
    expect(threw.json()).toMatchObject({ verdict: 'threw', computed: null, verifierVersion: 3 });
    // Nothing was written: the reviews are open, the scores stand.
    expect(await review(reviewId)).toMatchObject({ state: 'open', resolution: null });
    expect(await review(garbledReview)).toMatchObject({ state: 'open' });
    const stranger404 = await verify(stranger);
    expect(stranger404.statusCode).toBe(404);
    expect(stranger404.json()).toMatchObject({ code: 'game_not_found' });
    const noToken = await verify({});
    expect(noToken.statusCode).toBe(401);
    const bad = await verify(admin, 'not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
  });

  it('answers a score without a replay, a stranger and bad input with a 4xx naming it', async () => {
    const plain = await fundedPlayer(api, 10, 'Plain');
    const play = await open(plain.playerId, 0);
    const res = await score(play.id, 0, 77);
    const scoreId = res.json<{ id: string }>().id;
    const reviewId = await report(scoreId);
    expect(await review(reviewId)).toMatchObject({ scoreId, hasReplay: false });
    const missing = await send('GET', `/admin/reviews/${reviewId}/replay`, admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      code: 'replay_not_found',
      message: `score ${scoreId} came without a replay`,
      details: { id: reviewId, scoreId },
    });
    const dev = `/developer/games/${game.gameId}/reviews`;
    const cases = [
      ['GET', `/admin/reviews/${randomUUID()}/replay`, admin, 404, 'review_not_found'],
      ['GET', '/admin/reviews/not-a-uuid/replay', admin, 400, 'validation_failed'],
      ['GET', `${dev}/not-a-uuid/replay`, developer, 400, 'validation_failed'],
      ['GET', `/developer/games/nope/reviews/${reviewId}/replay`, developer, 400, null],
      ['GET', `${dev}/${reviewId}/replay`, stranger, 404, 'game_not_found'],
      ['GET', `${dev}/${reviewId}/replay`, {}, 401, null],
      ['GET', `/admin/reviews/${reviewId}/replay`, {}, 401, null],
      ['GET', `/admin/reviews/${reviewId}/replay`, reporter, 401, null],
      ['POST', `/admin/reviews/${reviewId}/verify`, admin, 404, 'replay_not_found'],
      ['POST', `${dev}/${reviewId}/verify`, developer, 404, 'replay_not_found'],
      ['POST', `/admin/reviews/${randomUUID()}/verify`, admin, 404, 'review_not_found'],
    ] as const;
    for (const [method, url, headers, status, code] of cases) {
      const answer = await send(method, url, headers);
      expect(answer.statusCode, `${url} ${answer.body}`).toBe(status);
      if (code !== null) expect(answer.json()).toMatchObject({ code });
    }
  });

  it("closes a score's open reviews when its developer voids it, naming the developer", async () => {
    const sly = await fundedPlayer(api, 10, 'Sly');
    const play = await open(sly.playerId, 0);
    const scoreId = (await score(play.id, 0, 999)).json<{ id: string }>().id;
    const reviewId = await report(scoreId);
    const url = `/developer/games/${game.gameId}/scores/${scoreId}/void`;
    const voided = await send('POST', url, developer, { reason: 'A patched client.' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toMatchObject({ scoreId, closedReviews: [reviewId] });
    expect(await review(reviewId)).toMatchObject({
      state: 'voided',
      resolution: { reason: 'A patched client.', by: `developer:${game.developerId}` },
    });
  });

  it('leaves an approval as it was when the kept score is voided later', async () => {
    const kept = await fundedPlayer(api, 10, 'Kept');
    const play = await open(kept.playerId, 0);
    const scoreId = (await score(play.id, 0, 555)).json<{ id: string }>().id;
    const reviewId = await report(scoreId);
    const approved = await send('POST', `/admin/reviews/${reviewId}/approve`, admin, {
      reason: 'Looked fine on Monday.',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    // New evidence: the operator voids the score with its own route.
    const voided = await send('POST', `/admin/scores/${scoreId}/void`, admin, {
      reason: 'The same run, replayed by another account.',
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toMatchObject({ closedReviews: [] });
    expect(await review(reviewId)).toMatchObject({
      state: 'approved',
      resolution: { reason: 'Looked fine on Monday.', by: 'admin' },
    });
    const history = await send('GET', `/admin/players/${kept.playerId}/activity?kind=play`, admin);
    expect(history.json<{ items: unknown[] }>().items).toMatchObject([
      { review: { outcome: 'voided', reason: 'The same run, replayed by another account.' } },
    ]);
  });
});
