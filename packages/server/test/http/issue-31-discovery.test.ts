import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { expectLedgerBalanced } from '@coinop/testkit/invariants';
import {
  buildTestSignin,
  newWallet,
  walletSignIn,
  type TestSignin,
  testApiOf,
} from '@coinop/testkit/signin';
import { publishGame } from '../../src/store/games.js';
import { CATALOG_ACTIVITY_TTL_MS } from '../../src/services/catalog-discovery.js';
import { SCREENSHOTS_MAX } from '../../src/services/game-screenshots.js';
import { pngImage } from '../fixtures/images.js';

/**
 * Issue 31, discovery: the catalog sorted by its week (plays begun, HST paid in), a developer's
 * page, what a tier pays per play, and a game's screenshots. Only published games are public.
 */

const DAY_MS = 86_400_000;
const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

interface Listed {
  id: string;
  developerId: string;
  playsThisWeek: number;
  poolThisWeek: string;
  poolThisWeekUnits: string;
}

describe.each(storeVariants())('discovery on %s', (variant) => {
  let s: TestSignin;
  let api: TestApi;
  let wallet: PrivateKeyAccount;
  let token: string;
  /** Published first; three players score once each on its 1 HST tier this week. */
  let alpha: GameFixture;
  /** One 10 HST play this week. */
  let beta: GameFixture;
  /** Newest; its five plays are eight days old. */
  let gamma: GameFixture;
  /** Alpha's developer's, never published. */
  let hidden: GameFixture;
  const alphaLeaders: string[] = [];

  const get = async (url: string) => {
    const res = await s.api.inject({ method: 'GET', url });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  };
  const list = async (query = '') => {
    const res = await get(`/catalog/games${query}`);
    expect(res.status).toBe(200);
    return res.body.games as Listed[];
  };

  async function play(game: GameFixture, tier: number, score?: number): Promise<string> {
    const player = await fundedPlayer(api, 20);
    const headers = { authorization: `Bearer ${await writeToken(api, game)}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const leaderboardId = game.tiers[tier]!.id;
    const opened = await s.api.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId: player.playerId, leaderboardId },
    });
    expect(opened.statusCode).toBe(200);
    if (score !== undefined) {
      const scored = await s.api.inject({
        method: 'POST',
        url: `${base}/score`,
        headers,
        payload: { playId: opened.json().id, leaderboardId, score },
      });
      expect(scored.statusCode).toBe(200);
    }
    return player.playerId;
  }

  beforeAll(async () => {
    s = await buildTestSignin(variant);
    api = testApiOf(s);
    wallet = newWallet();
    token = (await walletSignIn(s.auth, wallet)).access_token;
    alpha = await gameWithTiers(api, {
      costs: [1, 10],
      leadersMax: 3,
      published: false,
      developerWallet: wallet.address,
    });
    beta = await gameWithTiers(api, { costs: [10], published: false });
    gamma = await gameWithTiers(api, { costs: [1], published: false });
    hidden = await gameWithTiers(api, { published: false, developerWallet: wallet.address });
    for (const game of [alpha, beta, gamma]) {
      await publishGame(s.db, s.clock, game.gameId);
      s.clock.advance(1000);
    }
    for (let i = 0; i < 5; i++) await play(gamma, 0);
    s.clock.advance(8 * DAY_MS);
    for (const score of [30, 20, 10]) alphaLeaders.push(await play(alpha, 0, score));
    await play(beta, 0);
    // Signed in afresh: the session of eight days ago has expired.
    token = (await walletSignIn(s.auth, wallet)).access_token;
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
  });
  afterAll(async () => {
    await s?.close();
  });

  it('sorts by plays this week, by pool this week, and newest first, with exact counts', async () => {
    const newest = await list();
    expect(newest.map((g) => g.id)).toEqual([gamma.gameId, beta.gameId, alpha.gameId]);
    expect((await list('?sort=new')).map((g) => g.id)).toEqual(newest.map((g) => g.id));
    expect((await list('?sort=popular')).map((g) => g.id)).toEqual([
      alpha.gameId,
      beta.gameId,
      gamma.gameId,
    ]);
    expect((await list('?sort=pool')).map((g) => g.id)).toEqual([
      beta.gameId,
      alpha.gameId,
      gamma.gameId,
    ]);
    const week = Object.fromEntries(
      newest.map((g) => [g.id, [g.playsThisWeek, g.poolThisWeek, g.poolThisWeekUnits]]),
    );
    expect(week).toEqual({
      [alpha.gameId]: [3, '3', '300000000'],
      [beta.gameId]: [1, '10', '1000000000'],
      // Five plays, all older than the week.
      [gamma.gameId]: [0, '0', '0'],
    });
    expect(newest.map((g) => g.id)).not.toContain(hidden.gameId);
    expect(newest[2]).toMatchObject({ developerId: alpha.developerId });
  });

  it('counts a new play once the last count is older than its lifetime', async () => {
    await play(gamma, 0);
    await play(gamma, 0);
    s.clock.advance(CATALOG_ACTIVITY_TTL_MS + 1);
    const popular = await list('?sort=popular');
    expect(popular.map((g) => [g.id, g.playsThisWeek])).toEqual([
      [alpha.gameId, 3],
      [gamma.gameId, 2],
      [beta.gameId, 1],
    ]);
    // Filters still apply; a sort of a filtered list sorts what is left.
    expect((await list(`?sort=pool&search=${encodeURIComponent('no such game')}`)).length).toBe(0);
  });

  it('refuses a sort it does not know, naming the field', async () => {
    const res = await get('/catalog/games?sort=biggest');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    expect(String(res.body.message)).toContain('sort');
  });

  it("pays each tier's play by the settlement's split: leaders now, developer, arcade", async () => {
    const res = await get(`/catalog/games/${alpha.gameId}/payouts`);
    expect(res.status).toBe(200);
    const unit = (units: string, amount: string) => ({ units, amount });
    expect(res.body).toEqual({
      split: { leadersPercent: 70, developerPercent: 20, arcadePercent: 10 },
      tiers: [
        {
          leaderboardId: alpha.tiers[0]!.id,
          name: 'Tier 1',
          cost: unit('100000000', '1'),
          leadersMax: 3,
          // docs/concepts/plays-and-settlement.md's example: the remainder goes to the arcade.
          leaders: alphaLeaders.map((playerId) => ({
            playerId,
            ...unit('23333333', '0.23333333'),
          })),
          returned: unit('0', '0'),
          developer: unit('20000000', '0.2'),
          arcade: unit('10000001', '0.10000001'),
          fullBoardLeaderShare: unit('23333333', '0.23333333'),
        },
        {
          leaderboardId: alpha.tiers[1]!.id,
          name: 'Tier 2',
          cost: unit('1000000000', '10'),
          leadersMax: 3,
          // No leaders yet: their part goes back to the player who pays, never to the developer.
          leaders: [],
          returned: unit('700000000', '7'),
          developer: unit('200000000', '2'),
          arcade: unit('100000000', '1'),
          fullBoardLeaderShare: unit('233333333', '2.33333333'),
        },
      ],
    });
  });

  it("lists a developer's published games only, and hides a developer with none", async () => {
    const page = await get(`/catalog/developers/${alpha.developerId}`);
    expect(page.status).toBe(200);
    // The developer's wallet signed in as a player: the page uses that player's name.
    const short = `${wallet.address.slice(0, 6)}…${wallet.address.slice(-4)}`;
    expect(page.body).toMatchObject({ id: alpha.developerId, name: short });
    expect((page.body.games as Listed[]).map((g) => g.id)).toEqual([alpha.gameId]);

    const other = await gameWithTiers(api, { published: false });
    for (const id of [other.developerId, randomUUID()]) {
      const missing = await get(`/catalog/developers/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({
        code: 'developer_not_found',
        message: `developer ${id} does not exist`,
      });
    }
  });

  it('answers 404 game_not_found for an unpublished game, and 400 for an id not a uuid', async () => {
    for (const path of ['payouts', 'screenshots']) {
      const res = await get(`/catalog/games/${hidden.gameId}/${path}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'game_not_found' });
    }
    for (const url of ['/catalog/games/nope/payouts', '/catalog/developers/nope']) {
      expect((await get(url)).status).toBe(400);
    }
  });

  describe('screenshots', () => {
    const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
      s.api.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}` },
        ...(payload === undefined ? {} : { payload }),
      });
    const upload = (game: GameFixture, alt: string, png = pngImage(1920, 1080)) =>
      call('POST', `/developer/games/${game.gameId}/screenshots`, { image: dataUrl(png), alt });

    it('uploads in order, serves them like covers, lists them publicly, deletes', async () => {
      const first = await upload(alpha, 'The first level');
      expect(first.statusCode).toBe(201);
      const second = await upload(alpha, '  A boss fight  ');
      expect(second.statusCode).toBe(201);
      const listed = await get(`/catalog/games/${alpha.gameId}/screenshots`);
      expect(listed.status).toBe(200);
      const shots = listed.body.screenshots as { id: string; url: string; alt: string }[];
      expect(shots).toEqual([
        { ...first.json(), alt: 'The first level', width: 1920, height: 1080 },
        { ...second.json(), alt: 'A boss fight', width: 1920, height: 1080 },
      ]);
      expect(shots[0]!.url).toMatch(
        new RegExp(`^/api/catalog/games/${alpha.gameId}/screenshots/${shots[0]!.id}\\?v=`),
      );

      const image = await s.api.inject({
        method: 'GET',
        url: shots[0]!.url.replace(/^\/api/, ''),
      });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/png');
      expect(image.rawPayload.equals(pngImage(1920, 1080))).toBe(true);
      const again = await s.api.inject({
        method: 'GET',
        url: `/catalog/games/${alpha.gameId}/screenshots/${shots[0]!.id}`,
        headers: { 'if-none-match': String(image.headers.etag) },
      });
      expect(again.statusCode).toBe(304);

      const deleted = await call(
        'DELETE',
        `/developer/games/${alpha.gameId}/screenshots/${shots[0]!.id}`,
      );
      expect(deleted.statusCode).toBe(204);
      const own = await call('GET', `/developer/games/${alpha.gameId}/screenshots`);
      expect(own.json().screenshots.map((x: { alt: string }) => x.alt)).toEqual(['A boss fight']);
      const gone = await call(
        'DELETE',
        `/developer/games/${alpha.gameId}/screenshots/${shots[0]!.id}`,
      );
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toMatchObject({ code: 'screenshot_not_found' });
    });

    it('refuses bad images and blank alt text with a 4xx naming the field, storing nothing', async () => {
      const cases: [object, number, string, string][] = [
        [{ image: 'data:text/plain;base64,aGk=', alt: 'x' }, 400, 'validation_failed', 'image'],
        [{ image: dataUrl(pngImage(1280, 720)), alt: 'x' }, 422, 'cover_wrong_size', 'image'],
        [{ image: dataUrl(Buffer.from('not a png')), alt: 'x' }, 422, 'cover_not_image', 'image'],
        [{ image: dataUrl(pngImage(1920, 1080)), alt: '   ' }, 400, 'validation_failed', 'alt'],
        [{ image: dataUrl(pngImage(1920, 1080)), alt: '' }, 400, 'validation_failed', 'alt'],
        [{ image: dataUrl(pngImage(1920, 1080)) }, 400, 'validation_failed', 'alt'],
      ];
      for (const [body, status, code, field] of cases) {
        const res = await call('POST', `/developer/games/${beta.gameId}/screenshots`, body);
        expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(status);
        expect(res.json()).toMatchObject({ code });
        expect(JSON.stringify(res.json())).toContain(field);
      }
      expect((await get(`/catalog/games/${beta.gameId}/screenshots`)).body).toEqual({
        screenshots: [],
      });
    });

    it("answers 404 for another developer's game, and stops at the limit", async () => {
      const foreign = await upload(beta, 'Not mine');
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toMatchObject({ code: 'game_not_found' });

      for (let i = 0; i < SCREENSHOTS_MAX; i++) {
        expect((await upload(hidden, `Shot ${i}`)).statusCode).toBe(201);
      }
      const over = await upload(hidden, 'One too many');
      expect(over.statusCode).toBe(409);
      expect(over.json()).toMatchObject({
        code: 'screenshot_limit_reached',
        message: `game ${hidden.gameId} already has ${SCREENSHOTS_MAX} screenshots, the most a game may show`,
      });
      const own = await call('GET', `/developer/games/${hidden.gameId}/screenshots`);
      expect(own.json().screenshots).toHaveLength(SCREENSHOTS_MAX);
    });

    it('takes two uploads at once at the last free place as one, never nine', async () => {
      const game = await gameWithTiers(api, { developerWallet: wallet.address });
      for (let i = 0; i < SCREENSHOTS_MAX - 1; i++) await upload(game, `Shot ${i}`);
      const both = await Promise.all([upload(game, 'Last A'), upload(game, 'Last B')]);
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      const own = await call('GET', `/developer/games/${game.gameId}/screenshots`);
      expect(own.json().screenshots).toHaveLength(SCREENSHOTS_MAX);
    });
  });

  describe('aspect ratio', () => {
    const patch = (aspectRatio: unknown) =>
      s.api.inject({
        method: 'PATCH',
        url: `/developer/games/${alpha.gameId}`,
        headers: { authorization: `Bearer ${token}` },
        payload: { aspectRatio },
      });

    it('is set by the developer, shown on the game page, and cleared with null', async () => {
      expect((await get(`/catalog/games/${alpha.gameId}`)).body).not.toHaveProperty('aspectRatio');
      const set = await patch('9:16');
      expect(set.statusCode).toBe(200);
      expect(set.json()).toMatchObject({ aspectRatio: '9:16' });
      s.api.arcade.reads.invalidate(alpha.gameId);
      expect((await get(`/catalog/games/${alpha.gameId}`)).body).toMatchObject({
        aspectRatio: '9:16',
      });
      const cleared = await patch(null);
      expect(cleared.json()).toMatchObject({ aspectRatio: null });
    });

    it('refuses a shape that is not two whole numbers', async () => {
      for (const bad of ['16/9', '0:9', '16:0', '1.5:1', '1000:1', '', 16]) {
        const res = await patch(bad);
        expect(res.statusCode, String(bad)).toBe(400);
        expect(res.json()).toMatchObject({ code: 'validation_failed' });
        expect(JSON.stringify(res.json())).toContain('aspectRatio');
      }
    });
  });
});
