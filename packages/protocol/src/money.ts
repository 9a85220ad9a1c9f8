/**
 * HST amounts: the one place base units become text and text becomes base units. Every amount a
 * person signs, reads on a page or gets in a response is written by `formatHst` (or its grouped
 * display form) from base units, never from a JavaScript number: `7e-8` is not an amount, and a
 * double cannot hold 1000000000.00000001.
 */

/** HST is divisible into 10^8 base units; every amount on the wire in HST has at most 8 decimals. */
export const HST_DECIMALS = 8;

/**
 * Base units in one HST.
 *
 * @example
 * ```ts
 * import { UNITS_PER_HST } from '@coinop/protocol';
 * console.log(UNITS_PER_HST); // 100000000n
 * ```
 */
export const UNITS_PER_HST = 100_000_000n;

/** The ticker shown beside every amount. */
export const CURRENCY = 'HST';

/**
 * The most base units an amount may have: what a ledger balance (a signed 64-bit integer) holds,
 * 92233720368.54775807 HST.
 *
 * @example
 * ```ts
 * import { MAX_UNITS, formatHst } from '@coinop/protocol';
 * console.log(formatHst(MAX_UNITS)); // "92233720368.54775807"
 * ```
 */
export const MAX_UNITS = 2n ** 63n - 1n;

/**
 * Base units as a plain decimal HST string: every digit kept, no exponent, no trailing zeros, no
 * grouping, a minus sign for a negative amount. The text of every signed approval, response and
 * message; `parseHst` (core) and `readHst` read it back to the same units.
 *
 * @example
 * ```ts
 * import { formatHst } from '@coinop/protocol';
 * formatHst(150_000_000n); // "1.5"
 * formatHst(7n); // "0.00000007"
 * formatHst(100_000_000_000_000_001n); // "1000000000.00000001"
 * ```
 */
