import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock, uuidIds } from '../../src/ids.js';
import { GameCache } from '../../src/services/game-cache.js';
import { ensureArcade } from '../../src/store/arcades.js';
import type { Db } from '../../src/store/db.js';
import { openPostgres } from '../../src/store/postgres.js';
import type { TestApi } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers, type GameFixture } from '@coinop/testkit/arcade';
import { createTestDatabase, storeVariants } from '@coinop/testkit/db';
import { newWallet } from '@coinop/testkit/signin';
import type { PrivateKeyAccount } from 'viem/accounts';
import { hasRedis, NO_REDIS_REASON, startRedis, type RedisNode } from '@coinop/testkit/redis';
import { within } from '@coinop/testkit/poll';
import { serve, type ServeChild } from './run-cli.js';

/**
 * Issue 16: several API processes on one Postgres. Two real `coinop serve` processes (separate
 * memory) share one database and one Redis: a rate limit holds across both, and a change made
 * through one reaches the other within a second although their caches would keep it ten minutes.
 * Postgres only (the embedded database is one process's): it runs in CI's Postgres pass.
 */
const ADMIN_TOKEN = `cat_${randomBytes(16).toString('hex')}`;
const PLAYS_PER_MINUTE = 4;
const CACHE_TTL_MS = 600_000;
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function call(
  base: string,
  method: string,
  path: string,
  { token, payload }: { token?: string | undefined; payload?: object } = {},
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(payload ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    ...(payload ? { body: JSON.stringify(payload) } : {}),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
  };
}

const postgres = storeVariants().filter((v) => v === 'postgres');

// The embedded database serves one process: without Postgres there is nothing to run, and saying so.
describe.skipIf(postgres.length > 0)('two API processes on one database', () => {
  it.skip('runs on Postgres only: set DATABASE_URL (CI runs it in its Postgres pass)', () => {});
});

