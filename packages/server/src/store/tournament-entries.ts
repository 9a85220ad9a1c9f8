import { assertRoundOpen, attemptsExhausted, CoinopError, roundFull } from '@coinop/core';
import type { Queryable } from './db.js';

/**
 * Counts a play as an entry into a round, inside the transaction that then opens the play
 * (docs/concepts/tournaments.md, "Entering"): throws the refusal, leaving the caller to roll back,
 * when the round is not open at `now`, the player has used their attempts, or the round is full.
 *
 * Locks: the round row `FOR KEY SHARE` (the closer's `FOR UPDATE` waits for this play, and this
 * play cannot start once the closer holds it), the player's entry row (the upsert: a player's
 * concurrent plays of one round count one after the other), and, for a new entrant, the round row
 * `FOR NO KEY UPDATE` (the entrants count), which does not conflict with `KEY SHARE`: plays of one
 * round do not deadlock. The limits are read from the rows under these locks, never from a cache.
 */
export async function enterRound(
  tx: Queryable,
  roundId: string,
  playerId: string,
  now: Date,
): Promise<{ attempts: number; isNewEntrant: boolean }> {
  const [round] = await tx.query<{
    status: 'open' | 'closed';
    starts_at: Date;
    ends_at: Date;
    max_entrants: number | null;
    max_attempts: number | null;
  }>(
    `SELECT r.status, r.starts_at, r.ends_at, t.max_entrants, t.max_attempts
     FROM tournament_rounds r JOIN tournaments t ON t.id = r.tournament_id
     WHERE r.id = $1 FOR KEY SHARE OF r`,
    [roundId],
    'tournament_entry_lock_round',
  );
  if (!round) throw new TypeError(`round ${roundId} of a cached board has no row`);
  assertRoundOpen(
    roundId,
    { startsAt: round.starts_at, endsAt: round.ends_at },
    round.status === 'closed',
    now,
  );

  // One more attempt, unless the player has made them all. `xmax = 0` tells a row this
  // statement inserted (a new entrant) from one it updated.
  const [entry] = await tx.query<{ attempts: number; inserted: boolean }>(
    `INSERT INTO tournament_entries AS e (round_id, player_id, attempts, entered_at)
     SELECT $1, p.id, 1, $3 FROM players p WHERE p.id = $2
     ON CONFLICT (round_id, player_id) DO UPDATE SET attempts = e.attempts + 1
       WHERE $4::int IS NULL OR e.attempts < $4::int
     RETURNING e.attempts, (e.xmax = 0) AS inserted`,
    [roundId, playerId, now, round.max_attempts],
    'tournament_entry_upsert',
  );
  if (!entry) {
    if (round.max_attempts !== null) {
      const [known] = await tx.query(
        'SELECT 1 FROM tournament_entries WHERE round_id = $1 AND player_id = $2',
        [roundId, playerId],
      );
      if (known) throw attemptsExhausted(roundId, round.max_attempts);
    }
    throw new CoinopError('player_not_found', `player ${playerId} does not exist`, {
      details: { field: 'playerId', playerId },
    });
  }
  if (entry.inserted) {
    const counted = await tx.query(
      `UPDATE tournament_rounds SET entrants = entrants + 1
       WHERE id = $1 AND ($2::int IS NULL OR entrants < $2::int) RETURNING entrants`,
      [roundId, round.max_entrants],
      'tournament_entry_count',
    );
    if (counted.length === 0) throw roundFull(roundId, round.max_entrants ?? 0);
  }
  return { attempts: entry.attempts, isNewEntrant: entry.inserted };
}

/**
 * A player's attempts in a round of `tournamentId`: `roundId` when given, else the latest round
 * not yet closed, else the latest round. Null when the tournament has no such round. A player who
 * has not entered has 0 attempts.
 */
export async function findEntry(
  q: Queryable,
  tournamentId: string,
  roundId: string | null,
  playerId: string,
): Promise<{ roundId: string; attempts: number } | null> {
  const [row] = await q.query<{ round_id: string; attempts: number }>(
    `SELECT r.id AS round_id, coalesce(e.attempts, 0) AS attempts
     FROM tournament_rounds r
     LEFT JOIN tournament_entries e ON e.round_id = r.id AND e.player_id = $3
     WHERE r.tournament_id = $1 AND ($2::uuid IS NULL OR r.id = $2::uuid)
     ORDER BY r.status = 'open' DESC, r.number DESC
     LIMIT 1`,
    [tournamentId, roundId, playerId],
    'tournament_entry_find',
  );
  return row ? { roundId: row.round_id, attempts: Number(row.attempts) } : null;
}
