/**
 * How a round's pool is divided among its final standings (docs/concepts/tournaments.md):
 * basis points for places 1, 2, 3…, or an equal share for the top `topPercent` of the field.
 */
export type PayoutTable = { readonly places: readonly number[] } | { readonly topPercent: number };

export const MAX_PAID_PLACES = 100;
const BASIS_POINTS = 10_000;

/**
 * The payout table in `value`, or a message naming what is wrong with it (for a 400 that names
 * the field). Accepts exactly the two documented shapes.
 */
export function parsePayoutTable(value: unknown): PayoutTable | { readonly problem: string } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: 'payoutTable must be { "places": [...] } or { "topPercent": n }' };
  }
  const keys = Object.keys(value);
  if (keys.length !== 1) {
    return { problem: 'payoutTable must have exactly one of "places" and "topPercent"' };
  }
  if ('places' in value) {
    const places: unknown = value.places;
    if (!Array.isArray(places) || places.length < 1 || places.length > MAX_PAID_PLACES) {
      return { problem: `payoutTable.places must list 1 to ${MAX_PAID_PLACES} places` };
    }
    if (!places.every((p): p is number => Number.isInteger(p) && (p as number) >= 1)) {
      return { problem: 'payoutTable.places must be whole basis points, each at least 1' };
    }
    const sum = places.reduce((a, b) => a + b, 0);
    if (sum !== BASIS_POINTS) {
      return { problem: `payoutTable.places must sum to ${BASIS_POINTS} basis points, got ${sum}` };
    }
    return { places: [...places] };
  }
  if ('topPercent' in value) {
    const q: unknown = value.topPercent;
    if (!Number.isInteger(q) || (q as number) < 1 || (q as number) > 100) {
      return { problem: 'payoutTable.topPercent must be a whole percent from 1 to 100' };
    }
    return { topPercent: q as number };
  }
  return { problem: 'payoutTable must have exactly one of "places" and "topPercent"' };
}

// The division of a pool is protocol's, so the web app shows the prizes by the rule that pays
// them; the core re-exports it beside the table it divides by.
export { dividePool, paidPlaces, type PoolDivision } from '@coinop/protocol';
