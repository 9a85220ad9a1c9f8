import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityPage, ReviewDetail, ReviewItem, ReviewPage } from '@coinop/protocol';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';

const cursorOf = (text: string) => Buffer.from(text).toString('base64url');

/**
 * Issue 30: the arcade paid whoever submitted the best number. A score that stands out against
 * its board, and a score players report, now land in a review queue that the operator and the
 * game's developer work through: approve (the score stands) or void (it leaves the board).
 */
describe.each(storeVariants())('the review queue, on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let game: GameFixture;
  let token: string;
  let reporter: { playerId: string; headers: Record<string, string> };
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

  async function score(g: GameFixture, playerId: string, value: number): Promise<string> {
    const headers = { authorization: `Bearer ${g === game ? token : await writeToken(api, g)}` };
    const base = `/arcades/${g.arcadeId}/games/${g.gameId}`;
    const leaderboardId = g.tiers[0]!.id;
    const play = await send('POST', `${base}/play`, headers, { playerId, leaderboardId });
    expect(play.statusCode, play.body).toBe(200);
    s.clock.advance(2_000);
    const res = await send('POST', `${base}/score`, headers, {
      playId: play.json<{ id: string }>().id,
      leaderboardId,
      score: value,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ id: string }>().id;
  }

  /** A board of 24 honest players between 100 and 146 (median 123, MAD 12). */
  async function honestBoard(g: GameFixture): Promise<void> {
    for (let i = 0; i < 24; i++) {
      const player = await fundedPlayer(api, 100, `Honest ${i}`);
      await score(g, player.playerId, 100 + 2 * i);
    }
  }

  async function queue(query: string, headers = admin): Promise<readonly ReviewItem[]> {
    const res = await send('GET', `/admin/reviews?limit=100&${query}`, headers);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<ReviewPage>().reviews;
  }

  beforeAll(async () => {
    s = await buildTestSignin(variant, { faucetHst: 100 });
    api = testApiOf(s);
    game = await gameWithTiers(api, {
      costs: [1],
      leadersMax: 3,
      developerWallet: developerWallet.address,
    });
    token = await writeToken(api, game);
    const signedIn = await walletSignIn(s.auth, newWallet());
    reporter = {
      playerId: signedIn.playerId,
      headers: { authorization: `Bearer ${signedIn.access_token}` },
    };
    const faucet = await send('POST', '/player/faucet', reporter.headers);
    expect(faucet.statusCode, faucet.body).toBe(200);
    developer = {
      authorization: `Bearer ${(await walletSignIn(s.auth, developerWallet)).access_token}`,
    };
    stranger = {
      authorization: `Bearer ${(await walletSignIn(s.auth, newWallet())).access_token}`,
    };
    await honestBoard(game);
    // The boards as they stand are history: the first check flags none of them.
    expect(await s.api.arcade.flagOutlierScores()).toBe(0);
  });
  afterAll(async () => {
    await expectLedgerBalanced(s.db);
    await s.close();
  });

  it('flags a new leader far beyond the board, once, with the numbers that flagged it', async () => {
    const cheater = await fundedPlayer(api, 100, 'Cheater');
    const scoreId = await score(game, cheater.playerId, 5000);
    expect(await s.api.arcade.flagOutlierScores()).toBe(1);
    expect(await s.api.arcade.flagOutlierScores()).toBe(0);

    const flagged = await queue(`kind=outlier&gameId=${game.gameId}`);
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({
      kind: 'outlier',
      state: 'open',
      scoreId,
      gameId: game.gameId,
      leaderboardId: game.tiers[0]!.id,
      playerId: cheater.playerId,
      playerName: 'Cheater',
      score: 5000,
      report: null,
      refusalDetail: null,
      resolution: null,
      hasReplay: false,
      timings: { playMs: 2_000 },
      evidence: { rule: 'mad', score: 5000, n: 24, median: 123, mad: 12, previousBest: 146 },
    });
  });

  it('costs a score that does not enter the leaders nothing, and flags a REVERSE time', async () => {
    const slow = await fundedPlayer(api, 100, 'Slow');
    await score(game, slow.playerId, 1);
    expect(await s.api.arcade.flagOutlierScores()).toBe(0);
    const [checked] = await s.db.query<{ checked_seq: string; write_seq: string }>(
      `SELECT c.checked_seq::text, l.write_seq::text FROM score_outlier_checks c
       JOIN leaderboards l ON l.id = c.leaderboard_id WHERE l.id = $1`,
      [game.tiers[0]!.id],
    );
    expect(checked!.checked_seq).toBe(checked!.write_seq);

    const timed = await gameWithTiers(api, { costs: [1], scoreDisplay: 'REVERSE' });
    await honestBoard(timed);
    expect(await s.api.arcade.flagOutlierScores()).toBe(0);
    const fast = await fundedPlayer(api, 100, 'Too fast');
    await score(timed, fast.playerId, 3);
    expect(await s.api.arcade.flagOutlierScores()).toBe(1);
    expect(await queue(`gameId=${timed.gameId}`)).toMatchObject([
      { kind: 'outlier', score: 3, evidence: { rule: 'mad', previousBest: 100 } },
    ]);
  });

  it("takes players' reports of others' scores, once per reporter", async () => {
    const rival = await fundedPlayer(api, 100, 'Rival');
    const scoreId = await score(game, rival.playerId, 140);
    const url = `/player/scores/${scoreId}/report`;
    const first = await send('POST', url, reporter.headers, { reason: 'bot', note: ' too fast ' });
    expect(first.statusCode, first.body).toBe(201);
    const again = await send('POST', url, reporter.headers, { reason: 'other' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ ...first.json(), created: false });

    // From a board row, which names the player: the same score, the same report.
    const boardUrl = `/player/boards/${game.tiers[0]!.id}/players/${rival.playerId}/report`;
    const fromBoard = await send('POST', boardUrl, reporter.headers, { reason: 'bot' });
    expect(fromBoard.statusCode, fromBoard.body).toBe(200);
    expect(fromBoard.json()).toEqual({ ...first.json(), created: false });
    const nobody = await send(
      'POST',
      `/player/boards/${game.tiers[0]!.id}/players/${randomUUID()}/report`,
      reporter.headers,
      { reason: 'bot' },
    );
    expect(nobody.statusCode).toBe(404);
    expect(nobody.json()).toMatchObject({ code: 'score_not_found' });

    const own = await score(game, reporter.playerId, 120);
    const refused = await send('POST', `/player/scores/${own}/report`, reporter.headers, {
      reason: 'bot',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'own_score_not_reportable' });
    const unknown = await send('POST', `/player/scores/${randomUUID()}/report`, reporter.headers, {
      reason: 'bug',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'score_not_found' });
    for (const body of [{}, { reason: 'cheat' }, { reason: 'bot', note: 'x'.repeat(301) }]) {
      const bad = await send('POST', url, reporter.headers, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'validation_failed' });
    }
    const noToken = await send('POST', url, {}, { reason: 'bot' });
    expect(noToken.statusCode).toBe(401);

    const [item] = await queue(`kind=reported&gameId=${game.gameId}`);
    expect(item).toMatchObject({
      id: first.json<{ reportId: string }>().reportId,
      state: 'open',
      scoreId,
      playerName: 'Rival',
      report: { reason: 'bot', note: 'too fast' },
    });
    const detail = await send('GET', `/admin/reviews/${item!.id}`, admin);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(detail.json<ReviewDetail>()).toMatchObject({
      review: { id: item!.id },
      playerScores: [{ scoreId, score: 140, voided: false }],
      playerRefusals: 0,
      board: { players: 28, best: 5000 },
      reports: [{ reason: 'bot', note: 'too fast' }],
    });
  });

  it('approves a score: every open review of it closes, and later reports arrive closed', async () => {
    const [outlier] = await queue(`kind=outlier&gameId=${game.gameId}`);
    const url = `/admin/reviews/${outlier!.id}/approve`;
    const approved = await send('POST', url, admin, { reason: 'A streamer, on video.' });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      state: 'approved',
      resolution: { reason: 'A streamer, on video.', by: 'admin' },
    });
    const again = await send('POST', url, admin, { reason: 'A streamer, on video.' });
    expect(again.json()).toEqual(approved.json());
    const voided = await send('POST', `/admin/reviews/${outlier!.id}/void`, admin, {
      reason: 'changed my mind',
    });
    expect(voided.statusCode).toBe(409);
    expect(voided.json()).toMatchObject({ code: 'review_closed' });

    const late = await send('POST', `/player/scores/${outlier!.scoreId}/report`, reporter.headers, {
      reason: 'impossible',
    });
    expect(late.statusCode).toBe(201);
    const reports = await queue(`kind=reported&state=approved&gameId=${game.gameId}`);
    expect(reports.map((r) => r.scoreId)).toContain(outlier!.scoreId);
    expect(await s.api.arcade.flagOutlierScores()).toBe(0);
  });

  it("shows a developer their own game's queue and no other", async () => {
    const own = await send('GET', `/developer/games/${game.gameId}/reviews`, developer);
    expect(own.statusCode, own.body).toBe(200);
    const items = own.json<ReviewPage>().reviews;
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.every((r) => r.gameId === game.gameId)).toBe(true);
    const foreign = await send('GET', `/developer/games/${game.gameId}/reviews`, stranger);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'game_not_found' });

    // A review of another game, through this game's path: not found.
    const [other] = await queue('kind=outlier&state=open');
    expect(other!.gameId).not.toBe(game.gameId);
    const elsewhere = await send(
      'POST',
      `/developer/games/${game.gameId}/reviews/${other!.id}/approve`,
      developer,
      { reason: 'looks fine' },
    );
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json()).toMatchObject({ code: 'review_not_found' });

    const [report] = items.filter((r) => r.kind === 'reported' && r.state === 'open');
    const kept = await send(
      'POST',
      `/developer/games/${game.gameId}/reviews/${report!.id}/approve`,
      developer,
      { reason: 'I watched the run.' },
    );
    expect(kept.statusCode, kept.body).toBe(200);
    const rivalId = report!.playerId;
    const history = await send('GET', `/admin/players/${rivalId}/activity?kind=play`, admin);
    expect(history.json<ActivityPage>().items).toMatchObject([
      { kind: 'play', score: 140, review: { outcome: 'kept', reason: 'I watched the run.' } },
    ]);
    expect(kept.json()).toMatchObject({
      state: 'approved',
      resolution: { by: expect.stringMatching(/^developer:/) },
    });
  });

  it('voids a reported score: it leaves the board and every open review of it closes', async () => {
    const liar = await fundedPlayer(api, 100, 'Liar');
    const scoreId = await score(game, liar.playerId, 146);
    const reports: string[] = [];
    for (const headers of [reporter.headers, stranger]) {
      if (headers === stranger) {
        const faucet = await send('POST', '/player/faucet', stranger);
        expect(faucet.statusCode, faucet.body).toBe(200);
      }
      const res = await send('POST', `/player/scores/${scoreId}/report`, headers, {
        reason: 'impossible',
      });
      expect(res.statusCode, res.body).toBe(201);
      reports.push(res.json<{ reportId: string }>().reportId);
    }
    const url = `/developer/games/${game.gameId}/reviews/${reports[0]}/void`;
    const voided = await send('POST', url, developer, { reason: 'Edited the client.' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toMatchObject({
      state: 'voided',
      resolution: { reason: 'Edited the client.', by: expect.stringMatching(/^developer:/) },
    });
    const again = await send('POST', url, developer, { reason: 'Edited the client.' });
    expect(again.json()).toEqual(voided.json());
    const other = await send('GET', `/admin/reviews/${reports[1]}`, admin);
    expect(other.json<ReviewDetail>()).toMatchObject({
      review: { state: 'voided', resolution: { reason: 'Edited the client.' } },
      playerScores: [{ scoreId, voided: true }],
    });
    const approve = await send('POST', `/admin/reviews/${reports[1]}/approve`, admin, {
      reason: 'fine after all',
    });
    expect(approve.statusCode).toBe(409);
    expect(approve.json()).toMatchObject({ code: 'review_closed' });
    const [best] = await s.db.query(
      'SELECT 1 FROM leaders WHERE leaderboard_id = $1 AND player_id = $2',
      [game.tiers[0]!.id, liar.playerId],
    );
    expect(best).toBeUndefined();
    // The player reads the outcome and its reason in their history.
    const history = await send('GET', `/admin/players/${liar.playerId}/activity?kind=play`, admin);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json<ActivityPage>().items).toMatchObject([
      { kind: 'play', score: 146, review: { outcome: 'voided', reason: 'Edited the client.' } },
    ]);
    // A voided score can no longer be reported.
    const late = await send('POST', `/player/scores/${scoreId}/report`, developer, {
      reason: 'bot',
    });
    expect(late.statusCode).toBe(404);
    expect(late.json()).toMatchObject({ code: 'score_not_found' });
  });

  it("closes a score's open reviews when its own route voids it, in the void's transaction", async () => {
    const sly = await fundedPlayer(api, 100, 'Sly');
    const scoreId = await score(game, sly.playerId, 145);
    const reviewIds: string[] = [];
    for (const headers of [reporter.headers, stranger]) {
      const reported = await send('POST', `/player/scores/${scoreId}/report`, headers, {
        reason: 'bug',
      });
      expect(reported.statusCode, reported.body).toBe(201);
      reviewIds.push(reported.json<{ reportId: string }>().reportId);
    }
    const direct = await send('POST', `/admin/scores/${scoreId}/void`, admin, {
      reason: 'Found in the logs.',
    });
    expect(direct.statusCode, direct.body).toBe(200);
    expect(direct.json()).toMatchObject({ scoreId, closedReviews: [...reviewIds].sort() });
    const [voidedAt] = await s.db.query<{ voided_at: Date }>(
      'SELECT voided_at FROM scores WHERE id = $1',
      [scoreId],
    );
    for (const reviewId of reviewIds) {
      const detail = await send('GET', `/admin/reviews/${reviewId}`, admin);
      expect(detail.json<ReviewDetail>().review).toMatchObject({
        state: 'voided',
        resolution: {
          reason: 'Found in the logs.',
          by: 'admin',
          at: voidedAt!.voided_at.toISOString(),
        },
      });
    }
    expect(await queue(`state=open&gameId=${game.gameId}`)).not.toContainEqual(
      expect.objectContaining({ scoreId }),
    );
    const approve = await send('POST', `/admin/reviews/${reviewIds[0]}/approve`, admin, {
      reason: 'fine',
    });
    expect(approve.statusCode).toBe(409);
    expect(approve.json()).toMatchObject({ code: 'review_closed' });
    // Voiding the review too answers it as it stands.
    const voided = await send('POST', `/admin/reviews/${reviewIds[0]}/void`, admin, {
      reason: 'Found in the logs.',
    });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toMatchObject({ state: 'voided', resolution: { by: 'admin' } });
  });

  it('answers two reviewers voiding at once alike, and voids the score once', async () => {
    const twice = await fundedPlayer(api, 100, 'Twice');
    const scoreId = await score(game, twice.playerId, 144);
    const first = await send('POST', `/player/scores/${scoreId}/report`, reporter.headers, {
      reason: 'bot',
    });
    const [a, b] = await Promise.all(
      [admin, developer].map((headers) =>
        send(
          'POST',
          headers === admin
            ? `/admin/reviews/${first.json<{ reportId: string }>().reportId}/void`
            : `/developer/games/${game.gameId}/reviews/${first.json<{ reportId: string }>().reportId}/void`,
          headers,
          { reason: 'Two of us saw it.' },
        ),
      ),
    );
    expect([a!.statusCode, b!.statusCode], `${a!.body} ${b!.body}`).toEqual([200, 200]);
    expect(a!.json()).toMatchObject({ state: 'voided' });
    expect(b!.json()).toMatchObject({ state: 'voided' });
    const rows = await s.db.query<{ voided_at: Date | null }>(
      'SELECT voided_at FROM scores WHERE id = $1',
      [scoreId],
    );
    expect(rows[0]!.voided_at).not.toBeNull();
  });

  it('lists refused attempts as evidence, with their replay, and acts on none', async () => {
    const ruled = await gameWithTiers(api, { costs: [1] });
    await s.api.arcade.scoreRules.changeGame(ruled.gameId, { maxScore: 1000 });
    const headers = { authorization: `Bearer ${await writeToken(api, ruled)}` };
    const base = `/arcades/${ruled.arcadeId}/games/${ruled.gameId}`;
    const leaderboardId = ruled.tiers[0]!.id;
    const player = await fundedPlayer(api, 100, 'Bold');
    const play = await send('POST', `${base}/play`, headers, {
      playerId: player.playerId,
      leaderboardId,
    });
    s.clock.advance(1_500);
    const replay = '{"moves":["up","up","down"]}';
    const refused = await send('POST', `${base}/score`, headers, {
      playId: play.json<{ id: string }>().id,
      leaderboardId,
      score: 5000,
      replay,
    });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'score_out_of_bounds' });

    const [item] = await queue(`gameId=${ruled.gameId}&state=refused`);
    expect(item).toMatchObject({
      kind: 'score_out_of_bounds',
      state: 'refused',
      scoreId: null,
      playId: play.json<{ id: string }>().id,
      playerName: 'Bold',
      score: 5000,
      refusalDetail: "score 5,000 is above this tier's highest possible score, 1,000",
      hasReplay: true,
      resolution: null,
      timings: { playMs: 1_500 },
    });
    expect(await queue(`gameId=${ruled.gameId}&kind=score_too_fast`)).toEqual([]);
    const download = await send('GET', `/admin/reviews/${item!.id}/replay`, admin);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe(replay);
    expect(download.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="replay-${item!.id}.txt"`,
    );
    const detail = await send('GET', `/admin/reviews/${item!.id}`, admin);
    expect(detail.json<ReviewDetail>()).toMatchObject({ playerScores: [], playerRefusals: 1 });
    for (const action of ['approve', 'void']) {
      const res = await send('POST', `/admin/reviews/${item!.id}/${action}`, admin, {
        reason: 'no',
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'refusal_not_reviewable' });
    }
    const history = await send(
      'GET',
      `/admin/players/${player.playerId}/activity?kind=play`,
      admin,
    );
    expect(history.json<ActivityPage>().items).toMatchObject([
      { kind: 'play', status: 'open', review: { outcome: 'refused', reason: item!.refusalDetail } },
    ]);
  });

  it('pages newest first and refuses bad input with 400 naming it', async () => {
    const all = await queue('');
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const after: string = cursor === null ? '' : `&cursor=${cursor}`;
      const res = await send('GET', `/admin/reviews?limit=2${after}`, admin);
      const page = res.json<ReviewPage>();
      seen.push(...page.reviews.map((r) => r.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(all.map((r) => r.id));
    const times = all.map((r) => r.createdAt);
    expect([...times].sort().reverse()).toEqual(times);

    const id = all[0]!.id;
    for (const [method, url, body] of [
      ['GET', '/admin/reviews?limit=0', undefined],
      ['GET', '/admin/reviews?state=closed', undefined],
      ['GET', '/admin/reviews?kind=cheat', undefined],
      ['GET', '/admin/reviews?cursor=nope', undefined],
      [
        'GET',
        `/admin/reviews?cursor=${cursorOf(`q1.${'9'.repeat(20)}.${randomUUID()}`)}`,
        undefined,
      ],
      [
        'GET',
        `/admin/reviews?cursor=${cursorOf(`q1.${2n ** 63n - 1n}.${randomUUID()}`)}`,
        undefined,
      ],
      ['GET', '/admin/reviews?gameId=nope', undefined],
      ['GET', '/admin/reviews/not-a-uuid', undefined],
      ['POST', `/admin/reviews/${id}/approve`, {}],
      ['POST', `/admin/reviews/${id}/approve`, { reason: '' }],
      ['POST', `/admin/reviews/${id}/approve`, { reason: '   ' }],
      ['POST', `/admin/reviews/${id}/void`, { reason: 'x'.repeat(501) }],
      ['POST', `/admin/reviews/${id}/void`, { reason: 'ok', extra: 1 }],
    ] as const) {
      const res = await send(method, url, admin, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
    const missing = await send('GET', `/admin/reviews/${randomUUID()}`, admin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'review_not_found' });
    const flag = all.find((r) => !r.hasReplay)!;
    const noReplay = await send('GET', `/admin/reviews/${flag.id}/replay`, admin);
    expect(noReplay.statusCode).toBe(404);
    expect(noReplay.json()).toMatchObject({ code: 'replay_not_found' });
  });
});
