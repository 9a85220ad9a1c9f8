import { HST_DECIMALS, UNITS_PER_HST } from '@coinop/protocol';
import { CoinopError } from './errors.js';

/** An amount of HST in base units (10^-8 HST). Always an integer; never a float. */
export type Units = bigint;

const HST_PATTERN = /^(0|[1-9]\d{0,17})(?:\.(\d{1,8}))?$/;

/**
 * Converts an HST amount given on the wire (a JSON number or a decimal string) into base units,
 * exactly. Rejects negatives, non-finite values, exponents and more than 8 decimals.
 * `field` names the input in the error message.
 */
export function parseHst(value: unknown, field: string): Units {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(field, `must be a finite number, got ${value}`);
    // Shortest round-trip form of the double: what the sender wrote for any sane amount.
    text = numberToPlainString(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    throw invalid(field, `must be a number of HST, got ${typeof value}`);
  }
  if (text.startsWith('-')) throw invalid(field, `must not be negative, got ${text}`);
  const match = HST_PATTERN.exec(text);
  if (!match) {
    throw invalid(
      field,
      `must be an amount of HST with at most ${HST_DECIMALS} decimals, got ${text}`,
    );
  }
  const whole = BigInt(match[1] ?? '0');
  const frac = BigInt((match[2] ?? '').padEnd(HST_DECIMALS, '0'));
  return whole * UNITS_PER_HST + frac;
}

/** Formats base units as a plain decimal HST string without trailing zeros: 150000000n → "1.5". */
export function formatHst(units: Units): string {
  const sign = units < 0n ? '-' : '';
  const abs = units < 0n ? -units : units;
  const whole = abs / UNITS_PER_HST;
  const frac = (abs % UNITS_PER_HST).toString().padStart(HST_DECIMALS, '0').replace(/0+$/, '');
  return `${sign}${whole}${frac ? `.${frac}` : ''}`;
}

/**
 * Base units as a JSON number of HST, for wire fields the spec types as numbers. Exact for every
 * amount below 2^53 base units (about 90 million HST); larger amounts keep 15 significant digits.
 */
export function unitsToHstNumber(units: Units): number {
  return Number(formatHst(units));
}

/** Whole HST to base units, for tier costs (integers by rule). */
export function wholeHstToUnits(hst: number | bigint): Units {
  return BigInt(hst) * UNITS_PER_HST;
}

function numberToPlainString(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // Exponent form: small amounts such as 1e-7 are valid; expand them exactly.
  return value.toFixed(HST_DECIMALS + 2).replace(/\.?0+$/, '');
}

function invalid(field: string, why: string): CoinopError {
  return new CoinopError('invalid_amount', `${field} ${why}`, { details: { field } });
}
