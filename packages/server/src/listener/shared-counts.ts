import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Redis } from 'ioredis';

/**
 * Rate-limit counts shared by every API process through Redis (`--redis-url`), falling back to
 * this process's own counts while Redis cannot be reached. Skipping the limit on a Redis error
 * (the plugin's `skipOnError`) would turn every limit off exactly when something is wrong; failing
 * the request would let a Redis outage take the arcade down. Counting alone keeps each limit per
 * process meanwhile, and the log says so once per outage.
 */

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;

/**
 * A store that can also read a count without adding to it (`{ increment: false }`), as both of
 * @fastify/rate-limit's stores can; its type does not say so yet.
 */
type ReadingStore = FastifyRateLimitStore & {
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
};

/** Redis answers within this or the count is taken here: a limit must not stall a request. */
const COMMAND_TIMEOUT_MS = 250;
const CONNECT_TIMEOUT_MS = 2000;
/** Keys of the counts in Redis, so a Redis shared with other applications keeps them apart. */
const KEY_PREFIX = 'coinop:rate-limit:';

// The plugin's own stores: the Lua-scripted Redis counter and the in-memory LRU one.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => FastifyRateLimitStore;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => FastifyRateLimitStore;

/**
 * A Redis connection for the counts: commands fail at once while it is down (no offline queue),
 * and within `COMMAND_TIMEOUT_MS` when it hangs, so the fallback answers instead. It reconnects
 * by itself; its errors are reported by the stores using it, not thrown.
 */
export function connectRedis(url: string): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
  });
  // Without a listener ioredis prints every failed reconnection to stderr.
  redis.on('error', () => undefined);
  return redis;
}

/**
 * Waits until the connection is ready, at most `timeoutMs`; false if it is not by then. Start-up
 * waits so the first requests are counted in Redis, but goes on without it: the counts fall back.
 */
export function redisReady(redis: Redis, timeoutMs = CONNECT_TIMEOUT_MS): Promise<boolean> {
  if (redis.status === 'ready') return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), timeoutMs);
    redis.on('ready', onReady);
  });
}

/** Whether Redis failed last time, shared by a listener's route stores: one warning an outage. */
interface Outage {
  down: boolean;
}

/** The store class for @fastify/rate-limit's `store` option. */
export function sharedCountStore(redis: Redis, log: FastifyBaseLogger): FastifyRateLimitStoreCtor {
  const outage: Outage = { down: false };
  return class {
    readonly #fallback = new FallbackStore(
      new RedisStore(false, false, redis, KEY_PREFIX) as ReadingStore,
      new LocalStore(false, false) as ReadingStore,
      outage,
      log,
    );

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      this.#fallback.incr(key, callback, timeWindow, max);
    }

    read(key: string, callback: Callback, timeWindow: number, max: number): void {
      this.#fallback.read(key, callback, timeWindow, max);
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      return this.#fallback.child(routeOptions);
    }
  };
}

class FallbackStore implements ReadingStore {
  readonly #shared: ReadingStore;
  readonly #local: ReadingStore;
  readonly #outage: Outage;
  readonly #log: FastifyBaseLogger;

  constructor(shared: ReadingStore, local: ReadingStore, outage: Outage, log: FastifyBaseLogger) {
    this.#shared = shared;
    this.#local = local;
    this.#outage = outage;
    this.#log = log;
  }

  incr(key: string, callback: Callback, timeWindow: number, max: number): void {
    this.#counted('incr', key, callback, timeWindow, max);
  }

  read(key: string, callback: Callback, timeWindow: number, max: number): void {
    this.#counted('read', key, callback, timeWindow, max);
  }

  /** `method` on Redis, or on this process's counts while Redis does not answer. */
  #counted(
    method: 'incr' | 'read',
    key: string,
    callback: Callback,
    timeWindow: number,
    max: number,
  ): void {
    this.#shared[method](
      key,
      (error, result) => {
        if (error === null && result !== undefined) {
          if (this.#outage.down) {
            this.#outage.down = false;
            this.#log.info('Redis answers again: rate limits are counted for every process again');
          }
          callback(null, result);
          return;
        }
        if (!this.#outage.down) {
          this.#outage.down = true;
          // The message names the failure, never the URL, which may carry a password.
          this.#log.warn(
            `Redis (--redis-url) does not answer (${error?.message ?? 'no result'}): each ` +
              'process counts rate limits alone until it does',
          );
        }
        this.#local[method](key, callback, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    return new FallbackStore(
      this.#shared.child(routeOptions) as ReadingStore,
      this.#local.child(routeOptions) as ReadingStore,
      this.#outage,
      this.#log,
    );
  }
}
