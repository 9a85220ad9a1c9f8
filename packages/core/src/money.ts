import { readHst, UNITS_PER_HST } from '@coinop/protocol';
import { CoinopError } from './errors.js';

// The formatter, the reader and the limit are protocol's, which every side imports; the core
// re-exports them so its callers have the money vocabulary in one import.
export { formatHst, MAX_UNITS, unitsToHstNumber } from '@coinop/protocol';

/** An amount of HST in base units (10^-8 HST). Always an integer; never a float. */
export type Units = bigint;

/**
 * Converts an HST amount given on the wire (a JSON number or a decimal string) into base units,
 * exactly, or refuses it with `invalid_amount` saying why (`readHst` of @coinop/protocol): not a
 * number of HST, negative, spaces around it, an exponent (`1e3`), more than 8 decimals, or more
 * than a balance can hold. `field` names the input in the error message.
 */
export function parseHst(value: unknown, field: string): Units {
  const reading = readHst(value);
  if (reading.problem === null) return reading.units;
  throw new CoinopError('invalid_amount', `${field} ${reading.why}`, { details: { field } });
}

/** Whole HST to base units, for tier costs (integers by rule). */
export function wholeHstToUnits(hst: number | bigint): Units {
  return BigInt(hst) * UNITS_PER_HST;
}
