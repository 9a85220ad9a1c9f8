import { describe, expect, it } from 'vitest';
import { PooledUuidV7 } from '../src/ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('PooledUuidV7', () => {
  it('makes distinct v7 ids that sort in the order they were made, across pool refills', () => {
    const ids = new PooledUuidV7();
    const before = Date.now();
    // Far more than one pool (256) and, at this speed, many ids within each millisecond.
    const made = Array.from({ length: 5_000 }, () => ids.next());
    const after = Date.now();

    expect(made.every((id) => V7.test(id))).toBe(true);
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    const msOf = (id: string) => parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(msOf(made[0] ?? '')).toBeGreaterThanOrEqual(before);
    expect(msOf(made.at(-1) ?? '')).toBeLessThanOrEqual(after + 1);
  });

  it('draws fresh random bits for every id', () => {
    const ids = new PooledUuidV7();
    const tails = Array.from({ length: 600 }, () => ids.next().slice(-12));
    // The last 48 bits are random bytes: 600 ids repeating one would be a broken pool.
    expect(new Set(tails).size).toBe(600);
  });
});
