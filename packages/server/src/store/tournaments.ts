import type { PayoutTable, RoundRules, ScoreDisplay, Units } from '@coinop/core';
import type { Queryable } from './db.js';

/** A tournament as stored (docs/concepts/tournaments.md), with its game's display fields. */
export interface TournamentRecord {
  readonly id: string;
  readonly gameId: string;
  readonly gameName: string;
  readonly arcadeId: string;
  readonly developerId: string;
  readonly gamePublished: boolean;
  readonly scoreDisplay: ScoreDisplay;
  readonly scoreUnit: string;
  readonly name: string;
  readonly entryFeeUnits: Units;
  readonly guaranteeUnits: Units;
  readonly funderAccountId: string;
  readonly createdBy: 'developer' | 'operator';
  readonly payoutTable: PayoutTable;
  readonly maxEntrants: number | null;
  readonly maxAttempts: number | null;
  readonly startsAt: Date;
  readonly durationSeconds: number;
  readonly recurrence: string | null;
  readonly stoppedAt: Date | null;
  readonly createdAt: Date;
  /** The latest round not yet closed (open now, to come, or ended awaiting its close); or null. */
  readonly currentRound: RoundRecord | null;
}

/** A round as stored: its window, entrants and pool (the pool account's balance until closed). */
export interface RoundRecord {
  readonly id: string;
  readonly tournamentId: string;
  readonly number: number;
  /** The round's board name ("Weekly Cup #3"). */
  readonly boardName: string;
  readonly startsAt: Date;
  readonly endsAt: Date;
  readonly isClosed: boolean;
  readonly closedAt: Date | null;
  readonly entrants: number;
  readonly poolUnits: Units;
  readonly guaranteeFunded: boolean;
}

/** A paid place of a closed round, with the player's name and avatar. */
export interface RoundResultRecord {
  readonly place: number;
  readonly playerId: string;
  readonly name: string;
  readonly avatarUrl: string | null;
  readonly score: number;
  readonly prizeUnits: Units;
}

export type NewTournament = Omit<
  TournamentRecord,
  | 'gameName'
  | 'arcadeId'
  | 'developerId'
  | 'gamePublished'
  | 'scoreDisplay'
  | 'scoreUnit'
  | 'stoppedAt'
  | 'currentRound'
>;

interface TournamentRow {
  id: string;
  game_id: string;
  game_name: string;
  arcade_id: string;
  developer_id: string;
  game_published: boolean;
  score_display: ScoreDisplay;
  score_unit: string;
  name: string;
  entry_fee_units: string;
  guarantee_units: string;
  funder_account_id: string;
  created_by: 'developer' | 'operator';
  payout_table: unknown;
  max_entrants: number | null;
  max_attempts: number | null;
  starts_at: Date;
  duration_seconds: number;
  recurrence: string | null;
  stopped_at: Date | null;
  created_at: Date;
  r_id: string | null;
  r_number: number | null;
  r_board_name: string | null;
  r_starts_at: Date | null;
  r_ends_at: Date | null;
  r_closed_at: Date | null;
  r_entrants: number | null;
  r_pool_units: string | null;
  r_guarantee_funded: boolean | null;
}

/** The pool of a round row `r` joined with its pool account `a`: paid out once closed. */
const POOL = `CASE WHEN r.status = 'closed' THEN r.pool_units
                   ELSE a.credits_posted - a.debits_posted END`;

const SELECT_TOURNAMENTS = `
  SELECT t.id, t.game_id, g.name AS game_name, g.arcade_id, g.developer_id,
         g.published_at IS NOT NULL AS game_published, g.score_display, g.score_unit, t.name,
         t.entry_fee_units::text AS entry_fee_units, t.guarantee_units::text AS guarantee_units,
         t.funder_account_id, t.created_by, t.payout_table, t.max_entrants, t.max_attempts,
         t.starts_at, t.duration_seconds, t.recurrence, t.stopped_at, t.created_at,
         cr.id AS r_id, cr.number AS r_number, cr.board_name AS r_board_name,
         cr.starts_at AS r_starts_at,
         cr.ends_at AS r_ends_at, cr.closed_at AS r_closed_at, cr.entrants AS r_entrants,
         cr.pool_units::text AS r_pool_units, cr.guarantee_funded AS r_guarantee_funded
  FROM tournaments t JOIN games g ON g.id = t.game_id
  LEFT JOIN LATERAL (
    SELECT r.id, r.number, l.name AS board_name, r.starts_at, r.ends_at, r.closed_at,
           r.entrants, r.guarantee_funded, ${POOL} AS pool_units
    FROM tournament_rounds r JOIN accounts a ON a.id = r.id JOIN leaderboards l ON l.id = r.id
    WHERE r.tournament_id = t.id AND r.status = 'open'
    ORDER BY r.number DESC LIMIT 1
  ) cr ON true`;

