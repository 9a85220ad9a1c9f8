import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import { uuidIds } from '../../src/ids.js';
import { publishGame } from '../../src/store/games.js';
import { applyTransfers } from '../../src/store/ledger.js';
import { uploadedCoverUrl } from '../../src/services/cover-uploads.js';
import { TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { balanceOf, fundedPlayer, joinAsTester } from '@coinop/testkit/arcade';
import { serve, startCoverServer, type CoverServer } from '../fixtures/cover-server.js';
import { storeVariants } from '@coinop/testkit/db';
import { pngImage } from '../fixtures/images.js';
import { expectLedgerBalanced, expectRankTreeConsistent } from '@coinop/testkit/invariants';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';

/** A tier's score rules when none are set (issue 30): every field inherits its game's. */
const NO_TIER_RULES = { minScore: null, maxScore: null, minPlayMs: null, replay: null };

const HST = 100_000_000n;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Tier {
  id: string;
  name: string;
  cost: number;
  currency: 'HST';
  formattedCostString: string;
  leadersMax: number;
}
interface DeveloperGame {
  id: string;
  coverUrl: string;
  leaderboards: Tier[];
  clients: { clientId: string; createdAt: string; revokedAt: string | null }[];
  [field: string]: unknown;
}
interface NewClient {
  clientId: string;
  clientSecret: string;
  createdAt: string;
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

describe.each(storeVariants())('developer portal games on %s', (variant) => {
  let s: TestSignin;
  let covers: CoverServer;
  let token: string;
  let wallet: PrivateKeyAccount;

  beforeAll(async () => {
    s = await buildTestSignin(variant, { allowPrivateUrls: true });
    covers = await startCoverServer({
      '/cover.png': serve(pngImage(1920, 1080)),
      '/small.png': serve(pngImage(1280, 720)),
    });
    wallet = newWallet();
    token = (await walletSignIn(s.auth, wallet)).access_token;
  });
  afterEach(async () => {
    await expectLedgerBalanced(s.db);
    await expectRankTreeConsistent(s.db);
  });
  afterAll(async () => {
    await covers.close();
    await s.close();
  });

  /** The sign-in fixture as the arcade fixtures expect it. */
  const testApi = (): TestApi => ({
    app: s.api,
    db: s.db,
    clock: s.clock,
    config: s.config,
    close: () => s.close(),
  });

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    bearer: string | null = token,
  ) =>
    s.api.inject({
      method,
      url,
      headers: bearer === null ? {} : { authorization: `Bearer ${bearer}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  async function register(body: Record<string, unknown> = {}): Promise<DeveloperGame> {
    const res = await call('POST', '/developer/games', {
      name: 'Orbit',
      coverUrl: covers.url('/cover.png'),
      ...body,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<DeveloperGame>();
  }

  const writeToken = (clientId: string, clientSecret: string) =>
    s.api.inject({
      method: 'POST',
      url: '/oauth/writetoken',
      payload: { client_id: clientId, client_secret: clientSecret },
    });

  async function gameServer(gameId: string) {
    const client = (await call('POST', `/developer/games/${gameId}/clients`)).json<NewClient>();
    const res = await writeToken(client.clientId, client.clientSecret);
    const { access_token, arcadeId } = res.json<{ access_token: string; arcadeId: string }>();
    const post = (path: string, payload: object) =>
      s.api.inject({
        method: 'POST',
        url: `/arcades/${arcadeId}/games/${gameId}/${path}`,
        headers: { authorization: `Bearer ${access_token}` },
        payload,
      });
    return {
      play: (playerId: string, leaderboardId: string) => post('play', { playerId, leaderboardId }),
      score: (playId: string, leaderboardId: string, score: number) =>
        post('score', { playId, leaderboardId, score }),
    };
  }

  const gameCount = async () =>
    (await s.db.query<{ n: number }>('SELECT count(*)::int AS n FROM games'))[0]?.n;

  describe('registering and updating', () => {
    it('registers with a cover URL and lists the game with its default tiers', async () => {
      const res = await call('POST', '/developer/games', {
        name: 'Orbit',
        description: 'Circle the sun.',
        coverUrl: covers.url('/cover.png'),
        url: 'https://orbit.example/play',
        prodDomain: 'Orbit.Example',
        category: 'arcade',
      });
      expect(res.statusCode).toBe(201);
      const game = res.json<DeveloperGame>();
      expect(game).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Orbit',
        description: 'Circle the sun.',
        category: 'arcade',
        tagLine: '',
        developerInfo: '',
        url: 'https://orbit.example/play',
        coverUrl: covers.url('/cover.png'),
        scoreDisplay: 'NORMAL',
        scoreUnit: '',
        prodDomain: 'orbit.example',
        published: false,
        createdAt: s.clock.now().toISOString(),
        leaderboards: [
          {
            id: expect.stringMatching(UUID),
            name: 'Practice',
            cost: 1,
            currency: 'HST',
            formattedCostString: '1 HST',
            leadersMax: 10,
            payoutHoldSeconds: null,
            scoreRules: NO_TIER_RULES,
          },
          {
            id: expect.stringMatching(UUID),
            name: 'High stakes',
            cost: 10,
            currency: 'HST',
            formattedCostString: '10 HST',
            leadersMax: 10,
            payoutHoldSeconds: null,
            scoreRules: NO_TIER_RULES,
          },
        ],
        payoutHoldSeconds: null,
        operatorPayoutHoldSeconds: 0,
        aspectRatio: null,
        clients: [],
        scoreRules: { minScore: null, maxScore: null, minPlayMs: null, replay: 'off' },
        verifierVersion: null,
      });
      expect((await call('GET', `/developer/games/${game.id}`)).json()).toEqual(game);

      s.clock.advance(1000);
      const newer = await register({ name: 'Newer', scoreDisplay: 'REVERSE' });
      const listed = (await call('GET', '/developer/games')).json<{ games: DeveloperGame[] }>();
      expect(listed.games.map((g) => g.id).slice(0, 2)).toEqual([newer.id, game.id]);
      expect(listed.games[0]).toEqual(newer);
      expect(newer.scoreDisplay).toBe('REVERSE');
    });

    it('stores an uploaded 1920x1080 PNG and serves it from the catalog', async () => {
      const png = pngImage(1920, 1080);
      const game = await register({ coverUrl: undefined, coverImage: dataUrl(png) });
      expect(game.coverUrl).toMatch(
        new RegExp(`^/api/catalog/games/${game.id}/cover\\?v=[\\w-]{22}$`),
      );

      const cover = await s.api.inject({ method: 'GET', url: `/catalog/games/${game.id}/cover` });
      expect(cover.statusCode).toBe(200);
      expect(cover.headers['content-type']).toBe('image/png');
      expect(cover.headers['cache-control']).toBe('public, max-age=300');
      const etag = cover.headers.etag as string;
      expect(etag).toBe(`"${game.coverUrl.split('?v=')[1]}"`);
      expect(Buffer.compare(cover.rawPayload, png)).toBe(0);

      const again = await s.api.inject({
        method: 'GET',
        url: `/catalog/games/${game.id}/cover`,
        headers: { 'if-none-match': etag },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');

      // A cover URL replaces the upload, which is then gone.
      const patched = await call('PATCH', `/developer/games/${game.id}`, {
        coverUrl: covers.url('/cover.png'),
      });
      expect(patched.json<DeveloperGame>().coverUrl).toBe(covers.url('/cover.png'));
      const gone = await s.api.inject({ method: 'GET', url: `/catalog/games/${game.id}/cover` });
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toMatchObject({
        code: 'cover_not_found',
        message: `game ${game.id} has no uploaded cover`,
      });
    });

    it('points an uploaded cover at the public web origin when the arcade knows it', () => {
      const id = '0190aaaa-0000-7000-8000-000000000001';
      expect(uploadedCoverUrl('https://arcade.example', id, '"abc"')).toBe(
        `https://arcade.example/api/catalog/games/${id}/cover?v=abc`,
      );
      expect(uploadedCoverUrl(undefined, id, '"abc"')).toBe(`/api/catalog/games/${id}/cover?v=abc`);
    });

    it('refuses a wrong-size upload with 422 naming the size, and writes nothing', async () => {
      const before = await gameCount();
      const res = await call('POST', '/developer/games', {
        name: 'Small',
        coverImage: dataUrl(pngImage(1280, 720)),
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'cover_wrong_size',
        message: 'cover image must be 1920x1080, found 1280x720',
        details: { field: 'coverImage', width: 1280, height: 720 },
      });
      const byUrl = await call('POST', '/developer/games', {
        name: 'Small',
        coverUrl: covers.url('/small.png'),
      });
      expect(byUrl.statusCode).toBe(422);
      expect(byUrl.json()).toMatchObject({
        code: 'cover_wrong_size',
        message: 'cover image must be 1920x1080, found 1280x720',
      });
      expect(await gameCount()).toBe(before);
    });

    it('registers with no cover for now (the form offers it): the catalog shows an empty coverUrl, and a cover comes later', async () => {
      // The portal's register form offered "No cover for now", and the API refused it with 400
      // "coverUrl is required (or coverImage, an uploaded image)".
      const before = await gameCount();
      const res = await call('POST', '/developer/games', { name: 'Coverless' });
      expect(res.statusCode, res.body).toBe(201);
      const game = res.json<DeveloperGame>();
      expect(game).toMatchObject({ name: 'Coverless', coverUrl: '', published: false });
      expect(await gameCount()).toBe(before + 1);
      expect((await call('GET', `/developer/games/${game.id}`)).json()).toMatchObject({
        coverUrl: '',
      });
      await publishGame(s.db, s.clock, game.id);
      const listed = await s.api.inject({ method: 'GET', url: `/catalog/games/${game.id}` });
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toMatchObject({ id: game.id, name: 'Coverless', coverUrl: '' });
      const noUpload = await s.api.inject({
        method: 'GET',
        url: `/catalog/games/${game.id}/cover`,
      });
      expect(noUpload.statusCode).toBe(404);
      expect(noUpload.json()).toMatchObject({ code: 'cover_not_found' });

      const covered = await call('PATCH', `/developer/games/${game.id}`, {
        coverUrl: covers.url('/cover.png'),
      });
      expect(covered.statusCode, covered.body).toBe(200);
      expect(covered.json()).toMatchObject({ coverUrl: covers.url('/cover.png') });
    });

    it('refuses both covers and a malformed upload with 400 naming the field', async () => {
      const before = await gameCount();
      const both = await call('POST', '/developer/games', {
        name: 'Both',
        coverUrl: covers.url('/cover.png'),
        coverImage: dataUrl(pngImage(1920, 1080)),
      });
      expect(both.statusCode).toBe(400);
      expect(both.json()).toMatchObject({
        code: 'validation_failed',
        message: 'coverImage cannot be given with coverUrl: send one or the other',
        details: { field: 'coverImage' },
      });
      const gif = await call('POST', '/developer/games', {
        name: 'Gif',
        coverImage: 'data:image/gif;base64,R0lGODlh',
      });
      expect(gif.statusCode).toBe(400);
      expect(gif.json()).toMatchObject({
        code: 'validation_failed',
        message: 'coverImage must be a data:image/png;base64,… or data:image/jpeg;base64,… URL',
      });
      expect(await gameCount()).toBe(before);
    });

    it('updates mutable fields and refuses name and scoreDisplay', async () => {
      const game = await register();
      const res = await call('PATCH', `/developer/games/${game.id}`, { tagLine: 'Round we go' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ...game, tagLine: 'Round we go' });
      const renamed = await call('PATCH', `/developer/games/${game.id}`, { name: 'Other' });
      expect(renamed.statusCode).toBe(409);
      expect(renamed.json()).toMatchObject({
        code: 'field_immutable',
        message: 'name cannot be changed after registration',
      });
    });

    it('sets, changes and clears the score unit, which the catalog and the activity show', async () => {
      const game = await register({ scoreUnit: 'ms', scoreDisplay: 'REVERSE' });
      expect(game.scoreUnit).toBe('ms');
      expect((await call('GET', `/developer/games/${game.id}`)).json()).toMatchObject({
        scoreUnit: 'ms',
      });
      // The catalog shows it to players once the game is listed.
      await publishGame(s.db, s.clock, game.id);
      const catalog = await s.api.inject({ method: 'GET', url: `/catalog/games/${game.id}` });
      expect(catalog.json()).toMatchObject({ id: game.id, scoreUnit: 'ms' });
      // A player's history shows each scored play in its game's unit.
      const player = await fundedPlayer(testApi(), 5);
      const server = await gameServer(game.id);
      const tier = game.leaderboards[0]!;
      const play = (await server.play(player.playerId, tier.id)).json<{ id: string }>();
      expect((await server.score(play.id, tier.id, 109)).statusCode).toBe(200);
      const activity = await s.api.inject({
        method: 'GET',
        url: `/admin/players/${player.playerId}/activity?kind=play`,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expect(activity.json<{ items: unknown[] }>().items).toEqual([
        expect.objectContaining({ kind: 'play', score: 109, scoreUnit: 'ms', gameId: game.id }),
      ]);

      for (const unit of ['pts', 'µs', 'km/h', '12 chars ok!', '']) {
        const res = await call('PATCH', `/developer/games/${game.id}`, { scoreUnit: unit });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toMatchObject({ scoreUnit: unit });
        const read = await s.api.inject({ method: 'GET', url: `/catalog/games/${game.id}` });
        expect(read.json()).toMatchObject({ scoreUnit: unit });
      }
      expect((await register({ name: 'Unitless' })).scoreUnit).toBe('');
    });

    it('refuses a bad score unit with 400 naming scoreUnit, and writes nothing', async () => {
      const game = await register({ scoreUnit: 'pts' });
      const before = await gameCount();
      const bad = [
        ['13 characters', 'x'.repeat(13), 'scoreUnit must be at most 12 characters long'],
        ['markup', '<b>ms</b>', 'scoreUnit must be plain text'],
        ['an entity', '&lt;', 'scoreUnit must be plain text'],
        ['a line break', 'm\ns', 'scoreUnit must be plain text'],
        ['a NUL', 'm\u0000s', 'scoreUnit contains a NUL character'],
        ['a right-to-left override', 'm\u202es', 'scoreUnit must be plain text'],
        ['spaces around it', ' ms ', 'scoreUnit must not have spaces around it'],
        ['a number', 5, 'scoreUnit'],
      ] as const;
      for (const [what, value, message] of bad) {
        const created = await call('POST', '/developer/games', {
          name: 'Bad unit',
          coverUrl: covers.url('/cover.png'),
          scoreUnit: value,
        });
        const updated = await call('PATCH', `/developer/games/${game.id}`, { scoreUnit: value });
        for (const res of [created, updated]) {
          expect(res.statusCode, what).toBe(400);
          const problem = res.json<{ code: string; message: string }>();
          expect(problem.code, what).toBe('validation_failed');
          expect(problem.message, what).toContain(message);
        }
      }
      expect(await gameCount()).toBe(before);
      expect((await call('GET', `/developer/games/${game.id}`)).json()).toMatchObject({
        scoreUnit: 'pts',
      });
    });

    it("answers 404 for another developer's game on every route, and changes nothing", async () => {
      const game = await register();
      const other = (await walletSignIn(s.auth, newWallet())).access_token;
      const tier = game.leaderboards[0]!.id;
      const attempts = [
        call('GET', `/developer/games/${game.id}`, undefined, other),
        call('PATCH', `/developer/games/${game.id}`, { tagLine: 'mine' }, other),
        call('POST', `/developer/games/${game.id}/leaderboards`, { name: 'X', cost: 1 }, other),
        call('PATCH', `/developer/games/${game.id}/leaderboards/${tier}`, { cost: 2 }, other),
        call('DELETE', `/developer/games/${game.id}/leaderboards/${tier}`, undefined, other),
        call('POST', `/developer/games/${game.id}/clients`, undefined, other),
        call('GET', `/developer/games/${game.id}/stats`, undefined, other),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toMatchObject({
          code: 'game_not_found',
          message: `game ${game.id} does not exist`,
        });
      }
      expect((await call('GET', '/developer/games', undefined, other)).json()).toEqual({
        games: [],
      });
      expect((await call('GET', `/developer/games/${game.id}`)).json()).toEqual(game);
    });

    it('requires a player token', async () => {
      const res = await call('GET', '/developer/games', undefined, null);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'missing_bearer_token' });
    });
  });

  describe('tiers', () => {
    it('adds, changes and retires tiers; a retired tier takes no new plays', async () => {
      const game = await register();
      const [practice, stakes] = game.leaderboards as [Tier, Tier];
      const added = await call('POST', `/developer/games/${game.id}/leaderboards`, {
        name: 'Pro',
        cost: 5,
        leadersMax: 3,
      });
      expect(added.statusCode).toBe(201);
      const pro = added.json<Tier>();
      expect(pro).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Pro',
        cost: 5,
        currency: 'HST',
        formattedCostString: '5 HST',
        leadersMax: 3,
        payoutHoldSeconds: null,
        scoreRules: NO_TIER_RULES,
      });

      const server = await gameServer(game.id);
      const alice = await fundedPlayer(testApi(), 100, 'Alice');
      // The game is not published: it may charge only the testers who accepted its invitation.
      await call('PUT', `/developer/games/${game.id}/testers/${alice.wallet}`);
      await joinAsTester(testApi(), { gameId: game.id }, alice, 100n * HST);
      // A play opened before the cost changes settles at the cost it locked.
      const early = (await server.play(alice.playerId, stakes.id)).json<{ id: string }>();

      const changed = await call('PATCH', `/developer/games/${game.id}/leaderboards/${stakes.id}`, {
        name: 'Big stakes',
        cost: 20,
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toEqual({
        ...stakes,
        name: 'Big stakes',
        cost: 20,
        formattedCostString: '20 HST',
      });
      const later = await server.play(alice.playerId, stakes.id);
      expect(later.json()).toMatchObject({ cost: 20, status: 'open' });
      expect(await balanceOf(testApi(), alice.accountId)).toMatchObject({
        available: 70n * HST,
        pending: 30n * HST,
      });

      const retired = await call('DELETE', `/developer/games/${game.id}/leaderboards/${stakes.id}`);
      expect(retired.statusCode).toBe(200);
      expect(retired.json()).toEqual({ id: stakes.id, retired: true });
      const again = await call('DELETE', `/developer/games/${game.id}/leaderboards/${stakes.id}`);
      expect(again.json()).toEqual({ id: stakes.id, retired: true });

      const refused = await server.play(alice.playerId, stakes.id);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'leaderboard_retired',
        message: `leaderboardId ${stakes.id} is retired and takes no new plays; choose another tier`,
        details: { field: 'leaderboardId' },
      });
      // Open plays on the retired tier still settle, the early one at its old cost.
      const scored = await server.score(early.id, stakes.id, 42);
      expect(scored.statusCode).toBe(200);
      // Nobody led the tier when the early play began: its leaders' 7 HST come back to alice.
      expect(await balanceOf(testApi(), alice.accountId)).toMatchObject({
        available: 77n * HST,
        pending: 20n * HST,
      });
      const leaders = await s.api.inject({
        method: 'GET',
        url: `/arcades/${s.api.arcade.record.id}/games/${game.id}/leaders/${stakes.id}`,
        headers: {
          authorization: `Bearer ${(await writeTokenFor(game.id)).access_token}`,
        },
      });
      expect(leaders.json()).toMatchObject({ leaders: [{ playerId: alice.playerId, score: 42 }] });

      // Gone from the portal, the game server's read and the catalog.
      const read = (await call('GET', `/developer/games/${game.id}`)).json<DeveloperGame>();
      expect(read.leaderboards.map((b) => b.id)).toEqual([practice.id, pro.id]);
      const token = (await writeTokenFor(game.id)).access_token;
      const spec = await s.api.inject({
        method: 'GET',
        url: `/arcades/${s.api.arcade.record.id}/developergames/${game.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
      expect(spec.json<{ leaderboards: Tier[] }>().leaderboards.map((b) => b.id)).toEqual([
        practice.id,
        pro.id,
      ]);
      await publishGame(s.db, s.clock, game.id);
      const catalog = await s.api.inject({ method: 'GET', url: '/catalog/games' });
      const listed = catalog
        .json<{ games: { id: string; leaderboards: Tier[] }[] }>()
        .games.find((g) => g.id === game.id);
      expect(listed?.leaderboards.map((b) => b.id)).toEqual([practice.id, pro.id]);

      const patchRetired = await call(
        'PATCH',
        `/developer/games/${game.id}/leaderboards/${stakes.id}`,
        { cost: 1 },
      );
      expect(patchRetired.statusCode).toBe(409);
      expect(patchRetired.json()).toMatchObject({ code: 'leaderboard_retired' });
    });

    it('keeps the last live tier', async () => {
      const game = await register();
      const [practice, stakes] = game.leaderboards as [Tier, Tier];
      await call('DELETE', `/developer/games/${game.id}/leaderboards/${practice.id}`);
      const res = await call('DELETE', `/developer/games/${game.id}/leaderboards/${stakes.id}`);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'last_live_leaderboard',
        message:
          `leaderboard ${stakes.id} is the last live tier of game ${game.id}; add another ` +
          'tier before retiring it',
      });
      const read = (await call('GET', `/developer/games/${game.id}`)).json<DeveloperGame>();
      expect(read.leaderboards.map((b) => b.id)).toEqual([stakes.id]);
    });

    it('refuses bad tier input naming the field, and an unknown tier with 404', async () => {
      const game = await register();
      const cost = await call('POST', `/developer/games/${game.id}/leaderboards`, {
        name: 'Half',
        cost: 0.5,
      });
      expect(cost.statusCode).toBe(400);
      expect(cost.json()).toMatchObject({ code: 'validation_failed', details: { field: 'cost' } });
      const empty = await call(
        'PATCH',
        `/developer/games/${game.id}/leaderboards/${game.leaderboards[0]!.id}`,
        {},
      );
      expect(empty.statusCode).toBe(400);
      const unknown = '0190aaaa-0000-7000-8000-000000000002';
      const missing = await call('PATCH', `/developer/games/${game.id}/leaderboards/${unknown}`, {
        cost: 3,
      });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({
        code: 'leaderboard_not_found',
        message: `game ${game.id} has no leaderboard ${unknown}`,
      });
    });
  });

  /** A write token through a fresh client of the game. */
  async function writeTokenFor(gameId: string) {
    const client = (await call('POST', `/developer/games/${gameId}/clients`)).json<NewClient>();
    return (await writeToken(client.clientId, client.clientSecret)).json<{
      access_token: string;
    }>();
  }

  describe('clients', () => {
    it('creates, rotates and revokes a client; old secrets fail at once', async () => {
      const game = await register();
      const created = await call('POST', `/developer/games/${game.id}/clients`);
      expect(created.statusCode).toBe(201);
      const client = created.json<NewClient>();
      expect(client).toEqual({
        clientId: expect.stringMatching(/^cid_[\w-]{16}$/),
        clientSecret: expect.stringMatching(/^csec_[\w-]{43}$/),
        createdAt: s.clock.now().toISOString(),
      });
      const first = await writeToken(client.clientId, client.clientSecret);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ gameId: game.id });

      s.clock.advance(1000);
      const rotated = await call(
        'POST',
        `/developer/games/${game.id}/clients/${client.clientId}/rotate`,
      );
      expect(rotated.statusCode).toBe(200);
      const next = rotated.json<NewClient>();
      expect(next).toEqual({
        clientId: client.clientId,
        clientSecret: expect.stringMatching(/^csec_[\w-]{43}$/),
        createdAt: client.createdAt,
      });
      expect(next.clientSecret).not.toBe(client.clientSecret);
      const old = await writeToken(client.clientId, client.clientSecret);
      expect(old.statusCode).toBe(401);
      expect(old.json()).toMatchObject({ code: 'invalid_client_credentials' });
      expect((await writeToken(client.clientId, next.clientSecret)).statusCode).toBe(200);

      s.clock.advance(1000);
      const revoked = await call(
        'DELETE',
        `/developer/games/${game.id}/clients/${client.clientId}`,
      );
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json()).toEqual({
        clientId: client.clientId,
        createdAt: client.createdAt,
        revokedAt: s.clock.now().toISOString(),
      });
      expect((await writeToken(client.clientId, next.clientSecret)).statusCode).toBe(401);
      const read = (await call('GET', `/developer/games/${game.id}`)).json<DeveloperGame>();
      expect(read.clients).toEqual([revoked.json()]);

      const rotateRevoked = await call(
        'POST',
        `/developer/games/${game.id}/clients/${client.clientId}/rotate`,
      );
      expect(rotateRevoked.statusCode).toBe(409);
      expect(rotateRevoked.json()).toMatchObject({ code: 'client_revoked' });
      const unknown = await call('DELETE', `/developer/games/${game.id}/clients/cid_nope`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({
        code: 'client_not_found',
        message: `game ${game.id} has no client cid_nope`,
      });
    });
  });

  describe('stats', () => {
    it('counts plays and scores and sums the HST the game earned the developer', async () => {
      const game = await register();
      const stakes = game.leaderboards[1]!;
      const server = await gameServer(game.id);
      const alice = await fundedPlayer(testApi(), 50, 'Alice');
      const bob = await fundedPlayer(testApi(), 50, 'Bob');
      for (const tester of [alice, bob]) {
        await call('PUT', `/developer/games/${game.id}/testers/${tester.wallet}`);
        await joinAsTester(testApi(), { gameId: game.id }, tester, 50n * HST);
      }

      const empty = (await call('GET', `/developer/games/${game.id}/stats`)).json();
      expect(empty).toEqual({
        plays: { total: 0, open: 0, scored: 0, expired: 0, voided: 0 },
        scores: 0,
        hstEarned: '0',
        recentPlays: [],
      });

      // Alice plays first: no leaders yet, so the leaders' 70% goes back to her and the developer
      // gets 20% of 10.
      const p1 = (await server.play(alice.playerId, stakes.id)).json<{ id: string }>();
      expect((await server.score(p1.id, stakes.id, 100)).statusCode).toBe(200);
      s.clock.advance(1000);
      // Bob plays with Alice leading: the developer gets 20% of 10.
      const p2 = (await server.play(bob.playerId, stakes.id)).json<{ id: string }>();
      expect((await server.score(p2.id, stakes.id, 50)).statusCode).toBe(200);
      s.clock.advance(1000);
      const p3 = (await server.play(bob.playerId, game.leaderboards[0]!.id)).json<{
        id: string;
      }>();
      // An in-game purchase of 2.5 HST from Bob to the developer.
      await purchase(game.id, bob, 250_000_000n);

      const res = await call('GET', `/developer/games/${game.id}/stats`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        plays: { total: 3, open: 1, scored: 2, expired: 0, voided: 0 },
        scores: 2,
        hstEarned: '6.5',
        recentPlays: [
          {
            playId: p3.id,
            playerName: 'Bob',
            leaderboardName: 'Practice',
            cost: '1',
            status: 'open',
            score: null,
            createdAt: s.clock.now().toISOString(),
          },
          {
            playId: p2.id,
            playerName: 'Bob',
            leaderboardName: 'High stakes',
            cost: '10',
            status: 'scored',
            score: 50,
            createdAt: new Date(s.clock.now().getTime() - 1000).toISOString(),
          },
          {
            playId: p1.id,
            playerName: 'Alice',
            leaderboardName: 'High stakes',
            cost: '10',
            status: 'scored',
            score: 100,
            createdAt: new Date(s.clock.now().getTime() - 2000).toISOString(),
          },
        ],
      });
    });

    // Issue 27: a game's lifetime earnings were a JSON number, so 900000000.00000001 HST read
    // 900000000. They are an exact decimal string now, as a play's cost in the list is.
    it('gives the HST earned to the unit, past what a JSON number holds', async () => {
      const game = await register();
      const whale = await fundedPlayer(testApi(), '900000000.00000001', 'Whale');
      await purchase(game.id, whale, 900_000_000n * 100_000_000n + 1n);
      const res = await call('GET', `/developer/games/${game.id}/stats`);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ hstEarned: '900000000.00000001', recentPlays: [] });
    });
  });

  /** A posted payment from the player to the game's developer, recorded as a purchase. */
  async function purchase(
    gameId: string,
    player: { playerId: string; accountId: string },
    amount: bigint,
  ): Promise<void> {
    const [dev] = await s.db.query<{ account_id: string }>(
      'SELECT d.account_id FROM games g JOIN developers d ON d.id = g.developer_id WHERE g.id = $1',
      [gameId],
    );
    const transferId = uuidIds.next();
    await s.db.transaction(async (tx) => {
      await applyTransfers(
        tx,
        [
          {
            id: transferId,
            kind: 'posted',
            debitAccountId: player.accountId,
            creditAccountId: dev!.account_id,
            amount,
            pendingId: null,
            reason: 'payment',
            playId: null,
          },
        ],
        s.clock.now(),
      );
      await tx.query(
        `INSERT INTO game_purchases (transfer_id, game_id, player_id, amount_units, created_at)
         VALUES ($1, $2, $3, $4, $5)`,
        [transferId, gameId, player.playerId, amount.toString(), s.clock.now()],
      );
    });
  }
});