export function formatHst(units: bigint): string {
  const { sign, whole, fraction } = hstDigits(units);
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * Base units as people read them on a page: the same digits as `formatHst`, the whole part
 * grouped in thousands with commas. For display only; an API takes `formatHst`'s form.
 *
 * @example
 * ```ts
 * import { formatHstGrouped } from '@coinop/protocol';
 * formatHstGrouped(125_050_000_000n); // "1,250.5"
 * ```
 */
export function formatHstGrouped(units: bigint): string {
  const { sign, whole, fraction } = hstDigits(units);
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/**
 * An amount written short for a small space (a header, a big figure on a phone), and whether
 * it is the whole amount. When it is not, the page keeps the exact amount at hand (a tooltip,
 * screen-reader text, a Copy button): `formatHstGrouped` writes it.
 *
 * @example
 * ```ts
 * import type { ShortHst } from '@coinop/protocol';
 * const shown: ShortHst = { text: '≈57.17', exact: false };
 * ```
 */
export interface ShortHst {
  /** `"57.17"`, `"≈57.17"` (digits dropped), `"<0.01"` (a little above zero), `"≈1.05K"`. */
  readonly text: string;
  /** False when digits were dropped: the text then starts with `≈` or `<`. */
  readonly exact: boolean;
}

/** Marks a shortened amount: digits were dropped, never rounded up. */
export const SHORT_HST_MARK = '≈';

/**
 * A holding with at most `decimals` decimals (2 by default), grouped as `formatHstGrouped`. The
 * dropped digits are cut, never rounded up, so a balance never reads as more than the player
 * has: 57.17999999 reads `≈57.17`. A shortened amount starts with `≈`; one above zero but below
 * the last kept decimal reads `<0.01`, never `0`. Whole amounts and amounts with few enough
 * decimals are written in full, unmarked. Only for what a player holds (never negative); a cost
 * or a signed amount is shown exactly.
 *
 * @example
 * ```ts
 * import { formatHstRounded } from '@coinop/protocol';
 * formatHstRounded(5_717_027_776n); // { text: "≈57.17", exact: false }
 * formatHstRounded(150_000_000n); // { text: "1.5", exact: true }
 * formatHstRounded(7n); // { text: "<0.01", exact: false }
 * ```
 */
export function formatHstRounded(units: bigint, decimals = 2): ShortHst {
  checkHolding(units);
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > HST_DECIMALS) {
    throw new TypeError(
      `decimals must be a whole number from 0 to ${HST_DECIMALS}, got ${decimals}`,
    );
  }
  const step = 10n ** BigInt(HST_DECIMALS - decimals);
  const kept = units - (units % step);
  if (kept === units) return { text: formatHstGrouped(units), exact: true };
  if (kept === 0n) return { text: `<${formatHst(step)}`, exact: false };
  return { text: `${SHORT_HST_MARK}${formatHstGrouped(kept)}`, exact: false };
}

/** Thousands, millions and billions of HST, largest first, as `formatHstCompact` writes them. */
const MAGNITUDES: readonly (readonly [suffix: string, units: bigint])[] = [
  ['B', 10n ** 9n * UNITS_PER_HST],
  ['M', 10n ** 6n * UNITS_PER_HST],
  ['K', 10n ** 3n * UNITS_PER_HST],
];

/**
 * A holding in at most 7 characters, for the header on a phone: below 1,000 HST as
 * `formatHstRounded` (2 decimals), from there in thousands (`K`), millions (`M`) or billions
 * (`B`) with at most 2 decimals (1 from 100 on: `≈101.6M`), cut, never rounded up:
 * 1,057.17027776 reads `≈1.05K`, the largest balance `≈92.23B`. Exact multiples read unmarked
 * (`1K`, `2.5M`).
 *
 * @example
 * ```ts
 * import { formatHstCompact } from '@coinop/protocol';
 * formatHstCompact(105_717_027_776n); // { text: "≈1.05K", exact: false }
 * formatHstCompact(250_000_000_000_000n); // { text: "2.5M", exact: true }
 * formatHstCompact(5_717_027_776n); // { text: "≈57.17", exact: false }
 * ```
 */
export function formatHstCompact(units: bigint): ShortHst {
  checkHolding(units);
  const magnitude = MAGNITUDES.find(([, size]) => units >= size);
  if (magnitude === undefined) return formatHstRounded(units);
  const [suffix, size] = magnitude;
  // Two decimals of the scaled amount (one from 100 on, to stay within 7 characters): a whole
  // number of hundredths (tenths) of `size`, cut.
  const decimals = units >= 100n * size ? 1n : 2n;
  const part = size / 10n ** decimals;
  const kept = units - (units % part);
  const scaled = formatHst((kept / part) * (UNITS_PER_HST / 10n ** decimals));
  return kept === units
    ? { text: `${scaled}${suffix}`, exact: true }
    : { text: `${SHORT_HST_MARK}${scaled}${suffix}`, exact: false };
}

function checkHolding(units: bigint): void {
  if (typeof units !== 'bigint') {
    throw new TypeError(`HST is formatted from base units (a bigint), got ${typeof units}`);
  }
  // A shortened amount is cut towards zero: for a negative one that would overstate it.
  if (units < 0n) {
    throw new TypeError(`a shortened amount is a holding, never negative; got ${formatHst(units)}`);
  }
}

/**
 * Why a value is not an amount of HST, as `readHst` names it; each comes with a sentence.
 *
 * @example
 * ```ts
 * import type { HstProblem } from '@coinop/protocol';
 * const problem: HstProblem = 'too_many_decimals';
 * ```
 */
export type HstProblem =
  | 'not_an_amount'
  | 'not_finite'
  | 'negative'
  | 'spaces'
  | 'exponent'
  | 'too_many_decimals'
  | 'too_large';

/**
 * What `readHst` made of a value: its base units, or the problem and a sentence saying why
 * (`must not be negative, got -1`), to follow the field's name.
 *
 * @example
 * ```ts
 * import type { HstReading } from '@coinop/protocol';
 * const ok: HstReading = { units: 150_000_000n, problem: null };
 * ```
 */
export type HstReading =
  | { readonly units: bigint; readonly problem: null }
  | { readonly units: null; readonly problem: HstProblem; readonly why: string };

const HST_PATTERN = /^(0|[1-9]\d*)(?:\.(\d+))?$/;

/**
 * Reads an HST amount given on the wire, a JSON number or a decimal string, into base units
 * exactly, or says why it is not one: not a number of HST, negative, spaces around it, an
 * exponent (`1e3`), more than 8 decimals, or more than a balance holds (`MAX_UNITS`). A JSON
 * number arrives as the double it was parsed into: its shortest decimal form is what the sender
 * wrote for any amount a double holds, and is what is read.
 *
 * @example
 * ```ts
 * import { readHst } from '@coinop/protocol';
 * readHst('0.00000007'); // { units: 7n, problem: null }
 * readHst(7e-8); // { units: 7n, problem: null }
 * readHst('1e3').problem; // "exponent"
 * ```
 */
export function readHst(value: unknown): HstReading {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      return refused('not_finite', `must be a finite number, got ${value}`);
    if (value < 0) return refused('negative', `must not be negative, got ${value}`);
    if (value >= 1e21) return tooLarge(String(value));
    text = numberToPlainString(value);
  } else if (typeof value === 'string') {
    text = value;
    if (text !== text.trim()) {
      return refused('spaces', `must not have spaces around it, got ${JSON.stringify(text)}`);
    }
    if (text.startsWith('-')) return refused('negative', `must not be negative, got ${text}`);
    if (/^[\d.]+e[+-]?\d+$/i.test(text)) {
      return refused('exponent', `must be written out without an exponent, got ${text}`);
    }
  } else {
    return refused('not_an_amount', `must be a number of HST, got ${typeof value}`);
  }
  const match = HST_PATTERN.exec(text);
  if (!match) {
    return refused('not_an_amount', `must be an amount of HST such as 12 or 0.5, got ${text}`);
  }
  const fraction = match[2] ?? '';
  if (fraction.length > HST_DECIMALS) {
    return refused('too_many_decimals', `must have at most ${HST_DECIMALS} decimals, got ${text}`);
  }
  const units =
    BigInt(match[1] ?? '0') * UNITS_PER_HST + BigInt(fraction.padEnd(HST_DECIMALS, '0'));
  if (units > MAX_UNITS) return tooLarge(text);
  return { units, problem: null };
}

