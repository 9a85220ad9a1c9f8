import type { Queryable } from './db.js';
import { standingsOf } from './leaders.js';

/** The public player page's reads (docs/concepts/profiles.md): published games only. */

export interface PublicStanding {
  readonly gameId: string;
  readonly gameName: string;
  readonly scoreUnit: string;
  readonly leaderboardId: string;
  readonly leaderboardName: string;
  readonly score: number;
  readonly rank: number;
}

/**
 * The player's best and rank on every live tier of a published game they scored on (tournament
 * rounds are their own boards and are left out), best rank first.
 */
export async function publicStandings(q: Queryable, playerId: string): Promise<PublicStanding[]> {
  const boards = await q.query<{
    leaderboard_id: string;
    leaderboard_name: string;
    game_id: string;
    game_name: string;
    score_unit: string;
  }>(
    `SELECT DISTINCT p.leaderboard_id, l.name AS leaderboard_name, g.id AS game_id,
            g.name AS game_name, g.score_unit
     FROM plays p
     JOIN leaderboards l ON l.id = p.leaderboard_id
     JOIN games g ON g.id = l.game_id
     WHERE p.player_id = $1 AND g.published_at IS NOT NULL AND l.retired_at IS NULL
       AND l.tournament_id IS NULL`,
    [playerId],
  );
  const standings = await standingsOf(
    q,
    boards.map((b) => b.leaderboard_id),
    playerId,
  );
  const found: PublicStanding[] = [];
  for (const b of boards) {
    const standing = standings.get(b.leaderboard_id);
    if (standing === undefined) continue;
    found.push({
      gameId: b.game_id,
      gameName: b.game_name,
      scoreUnit: b.score_unit,
      leaderboardId: b.leaderboard_id,
      leaderboardName: b.leaderboard_name,
      score: standing.score,
      rank: standing.rank,
    });
  }
  return found.sort(
    (a, b) =>
      a.rank - b.rank ||
      a.gameName.localeCompare(b.gameName) ||
      a.leaderboardId.localeCompare(b.leaderboardId),
  );
}

export interface PublicPrize {
  readonly tournamentId: string;
  readonly tournamentName: string;
  readonly gameId: string;
  readonly gameName: string;
  readonly scoreUnit: string;
  readonly roundNumber: number;
  readonly place: number;
  readonly score: number;
  readonly prizeUnits: bigint;
  readonly closedAt: Date;
}

/** The player's places in closed rounds of published games' tournaments, newest first. */
export async function publicPrizes(
  q: Queryable,
  playerId: string,
  limit: number,
): Promise<PublicPrize[]> {
  const rows = await q.query<{
    tournament_id: string;
    tournament_name: string;
    game_id: string;
    game_name: string;
    score_unit: string;
    number: number;
    place: number;
    score: number;
    prize_units: string;
    closed_at: Date;
  }>(
    `SELECT t.id AS tournament_id, t.name AS tournament_name, g.id AS game_id,
            g.name AS game_name, g.score_unit, r.number, tr.place, tr.score,
            tr.prize_units::text AS prize_units, r.closed_at
     FROM tournament_results tr
     JOIN tournament_rounds r ON r.id = tr.round_id
     JOIN tournaments t ON t.id = r.tournament_id
     JOIN games g ON g.id = t.game_id
     WHERE tr.player_id = $1 AND g.published_at IS NOT NULL AND r.closed_at IS NOT NULL
     ORDER BY r.closed_at DESC, tr.round_id
     LIMIT $2`,
    [playerId, limit],
  );
  return rows.map((r) => ({
    tournamentId: r.tournament_id,
    tournamentName: r.tournament_name,
    gameId: r.game_id,
    gameName: r.game_name,
    scoreUnit: r.score_unit,
    roundNumber: r.number,
    place: r.place,
    score: Number(r.score),
    prizeUnits: BigInt(r.prize_units),
    closedAt: r.closed_at,
  }));
}