const toTournament = (r: TournamentRow): TournamentRecord => ({
  id: r.id,
  gameId: r.game_id,
  gameName: r.game_name,
  arcadeId: r.arcade_id,
  developerId: r.developer_id,
  gamePublished: r.game_published,
  scoreDisplay: r.score_display,
  scoreUnit: r.score_unit,
  name: r.name,
  entryFeeUnits: BigInt(r.entry_fee_units),
  guaranteeUnits: BigInt(r.guarantee_units),
  funderAccountId: r.funder_account_id,
  createdBy: r.created_by,
  payoutTable: (typeof r.payout_table === 'string'
    ? JSON.parse(r.payout_table)
    : r.payout_table) as PayoutTable,
  maxEntrants: r.max_entrants,
  maxAttempts: r.max_attempts,
  startsAt: r.starts_at,
  durationSeconds: r.duration_seconds,
  recurrence: r.recurrence,
  stoppedAt: r.stopped_at,
  createdAt: r.created_at,
  currentRound:
    r.r_id === null
      ? null
      : {
          id: r.r_id,
          tournamentId: r.id,
          number: r.r_number ?? 0,
          boardName: r.r_board_name ?? '',
          startsAt: r.r_starts_at ?? r.starts_at,
          endsAt: r.r_ends_at ?? r.starts_at,
          isClosed: false,
          closedAt: r.r_closed_at,
          entrants: r.r_entrants ?? 0,
          poolUnits: BigInt(r.r_pool_units ?? '0'),
          guaranteeFunded: r.r_guarantee_funded ?? false,
        },
});

export async function insertTournament(tx: Queryable, t: NewTournament): Promise<void> {
  await tx.query(
    `INSERT INTO tournaments
       (id, game_id, name, entry_fee_units, guarantee_units, funder_account_id, created_by,
        payout_table, max_entrants, max_attempts, starts_at, duration_seconds, recurrence,
        created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10, $11, $12, $13, $14, $14)`,
    [
      t.id,
      t.gameId,
      t.name,
      t.entryFeeUnits.toString(),
      t.guaranteeUnits.toString(),
      t.funderAccountId,
      t.createdBy,
      JSON.stringify(t.payoutTable),
      t.maxEntrants,
      t.maxAttempts,
      t.startsAt,
      t.durationSeconds,
      t.recurrence,
      t.createdAt,
    ],
  );
}

export async function findTournament(q: Queryable, id: string): Promise<TournamentRecord | null> {
  const rows = await q.query<TournamentRow>(`${SELECT_TOURNAMENTS} WHERE t.id = $1`, [id]);
  return rows[0] ? toTournament(rows[0]) : null;
}

/** A game's tournaments, newest first. */
export async function tournamentsOfGame(
  q: Queryable,
  gameId: string,
  limit: number,
): Promise<TournamentRecord[]> {
  const rows = await q.query<TournamentRow>(
    `${SELECT_TOURNAMENTS} WHERE t.game_id = $1 ORDER BY t.created_at DESC, t.id DESC LIMIT $2`,
    [gameId, limit],
  );
  return rows.map(toTournament);
}

/**
 * Tournaments for the catalog and the operator: those with a round not yet closed first (the
 * soonest to end first), then the rest, newest first. `publishedOnly` keeps to published games.
 */
export async function listTournaments(
  q: Queryable,
  options: { readonly arcadeId: string; readonly publishedOnly: boolean; readonly limit: number },
): Promise<TournamentRecord[]> {
  const rows = await q.query<TournamentRow>(
    `${SELECT_TOURNAMENTS}
     WHERE g.arcade_id = $1 AND ($2::boolean = false OR g.published_at IS NOT NULL)
     ORDER BY cr.id IS NULL, cr.ends_at, t.created_at DESC, t.id DESC
     LIMIT $3`,
    [options.arcadeId, options.publishedOnly, options.limit],
  );
  return rows.map(toTournament);
}

/** Sets `stopped_at` once: no round opens after the current one. Null when there is no such tournament. */
export async function stopTournament(q: Queryable, id: string, now: Date): Promise<boolean> {
  const rows = await q.query<{ id: string }>(
    `UPDATE tournaments SET stopped_at = coalesce(stopped_at, $2), updated_at = $2
     WHERE id = $1 RETURNING id`,
    [id, now],
  );
  return rows.length > 0;
}

interface RoundRow {
  id: string;
  tournament_id: string;
  number: number;
  board_name: string;
  starts_at: Date;
  ends_at: Date;
  status: 'open' | 'closed';
  closed_at: Date | null;
  entrants: number;
  pool_units: string;
  guarantee_funded: boolean;
}

const ROUND_COLUMNS = `r.id, r.tournament_id, r.number, l.name AS board_name, r.starts_at, r.ends_at, r.status,
  r.closed_at, r.entrants, (${POOL})::text AS pool_units, r.guarantee_funded`;

