import {
  formatHst,
  unitsToHstNumber,
  type BoardPage,
  type Tournament,
  type TournamentList,
  type TournamentResult,
  type TournamentRound,
  type TournamentRoundDetail,
  type TournamentRoundPage,
} from '@coinop/protocol';
import { hstUnits } from '../account/hst-amounts.js';
import { requestJson } from '../api.js';
import type { PlayableTier } from '../bridge/playable-tier.js';

/**
 * The catalog's tournament routes as the web app reads them (docs/reference/tournaments.md), with
 * the wire shapes of `@coinop/protocol`, which the server's schemas are checked against.
 */

export type {
  Tournament,
  TournamentResult,
  TournamentRound,
  TournamentRoundDetail,
  TournamentRoundPage,
};

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

/**
 * A round open for plays, as the game page's tier picker and the bridge see a tier: its id is the
 * round's board, its cost the entry fee, exact in `costUnits` (what the approval locks; `cost`
 * is the spec's number, for the game). Its leaders are read from the round's board.
 */
export function roundAsTier(tournament: Tournament, round: TournamentRound): PlayableTier {
  const costUnits = hstUnits(tournament.entryFee);
  return {
    id: round.id,
    // The server composes the approval it checks from the board's own name.
    name: round.boardName,
    cost: unitsToHstNumber(costUnits),
    costUnits,
    currency: 'HST',
    formattedCostString: `${formatHst(costUnits)} HST`,
    leadersMax: 10,
    leaders: [],
  };
}
