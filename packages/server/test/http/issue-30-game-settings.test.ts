import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/credentials/api-keys.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { uuidIds } from '../../src/ids.js';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { serve, startCoverServer, type CoverServer } from '../fixtures/cover-server.js';
import { pngImage } from '../fixtures/images.js';

// Issue 30: a game's score rules and payout hold where people set them. The API-key routes
// (`POST /game/create`, `PATCH /game/update`) take `scoreRules` and `payoutHoldSeconds` as the
// portal's routes do; registering a game with them is one transaction, so a refusal leaves no
// game behind (before this, the game was written first and its rules after, in a second write);
// the operator reads every game's and tier's rules and holds; the catalog shows a tier's hold.

interface Rules {
  minScore: number | null;
  maxScore: number | null;
  minPlayMs: number | null;
  replay: string | null;
}
interface WireGame {
  id: string;
  description: string;
  leaderboards: {
    id: string;
    name: string;
    cost: number;
    scoreRules?: Rules;
    payoutHoldSeconds?: number;
  }[];
}

const OPERATOR_HOLD = 600;
const DAY = 86_400;

describe.each(storeVariants())('game settings on every route on %s', (variant) => {
  let s: TestSignin;
  let covers: CoverServer;
  let apiKey: string;
  let token: string;

  beforeAll(async () => {
    s = await buildTestSignin(variant, {
      allowPrivateUrls: true,
      payoutHoldSeconds: OPERATOR_HOLD,
      // Free first: a free tier has nothing to hold.
      defaultTiers: [
        { name: 'Free', costHst: 0 },
        { name: 'Bronze', costHst: 1 },
      ],
    });
    covers = await startCoverServer({ '/cover.png': serve(pngImage(1920, 1080)) });
    const developer = await ensureDeveloper(s.db, s.clock, uuidIds, newWallet().address);
    apiKey = (await createApiKey(s.db, s.clock, developer.id)).apiKey;
    token = (await walletSignIn(s.auth, newWallet())).access_token;
  });
  afterAll(async () => {
    await covers.close();
    await s.close();
  });

  const create = (body: object) =>
    s.api.inject({
      method: 'POST',
      url: '/game/create',
      headers: { 'api-key': apiKey },
      payload: {
        name: 'Slide',
        description: 'Slide the tiles.',
        coverUrl: covers.url('/cover.png'),
        scoreDisplay: 'NORMAL',
        ...body,
      },
    });
  const update = (gameId: string, body: object) =>
    s.api.inject({
      method: 'PATCH',
      url: '/game/update',
      headers: { 'api-key': apiKey, 'game-id': gameId },
      payload: body,
    });
  const portalCreate = (body: object) =>
    s.api.inject({
      method: 'POST',
      url: '/developer/games',
      headers: { authorization: `Bearer ${token}` },
      payload: { name: 'Slide', coverUrl: covers.url('/cover.png'), ...body },
    });
  const settings = (gameId: string) =>
    s.api.inject({
      method: 'GET',
      url: `/admin/games/${gameId}/settings`,
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
  const counts = async () =>
    (
      await s.db.query<{ games: number; tiers: number; covers: number }>(
        `SELECT (SELECT count(*)::int FROM games) AS games,
                (SELECT count(*)::int FROM leaderboards) AS tiers,
                (SELECT count(*)::int FROM game_covers) AS covers`,
      )
    )[0];
  const stored = async (gameId: string) =>
    (
      await s.db.query<Record<string, unknown>>(
        `SELECT description, payout_hold_seconds, min_score, max_score, min_play_ms, replay_rule
         FROM games WHERE id = $1`,
        [gameId],
      )
    )[0];

  it('registers a game with its rules and hold with an API key, in one write', async () => {
    const res = await create({
      scoreRules: { minScore: 0, maxScore: 5000, minPlayMs: 10_000 },
      payoutHoldSeconds: DAY,
    });
    expect(res.statusCode, res.body).toBe(201);
    const game = res.json<WireGame>();
    expect(await stored(game.id)).toEqual({
      description: 'Slide the tiles.',
      payout_hold_seconds: DAY,
      min_score: 0,
      max_score: 5000,
      min_play_ms: 10_000,
      replay_rule: 'off',
    });
    // Each tier answers with the rules in force on it; the paid one with its hold, the free
    // one without (nothing of a free play is held).
    const rules = { minScore: 0, maxScore: 5000, minPlayMs: 10_000, replay: 'off' };
    expect(game.leaderboards.map((t) => [t.name, t.scoreRules, t.payoutHoldSeconds])).toEqual([
      ['Free', rules, undefined],
      ['Bronze', rules, DAY],
    ]);
  });

  it('a game without rules or hold answers as before: no rules, the operator’s hold', async () => {
    const res = await create({});
    expect(res.statusCode, res.body).toBe(201);
    const game = res.json<WireGame>();
    expect(game.leaderboards.map((t) => Object.keys(t).sort())).toEqual([
      ['cost', 'currency', 'formattedCostString', 'id', 'leaders', 'leadersMax', 'name'],
      [
        'cost',
        'currency',
        'formattedCostString',
        'id',
        'leaders',
        'leadersMax',
        'name',
        'payoutHoldSeconds',
      ],
    ]);
    expect(game.leaderboards[1]?.payoutHoldSeconds).toBe(OPERATOR_HOLD);
    expect(await stored(game.id)).toMatchObject({ payout_hold_seconds: null, replay_rule: 'off' });
  });

  it('refuses bad rules and holds on create by name and writes no game (API key and portal)', async () => {
    const before = await counts();
    const cases: [object, string][] = [
      [
        { scoreRules: { minScore: 200, maxScore: 100 } },
        'scoreRules.minScore 200 is above maxScore 100',
      ],
      [{ scoreRules: { maxScore: -1 } }, 'scoreRules.maxScore'],
      [{ scoreRules: { minPlayMs: 1.5 } }, 'scoreRules.minPlayMs'],
      [{ scoreRules: { replay: 'always' } }, 'scoreRules.replay'],
      [{ scoreRules: { fastest: 1 } }, 'fastest'],
      [{ payoutHoldSeconds: -1 }, 'payoutHoldSeconds'],
      [{ payoutHoldSeconds: 2_592_001 }, 'payoutHoldSeconds'],
      [{ payoutHoldSeconds: '60' }, 'payoutHoldSeconds'],
      // Refused inside the transaction that inserted the game (a new game has no verifier yet):
      // the game, its tiers and its hold are rolled back with it.
      [{ scoreRules: { replay: 'required' }, payoutHoldSeconds: DAY }, 'scoreRules.replay'],
    ];
    for (const [body, field] of cases) {
      for (const send of [create, portalCreate]) {
        const res = await send(body);
        expect(res.statusCode, `${JSON.stringify(body)}: ${res.body}`).toBe(400);
        expect(res.json().code).toBe('validation_failed');
        expect(res.json().message).toContain(field);
      }
    }
    expect(await counts()).toEqual(before);
  });

  it('the replay refusal names why; an uploaded cover goes with the game it came with', async () => {
    const before = await counts();
    const res = await portalCreate({
      coverUrl: undefined,
      coverImage: `data:image/png;base64,${pngImage(1920, 1080).toString('base64')}`,
      scoreRules: { replay: 'required' },
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toBe(
      "scoreRules.replay 'required' needs the game's replay verifier: upload it first " +
        '(docs/reference/verifier.md), then require replays',
    );
    expect(await counts()).toEqual(before);
  });

  it('changes rules and hold with an API key; a refused change writes none of the request', async () => {
    const created = await create({});
    const gameId = created.json<WireGame>().id;

    const ruled = await update(gameId, { scoreRules: { maxScore: 900 } });
    expect(ruled.statusCode, ruled.body).toBe(200);
    expect(ruled.json<WireGame>().leaderboards[0]?.scoreRules).toEqual({
      minScore: null,
      maxScore: 900,
      minPlayMs: null,
      replay: 'off',
    });
    const held = await update(gameId, { payoutHoldSeconds: 3600, tagLine: 'Tiles!' });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json<WireGame>().leaderboards[1]?.payoutHoldSeconds).toBe(3600);
    expect(await stored(gameId)).toMatchObject({ payout_hold_seconds: 3600, max_score: 900 });

    // minScore above the kept maxScore: refused by name; the description in the same request
    // is not written either.
    const bad = await update(gameId, { description: 'Changed', scoreRules: { minScore: 1000 } });
    expect(bad.statusCode, bad.body).toBe(400);
    expect(bad.json().message).toBe(
      'scoreRules.minScore 1000 is above maxScore 900: no score could be accepted',
    );
    const noVerifier = await update(gameId, {
      description: 'Changed',
      scoreRules: { replay: 'required' },
    });
    expect(noVerifier.statusCode, noVerifier.body).toBe(400);
    expect(noVerifier.json().message).toContain("scoreRules.replay 'required'");
    const badHold = await update(gameId, { description: 'Changed', payoutHoldSeconds: 1.5 });
    expect(badHold.statusCode).toBe(400);
    expect(badHold.json().message).toContain('payoutHoldSeconds');
    expect(await stored(gameId)).toEqual({
      description: 'Slide the tiles.',
      payout_hold_seconds: 3600,
      min_score: null,
      max_score: 900,
      min_play_ms: null,
      replay_rule: 'off',
    });

    // null clears: the rule is gone and the hold is the operator's again.
    const cleared = await update(gameId, {
      scoreRules: { maxScore: null },
      payoutHoldSeconds: null,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json<WireGame>().leaderboards[0]?.scoreRules).toBeUndefined();
    expect(cleared.json<WireGame>().leaderboards[1]?.payoutHoldSeconds).toBe(OPERATOR_HOLD);
  });

  it('the operator reads each game’s and tier’s rules and holds, own and in force', async () => {
    const created = await portalCreate({
      name: 'Ruled',
      scoreRules: { minScore: 0, maxScore: 5000 },
      payoutHoldSeconds: DAY,
    });
    expect(created.statusCode, created.body).toBe(201);
    const game = created.json<WireGame & { operatorPayoutHoldSeconds: number }>();
    expect(game.operatorPayoutHoldSeconds).toBe(OPERATOR_HOLD);
    const [free, bronze] = game.leaderboards;
    const tier = await s.api.inject({
      method: 'PATCH',
      url: `/developer/games/${game.id}/leaderboards/${bronze!.id}`,
      headers: { authorization: `Bearer ${token}` },
      payload: { scoreRules: { maxScore: 100, minPlayMs: 2000 }, payoutHoldSeconds: 0 },
    });
    expect(tier.statusCode, tier.body).toBe(200);

    const res = await settings(game.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      gameId: game.id,
      name: 'Ruled',
      operatorPayoutHoldSeconds: OPERATOR_HOLD,
      payoutHoldSeconds: DAY,
      effectivePayoutHoldSeconds: DAY,
      scoreRules: { minScore: 0, maxScore: 5000, minPlayMs: null, replay: 'off' },
      tiers: [
        {
          leaderboardId: free!.id,
          name: 'Free',
          cost: '0',
          formattedCostString: '0 HST',
          payoutHoldSeconds: null,
          effectivePayoutHoldSeconds: DAY,
          scoreRules: { minScore: null, maxScore: null, minPlayMs: null, replay: null },
          effectiveScoreRules: { minScore: 0, maxScore: 5000, minPlayMs: null, replay: 'off' },
        },
        {
          leaderboardId: bronze!.id,
          name: 'Bronze',
          cost: '1',
          formattedCostString: '1 HST',
          payoutHoldSeconds: 0,
          effectivePayoutHoldSeconds: 0,
          scoreRules: { minScore: null, maxScore: 100, minPlayMs: 2000, replay: null },
          effectiveScoreRules: { minScore: 0, maxScore: 100, minPlayMs: 2000, replay: 'off' },
        },
      ],
    });

    const unknown = await settings('00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().code).toBe('game_not_found');
    const badId = await settings('not-a-game');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toContain('gameId');
  });
});
