import { describe, expect, it } from 'vitest';
import { dividePool, paidPlaces } from '../src/index.js';

// The pool division moved from the core to the protocol so the web app shows prizes by the rule
// that pays them (issue 29); its table-driven tests stay in core/test/tournaments. These check
// the TSDoc examples say what the functions do.
describe('the payout examples', () => {
  it('pay the places a field fills', () => {
    expect(paidPlaces({ places: [5000, 3000, 2000] }, 2)).toBe(2);
    expect(paidPlaces({ topPercent: 10 }, 25)).toBe(3);
  });

  it('divide a pool exactly, the remainder to the arcade', () => {
    expect(dividePool(100n, { places: [5000, 3000, 2000] }, 5)).toEqual({
      prizes: [50n, 30n, 20n],
      remainder: 0n,
    });
    expect(dividePool(10n, { topPercent: 100 }, 3)).toEqual({
      prizes: [3n, 3n, 3n],
      remainder: 1n,
    });
  });
});
