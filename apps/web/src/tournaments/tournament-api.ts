import { parseHst, unitsToHstNumber, type PayoutTable, type Units } from '@coinop/core';
import type { BoardPage, Leaderboard, ScoreDisplay } from '@coinop/protocol';
import { requestJson } from '../api.js';

/**
 * The catalog's tournament routes as the web app reads them (docs/reference/tournaments.md). Every
 * wire shape the app relies on is declared here, so a change of the contract is one edit.
 * TODO(#18): the API part adds these same types to @coinop/protocol (wire/tournaments.ts); once
 * merged, import them from there instead of declaring them.
 */

export type { PayoutTable };

/** A round: the one open now, the next one scheduled, or a past one. */
export interface TournamentRound {
  /** Also the round's board (its `leaderboardId`) and its pool account. */
  readonly id: string;
  readonly number: number;
  /** The round's board name: what a signed play's approval names as its tier. */
  readonly boardName: string;
  readonly startsAt: string;
  readonly endsAt: string;
  /** `closed` from `endsAt` on; `closedAt` stays null until the close has paid the pool. */
  readonly status: 'scheduled' | 'open' | 'closed';
  readonly closedAt: string | null;
  readonly entrants: number;
  /** HST in the pool (what was paid out once closed), as an exact decimal string. */
  readonly pool: string;
  readonly guaranteeFunded: boolean;
}

export interface Tournament {
  readonly id: string;
  readonly gameId: string;
  readonly gameName: string;
  readonly name: string;
  /** HST a play costs, an exact decimal string ("0" for free). */
  readonly entryFee: string;
  readonly guaranteedPool: string;
  readonly payoutTable: PayoutTable;
  readonly maxEntrants: number | null;
  readonly maxAttempts: number | null;
  /** Five-field cron of the rounds' starts (UTC); null for a single round. */
  readonly recurrence: string | null;
  readonly durationSeconds: number;
  readonly startsAt: string;
  readonly stoppedAt: string | null;
  readonly createdBy: 'developer' | 'operator';
  readonly scoreDisplay: ScoreDisplay;
  readonly scoreUnit: string;
  /** The latest round whose close has not run; null once no round is to come. */
  readonly currentRound: TournamentRound | null;
}

/** A paid place of a closed round. */
export interface TournamentResult {
  readonly place: number;
  readonly playerId: string;
  readonly name: string;
  readonly avatar: string;
  readonly score: number;
  /** HST paid, an exact decimal string. */
  readonly prize: string;
}

/** One round with its results (empty until the close). */
export interface TournamentRoundDetail extends TournamentRound {
  readonly results: readonly TournamentResult[];
}

/** Every round, the current one included, newest first; `nextCursor` pages on. */
export interface TournamentRoundPage {
  readonly rounds: readonly TournamentRound[];
  readonly nextCursor: string | null;
}

interface TournamentList {
  readonly tournaments: readonly Tournament[];
}

const enc = encodeURIComponent;

/** Tournaments of published games, open and upcoming first. */
export async function listTournaments(signal?: AbortSignal): Promise<readonly Tournament[]> {
  const body = await requestJson<TournamentList>('/api/catalog/tournaments', opts(signal));
  return body.tournaments;
}

/** One published game's tournaments. */
export async function listGameTournaments(
  gameId: string,
  signal?: AbortSignal,
): Promise<readonly Tournament[]> {
  const body = await requestJson<TournamentList>(
    `/api/catalog/games/${enc(gameId)}/tournaments`,
    opts(signal),
  );
  return body.tournaments;
}

export function getTournament(id: string, signal?: AbortSignal): Promise<Tournament> {
  return requestJson<Tournament>(`/api/catalog/tournaments/${enc(id)}`, opts(signal));
}

export function listRounds(
  id: string,
  cursor: string | null,
  limit: number,
  signal?: AbortSignal,
): Promise<TournamentRoundPage> {
  const query = new URLSearchParams({ limit: String(limit) });
  if (cursor !== null) query.set('cursor', cursor);
  return requestJson<TournamentRoundPage>(
    `/api/catalog/tournaments/${enc(id)}/rounds?${query.toString()}`,
    opts(signal),
  );
}

/** One round with its results. */
export function getRound(
  id: string,
  roundId: string,
  signal?: AbortSignal,
): Promise<TournamentRoundDetail> {
  return requestJson<TournamentRoundDetail>(
    `/api/catalog/tournaments/${enc(id)}/rounds/${enc(roundId)}`,
    opts(signal),
  );
}

/** Where a round's board is read: the catalog's board routes, the round's id as leaderboardId. */
export function roundBoardPath(tournament: Pick<Tournament, 'gameId'>, roundId: string): string {
  return `/api/catalog/games/${enc(tournament.gameId)}/boards/${enc(roundId)}`;
}

/** The top of a round's board (how many have a score, and the first `limit`). */
export function readRoundTop(
  tournament: Pick<Tournament, 'gameId'>,
  roundId: string,
  limit: number,
  signal?: AbortSignal,
): Promise<BoardPage> {
  return requestJson<BoardPage>(
    `${roundBoardPath(tournament, roundId)}?limit=${limit}`,
    opts(signal),
  );
}

function opts(signal: AbortSignal | undefined) {
  return signal === undefined ? {} : { signal };
}

/** An exact decimal HST string from the API in base units. */
export function hstUnits(decimal: string): Units {
  return parseHst(decimal, 'amount');
}

/**
 * A round open for plays, as the game page's tier picker and the bridge see a tier: its id is the
 * round's board, its cost the entry fee. Its leaders are read from the round's board.
 */
export function roundAsTier(tournament: Tournament, round: TournamentRound): Leaderboard {
  const cost = unitsToHstNumber(hstUnits(tournament.entryFee));
  return {
    id: round.id,
    // The server composes the approval it checks from the board's own name.
    name: round.boardName,
    cost,
    currency: 'HST',
    formattedCostString: `${tournament.entryFee} HST`,
    leadersMax: 10,
    leaders: [],
  };
}
