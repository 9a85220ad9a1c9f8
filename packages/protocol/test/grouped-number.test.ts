import { describe, expect, it } from 'vitest';
import { groupedNumber } from '../src/grouped-number.js';

describe('groupedNumber', () => {
  it('groups the whole part in thousands and keeps the fraction and sign as written', () => {
    expect(groupedNumber(0)).toBe('0');
    expect(groupedNumber(999)).toBe('999');
    expect(groupedNumber(1000)).toBe('1,000');
    expect(groupedNumber(260104)).toBe('260,104');
    expect(groupedNumber(1388.5)).toBe('1,388.5');
    expect(groupedNumber(-1234567.25)).toBe('-1,234,567.25');
    expect(groupedNumber('5000.5')).toBe('5,000.5');
  });

  it('keeps every digit JavaScript writes, and leaves an exponent alone', () => {
    expect(groupedNumber(Number.MAX_SAFE_INTEGER)).toBe('9,007,199,254,740,991');
    expect(groupedNumber(0.000123)).toBe('0.000123');
    expect(groupedNumber(1e21)).toBe('1e+21');
    expect(groupedNumber('not a number')).toBe('not a number');
  });
});
