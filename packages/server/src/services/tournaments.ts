import {
  CoinopError,
  MAX_ROUND_SECONDS,
  MIN_ROUND_SECONDS,
  firstRound,
  parseHst,
  parsePayoutTable,
  recurrenceProblem,
  roundBoardName,
  type PayoutTable,
  type Units,
} from '@coinop/core';
import type { ArcadeServices } from './arcade-services.js';
import { notifyGameChanged } from '../store/cache-notices.js';
import { findDeveloper, type DeveloperRecord } from '../store/developers.js';
import { findGame, type GameRecord } from '../store/games.js';
import { boardAround } from '../store/board-pages.js';
import { findEntry } from '../store/tournament-entries.js';
import { openRound } from '../store/tournament-rounds.js';
import {
  findRoundWithResults,
  findTournament,
  insertTournament,
  listTournaments,
  roundsOfTournament,
  stopTournament,
  tournamentsOfGame,
  type RoundRecord,
  type RoundResultRecord,
  type TournamentRecord,
} from '../store/tournaments.js';

export type { RoundRecord, RoundResultRecord, TournamentRecord } from '../store/tournaments.js';

/** How far in the past a tournament's `startsAt` may be: a clock a little behind the server's. */
export const STARTS_AT_PAST_TOLERANCE_SECONDS = 60;
/** How far ahead a tournament may be scheduled: a year, as far as a round may last. */
export const STARTS_AT_AHEAD_MAX_SECONDS = 366 * 24 * 3600;
/** The most tournaments one list answers (a game's, the catalog's, the operator's). */
export const TOURNAMENT_LIST_MAX = 200;

/** A tournament as its creator asks for it, before validation (HST amounts as given). */
export interface TournamentRequest {
  readonly name: string;
  readonly entryFee: unknown;
  readonly guaranteedPool?: unknown;
  readonly payoutTable: unknown;
  readonly startsAt: string;
  readonly endsAt?: string | undefined;
  readonly durationSeconds?: number | undefined;
  readonly recurrence?: string | null | undefined;
  readonly maxEntrants?: number | null | undefined;
  readonly maxAttempts?: number | null | undefined;
}

/** A player's attempts in a round, with their rank and best there (null until they score). */
export interface PlayerEntry {
  readonly tournamentId: string;
  readonly roundId: string;
  readonly attempts: number;
  readonly maxAttempts: number | null;
  readonly rank: number | null;
  readonly score: number | null;
}

/**
 * Who reads a tournament's rounds: anyone (`publishedOnly`: the catalog, an unpublished game's
 * tournaments are not found) or the operator (every game of the arcade).
 */
export interface RoundReaders {
  readonly publishedOnly: boolean;
}

/** Who creates a tournament: the game's developer, or the operator (any game). */
export type TournamentCreator =
  | { readonly kind: 'developer'; readonly developer: DeveloperRecord }
  | { readonly kind: 'operator' };

/**
 * Tournaments and their rounds (docs/concepts/tournaments.md): creating one opens its first
 * round; the close (`tournament-closer.ts`) pays rounds out and opens the next.
 */
export class Tournaments {
  readonly #arcade: ArcadeServices;

  constructor(arcade: ArcadeServices) {
    this.#arcade = arcade;
  }

