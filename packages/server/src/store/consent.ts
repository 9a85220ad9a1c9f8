import type { ConsentFacts } from '@coinop/core';
import type { Queryable } from './db.js';
import { insiderSql } from './testers.js';
import { toPlay, PLAY_COLUMNS_OF_P, type PlayRow, type StoredPlay } from './plays.js';

/**
 * Consent to charges as stored: players' allowances and the operator's suspensions (testers:
 * testers.ts). The play statements read and spend allowances themselves (open-plays.ts); these
 * are the reads and writes around them.
 */

/** A player's allowance for one game, as stored and as it stands on `day`. */
export interface StoredAllowance {
  readonly gameId: string;
  readonly gameName: string;
  /** The player's own choice (0 once revoked); null: the operator's default is in force. */
  readonly dailyUnits: bigint | null;
  /** When the player last chose; null when they never did. */
  readonly decidedAt: Date | null;
  readonly spentTodayUnits: bigint;
}

interface AllowanceRow {
  game_id: string;
  game_name: string;
  daily_units: string | null;
  decided_at: Date | null;
  spent_today: string;
}

const toAllowance = (r: AllowanceRow): StoredAllowance => ({
  gameId: r.game_id,
  gameName: r.game_name,
  dailyUnits: r.daily_units === null ? null : BigInt(r.daily_units),
  decidedAt: r.decided_at,
  spentTodayUnits: BigInt(r.spent_today),
});

const ALLOWANCE_SELECT = `SELECT al.game_id, g.name AS game_name, al.daily_units::text AS daily_units,
    al.decided_at,
    (CASE WHEN al.day = $2::date THEN al.spent_units ELSE 0 END)::text AS spent_today
  FROM allowances al JOIN games g ON g.id = al.game_id`;

/**
 * The player's choice for the game: `dailyUnits` HST base units a day (0 revokes). What plays of
 * the day already locked stays counted.
 */
export async function setAllowance(
  q: Queryable,
  input: { playerId: string; gameId: string; dailyUnits: bigint; day: string; now: Date },
): Promise<StoredAllowance> {
  await q.query(
    `INSERT INTO allowances AS al (player_id, game_id, daily_units, decided_at, day, spent_units,
                                   updated_at)
     VALUES ($1, $2, $3, $4, $5, 0, $4)
     ON CONFLICT (player_id, game_id) DO UPDATE SET
       daily_units = EXCLUDED.daily_units, decided_at = EXCLUDED.decided_at,
       updated_at = EXCLUDED.updated_at`,
    [input.playerId, input.gameId, input.dailyUnits.toString(), input.now, input.day],
  );
  const found = await findAllowance(q, input.playerId, input.gameId, input.day);
  if (!found)
    throw new TypeError(`allowance of ${input.playerId} for ${input.gameId} was not stored`);
  return found;
}

export async function findAllowance(
  q: Queryable,
  playerId: string,
  gameId: string,
  day: string,
): Promise<StoredAllowance | null> {
  const rows = await q.query<AllowanceRow>(
    `${ALLOWANCE_SELECT} WHERE al.player_id = $1 AND al.game_id = $3`,
    [playerId, day, gameId],
  );
  return rows[0] ? toAllowance(rows[0]) : null;
}

/** The player's allowances: every game they chose for or were charged by, newest choice first. */
export async function allowancesOf(
  q: Queryable,
  playerId: string,
  day: string,
): Promise<StoredAllowance[]> {
  const rows = await q.query<AllowanceRow>(
    `${ALLOWANCE_SELECT} WHERE al.player_id = $1
     ORDER BY al.decided_at DESC NULLS LAST, al.updated_at DESC, al.game_id`,
    [playerId, day],
  );
  return rows.map(toAllowance);
}

/**
 * What `chargeVerdict` needs to decide whether the game may charge the player on `day`; null when
 * the game or the player does not exist. With `lockGame`, the game's row is locked for share until
 * the transaction `q` ends: a suspension (an update of that row) then either committed before and
 * is seen, or waits for the transaction.
 */
export async function consentFacts(
  q: Queryable,
  gameId: string,
  playerId: string,
  day: string,
  options: { readonly lockGame: boolean } = { lockGame: false },
): Promise<ConsentFacts | null> {
  const [row] = await q.query<{
    suspended: boolean;
    published: boolean;
    insider: boolean;
    daily_units: string | null;
    spent_today: string | null;
  }>(
    `SELECT g.suspended_at IS NOT NULL AS suspended, g.published_at IS NOT NULL AS published,
            ${insiderSql('g', 'd', 'pl.wallet')} IS TRUE AS insider,
            al.daily_units::text AS daily_units,
            (CASE WHEN al.day = $3::date THEN al.spent_units ELSE 0 END)::text AS spent_today
     FROM games g JOIN developers d ON d.id = g.developer_id
       JOIN players pl ON pl.id = $2
       LEFT JOIN allowances al ON al.player_id = pl.id AND al.game_id = g.id
     WHERE g.id = $1${options.lockGame ? ' FOR SHARE OF g' : ''}`,
    [gameId, playerId, day],
  );
  if (!row) return null;
  return {
    suspended: row.suspended,
    published: row.published,
    insider: row.insider,
    dailyUnits: row.daily_units === null ? null : BigInt(row.daily_units),
    spentTodayUnits: BigInt(row.spent_today ?? 0),
  };
}

/** Marks the game suspended (keeping the first date); false when there is no such game. */
export async function markGameSuspended(q: Queryable, gameId: string, now: Date): Promise<boolean> {
  const rows = await q.query(
    `UPDATE games SET suspended_at = coalesce(suspended_at, $2), updated_at = $2 WHERE id = $1
     RETURNING id`,
    [gameId, now],
  );
  return rows.length > 0;
}

/** Lifts a suspension; false when there is no such game. */
export async function markGameResumed(q: Queryable, gameId: string, now: Date): Promise<boolean> {
  const rows = await q.query(
    'UPDATE games SET suspended_at = NULL, updated_at = $2 WHERE id = $1 RETURNING id',
    [gameId, now],
  );
  return rows.length > 0;
}

/**
 * The game's open plays, locked, with their players' accounts. It first waits for every play
 * statement in flight (SHARE mode conflicts with their inserts): one that began before the
 * suspension committed is then visible here, and one that began after it refuses to open.
 */
export async function lockOpenPlaysOfGame(
  tx: Queryable,
  gameId: string,
): Promise<{ play: StoredPlay; playerAccountId: string }[]> {
  await tx.query('LOCK TABLE plays IN SHARE MODE');
  const rows = await tx.query<PlayRow & { player_account_id: string }>(
    `SELECT ${PLAY_COLUMNS_OF_P}, pl.account_id AS player_account_id
     FROM plays p JOIN players pl ON pl.id = p.player_id
     WHERE p.game_id = $1 AND p.status = 'open' ORDER BY p.id FOR UPDATE OF p`,
    [gameId],
  );
  return rows.map((r) => ({ play: toPlay(r), playerAccountId: r.player_account_id }));
}
