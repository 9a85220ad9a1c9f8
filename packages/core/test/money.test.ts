import { describe, expect, it } from 'vitest';
import { CoinopError, formatHst, parseHst, unitsToHstNumber } from '../src/index.js';

describe('parseHst', () => {
  it.each([
    [0, 0n],
    [1, 100_000_000n],
    [12.5, 1_250_000_000n],
    ['0.00000001', 1n],
    [1e-8, 1n],
    [0.1, 10_000_000n],
    [0.3, 30_000_000n],
    ['123456789.12345678', 12_345_678_912_345_678n],
    [3e-7, 30n],
    ['92233720368.54775807', 2n ** 63n - 1n],
  ])('%j HST is %s units', (input, units) => {
    expect(parseHst(input, 'amount')).toBe(units);
  });

  it.each([
    [-1, 'amount must not be negative, got -1'],
    ['-0.5', 'amount must not be negative, got -0.5'],
    [Number.NaN, 'amount must be a finite number, got NaN'],
    [Number.POSITIVE_INFINITY, 'amount must be a finite number, got Infinity'],
    ['1.000000001', 'amount must have at most 8 decimals, got 1.000000001'],
    [
      '1.0000000000000000000001',
      'amount must have at most 8 decimals, got 1.0000000000000000000001',
    ],
    [1e-9, 'amount must have at most 8 decimals, got 0.000000001'],
    [1e-11, 'amount must have at most 8 decimals, got 0.00000000001'],
    ['1e3', 'amount must be written out without an exponent, got 1e3'],
    ['2.5E-3', 'amount must be written out without an exponent, got 2.5E-3'],
    [' 2 ', 'amount must not have spaces around it, got " 2 "'],
    ['12\n', 'amount must not have spaces around it, got "12\\n"'],
    [1e23, 'amount must be at most 92233720368.54775807 HST, got 1e+23'],
    [
      '92233720368.54775808',
      'amount must be at most 92233720368.54775807 HST, got 92233720368.54775808',
    ],
    ['01', 'amount must be an amount of HST such as 12 or 0.5, got 01'],
    ['', 'amount must be an amount of HST such as 12 or 0.5, got '],
    ['abc', 'amount must be an amount of HST such as 12 or 0.5, got abc'],
    ['1.', 'amount must be an amount of HST such as 12 or 0.5, got 1.'],
    [true, 'amount must be a number of HST, got boolean'],
    [null, 'amount must be a number of HST, got object'],
  ])('rejects %j', (input, message) => {
    let thrown: unknown;
    try {
      parseHst(input, 'amount');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CoinopError);
    expect(thrown).toMatchObject({ code: 'invalid_amount', message });
  });
});

describe('formatHst', () => {
  it.each([
    [0n, '0'],
    [1n, '0.00000001'],
    [150_000_000n, '1.5'],
    [1_000_000_000n, '10'],
    [-250_000_000n, '-2.5'],
  ])('%s units is "%s"', (units, text) => {
    expect(formatHst(units)).toBe(text);
    expect(unitsToHstNumber(units)).toBe(Number(text));
  });

  it('round-trips through parseHst for every amount of a seeded sample', () => {
    let seed = 42;
    for (let i = 0; i < 1000; i++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      const units = BigInt(seed) * 997n;
      expect(parseHst(formatHst(units), 'x')).toBe(units);
      expect(parseHst(unitsToHstNumber(units), 'x')).toBe(units);
    }
  });
});