  /**
   * Creates a tournament of `gameId` and opens its first round, in one transaction: the round's
   * board, its pool account, and the guarantee moved from the creator's account (the developer's,
   * or the arcade's for the operator), refused `insufficient_funds` when it cannot be covered.
   */
  async create(
    creator: TournamentCreator,
    gameId: string,
    request: TournamentRequest,
  ): Promise<TournamentRecord> {
    const game = await this.#gameOf(creator, gameId);
    const { db, clock, ids } = this.#arcade;
    const now = clock.now();
    const valid = validTournament(request, now);
    const funderAccountId =
      creator.kind === 'developer' ? creator.developer.accountId : this.#arcade.record.accountId;
    const id = ids.next();
    const window = firstRound(valid);
    await db.transaction(async (tx) => {
      await insertTournament(tx, {
        id,
        gameId: game.id,
        name: valid.name,
        entryFeeUnits: valid.entryFeeUnits,
        guaranteeUnits: valid.guaranteeUnits,
        funderAccountId,
        createdBy: creator.kind,
        payoutTable: valid.payoutTable,
        maxEntrants: valid.maxEntrants,
        maxAttempts: valid.maxAttempts,
        startsAt: valid.startsAt,
        durationSeconds: valid.durationSeconds,
        recurrence: valid.recurrence,
        createdAt: now,
      });
      await openRound(
        tx,
        {
          id: ids.next(),
          tournamentId: id,
          gameId: game.id,
          number: 1,
          boardName: roundBoardName(valid.name, 1),
          entryFeeUnits: valid.entryFeeUnits,
          startsAt: window.startsAt,
          endsAt: window.endsAt,
          guaranteeUnits: valid.guaranteeUnits,
          funderAccountId,
          guaranteeTransferId: ids.next(),
          shortGuarantee: 'refuse',
        },
        now,
      );
      // Every API process reads the game's rounds again: plays may name the new one.
      await notifyGameChanged(tx, game.id);
    });
    this.#arcade.games.invalidate(game.id);
    return this.#found(id);
  }

