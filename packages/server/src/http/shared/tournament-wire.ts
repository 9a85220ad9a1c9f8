import type { Static } from '@sinclair/typebox';
import { formatHst, roundStatus } from '@coinop/core';
import type { ArcadeServices } from '../../services/arcade-services.js';
import type {
  PlayerEntry,
  RoundReaders,
  RoundRecord,
  RoundResultRecord,
  TournamentRecord,
  TournamentRequest,
  Tournaments,
} from '../../services/tournaments.js';
import { parseRoundCursor, roundCursor } from './cursors.js';
import {
  ROUNDS_PAGE_DEFAULT,
  type CreateBodyWire,
  type EntrySchema,
  type RoundDetailSchema,
  type RoundPageSchema,
  type RoundSchema,
  type RoundsQuery,
  type TournamentSchema,
} from './tournament-schemas.js';

/** Tournament records to the wire, and the round reads every audience shares. */

/** The wire shapes; a round's status is by the arcade's clock. */
export function wireOf(arcade: ArcadeServices) {
  const round = (r: RoundRecord): Static<typeof RoundSchema> => ({
    id: r.id,
    number: r.number,
    boardName: r.boardName,
    startsAt: r.startsAt.toISOString(),
    endsAt: r.endsAt.toISOString(),
    status: roundStatus(r, r.isClosed, arcade.clock.now()),
    closedAt: r.closedAt?.toISOString() ?? null,
    entrants: r.entrants,
    pool: formatHst(r.poolUnits),
    guaranteeFunded: r.guaranteeFunded,
  });
  const tournament = (t: TournamentRecord): Static<typeof TournamentSchema> => ({
    id: t.id,
    gameId: t.gameId,
    gameName: t.gameName,
    name: t.name,
    entryFee: formatHst(t.entryFeeUnits),
    guaranteedPool: formatHst(t.guaranteeUnits),
    payoutTable:
      'places' in t.payoutTable
        ? { places: [...t.payoutTable.places] }
        : { topPercent: t.payoutTable.topPercent },
    maxEntrants: t.maxEntrants,
    maxAttempts: t.maxAttempts,
    recurrence: t.recurrence,
    durationSeconds: t.durationSeconds,
    startsAt: t.startsAt.toISOString(),
    stoppedAt: t.stoppedAt?.toISOString() ?? null,
    createdBy: t.createdBy,
    scoreDisplay: t.scoreDisplay,
    scoreUnit: t.scoreUnit,
    currentRound: t.currentRound === null ? null : round(t.currentRound),
  });
  const result = (r: RoundResultRecord) => ({
    place: r.place,
    playerId: r.playerId,
    name: r.name,
    avatar: arcade.avatars.urlOf(r.playerId, r.avatarUrl),
    score: r.score,
    prize: formatHst(r.prizeUnits),
  });
  const entry = (e: PlayerEntry): Static<typeof EntrySchema> => ({
    tournamentId: e.tournamentId,
    roundId: e.roundId,
    entered: e.attempts > 0,
    attempts: e.attempts,
    maxAttempts: e.maxAttempts,
    attemptsLeft: e.maxAttempts === null ? null : Math.max(0, e.maxAttempts - e.attempts),
    rank: e.rank,
    score: e.score,
  });
  return { round, tournament, result, entry };
}

/**
 * The two round reads, the same for the catalog (published games) and the operator (any game):
 * a page of rounds, and one round with its paid places.
 */
export function roundReads(
  service: Tournaments,
  wire: ReturnType<typeof wireOf>,
  readers: RoundReaders,
) {
  return {
    page: async (
      tournamentId: string,
      query: Static<typeof RoundsQuery>,
    ): Promise<Static<typeof RoundPageSchema>> => {
      const before = query.cursor === undefined ? null : parseRoundCursor(query.cursor);
      const limit = Number(query.limit ?? ROUNDS_PAGE_DEFAULT);
      const page = await service.rounds(tournamentId, before, limit, readers);
      const last = page.rounds.at(-1);
      return {
        rounds: page.rounds.map(wire.round),
        nextCursor: page.more && last ? roundCursor(last.number) : null,
      };
    },
    one: async (
      tournamentId: string,
      roundId: string,
    ): Promise<Static<typeof RoundDetailSchema>> => {
      const { round, results } = await service.round(tournamentId, roundId, readers);
      return { ...wire.round(round), results: results.map(wire.result) };
    },
  };
}

export const toRequest = (body: CreateBodyWire): TournamentRequest => ({
  name: body.name,
  entryFee: body.entryFee,
  guaranteedPool: body.guaranteedPool,
  payoutTable: body.payoutTable,
  startsAt: body.startsAt,
  endsAt: body.endsAt,
  durationSeconds: body.durationSeconds,
  recurrence: body.recurrence,
  maxEntrants: body.maxEntrants,
  maxAttempts: body.maxAttempts,
});
