import { HST_DECIMALS, MAX_UNITS, formatHstGrouped, readHst } from '@coinop/protocol';
import { formatEther } from 'viem';

/**
 * HST amounts in the web app: whatever the API gives (an exact decimal string, or a JSON number
 * where the spec types one) and whatever the player types is read into base units (bigint) by
 * @coinop/protocol's `readHst`, and written back by its formatter, never through floating point,
 * so what the player reads and signs is exactly what the arcade takes.
 */

/** Why a typed amount cannot be sent, as the player would read it; null when it can. */
export type AmountCheck = { units: bigint; error: null } | { units: null; error: string };

/** Reads an amount the player typed: digits, then at most 8 decimals, more than 0. */
export function parseHstAmount(text: string): AmountCheck {
  const value = text.trim();
  if (value === '') return { units: null, error: 'Enter an amount in HST.' };
  const reading = readHst(value);
  switch (reading.problem) {
    case null:
      return reading.units === 0n
        ? { units: null, error: 'Enter an amount above 0.' }
        : { units: reading.units, error: null };
    case 'too_many_decimals':
      return {
        units: null,
        error: `HST has at most ${HST_DECIMALS} decimals: the smallest amount is 0.00000001 HST.`,
      };
    case 'too_large':
      return {
        units: null,
        error: `That is more than a balance can hold (${formatHstUnits(MAX_UNITS)}).`,
      };
    default:
      return { units: null, error: 'Enter the amount as a number, such as 10 or 2.5.' };
  }
}

/** Base units as people read them, grouped, with the ticker: `1,250.5 HST`. */
export function formatHstUnits(units: bigint): string {
  return `${formatHstGrouped(units)} HST`;
}

/**
 * An amount the API gave in base units: an exact decimal string (`"12.5"`), or a JSON number of
 * HST where the spec types one (a tier's cost to a game's server), read from its shortest decimal
 * form as the arcade wrote it.
 */
export function hstUnits(amount: string | number): bigint {
  const reading = readHst(amount);
  if (reading.problem !== null) {
    // The arcade writes every amount it sends with formatHst: anything else is its bug.
    throw new TypeError(`the arcade sent ${JSON.stringify(amount)} as HST, which ${reading.why}`);
  }
  return reading.units;
}

/** ETH with at most 6 decimals: enough to tell whether a fee can be paid. */
export function formatEth(wei: bigint): string {
  const [whole = '0', fraction = ''] = formatEther(wei).split('.');
  const kept = fraction.slice(0, 6).replace(/0+$/, '');
  if (wei > 0n && whole === '0' && kept === '') return 'less than 0.000001';
  return kept ? `${whole}.${kept}` : whole;
}