  /** A game's tournaments, newest first: for its developer (`creator`) or its game server. */
  async ofGame(creator: TournamentCreator | null, gameId: string): Promise<TournamentRecord[]> {
    if (creator !== null) await this.#gameOf(creator, gameId);
    return tournamentsOfGame(this.#arcade.db, gameId, TOURNAMENT_LIST_MAX);
  }

  /** One tournament of the developer's game (others' are not found). */
  async ofDeveloper(
    developer: DeveloperRecord,
    gameId: string,
    tournamentId: string,
  ): Promise<TournamentRecord> {
    await this.#gameOf({ kind: 'developer', developer }, gameId);
    const tournament = await findTournament(this.#arcade.db, tournamentId);
    if (!tournament || tournament.gameId !== gameId) throw tournamentNotFound(tournamentId);
    return tournament;
  }

  /** Every tournament of the arcade, for the operator: those with a round to come first. */
  async all(): Promise<TournamentRecord[]> {
    return listTournaments(this.#arcade.db, {
      arcadeId: this.#arcade.record.id,
      publishedOnly: false,
      limit: TOURNAMENT_LIST_MAX,
    });
  }

  /**
   * Stops a tournament: its current round runs to its end and closes as usual, and no round
   * opens after it. Stopping again keeps the first time. `gameId` (a developer's) must match.
   */
  async stop(tournamentId: string, gameId: string | null): Promise<TournamentRecord> {
    const tournament = await findTournament(this.#arcade.db, tournamentId);
    if (!tournament || (gameId !== null && tournament.gameId !== gameId)) {
      throw tournamentNotFound(tournamentId);
    }
    await stopTournament(this.#arcade.db, tournamentId, this.#arcade.clock.now());
    return this.#found(tournamentId);
  }

  /** The catalog: tournaments of published games, those with a round to come first. */
  async catalog(gameId: string | null): Promise<TournamentRecord[]> {
    if (gameId !== null) {
      const game = await findGame(this.#arcade.db, gameId);
      if (!game || game.publishedAt === null || game.arcadeId !== this.#arcade.record.id) {
        throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
          details: { gameId },
        });
      }
      return tournamentsOfGame(this.#arcade.db, gameId, TOURNAMENT_LIST_MAX);
    }
    return listTournaments(this.#arcade.db, {
      arcadeId: this.#arcade.record.id,
      publishedOnly: true,
      limit: TOURNAMENT_LIST_MAX,
    });
  }

  /** A tournament of a published game; any other is not found. */
  async published(tournamentId: string): Promise<TournamentRecord> {
    return this.#visible(tournamentId, { publishedOnly: true });
  }

  /**
   * A tournament's rounds, newest first, before round number `before`: of a published game for
   * the catalog, of any game of the arcade for the operator (`publishedOnly: false`).
   */
  async rounds(
    tournamentId: string,
    before: number | null,
    limit: number,
    readers: RoundReaders,
  ): Promise<{ rounds: RoundRecord[]; more: boolean }> {
    await this.#visible(tournamentId, readers);
    const rounds = await roundsOfTournament(this.#arcade.db, tournamentId, before, limit + 1);
    return { rounds: rounds.slice(0, limit), more: rounds.length > limit };
  }

  /** One round of a tournament with its paid places, for the same readers as `rounds`. */
  async round(
    tournamentId: string,
    roundId: string,
    readers: RoundReaders,
  ): Promise<{ round: RoundRecord; results: RoundResultRecord[] }> {
    await this.#visible(tournamentId, readers);
    const found = await findRoundWithResults(this.#arcade.db, tournamentId, roundId);
    if (!found) throw roundNotFound(tournamentId, roundId);
    return found;
  }

  /**
   * A player's own entry in a round of a published tournament: `roundId`, or the current round
   * (the latest not yet closed, else the latest). Their rank and best come from the round's board
   * (the board's own-rank read); 404 `tournament_round_not_found` for a round of another.
   */
  async entryOf(
    tournamentId: string,
    roundId: string | null,
    playerId: string,
  ): Promise<PlayerEntry> {
    return this.#entryIn(await this.published(tournamentId), roundId, playerId);
  }

  /**
   * A player's entry as their game's server reads it: the same answer as `entryOf`, for a
   * tournament of `gameId`, published or not (another game's is not found). A player id nobody
   * has reads as not entered, as the board reads answer "no score" for it.
   */
  async entryInGame(
    gameId: string,
    tournamentId: string,
    roundId: string | null,
    playerId: string,
  ): Promise<PlayerEntry> {
    const tournament = await this.#visible(tournamentId, { publishedOnly: false });
    if (tournament.gameId !== gameId) throw tournamentNotFound(tournamentId);
    return this.#entryIn(tournament, roundId, playerId);
  }

  async #entryIn(
    tournament: TournamentRecord,
    roundId: string | null,
    playerId: string,
  ): Promise<PlayerEntry> {
    const tournamentId = tournament.id;
    const entry = await findEntry(this.#arcade.db, tournamentId, roundId, playerId);
    if (!entry) {
      // A tournament is created with its first round, in the same transaction.
      if (roundId === null) throw new TypeError(`tournament ${tournamentId} has no round`);
      throw roundNotFound(tournamentId, roundId);
    }
    const { player } = await boardAround(this.#arcade.db, entry.roundId, playerId, 0);
    return {
      tournamentId,
      roundId: entry.roundId,
      attempts: entry.attempts,
      maxAttempts: tournament.maxAttempts,
      rank: player?.rank ?? null,
      score: player?.score ?? null,
    };
  }

  /** A tournament of this arcade; of a published game only when `publishedOnly`. */
  async #visible(tournamentId: string, readers: RoundReaders): Promise<TournamentRecord> {
    const tournament = await findTournament(this.#arcade.db, tournamentId);
    if (
      !tournament ||
      tournament.arcadeId !== this.#arcade.record.id ||
      (readers.publishedOnly && !tournament.gamePublished)
    ) {
      throw tournamentNotFound(tournamentId);
    }
    return tournament;
  }

  async #found(id: string): Promise<TournamentRecord> {
    const tournament = await findTournament(this.#arcade.db, id);
    if (!tournament) throw new TypeError(`tournament ${id} vanished`);
    return tournament;
  }

  /** The game a creator may run tournaments of: a developer's own; any of this arcade's for the operator. */
  async #gameOf(creator: TournamentCreator, gameId: string): Promise<GameRecord> {
    const game = await findGame(this.#arcade.db, gameId);
    const isTheirs =
      game !== null &&
      game.arcadeId === this.#arcade.record.id &&
      (creator.kind === 'operator' || game.developerId === creator.developer.id);
    if (!isTheirs) {
      throw new CoinopError('game_not_found', `game ${gameId} does not exist`, {
        details: { gameId },
      });
    }
    return game;
  }
}

/** The developer of an API key, as the tournament routes name a creator. */
export async function developerById(
  arcade: ArcadeServices,
  developerId: string,
): Promise<DeveloperRecord> {
  const developer = await findDeveloper(arcade.db, developerId);
  if (!developer) throw new TypeError(`developer ${developerId} of a live key has no row`);
  return developer;
}

function roundNotFound(tournamentId: string, roundId: string): CoinopError {
  return new CoinopError(
    'tournament_round_not_found',
    `tournament ${tournamentId} has no round ${roundId}`,
    { details: { tournamentId, roundId } },
  );
}

export function tournamentNotFound(tournamentId: string): CoinopError {
  return new CoinopError('tournament_not_found', `tournament ${tournamentId} does not exist`, {
    details: { tournamentId },
  });
}

interface ValidTournament {
  readonly name: string;
  readonly entryFeeUnits: Units;
  readonly guaranteeUnits: Units;
  readonly payoutTable: PayoutTable;
  readonly startsAt: Date;
  readonly durationSeconds: number;
  readonly recurrence: string | null;
  readonly maxEntrants: number | null;
  readonly maxAttempts: number | null;
}

/**
 * The tournament a request asks for, or a 400 `validation_failed` naming the first field that is
 * wrong (docs/reference/tournaments.md, "Creating"). The schema has checked types and ranges.
 */
export function validTournament(request: TournamentRequest, now: Date): ValidTournament {
  const entryFeeUnits = hstField(request.entryFee, 'entryFee');
  const guaranteeUnits =
    request.guaranteedPool === undefined ? 0n : hstField(request.guaranteedPool, 'guaranteedPool');
  const payoutTable = parsePayoutTable(request.payoutTable);
  if ('problem' in payoutTable) throw invalid('payoutTable', payoutTable.problem);

  const startsAt = dateField(request.startsAt, 'startsAt');
  if (startsAt.getTime() < now.getTime() - STARTS_AT_PAST_TOLERANCE_SECONDS * 1000) {
    throw invalid(
      'startsAt',
      `startsAt ${request.startsAt} is in the past; give a time from now on (server time ${now.toISOString()})`,
    );
  }
  if (startsAt.getTime() > now.getTime() + STARTS_AT_AHEAD_MAX_SECONDS * 1000) {
    throw invalid('startsAt', `startsAt ${request.startsAt} is more than 366 days ahead`);
  }

  const hasEnd = request.endsAt !== undefined;
  const hasDuration = request.durationSeconds !== undefined;
  if (hasEnd === hasDuration) {
    throw invalid('endsAt', 'give exactly one of endsAt and durationSeconds');
  }
  let durationSeconds: number;
  let field: 'endsAt' | 'durationSeconds';
  if (request.endsAt !== undefined) {
    field = 'endsAt';
    const endsAt = dateField(request.endsAt, 'endsAt');
    durationSeconds = (endsAt.getTime() - startsAt.getTime()) / 1000;
    if (!Number.isInteger(durationSeconds)) {
      throw invalid('endsAt', 'endsAt must be a whole number of seconds after startsAt');
    }
  } else {
    field = 'durationSeconds';
    durationSeconds = request.durationSeconds ?? 0;
  }
  if (durationSeconds < MIN_ROUND_SECONDS || durationSeconds > MAX_ROUND_SECONDS) {
    throw invalid(
      field,
      `a round lasts from ${MIN_ROUND_SECONDS} seconds to 366 days; ${field} gives ${durationSeconds} seconds`,
    );
  }

  const recurrence = request.recurrence ?? null;
  if (recurrence !== null) {
    const problem = recurrenceProblem(recurrence);
    if (problem !== null) throw invalid('recurrence', problem);
  }
  return {
    name: request.name,
    entryFeeUnits,
    guaranteeUnits,
    payoutTable,
    startsAt,
    durationSeconds,
    recurrence,
    maxEntrants: request.maxEntrants ?? null,
    maxAttempts: request.maxAttempts ?? null,
  };
}

function hstField(value: unknown, field: string): Units {
  try {
    return parseHst(value, field);
  } catch (error) {
    if (!(error instanceof CoinopError)) throw error;
    // An amount in a request body is a field of it: the usual 400 naming the field.
    throw invalid(field, error.message);
  }
}

function dateField(value: string, field: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw invalid(field, `${field} must be an RFC 3339 time`);
  return date;
}

function invalid(field: string, message: string): CoinopError {
  return new CoinopError('validation_failed', message, { details: { field, in: 'body' } });
}
