import { randomFillSync } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Clock, Ids } from '@coinop/core';

/** Ids drawn per refill of the random pool. */
const POOLED_IDS = 256;

/**
 * Time-ordered UUIDs (v7): new rows land at the end of their indexes. uuid's own `v7()` asks
 * the system for 16 random bytes per id, a measurable share of the play path's CPU (a score
 * settles with a dozen transfers); these come from a pool refilled 256 ids at a time. The
 * ordering within a millisecond is uuid's own (RFC 9562's counter: a random start each
 * millisecond, one more per id), so ids still sort in the order they were made.
 */
export class PooledUuidV7 implements Ids {
  readonly #pool = new Uint8Array(16 * POOLED_IDS);
  #at = this.#pool.length;
  #msecs = -Infinity;
  #seq = 0;

  next(): string {
    if (this.#at === this.#pool.length) {
      randomFillSync(this.#pool);
      this.#at = 0;
    }
    const random = this.#pool.subarray(this.#at, this.#at + 16);
    this.#at += 16;
    const now = Date.now();
    if (now > this.#msecs) {
      this.#msecs = now;
      this.#seq =
        (((random[6] ?? 0) & 0x7f) << 24) |
        ((random[7] ?? 0) << 16) |
        ((random[8] ?? 0) << 8) |
        (random[9] ?? 0);
    } else {
      this.#seq = (this.#seq + 1) | 0;
      if (this.#seq === 0) this.#msecs += 1;
    }
    return uuidv7({ random, msecs: this.#msecs, seq: this.#seq });
  }
}

export const uuidIds: Ids = new PooledUuidV7();

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  #now: number;
  constructor(start: Date = new Date('2026-01-01T00:00:00Z')) {
    this.#now = start.getTime();
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}
