import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import pino from 'pino';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorHandlerPlugin } from '../../src/listener/error-handler.js';
import { perClientAddress, registerRateLimit } from '../../src/listener/rate-limit.js';
import { connectRedis, redisReady } from '../../src/listener/shared-counts.js';
import { hasRedis, NO_REDIS_REASON, startRedis, type RedisNode } from '@coinop/testkit/redis';

/** A listener like the API's: one route limited to `max` a minute per address, its log kept. */
async function limitedApp(redis: Redis | null, max: number) {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  const app: FastifyInstance = Fastify({
    loggerInstance: pino({ level: 'info' }, stream) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  await app.register(errorHandlerPlugin);
  await registerRateLimit(app, { forwarding: null, redis });
  app.post('/limited', { config: perClientAddress(max) }, async () => ({ ok: true }));
  await app.ready();
  const hit = async () => (await app.inject({ method: 'POST', url: '/limited' })).statusCode;
  return { app, lines, hit };
}

describe.skipIf(!hasRedis)(
  `rate-limit counts shared through Redis${hasRedis ? '' : ` (${NO_REDIS_REASON})`}`,
  () => {
    let node: RedisNode;
    beforeAll(async () => {
      node = await startRedis();
    });
    afterAll(() => node.stop());

    it('holds one limit across two listeners: refused at the max, not at twice the max', async () => {
      const redis = connectRedis(node.url);
      expect(await redisReady(redis)).toBe(true);
      const [a, b] = [await limitedApp(redis, 3), await limitedApp(redis, 3)];
      try {
        await redis.flushall();
        expect([await a.hit(), await b.hit(), await a.hit(), await b.hit(), await a.hit()]).toEqual(
          [200, 200, 200, 429, 429],
        );
        // Each listener alone would have let three through.
        const alone = await limitedApp(null, 3);
        expect([await alone.hit(), await alone.hit(), await alone.hit()]).toEqual([200, 200, 200]);
        await alone.app.close();
      } finally {
        await Promise.all([a.app.close(), b.app.close()]);
        redis.disconnect();
      }
    });

    it('counts in the process while Redis is down, says so once, and shares again when it is back', async () => {
      const redis = connectRedis(node.url);
      expect(await redisReady(redis)).toBe(true);
      const a = await limitedApp(redis, 2);
      try {
        await redis.flushall();
        expect(await a.hit()).toBe(200);
        await node.stop();
        // The arcade keeps answering, and each process still holds the limit by itself.
        expect([await a.hit(), await a.hit(), await a.hit()]).toEqual([200, 200, 429]);
        const warnings = a.lines.filter((l) => l.level === 40);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]?.msg).toMatch(
          /^Redis \(--redis-url\) does not answer \(.+\): each process counts rate limits alone until it does$/,
        );
        expect(JSON.stringify(a.lines)).not.toContain(node.url);

        node = await startRedis(node.port);
        // ioredis reconnects by itself, with a growing wait.
        expect(await redisReady(redis, 10_000)).toBe(true);
        expect(await a.hit()).toBe(200);
        expect(a.lines.at(-1)?.msg).toBe(
          'Redis answers again: rate limits are counted for every process again',
        );
        expect(Number(await redis.keys('coinop:rate-limit:*').then((k) => k.length))).toBe(1);
      } finally {
        await a.app.close();
        redis.disconnect();
      }
    });
  },
);