// Redis missing fails in CI (`hasRedis` throws there) and skips elsewhere, saying so.
describe.skipIf(!hasRedis).each(postgres)(
  `two API processes on one %s database${hasRedis ? '' : ` (${NO_REDIS_REASON})`}`,
  () => {
    let database: { url: string; drop(): Promise<void> };
    let dataDir: string;
    let redis: RedisNode | null = null;
    let a: ServeChild;
    let b: ServeChild;
    /** The test's own connection to the shared database, to seed it as other tests do. */
    let seed: TestApi;
    let db: Db;

    beforeAll(async () => {
      database = await createTestDatabase();
      dataDir = await mkdtemp(join(tmpdir(), 'coinop-processes-'));
      redis = await startRedis();
      const args = [
        '--services',
        'api',
        '--api-port',
        '0',
        '--database-url',
        database.url,
        '--data-dir',
        dataDir,
        '--admin-token',
        ADMIN_TOKEN,
        '--redis-url',
        redis.url,
        '--rate-limit',
        `plays=${PLAYS_PER_MINUTE}`,
        '--game-cache-ttl-ms',
        String(CACHE_TTL_MS),
        '--default-allowance',
        'unlimited',
      ];
      // One after the other: the first migrates and creates the arcade and the secrets key.
      // A also runs the sign-in service, for the developer portal's web session.
      a = await serve([...args, '--services', 'api,auth', '--auth-port', '0']);
      b = await serve(args);
      db = await openPostgres(database.url, 4);
      const clock = new ManualClock(new Date());
      const record = await ensureArcade(db, clock, uuidIds);
      // Only what the fixtures read of an API: the arcade's record and a game cache of its own.
      const app = { arcade: { record, games: new GameCache(db, 0) } } as unknown as FastifyInstance;
      seed = { app, db, clock, config: {} as TestApi['config'], close: () => db.close() };
    }, 120_000);

    afterAll(async () => {
      for (const child of [a, b]) child?.child.kill('SIGTERM');
      await Promise.all([a?.exited, b?.exited]);
      await seed?.close();
      await redis?.stop();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    async function writeTokenFrom(base: string, game: GameFixture): Promise<string> {
      const res = await call(base, 'POST', '/oauth/writetoken', {
        payload: { client_id: game.clientId, client_secret: game.clientSecret },
      });
      expect(res.status).toBe(200);
      return res.body['access_token'] as string;
    }

    const play = (base: string, game: GameFixture, token: string, playerId: string) =>
      call(base, 'POST', `/arcades/${game.arcadeId}/games/${game.gameId}/play`, {
        token,
        payload: { playerId, leaderboardId: game.tiers[0]!.id },
      });

    it('holds a rate limit across both: refused at the shared max, not at twice it', async () => {
      const game = await gameWithTiers(seed);
      const player = await fundedPlayer(seed, 100);
      const token = await writeTokenFrom(a.url, game);
      const statuses: number[] = [];
      for (let i = 0; i < PLAYS_PER_MINUTE + 2; i++) {
        statuses.push(
          (await play(i % 2 === 0 ? a.url : b.url, game, token, player.playerId)).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
      const refused = await play(b.url, game, token, player.playerId);
      expect(refused.body).toMatchObject({ code: 'rate_limited' });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.body['message']).toMatch(
        new RegExp(
          `^too many requests from this game client: at most ${PLAYS_PER_MINUTE} a minute`,
        ),
      );
    });

    it('shows a tier added through A in B within a second', async () => {
      const game = await gameWithTiers(seed, { costs: [1, 10] });
      const token = await writeTokenFrom(b.url, game);
      const tiersOnB = async () => {
        const res = await call(
          b.url,
          'GET',
          `/arcades/${game.arcadeId}/developergames/${game.gameId}`,
          {
            token,
          },
        );
        return (res.body['leaderboards'] as unknown[]).length;
      };
      expect(await tiersOnB()).toBe(2);
      const added = await call(
        a.url,
        'POST',
        '/admin/leaderboards',
        {
          payload: { gameId: game.gameId, name: 'Added on A', cost: 3 },
        },
        admin,
      );
      expect(added.status).toBe(201);
      expect(await within(1000, async () => (await tiersOnB()) === 3)).toBeLessThan(1000);
    });

    it('refuses on B a play of a game suspended through A within a second', async () => {
      const game = await gameWithTiers(seed);
      const player = await fundedPlayer(seed, 100);
      const token = await writeTokenFrom(b.url, game);
      expect((await play(b.url, game, token, player.playerId)).status).toBe(200);
      const suspended = await call(a.url, 'POST', `/admin/games/${game.gameId}/suspend`, {}, admin);
      expect(suspended.status).toBe(200);
      let refusal: Answer | undefined;
      await within(1000, async () => {
        refusal = await play(b.url, game, token, player.playerId);
        return refusal.status !== 200;
      });
      expect(refusal?.status).toBe(403);
      expect(refusal?.body).toMatchObject({ code: 'game_suspended' });
    });

    /** A web session of `wallet` from A's sign-in service, as the developer portal asks. */
    async function signIn(wallet: PrivateKeyAccount): Promise<string> {
      const authUrl = String(a.urls['auth']);
      expect(authUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const challenge = await call(authUrl, 'POST', '/wallet/challenge', {
        payload: { address: wallet.address },
      });
      const message = challenge.body['message'] as string;
      const signature = await wallet.signMessage({ message });
      const verified = await call(authUrl, 'POST', '/wallet/verify', {
        payload: { message, signature },
      });
      expect(verified.status).toBe(200);
      return verified.body['access_token'] as string;
    }

    it('refuses on B the write tokens of a client revoked through A within a second', async () => {
      const developer = newWallet();
      const game = await gameWithTiers(seed, { developerWallet: developer.address });
      const token = await writeTokenFrom(b.url, game);
      const read = () =>
        call(b.url, 'GET', `/arcades/${game.arcadeId}/developergames/${game.gameId}`, { token });
      // B has verified the token and remembers it.
      expect((await read()).status).toBe(200);

      const revoked = await call(
        a.url,
        'DELETE',
        `/developer/games/${game.gameId}/clients/${game.clientId}`,
        { token: await signIn(developer) },
      );
      expect(revoked.status).toBe(200);

      await within(1000, async () => (await read()).status === 401);
      expect((await read()).body).toMatchObject({ code: 'invalid_write_token' });
      const exchange = await call(b.url, 'POST', '/oauth/writetoken', {
        payload: { client_id: game.clientId, client_secret: game.clientSecret },
      });
      expect(exchange.body).toMatchObject({ code: 'invalid_client_credentials' });
    });
  },
);
