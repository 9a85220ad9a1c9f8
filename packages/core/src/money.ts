import { HST_DECIMALS, UNITS_PER_HST } from '@coinop/protocol';
import { CoinopError } from './errors.js';

/** An amount of HST in base units (10^-8 HST). Always an integer; never a float. */
export type Units = bigint;

const HST_PATTERN = /^(0|[1-9]\d*)(?:\.(\d+))?$/;

/** The most base units an amount may have: what a ledger balance (a signed 64-bit integer) holds. */
export const MAX_UNITS: Units = 2n ** 63n - 1n;

/**
 * Converts an HST amount given on the wire (a JSON number or a decimal string) into base units,
 * exactly, or refuses it saying why: not a number of HST, negative, spaces around it, an exponent
 * (`1e3`), more than 8 decimals, or more than a balance can hold. `field` names the input in the
 * error message. A JSON number arrives as the double it was parsed into: its shortest decimal
 * form is what the sender wrote for any amount a double holds (the JSON parser refuses numbers
 * with more digits than that).
 */
export function parseHst(value: unknown, field: string): Units {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(field, `must be a finite number, got ${value}`);
    if (value < 0) throw invalid(field, `must not be negative, got ${value}`);
    if (value >= 1e21) throw tooLarge(field, String(value));
    text = numberToPlainString(value);
  } else if (typeof value === 'string') {
    text = value;
    if (text !== text.trim()) {
      throw invalid(field, `must not have spaces around it, got ${JSON.stringify(text)}`);
    }
    if (text.startsWith('-')) throw invalid(field, `must not be negative, got ${text}`);
    if (/^[\d.]+e[+-]?\d+$/i.test(text)) {
      throw invalid(field, `must be written out without an exponent, got ${text}`);
    }
  } else {
    throw invalid(field, `must be a number of HST, got ${typeof value}`);
  }
  const match = HST_PATTERN.exec(text);
  if (!match) throw invalid(field, `must be an amount of HST such as 12 or 0.5, got ${text}`);
  const fraction = match[2] ?? '';
  if (fraction.length > HST_DECIMALS) {
    throw invalid(field, `must have at most ${HST_DECIMALS} decimals, got ${text}`);
  }
  const units =
    BigInt(match[1] ?? '0') * UNITS_PER_HST + BigInt(fraction.padEnd(HST_DECIMALS, '0'));
  if (units > MAX_UNITS) throw tooLarge(field, text);
  return units;
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
  const match = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  // Exponent form, as small amounts print (1e-7): moved into plain decimals digit by digit, so
  // nothing is rounded on the way.
  const digits = `${match[1]}${match[2] ?? ''}`;
  const point = (match[1] ?? '').length + Number(match[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

function tooLarge(field: string, text: string): CoinopError {
  return invalid(field, `must be at most ${formatHst(MAX_UNITS)} HST, got ${text}`);
}

function invalid(field: string, why: string): CoinopError {
  return new CoinopError('invalid_amount', `${field} ${why}`, { details: { field } });
}
