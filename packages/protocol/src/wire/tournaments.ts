/**
 * Tournaments and their rounds as the API answers them (docs/reference/tournaments.md). HST
 * amounts are exact decimal strings; times are RFC 3339 UTC.
 */

/**
 * How a round's pool is divided: basis points for places 1, 2, 3… (summing to 10,000), or an
 * equal share for the top `topPercent` of the ranked players.
 *
 * @example
 * ```ts
 * import type { TournamentPayoutTable } from '@coinop/protocol';
 * const table: TournamentPayoutTable = { places: [5000, 3000, 2000] };
 * ```
 */
export type TournamentPayoutTable =
  { readonly places: readonly number[] } | { readonly topPercent: number };

/**
 * A round: `scheduled` before `startsAt`, `open` while plays are taken, `closed` from `endsAt`.
 * Its `id` is its board's `leaderboardId` (board reads, plays). `pool` is its pool account's
 * balance while not closed, and what was paid out once closed.
 *
 * @example
 * ```ts
 * import type { TournamentRound } from '@coinop/protocol';
 * const isOpen = (round: TournamentRound) => round.status === 'open';
 * ```
 */
export interface TournamentRound {
  readonly id: string;
  readonly number: number;
  /** The round's board name ("Weekly Cup #3"): the `Tier:` line of a signed play's approval. */
  readonly boardName: string;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly status: 'scheduled' | 'open' | 'closed';
  /** When the close ran; null until then (a round may be `closed` by time before it ran). */
  readonly closedAt: string | null;
  readonly entrants: number;
  readonly pool: string;
  readonly guaranteeFunded: boolean;
}

/**
 * A paid place of a closed round.
 *
 * @example
 * ```ts
 * import type { TournamentResult } from '@coinop/protocol';
 * const line = (r: TournamentResult) => `${r.place}. ${r.name} ${r.prize} HST`;
 * ```
 */
export interface TournamentResult {
  readonly place: number;
  readonly playerId: string;
  readonly name: string;
  readonly avatar: string;
  readonly score: number;
  readonly prize: string;
}

/**
 * A round with its paid places (empty until the close).
 *
 * @example
 * ```ts
 * import type { TournamentRoundDetail } from '@coinop/protocol';
 * const winner = (round: TournamentRoundDetail) => round.results[0] ?? null;
 * ```
 */
export interface TournamentRoundDetail extends TournamentRound {
  readonly results: readonly TournamentResult[];
}

/**
 * A tournament. `currentRound` is the latest round not yet closed (open now, or scheduled);
 * null once the tournament has no round to come.
 *
 * @example
 * ```ts
 * import type { Tournament } from '@coinop/protocol';
 * const isSeason = (t: Tournament) => t.recurrence !== null;
 * ```
 */
export interface Tournament {
  readonly id: string;
  readonly gameId: string;
  readonly gameName: string;
  readonly name: string;
  readonly entryFee: string;
  readonly guaranteedPool: string;
  readonly payoutTable: TournamentPayoutTable;
  readonly maxEntrants: number | null;
  readonly maxAttempts: number | null;
  readonly recurrence: string | null;
  readonly durationSeconds: number;
  readonly startsAt: string;
  readonly stoppedAt: string | null;
  /** Who created it, and so funds each round's guarantee: the developer, or the operator. */
  readonly createdBy: 'developer' | 'operator';
  readonly scoreDisplay: 'NORMAL' | 'REVERSE';
  readonly scoreUnit: string;
  readonly currentRound: TournamentRound | null;
}

/**
 * A list of tournaments.
 *
 * @example
 * ```ts
 * import type { TournamentList } from '@coinop/protocol';
 * const names = (list: TournamentList) => list.tournaments.map((t) => t.name);
 * ```
 */
export interface TournamentList {
  readonly tournaments: readonly Tournament[];
}

/**
 * A page of a tournament's rounds, newest first; pass `nextCursor` back as `cursor`.
 *
 * @example
 * ```ts
 * import type { TournamentRoundPage } from '@coinop/protocol';
 * const isLast = (page: TournamentRoundPage) => page.nextCursor === null;
 * ```
 */
export interface TournamentRoundPage {
  readonly rounds: readonly TournamentRound[];
  readonly nextCursor: string | null;
}

/**
 * The signed-in player's own entry in a round (`GET /player/tournaments/{tournamentId}/entry`):
 * how many plays they have opened on it (every play opened is an attempt, scored or not), how
 * many are left (null when the tournament has no attempt limit), and their best and exact rank on
 * the round's board (null until they score).
 *
 * @example
 * ```ts
 * import type { TournamentEntry } from '@coinop/protocol';
 * const canPlay = (entry: TournamentEntry) => entry.attemptsLeft !== 0;
 * ```
 */
export interface TournamentEntry {
  readonly tournamentId: string;
  /** The round answered for: the one asked for, else the current one (else the latest). */
  readonly roundId: string;
  /** True once the player has opened a play on the round. */
  readonly entered: boolean;
  readonly attempts: number;
  readonly maxAttempts: number | null;
  readonly attemptsLeft: number | null;
  /** The player's exact rank on the round's board; null until they have a score there. */
  readonly rank: number | null;
  /** The player's best score on the round; null until they have one. */
  readonly score: number | null;
}
