import { HST_DECIMALS } from '@coinop/protocol';
import { formatEther, formatUnits, parseUnits } from 'viem';

/**
 * HST amounts in the account page: typed as decimals, kept as base units (bigint), never as
 * floating point, so what the player typed is exactly what is signed and sent.
 */

/** Why a typed amount cannot be sent, as the player would read it; null when it can. */
export type AmountCheck = { units: bigint; error: null } | { units: null; error: string };

const DECIMAL = /^\d+(\.\d+)?$/;

/** Reads an amount the player typed: digits, then at most 8 decimals, more than 0. */
export function parseHstAmount(text: string): AmountCheck {
  const value = text.trim();
  if (value === '') return { units: null, error: 'Enter an amount in HST.' };
  if (!DECIMAL.test(value)) {
    return { units: null, error: 'Enter the amount as a number, such as 10 or 2.5.' };
  }
  const decimals = value.split('.')[1]?.length ?? 0;
  if (decimals > HST_DECIMALS) {
    return {
      units: null,
      error: `HST has at most ${HST_DECIMALS} decimals: the smallest amount is 0.00000001 HST.`,
    };
  }
  const units = parseUnits(value, HST_DECIMALS);
  if (units === 0n) return { units: null, error: 'Enter an amount above 0.' };
  return { units, error: null };
}

/** Base units as a plain decimal, the way the arcade's API takes it: `12.5`. */
export function unitsToDecimal(units: bigint): string {
  return formatUnits(units, HST_DECIMALS);
}

/** Base units as people read them, grouped, with the ticker: `1,250.5 HST`. */
export function formatHstUnits(units: bigint): string {
  return `${groupHstUnits(units)} HST`;
}

/** Base units as a grouped decimal without the ticker: `1,250.5`. */
export function groupHstUnits(units: bigint): string {
  const [whole = '0', fraction] = unitsToDecimal(units).split('.');
  const grouped = BigInt(whole).toLocaleString('en');
  return `${grouped}${fraction ? `.${fraction}` : ''}`;
}

/** An exact decimal string from the API (`"12.5"`) in base units. */
export function decimalToUnits(decimal: string): bigint {
  return parseUnits(decimal, HST_DECIMALS);
}

/**
 * A balance the API gives as a JSON number (`GET /player/me`) in base units. The arcade writes
 * such numbers with at most 8 decimals, so reading them back as decimal text is exact.
 */
export function hstNumberToUnits(hst: number): bigint {
  return parseUnits(
    hst.toLocaleString('en', { maximumFractionDigits: HST_DECIMALS, useGrouping: false }),
    HST_DECIMALS,
  );
}

/** ETH with at most 6 decimals: enough to tell whether a fee can be paid. */
export function formatEth(wei: bigint): string {
  const [whole = '0', fraction = ''] = formatEther(wei).split('.');
  const kept = fraction.slice(0, 6).replace(/0+$/, '');
  if (wei > 0n && whole === '0' && kept === '') return 'less than 0.000001';
  return kept ? `${whole}.${kept}` : whole;
}
