import { v7 as uuidv7 } from 'uuid';
import type { Clock, Ids } from '@coinop/core';

/** Time-ordered UUIDs (v7): new rows land at the end of their indexes. */
export const uuidIds: Ids = { next: () => uuidv7() };

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