const toRound = (r: RoundRow): RoundRecord => ({
  id: r.id,
  tournamentId: r.tournament_id,
  number: r.number,
  boardName: r.board_name,
  startsAt: r.starts_at,
  endsAt: r.ends_at,
  isClosed: r.status === 'closed',
  closedAt: r.closed_at,
  entrants: r.entrants,
  poolUnits: BigInt(r.pool_units),
  guaranteeFunded: r.guarantee_funded,
});

/** A tournament's rounds, newest first, after round number `before` (exclusive) when given. */
export async function roundsOfTournament(
  q: Queryable,
  tournamentId: string,
  before: number | null,
  limit: number,
): Promise<RoundRecord[]> {
  const rows = await q.query<RoundRow>(
    `SELECT ${ROUND_COLUMNS}
     FROM tournament_rounds r JOIN accounts a ON a.id = r.id JOIN leaderboards l ON l.id = r.id
     WHERE r.tournament_id = $1 AND ($2::int IS NULL OR r.number < $2)
     ORDER BY r.number DESC LIMIT $3`,
    [tournamentId, before, limit],
  );
  return rows.map(toRound);
}

/** One round of a tournament with its paid places (names and avatars joined), or null. */
export async function findRoundWithResults(
  q: Queryable,
  tournamentId: string,
  roundId: string,
): Promise<{ round: RoundRecord; results: RoundResultRecord[] } | null> {
  const rounds = await q.query<RoundRow>(
    `SELECT ${ROUND_COLUMNS}
     FROM tournament_rounds r JOIN accounts a ON a.id = r.id JOIN leaderboards l ON l.id = r.id
     WHERE r.tournament_id = $1 AND r.id = $2`,
    [tournamentId, roundId],
  );
  const round = rounds[0];
  if (!round) return null;
  const results = await q.query<{
    place: number;
    player_id: string;
    name: string;
    avatar_url: string | null;
    score: number;
    prize_units: string;
  }>(
    `SELECT tr.place, tr.player_id, p.name, p.avatar_url, tr.score,
            tr.prize_units::text AS prize_units
     FROM tournament_results tr JOIN players p ON p.id = tr.player_id
     WHERE tr.round_id = $1 ORDER BY tr.place`,
    [roundId],
  );
  return {
    round: toRound(round),
    results: results.map((r) => ({
      place: r.place,
      playerId: r.player_id,
      name: r.name,
      avatarUrl: r.avatar_url,
      score: Number(r.score),
      prizeUnits: BigInt(r.prize_units),
    })),
  };
}

/** A round's board as the play path knows it: the board and its round's rules. */
export interface RoundBoard {
  readonly id: string;
  readonly name: string;
  readonly costUnits: bigint;
  readonly leadersMax: number;
  readonly round: RoundRules;
}

interface RoundBoardRow {
  id: string;
  name: string;
  cost_units: string;
  leaders_max: number;
  tournament_id: string;
  number: number;
  starts_at: Date;
  ends_at: Date;
  max_entrants: number | null;
  max_attempts: number | null;
}

const SELECT_ROUND_BOARDS = `
  SELECT l.id, l.name, l.cost_units::text AS cost_units, l.leaders_max, r.tournament_id,
         r.number, r.starts_at, r.ends_at, t.max_entrants, t.max_attempts
  FROM tournament_rounds r JOIN tournaments t ON t.id = r.tournament_id
    JOIN leaderboards l ON l.id = r.id`;

const toRoundBoard = (r: RoundBoardRow): RoundBoard => ({
  id: r.id,
  name: r.name,
  costUnits: BigInt(r.cost_units),
  leadersMax: r.leaders_max,
  round: {
    tournamentId: r.tournament_id,
    number: r.number,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    maxEntrants: r.max_entrants,
    maxAttempts: r.max_attempts,
  },
});

/** A game's rounds not yet closed, as the play path caches them (`loadGameRef`). */
export async function openRoundsOfGame(q: Queryable, gameId: string): Promise<RoundBoard[]> {
  const rows = await q.query<RoundBoardRow>(
    `${SELECT_ROUND_BOARDS} WHERE t.game_id = $1 AND r.status = 'open' ORDER BY r.starts_at`,
    [gameId],
    'tournament_rounds_of_game',
  );
  return rows.map(toRoundBoard);
}

/** A round of `gameId`, closed or not: reads of a closed round's standings find its board here. */
export async function findRoundBoard(
  q: Queryable,
  gameId: string,
  roundId: string,
): Promise<RoundBoard | null> {
  const rows = await q.query<RoundBoardRow>(
    `${SELECT_ROUND_BOARDS} WHERE r.id = $1 AND t.game_id = $2`,
    [roundId, gameId],
    'tournament_round_board_find',
  );
  return rows[0] ? toRoundBoard(rows[0]) : null;
}

/** A tournament of `gameId` by id, whatever its rounds: to tell "closed" from "no such board". */
export async function tournamentOfGameExists(
  q: Queryable,
  gameId: string,
  tournamentId: string,
): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM tournaments WHERE id = $1 AND game_id = $2`, [
    tournamentId,
    gameId,
  ]);
  return rows.length > 0;
}