/**
 * Base units as a JSON number of HST, only for wire fields the spec types as numbers (a tier's
 * `cost`, a play's `cost`, a player's `balance` to a game's server). A double keeps 15
 * significant digits: exact for every amount below 10^15 base units (10 million HST), and for
 * every whole amount up to `MAX_UNITS`; larger amounts with decimals become the nearest double.
 * Never build text from it: `formatHst` is the text.
 *
 * @example
 * ```ts
 * import { unitsToHstNumber } from '@coinop/protocol';
 * unitsToHstNumber(150_000_000n); // 1.5
 * ```
 */
export function unitsToHstNumber(units: bigint): number {
  return Number(formatHst(units));
}

function hstDigits(units: bigint): { sign: string; whole: string; fraction: string } {
  // A number here is a caller's bug: its digits are already lost.
  if (typeof units !== 'bigint') {
    throw new TypeError(`HST is formatted from base units (a bigint), got ${typeof units}`);
  }
  const abs = units < 0n ? -units : units;
  return {
    sign: units < 0n ? '-' : '',
    whole: (abs / UNITS_PER_HST).toString(),
    fraction: (abs % UNITS_PER_HST).toString().padStart(HST_DECIMALS, '0').replace(/0+$/, ''),
  };
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

function tooLarge(text: string): HstReading {
  return refused('too_large', `must be at most ${formatHst(MAX_UNITS)} HST, got ${text}`);
}

function refused(problem: HstProblem, why: string): HstReading {
  return { units: null, problem, why };
}
