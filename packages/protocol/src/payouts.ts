import type { TournamentPayoutTable } from './wire/tournaments.js';

/**
 * How a tournament round's pool is divided among its final standings
 * (docs/concepts/tournaments.md): the arcade's rule, here so the server that pays and the page
 * that shows the prizes run the same arithmetic, exact in base units.
 */

/**
 * How many places are paid when `rankedPlayers` have a score.
 *
 * @example
 * ```ts
 * import { paidPlaces } from '@coinop/protocol';
 * paidPlaces({ places: [5000, 3000, 2000] }, 2); // 2
 * paidPlaces({ topPercent: 10 }, 25); // 3
 * ```
 */
export function paidPlaces(table: TournamentPayoutTable, rankedPlayers: number): number {
  if (rankedPlayers <= 0) return 0;
  if ('places' in table) return Math.min(table.places.length, rankedPlayers);
  return Math.min(rankedPlayers, Math.ceil((rankedPlayers * table.topPercent) / 100));
}

/** A pool divided: each paid place's prize and what is left, in base units. */
export interface PoolDivision {
  /** The prize of places 1, 2, … (a place whose prize rounds down to 0 is listed with 0). */
  readonly prizes: readonly bigint[];
  /** What integer division leaves: it goes to the arcade. */
  readonly remainder: bigint;
}

/**
 * Divides `pool` exactly: place i of the m paid places gets floor(pool × wi / W) with W the sum of
 * the paid places' weights (a table longer than the field is renormalized over the places that
 * exist); `topPercent` pays each place floor(pool / m). The prizes and the remainder sum to `pool`.
 *
 * @example
 * ```ts
 * import { dividePool } from '@coinop/protocol';
 * dividePool(100n, { places: [5000, 3000, 2000] }, 5); // { prizes: [50n, 30n, 20n], remainder: 0n }
 * dividePool(10n, { topPercent: 100 }, 3); // { prizes: [3n, 3n, 3n], remainder: 1n }
 * ```
 */
export function dividePool(
  pool: bigint,
  table: TournamentPayoutTable,
  rankedPlayers: number,
): PoolDivision {
  if (pool < 0n) throw new TypeError(`pool must not be negative, got ${pool}`);
  const m = paidPlaces(table, rankedPlayers);
  if (m === 0) return { prizes: [], remainder: pool };
  const weights =
    'places' in table ? table.places.slice(0, m).map(BigInt) : Array.from({ length: m }, () => 1n);
  const total = weights.reduce((a, b) => a + b, 0n);
  const prizes = weights.map((w) => (pool * w) / total);
  const paid = prizes.reduce((a, b) => a + b, 0n);
  return { prizes, remainder: pool - paid };
}
