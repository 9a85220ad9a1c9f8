import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/credentials/api-keys.js';
import { ensureDeveloper } from '../../src/store/developers.js';
import { uuidIds } from '../../src/ids.js';
import { buildTestApi, TEST_ADMIN_TOKEN, type TestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { routesOf } from '../../src/listener/fastify.js';
import { PATTERN_TEXT_KEY, Patterns } from '../../src/listener/string-patterns.js';
import { validationText } from '../../src/listener/validation-messages.js';
import { buildTestSignin } from '@coinop/testkit/signin';

/**
 * Schema failures reached API clients in Ajv's own words: "leaderboardId must have required
 * property 'leaderboardId'", `name must match pattern "\S"`, "scoreDisplay must be equal to one of
 * the allowed values" (naming none of them). They now read as a person would write them, with
 * `details.field` as before.
 */
describe.each(storeVariants())('schema failures in plain words on %s', (variant) => {
  let api: TestApi;
  let game: GameFixture;
  let token: string;
  let apiKey: string;

  beforeAll(async () => {
    api = await buildTestApi(variant);
    game = await gameWithTiers(api);
    token = await writeToken(api, game);
    const developer = await ensureDeveloper(api.db, api.clock, uuidIds, `0x${'e'.repeat(40)}`);
    apiKey = (await createApiKey(api.db, api.clock, developer.id)).apiKey;
  });
  afterAll(async () => {
    await api.close();
  });

  const problem = (message: string, field: string, where = 'body') => ({
    type: 'https://coinop.dev/errors/validation_failed',
    title: 'Request validation failed',
    status: 400,
    code: 'validation_failed',
    detail: message,
    message,
    details: { field, in: where },
  });

  it('a missing field "is required"', async () => {
    const res = await api.app.inject({
      method: 'POST',
      url: `/arcades/${game.arcadeId}/games/${game.gameId}/play`,
      headers: { authorization: `Bearer ${token}` },
      payload: { playerId: randomUUID() },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(problem('leaderboardId is required', 'leaderboardId'));
  });

  it('a blank name "must not be blank"', async () => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/admin/leaderboards',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      payload: { gameId: game.gameId, name: '   ', cost: 1 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(problem('name must not be blank', 'name'));
  });

  it('a value not allowed lists the allowed ones', async () => {
    const res = await api.app.inject({
      method: 'POST',
      url: '/game/create',
      headers: { 'api-key': apiKey },
      payload: {
        name: 'Wording',
        description: 'Words.',
        coverUrl: 'https://example.com/cover.png',
        scoreDisplay: 'HIGHER',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(
      problem('scoreDisplay must be one of: NORMAL, REVERSE', 'scoreDisplay'),
    );
  });

  it('a query limit out of range says the range, and an id says it must be a UUID', async () => {
    const limit = await api.app.inject({
      method: 'GET',
      url: '/admin/publish-requests?limit=0',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(limit.json()).toEqual(
      problem('limit must be a whole number from 1 to 100', 'limit', 'querystring'),
    );
    const id = await api.app.inject({
      method: 'POST',
      url: '/admin/games/not-a-uuid/publish',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(id.json()).toEqual(problem('gameId must be a UUID', 'gameId', 'params'));
  });
});

describe('validationText', () => {
  it.each<[string, Parameters<typeof validationText>[0], string]>([
    ['required', { keyword: 'required', params: { missingProperty: 'x' } }, 'is required'],
    [
      'additionalProperties',
      { keyword: 'additionalProperties', params: { additionalProperty: 'x' } },
      'is not a field this request takes',
    ],
    [
      'enum',
      { keyword: 'enum', params: { allowedValues: ['a', 'b', 'c'] } },
      'must be one of: a, b, c',
    ],
    ['integer', { keyword: 'type', params: { type: 'integer' } }, 'must be a whole number'],
    [
      'union type',
      { keyword: 'type', params: { type: ['string', 'null'] } },
      'must be a string or null',
    ],
    ['empty', { keyword: 'minLength', params: { limit: 1 } }, 'must not be empty'],
    [
      'too long',
      { keyword: 'maxLength', params: { limit: 12 } },
      'must be at most 12 characters long',
    ],
    [
      'minimum',
      { keyword: 'minimum', params: { limit: 0, comparison: '>=' } },
      'must be at least 0',
    ],
    [
      'maximum',
      { keyword: 'maximum', params: { limit: 100, comparison: '<=' } },
      'must be at most 100',
    ],
    [
      'a pattern worded on its schema',
      {
        keyword: 'pattern',
        params: { pattern: '\\S' },
        parentSchema: { type: 'string', ...Patterns.notBlank, description: 'Tier name' },
      },
      'must not be blank',
    ],
    [
      'a pattern described by its schema',
      {
        keyword: 'pattern',
        params: { pattern: '^(a|b)$' },
        parentSchema: { description: 'A player id, or the wallet address of a player' },
      },
      'is not valid: it must be a player id, or the wallet address of a player',
    ],
    [
      'a pattern neither known nor described',
      { keyword: 'pattern', params: { pattern: '^(a|b)$' } },
      'must match the pattern ^(a|b)$',
    ],
    ['uuid', { keyword: 'format', params: { format: 'uuid' } }, 'must be a UUID'],
  ])('%s', (_what, failure, text) => {
    expect(validationText(failure)).toBe(text);
  });
});

/**
 * A pattern's words were kept in a table of regular expressions apart from the schemas, which
 * could drift from them; they now ride on each schema (listener/string-patterns.ts). A schema
 * writing a shared pattern by hand would lose them and answer "is not valid: it must be …" from
 * its description: every schema of the API and of the sign-in service carries them.
 */
describe('shared string patterns', () => {
  it("keep their words in every route's schema", async () => {
    const words = new Map<string, string>(
      Object.values(Patterns).map((p) => [p.pattern, p[PATTERN_TEXT_KEY]]),
    );
    const apps = await buildTestSignin(storeVariants()[0]!);
    try {
      let worded = 0;
      const missing: string[] = [];
      const visit = (node: unknown, where: string): void => {
        if (typeof node !== 'object' || node === null) return;
        const schema = node as Record<string, unknown>;
        const expected = typeof schema['pattern'] === 'string' && words.get(schema['pattern']);
        if (expected) {
          if (schema[PATTERN_TEXT_KEY] === expected) worded += 1;
          else missing.push(`${where}: ${String(schema['pattern'])}`);
        }
        for (const [key, value] of Object.entries(schema)) visit(value, `${where}.${key}`);
      };
      for (const app of [apps.api, apps.auth]) {
        for (const route of routesOf(app)) visit(route.schema, `${route.method} ${route.url}`);
      }
      expect(missing).toEqual([]);
      expect(worded).toBeGreaterThan(40);
    } finally {
      await apps.close();
    }
  });
});
