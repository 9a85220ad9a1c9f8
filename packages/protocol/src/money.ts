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
