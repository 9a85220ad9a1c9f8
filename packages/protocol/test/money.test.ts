import { describe, expect, it } from 'vitest';
import {
  MAX_UNITS,
  approvalMessage,
  formatHst,
  formatHstCompact,
  formatHstGrouped,
  formatHstRounded,
  readHst,
  unitsToHstNumber,
  type HstProblem,
} from '../src/index.js';

/**
 * Issue 27 finding 5: the text a player signs was built from a JavaScript number, so a fee of 7
 * base units read `Lock: 7e-8 HST` and one of 1000000000.00000001 HST read `Lock: 1000000000 HST`.
 * These check the one formatter, its reader and the approval text over every size of amount from
 * one base unit to the largest a balance holds: edge values, then seeded random ones (the seed is
 * in every failure's message; COINOP_PROPERTY_SEED=<n> replays it).
 */

const EDGES: readonly [string, bigint][] = [
  ['1 unit', 1n],
  ['10^8 - 1 units', 10n ** 8n - 1n],
  ['1 HST', 10n ** 8n],
  ['10^8 + 1 units', 10n ** 8n + 1n],
  ['2^53 - 1 units', 2n ** 53n - 1n],
  ['2^53 units', 2n ** 53n],
  ['2^53 + 1 units', 2n ** 53n + 1n],
  ['10^15 units', 10n ** 15n],
  ['1000000000.00000001 HST', 10n ** 17n + 1n],
  ['MAX_UNITS - 1', MAX_UNITS - 1n],
  ['MAX_UNITS', MAX_UNITS],
];

const SEED = Number(process.env['COINOP_PROPERTY_SEED'] ?? 20_270_005);
const SAMPLES = 5_000;

/** mulberry32: small, seedable, good enough to spread amounts over every magnitude. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * Amounts from 1 unit to MAX_UNITS, evenly over their number of digits (1 to 19), so small
 * fractions, whole amounts and the largest balances are all drawn; a third are whole HST.
 */
function sampleUnits(seed: number, count: number): bigint[] {
  const next = random(seed);
  const out: bigint[] = [];
  while (out.length < count) {
    const digits = 1 + Math.floor(next() * 19);
    let text = String(1 + Math.floor(next() * 9));
    while (text.length < digits) text += String(Math.floor(next() * 10));
    let units = BigInt(text);
    if (next() < 1 / 3) units -= units % 10n ** 8n;
    if (units >= 1n && units <= MAX_UNITS) out.push(units);
  }
  return out;
}

/** The expected text, worked out another way: the digits of the units with a point put in. */
function decimalOf(units: bigint): string {
  const digits = units.toString().padStart(9, '0');
  const whole = digits.slice(0, -8);
  const fraction = digits.slice(-8).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

const CASES: readonly [string, bigint][] = [
  ...EDGES,
  ...sampleUnits(SEED, SAMPLES).map((u): [string, bigint] => [`seed ${SEED}: ${u} units`, u]),
];

describe('formatHst', () => {
  it.each([
    [0n, '0'],
    [1n, '0.00000001'],
    [7n, '0.00000007'],
    [99_999_999n, '0.99999999'],
    [100_000_000n, '1'],
    [150_000_000n, '1.5'],
    [9_007_199_254_740_991n, '90071992.54740991'],
    [100_000_000_000_000_001n, '1000000000.00000001'],
    [MAX_UNITS, '92233720368.54775807'],
    [-250_000_000n, '-2.5'],
    [-1n, '-0.00000001'],
  ])('%s units is "%s"', (units, text) => {
    expect(formatHst(units)).toBe(text);
  });

  it(`writes every amount from 1 unit to MAX_UNITS exactly (${CASES.length} amounts)`, () => {
    for (const [name, units] of CASES) {
      const text = formatHst(units);
      expect(text, name).toBe(decimalOf(units));
      expect(text, name).toMatch(/^(0|[1-9]\d*)(\.\d{0,7}[1-9])?$/);
      expect(readHst(text), name).toEqual({ units, problem: null });
      expect(formatHst(-units), name).toBe(`-${text}`);
    }
  });

  it('refuses a number, whose digits are already lost', () => {
    expect(() => formatHst(1e-8 as unknown as bigint)).toThrow(
      new TypeError('HST is formatted from base units (a bigint), got number'),
    );
  });
});

describe('formatHstGrouped', () => {
  it.each([
    [0n, '0'],
    [1n, '0.00000001'],
    [99_900_000_000n, '999'],
    [100_000_000_000n, '1,000'],
    [125_050_000_000n, '1,250.5'],
    [5_717_027_776n, '57.17027776'],
    [100_000_000_000_000_001n, '1,000,000,000.00000001'],
    [MAX_UNITS, '92,233,720,368.54775807'],
    [-100_000_000_000n, '-1,000'],
  ])('%s units reads "%s"', (units, text) => {
    expect(formatHstGrouped(units)).toBe(text);
  });

  it('has the digits of formatHst, the whole part in groups of three', () => {
    for (const [name, units] of CASES) {
      const grouped = formatHstGrouped(units);
      expect(grouped.replaceAll(',', ''), name).toBe(formatHst(units));
      expect(grouped, name).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)?$/);
    }
  });
});

