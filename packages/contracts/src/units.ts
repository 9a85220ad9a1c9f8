/** HST's decimals on chain: one base unit there is one base unit in coinop's ledger. */
export const HST_DECIMALS = 8;

/** Base units in one HST (10^8). */
export const UNITS_PER_HST = 100_000_000n;
