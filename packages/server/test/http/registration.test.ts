import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApiKey } from '../../src/credentials/api-keys.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { auditLedger } from '../../src/store/ledger.js';
import { uuidIds } from '../../src/ids.js';
import { buildTestApi, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { redirect, serve, startCoverServer, type CoverServer } from '../fixtures/cover-server.js';
import { pngImage } from '../fixtures/images.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(storeVariants())('game registration and update on %s', (variant) => {
  let api: TestApi;
  let covers: CoverServer;
  let developer: { id: string; apiKey: string };
  let otherDeveloper: { id: string; apiKey: string };

  async function newDeveloper(wallet: string) {
    const dev = await ensureDeveloper(api.db, api.clock, uuidIds, wallet);
    const { apiKey } = await createApiKey(api.db, api.clock, dev.id);
    return { id: dev.id, apiKey };
  }

  const validGame = () => ({
    name: 'Asteroids Redux',
    description: 'Shoot rocks.',
    coverUrl: covers.url('/cover.png'),
    scoreDisplay: 'NORMAL',
  });

  /** `apiKey` null sends no api-key header at all. */
  const create = (body: unknown, apiKey: string | null = developer.apiKey) =>
    api.app.inject({
      method: 'POST',
      url: '/game/create',
      headers: apiKey === null ? {} : { 'api-key': apiKey },
      payload: body as Record<string, unknown>,
    });

  const update = (gameId: string, body: unknown, apiKey: string = developer.apiKey) =>
    api.app.inject({
      method: 'PATCH',
      url: '/game/update',
      headers: { 'api-key': apiKey, 'game-id': gameId },
      payload: body as Record<string, unknown>,
    });

  async function createdGameId(): Promise<string> {
    const res = await create(validGame());
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string }>().id;
  }

  const countGames = async () =>
    Number((await api.db.query<{ n: bigint }>('SELECT count(*) AS n FROM games'))[0]?.n);

  const gameRow = async (id: string) =>
    (await api.db.query<Record<string, unknown>>('SELECT * FROM games WHERE id = $1', [id]))[0];

  beforeAll(async () => {
    covers = await startCoverServer({
      '/cover.png': serve(pngImage(1920, 1080)),
      '/other-cover.png': serve(pngImage(1920, 1080)),
      '/moved.png': redirect('/cover.png'),
      '/small.png': serve(pngImage(800, 600)),
      '/page.html': serve(Buffer.from('<html>hi</html>'), 'text/html'),
    });
    api = await buildTestApi(variant, { allowPrivateUrls: true });
    developer = await newDeveloper('0xAAAA000000000000000000000000000000000001');
    otherDeveloper = await newDeveloper('0xBBBB000000000000000000000000000000000002');
  });
  afterAll(async () => {
    await api.close();
    await covers.close();
  });
  afterEach(async () => {
    expect((await auditLedger(api.db)).balanced).toBe(true);
  });

  describe('POST /game/create', () => {
    it('returns 201 with the game, its default tiers and the developer as playerId', async () => {
      const res = await create(validGame());
      expect(res.statusCode).toBe(201);
      const game = res.json();
      expect(game).toEqual({
        id: expect.stringMatching(UUID),
        name: 'Asteroids Redux',
        description: 'Shoot rocks.',
        category: '',
        developerInfo: '',
        tagLine: '',
        url: '',
        coverUrl: covers.url('/cover.png'),
        scoreDisplay: 'NORMAL',
        scoreUnit: '',
        prodDomain: null,
        published: false,
        leaderboards: [
          {
            id: expect.stringMatching(UUID),
            name: 'Practice',
            cost: 1,
            currency: 'HST',
            formattedCostString: '1 HST',
            leadersMax: 10,
            leaders: [],
          },
          {
            id: expect.stringMatching(UUID),
            name: 'High stakes',
            cost: 10,
            currency: 'HST',
            formattedCostString: '10 HST',
            leadersMax: 10,
            leaders: [],
          },
        ],
        playerId: developer.id,
      });
    });

    it('stores the game unpublished, with its tiers in base units', async () => {
      const res = await create({
        ...validGame(),
        scoreDisplay: 'REVERSE',
        prodDomain: 'Rocks.Example.com',
        url: 'https://rocks.example.com/play',
        category: 'arcade',
        tagLine: 'Rocks, shot.',
        developerInfo: 'Made by two people.',
      });
      expect(res.statusCode).toBe(201);
      const { id } = res.json<{ id: string }>();
      expect(await gameRow(id)).toMatchObject({
        arcade_id: api.app.arcade.record.id,
        developer_id: developer.id,
        name: 'Asteroids Redux',
        score_display: 'REVERSE',
        prod_domain: 'rocks.example.com',
        url: 'https://rocks.example.com/play',
        category: 'arcade',
        tag_line: 'Rocks, shot.',
        developer_info: 'Made by two people.',
        published_at: null,
      });
      const tiers = await api.db.query<{ name: string; cost_units: bigint; leaders_max: number }>(
        'SELECT name, cost_units, leaders_max FROM leaderboards WHERE game_id = $1 ORDER BY position',
        [id],
      );
      expect(tiers.map((t) => [t.name, BigInt(t.cost_units), t.leaders_max])).toEqual([
        ['Practice', 100_000_000n, 10],
        ['High stakes', 1_000_000_000n, 10],
      ]);
    });

    it('lets one API key register several games', async () => {
      const before = await countGames();
      await createdGameId();
      await createdGameId();
      expect(await countGames()).toBe(before + 2);
    });

    it('follows a redirect to the cover', async () => {
      const res = await create({ ...validGame(), coverUrl: covers.url('/moved.png') });
      expect(res.statusCode).toBe(201);
    });
  });

  describe('API key', () => {
    it.each([
      ['no header', null, 'missing_api_key', 'the api-key header is required'],
      ['an empty header', '', 'missing_api_key', 'the api-key header is required'],
      ['no dot', 'ck_abcdefgh', 'invalid_api_key', 'the api-key header is not a valid API key'],
      [
        'an unknown prefix',
        'ck_nope.secret',
        'invalid_api_key',
        'the api-key header is not a valid API key',
      ],
    ])('refuses %s with 401', async (_what, apiKey, code, message) => {
      const before = await countGames();
      const res = await create(validGame(), apiKey);
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toContain('application/problem+json');
      expect(res.json()).toMatchObject({ status: 401, code, message });
      expect(await countGames()).toBe(before);
    });

    it('refuses a right prefix with a wrong secret', async () => {
      const prefix = developer.apiKey.slice(0, developer.apiKey.indexOf('.'));
      const res = await create(validGame(), `${prefix}.not-the-secret`);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('invalid_api_key');
    });

    it('refuses a revoked key', async () => {
      const revoked = await newDeveloper('0xCCCC000000000000000000000000000000000003');
      expect((await create(validGame(), revoked.apiKey)).statusCode).toBe(201);
      await api.db.query('UPDATE api_keys SET revoked_at = now() WHERE developer_id = $1', [
        revoked.id,
      ]);
      const res = await create(validGame(), revoked.apiKey);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('invalid_api_key');
    });

    it('is checked before the body, so a bad body without a key is 401', async () => {
      const res = await api.app.inject({
        method: 'POST',
        url: '/game/create',
        headers: { 'content-type': 'application/json' },
        payload: '{"name":',
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('missing_api_key');
    });

    it('guards update too', async () => {
      const gameId = await createdGameId();
      const res = await api.app.inject({
        method: 'PATCH',
        url: '/game/update',
        headers: { 'game-id': gameId },
        payload: { description: 'x' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('missing_api_key');
    });
  });

  describe('bad input on create', () => {
    const long = 'x'.repeat(101);
    it.each([
      ['missing name', { name: undefined }, 'name'],
      ['empty name', { name: '' }, 'name'],
      ['blank name', { name: '   ' }, 'name'],
      ['too long a name', { name: long }, 'name'],
      ['name of the wrong type', { name: 42 }, 'name'],
      ['missing description', { description: undefined }, 'description'],
      ['null description', { description: null }, 'description'],
      ['missing coverUrl', { coverUrl: undefined }, 'coverUrl'],
      ['non-URL coverUrl', { coverUrl: 'cover.png' }, 'coverUrl'],
      ['ftp coverUrl', { coverUrl: 'ftp://example.com/cover.png' }, 'coverUrl'],
      ['coverUrl with credentials', { coverUrl: 'https://u:p@example.com/c.png' }, 'coverUrl'],
      ['coverUrl of the wrong type', { coverUrl: ['https://example.com/c.png'] }, 'coverUrl'],
      ['missing scoreDisplay', { scoreDisplay: undefined }, 'scoreDisplay'],
      ['bad scoreDisplay', { scoreDisplay: 'HIGHER' }, 'scoreDisplay'],
      ['lower-case scoreDisplay', { scoreDisplay: 'normal' }, 'scoreDisplay'],
      ['scoreDisplay of the wrong type', { scoreDisplay: 1 }, 'scoreDisplay'],
      ['URL as prodDomain', { prodDomain: 'https://game.example.com' }, 'prodDomain'],
      ['javascript url', { url: 'javascript:alert(1)' }, 'url'],
      ['unknown field', { publishedAt: '2026-01-01' }, 'publishedAt'],
      ['playerId (not the caller to choose)', { playerId: 'x' }, 'playerId'],
    ])('%s is 400 naming the field, and nothing is written', async (_what, change, field) => {
      const before = await countGames();
      const res = await create({ ...validGame(), ...change });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.code).toBe('validation_failed');
      expect(body.details.field).toBe(field);
      expect(body.message.startsWith(`${field} `)).toBe(true);
      expect(await countGames()).toBe(before);
    });

    it.each([
      [
        'non-URL coverUrl',
        { coverUrl: 'cover.png' },
        'coverUrl must be an absolute http or https URL, got "cover.png"',
      ],
      [
        'ftp coverUrl',
        { coverUrl: 'ftp://example.com/c.png' },
        'coverUrl must be an http or https URL, got ftp: URL',
      ],
      // Issue 12: a url of " http://x/" was stored with its space.
      [
        'url with a space before it',
        { url: ' http://game.example/' },
        'url must not have spaces around it, got " http://game.example/"',
      ],
      [
        'coverUrl with a newline after it',
        { coverUrl: 'https://example.com/c.png\n' },
        'coverUrl must not have spaces around it, got "https://example.com/c.png\\n"',
      ],
      ['blank name', { name: ' ' }, 'name must not be blank'],
      ['unknown field', { extra: 1 }, 'extra is not a field this request takes'],
      [
        'URL as prodDomain',
        { prodDomain: 'https://g.example.com' },
        'prodDomain must be a domain name such as game.example.com, got "https://g.example.com"',
      ],
    ])('%s says why', async (_what, change, message) => {
      const res = await create({ ...validGame(), ...change });
      expect(res.json().message).toBe(message);
    });

    it('refuses malformed JSON with 400 and writes nothing', async () => {
      const before = await countGames();
      const res = await api.app.inject({
        method: 'POST',
        url: '/game/create',
        headers: { 'api-key': developer.apiKey, 'content-type': 'application/json' },
        payload: '{"name": "x",',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('malformed_json');
      expect(await countGames()).toBe(before);
    });

    it('refuses a body that is not an object', async () => {
      const res = await create(['not', 'an', 'object']);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_failed');
    });
  });

  describe('cover check on create', () => {
    it.each([
      ['/small.png', 'cover_wrong_size', 'cover image must be 1920x1080, found 800x600'],
      [
        '/page.html',
        'cover_not_image',
        'coverUrl is not an image the arcade can read (PNG, JPEG, GIF, WebP or AVIF)',
      ],
      [
        '/gone.png',
        'cover_unreachable',
        'coverUrl could not be fetched: the server answered HTTP 404',
      ],
    ])('%s is 422 %s and nothing is written', async (path, code, message) => {
      const before = await countGames();
      const res = await create({ ...validGame(), coverUrl: covers.url(path) });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ status: 422, code, message });
      expect(await countGames()).toBe(before);
    });
  });

  describe('PATCH /game/update', () => {
    it('changes the given fields and returns the updated game', async () => {
      const gameId = await createdGameId();
      const invalidate = vi.spyOn(api.app.arcade.games, 'invalidate');
      api.clock.advance(60_000);
      const res = await update(gameId, {
        description: 'Shoot more rocks.',
        coverUrl: covers.url('/other-cover.png'),
        prodDomain: 'rocks.example.com',
        url: 'https://rocks.example.com/',
        category: 'shooter',
        tagLine: 'Pew.',
        developerInfo: 'Us.',
        scoreUnit: 'pts',
      });
      expect(res.statusCode).toBe(200);
      const game = res.json();
      expect(game).toMatchObject({
        id: gameId,
        name: 'Asteroids Redux',
        description: 'Shoot more rocks.',
        coverUrl: covers.url('/other-cover.png'),
        prodDomain: 'rocks.example.com',
        url: 'https://rocks.example.com/',
        category: 'shooter',
        tagLine: 'Pew.',
        developerInfo: 'Us.',
        scoreDisplay: 'NORMAL',
        scoreUnit: 'pts',
        playerId: developer.id,
      });
      expect(game.leaderboards.map((b: { name: string }) => b.name)).toEqual([
        'Practice',
        'High stakes',
      ]);
      expect(await gameRow(gameId)).toMatchObject({
        description: 'Shoot more rocks.',
        cover_url: covers.url('/other-cover.png'),
        prod_domain: 'rocks.example.com',
        score_unit: 'pts',
        updated_at: api.clock.now(),
      });
      expect(invalidate).toHaveBeenCalledWith(gameId);
      invalidate.mockRestore();
    });

    it('leaves fields it was not given as they were', async () => {
      const gameId = await createdGameId();
      const res = await update(gameId, { tagLine: 'Only this.' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ description: 'Shoot rocks.', tagLine: 'Only this.' });
    });

    it.each([
      ['name', { name: 'New name' }],
      ['scoreDisplay', { scoreDisplay: 'REVERSE' }],
      ['name', { description: 'also this', name: 'Asteroids Redux' }],
    ])('refuses to change %s with 409 and changes nothing', async (field, body) => {
      const gameId = await createdGameId();
      const before = await gameRow(gameId);
      const res = await update(gameId, body);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'field_immutable',
        message: `${field} cannot be changed after registration`,
        details: { field, gameId },
      });
      expect(await gameRow(gameId)).toEqual(before);
    });

    it("answers 404 for another developer's game, and changes nothing", async () => {
      const gameId = await createdGameId();
      const before = await gameRow(gameId);
      const res = await update(gameId, { description: 'mine now' }, otherDeveloper.apiKey);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({
        code: 'game_not_found',
        message: `game ${gameId} does not exist`,
      });
      expect(await gameRow(gameId)).toEqual(before);
    });

    it('answers the same 404 for a game that does not exist', async () => {
      const gameId = '0190a000-0000-7000-8000-000000000000';
      const res = await update(gameId, { description: 'x' });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(`game ${gameId} does not exist`);
    });

    it.each([
      ['a non-UUID game-id', 'not-a-uuid', { description: 'x' }, 'game-id'],
      ['an empty body', null, {}, 'body'],
      ['an unknown field', null, { leaderboards: [] }, 'leaderboards'],
      ['a non-URL coverUrl', null, { coverUrl: 'nope' }, 'coverUrl'],
      ['an empty description', null, { description: '' }, 'description'],
      ['a wrong type', null, { tagLine: 7 }, 'tagLine'],
    ])('refuses %s with 400 naming it', async (_what, badId, body, field) => {
      const gameId = await createdGameId();
      const before = await gameRow(gameId);
      const res = await update(badId ?? gameId, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', details: { field } });
      expect(await gameRow(gameId)).toEqual(before);
    });

    it('refuses a missing game-id header with 400', async () => {
      const res = await api.app.inject({
        method: 'PATCH',
        url: '/game/update',
        headers: { 'api-key': developer.apiKey },
        payload: { description: 'x' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details.field).toBe('game-id');
    });

    it('checks a new cover and keeps the old one when it is wrong', async () => {
      const gameId = await createdGameId();
      const res = await update(gameId, { coverUrl: covers.url('/small.png') });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({
        code: 'cover_wrong_size',
        message: 'cover image must be 1920x1080, found 800x600',
      });
      expect((await gameRow(gameId))?.['cover_url']).toBe(covers.url('/cover.png'));
    });
  });
});

describe.each(storeVariants())('cover addresses without --allow-private-urls on %s', (variant) => {
  let api: TestApi;
  let covers: CoverServer;
  let apiKey: string;

  beforeAll(async () => {
    covers = await startCoverServer({ '/cover.png': serve(pngImage(1920, 1080)) });
    api = await buildTestApi(variant, { allowPrivateUrls: false });
    const dev = await ensureDeveloper(
      api.db,
      api.clock,
      uuidIds,
      '0xDDDD00000000000000000000000000000004',
    );
    apiKey = (await createApiKey(api.db, api.clock, dev.id)).apiKey;
  });
  afterAll(async () => {
    await api.close();
    await covers.close();
  });

  it.each([
    ['a loopback address', () => covers.url('/cover.png')],
    [
      'a name resolving to loopback',
      () => covers.url('/cover.png').replace('127.0.0.1', 'localhost'),
    ],
    ['a private address', () => 'http://192.168.0.10/cover.png'],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data'],
  ])('refuses %s with 422 cover_unreachable, without fetching', async (_what, coverUrl) => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/game/create',
      headers: { 'api-key': apiKey },
      payload: { name: 'G', description: 'd', coverUrl: coverUrl(), scoreDisplay: 'NORMAL' },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.code).toBe('cover_unreachable');
    expect(body.message).toContain('a loopback, private or reserved address');
    expect(body.details).toMatchObject({ field: 'coverUrl', reason: 'private_address' });
    expect(covers.hits).toEqual([]);
    const [row] = await api.db.query<{ n: bigint }>('SELECT count(*) AS n FROM games');
    expect(Number(row?.n)).toBe(0);
  });
});