/**
 * Issue 28: a balance with 8 decimals (57.17027776 HST) made every page scroll sideways on a
 * 360 px phone. Compact places show a shortened holding; these check that it never reads as
 * more than the amount, is marked whenever digits were dropped, and fits its space.
 */

/**
 * The units a shortened text stands for (mark, commas and suffix read back), exactly; `<0.01`
 * stands for "above 0, below 0.01", read as 0 here.
 */
function unitsOfShort(text: string): bigint {
  const match = /^([≈<]?)([\d,.]+)([KMB]?)$/.exec(text);
  if (!match) throw new Error(`not a shortened amount: ${text}`);
  if (match[1] === '<') return 0n;
  const units = readHst(match[2]!.replaceAll(',', '')).units!;
  const scale = { '': 1n, K: 10n ** 3n, M: 10n ** 6n, B: 10n ** 9n }[match[3]!]!;
  return units * scale;
}

describe('formatHstRounded', () => {
  it.each([
    [0n, 2, '0', true],
    [1n, 2, '<0.01', false],
    [999_999n, 2, '<0.01', false],
    [1_000_000n, 2, '0.01', true],
    [1_000_001n, 2, '≈0.01', false],
    [150_000_000n, 2, '1.5', true],
    [5_717_027_776n, 2, '≈57.17', false],
    [5_717_999_999n, 2, '≈57.17', false],
    [5_717_027_776n, 4, '≈57.1702', false],
    [5_717_027_776n, 8, '57.17027776', true],
    [5_717_027_776n, 0, '≈57', false],
    [49n, 0, '<1', false],
    [105_717_027_776n, 2, '≈1,057.17', false],
    [100_000_000_000_000_001n, 2, '≈1,000,000,000', false],
    [MAX_UNITS, 2, '≈92,233,720,368.54', false],
  ])('%s units with %s decimals reads "%s"', (units, decimals, text, exact) => {
    expect(formatHstRounded(units, decimals)).toEqual({ text, exact });
  });

  it('never reads as more than the amount, and is marked whenever digits were dropped', () => {
    for (const [name, units] of CASES) {
      for (const decimals of [0, 2, 4]) {
        const { text, exact } = formatHstRounded(units, decimals);
        const step = 10n ** BigInt(8 - decimals);
        const shown = unitsOfShort(text);
        expect(shown <= units, `${name}, ${decimals} decimals: ${text}`).toBe(true);
        expect(units - shown < step, `${name}, ${decimals} decimals: ${text}`).toBe(true);
        expect(exact, name).toBe(shown === units);
        expect(/^[≈<]/.test(text), name).toBe(!exact);
        if (units > 0n) expect(text, name).not.toBe('0');
      }
    }
  });

  it('refuses a negative amount, a number and a bad count of decimals', () => {
    expect(() => formatHstRounded(-1n)).toThrow(
      new TypeError('a shortened amount is a holding, never negative; got -0.00000001'),
    );
    expect(() => formatHstRounded(5 as unknown as bigint)).toThrow(
      new TypeError('HST is formatted from base units (a bigint), got number'),
    );
    for (const decimals of [-1, 9, 1.5]) {
      expect(() => formatHstRounded(1n, decimals)).toThrow(
        new TypeError(`decimals must be a whole number from 0 to 8, got ${decimals}`),
      );
    }
  });
});

describe('formatHstCompact', () => {
  it.each([
    [0n, '0', true],
    [7n, '<0.01', false],
    [5_717_027_776n, '≈57.17', false],
    [99_999_999_999n, '≈999.99', false],
    [100_000_000_000n, '1K', true],
    [100_050_000_000n, '≈1K', false],
    [105_717_027_776n, '≈1.05K', false],
    [5_621_717_027_776n, '≈56.21K', false],
    [5_621_717_027_776n * 2n, '≈112.4K', false],
    [99_999_999_999_999n, '≈999.9K', false],
    [250_000_000_000_000n, '2.5M', true],
    [100_000_000_000_000_001n, '≈1B', false],
    [MAX_UNITS, '≈92.23B', false],
  ])('%s units reads "%s"', (units, text, exact) => {
    expect(formatHstCompact(units)).toEqual({ text, exact });
  });

  it('fits 7 characters, never reads as more than the amount, and is marked when cut', () => {
    for (const [name, units] of CASES) {
      const { text, exact } = formatHstCompact(units);
      const shown = unitsOfShort(text);
      expect(text.length, `${name}: ${text}`).toBeLessThanOrEqual(7);
      expect(shown <= units, `${name}: ${text}`).toBe(true);
      // At most the last kept decimal of the unit it is written in is dropped.
      const suffix = /[KMB]$/.exec(text)?.[0] ?? '';
      const unit = { '': 1n, K: 10n ** 3n, M: 10n ** 6n, B: 10n ** 9n }[suffix]! * 10n ** 8n;
      const last = suffix !== '' && shown >= 100n * unit ? unit / 10n : unit / 100n;
      expect(units - shown < last, `${name}: ${text}`).toBe(true);
      expect(exact, name).toBe(shown === units);
      expect(/^[≈<]/.test(text), name).toBe(!exact);
    }
  });
});

describe('readHst', () => {
  it.each([
    [0, 0n],
    ['0', 0n],
    [1, 100_000_000n],
    [12.5, 1_250_000_000n],
    ['0.00000001', 1n],
    [1e-8, 1n],
    [7e-8, 7n],
    [0.1, 10_000_000n],
    [3e-7, 30n],
    ['1000000000.00000001', 100_000_000_000_000_001n],
    ['92233720368.54775807', MAX_UNITS],
  ])('%j HST is %s units', (input, units) => {
    expect(readHst(input)).toEqual({ units, problem: null });
  });

  it.each<[unknown, HstProblem, string]>([
    [-1, 'negative', 'must not be negative, got -1'],
    ['-0.5', 'negative', 'must not be negative, got -0.5'],
    [Number.NaN, 'not_finite', 'must be a finite number, got NaN'],
    ['1.000000001', 'too_many_decimals', 'must have at most 8 decimals, got 1.000000001'],
    [1e-9, 'too_many_decimals', 'must have at most 8 decimals, got 0.000000001'],
    ['1e3', 'exponent', 'must be written out without an exponent, got 1e3'],
    ['7e-8', 'exponent', 'must be written out without an exponent, got 7e-8'],
    [' 2', 'spaces', 'must not have spaces around it, got " 2"'],
    [
      '92233720368.54775808',
      'too_large',
      'must be at most 92233720368.54775807 HST, got 92233720368.54775808',
    ],
    [1e21, 'too_large', 'must be at most 92233720368.54775807 HST, got 1e+21'],
    ['01', 'not_an_amount', 'must be an amount of HST such as 12 or 0.5, got 01'],
    ['1,000', 'not_an_amount', 'must be an amount of HST such as 12 or 0.5, got 1,000'],
    [true, 'not_an_amount', 'must be a number of HST, got boolean'],
  ])('refuses %j: %s', (input, problem, why) => {
    expect(readHst(input)).toEqual({ units: null, problem, why });
  });
});

describe('unitsToHstNumber', () => {
  it('is exact below 10^15 units and for whole HST up to MAX_UNITS', () => {
    for (const [name, units] of CASES) {
      const whole = units - (units % 10n ** 8n);
      expect(readHst(unitsToHstNumber(whole)).units, name).toBe(whole);
      if (units < 10n ** 15n) expect(readHst(unitsToHstNumber(units)).units, name).toBe(units);
    }
  });
});

describe('approvalMessage amounts', () => {
  const base = { gameId: 'g1', gameName: 'Reaction', nonce: 'n-1' };

  it('locks and pays exactly the units, written by formatHst', () => {
    expect(
      approvalMessage({
        ...base,
        kind: 'play',
        leaderboardId: 'r1',
        tierName: 'Cup',
        costUnits: 7n,
      }),
    ).toBe(
      'coinop arcade: lock HST for a play\nGame: Reaction (g1)\nTier: Cup (r1)\n' +
        'Lock: 0.00000007 HST\nNonce: n-1',
    );
    expect(
      approvalMessage({ ...base, kind: 'purchase', amountUnits: 100_000_000_000_000_001n }),
    ).toBe(
      "coinop arcade: pay the game's developer\nGame: Reaction (g1)\n" +
        'Pay: 1000000000.00000001 HST\nNonce: n-1',
    );
  });

  it('says, for every amount, the amount taken and no other', () => {
    for (const [name, units] of CASES) {
      const play = approvalMessage({
        ...base,
        kind: 'play',
        leaderboardId: 'r1',
        tierName: 'Cup',
        costUnits: units,
      });
      const pay = approvalMessage({ ...base, kind: 'purchase', amountUnits: units });
      const lock = /^Lock: (.*) HST$/m.exec(play)?.[1];
      const paid = /^Pay: (.*) HST$/m.exec(pay)?.[1];
      expect(lock, name).toBe(decimalOf(units));
      expect(readHst(lock).units, name).toBe(units);
      expect(paid, name).toBe(decimalOf(units));
      expect(readHst(paid).units, name).toBe(units);
      // One unit more or less is another text: a signature covers one amount.
      const other = approvalMessage({ ...base, kind: 'purchase', amountUnits: units + 1n });
      expect(other, name).not.toBe(pay);
    }
  });

  it('is not the text a JavaScript number prints where the two differ', () => {
    let differing = 0;
    for (const [name, units] of CASES) {
      const numberText = String(Number(decimalOf(units)));
      const pay = approvalMessage({ ...base, kind: 'purchase', amountUnits: units });
      if (numberText !== decimalOf(units)) {
        differing += 1;
        expect(pay, name).not.toContain(`Pay: ${numberText} HST`);
      }
    }
    // The sample reaches the amounts a number mis-states (7e-8, past 15 digits).
    expect(differing).toBeGreaterThan(SAMPLES / 10);
  });
});
