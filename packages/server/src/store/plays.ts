import type { Play, PlayOpener, PlayStatus } from '@coinop/core';
import type { Queryable } from './db.js';

export interface PlayRow {
  id: string;
  arcade_id: string;
  game_id: string;
  developer_id: string;
  leaderboard_id: string;
  player_id: string;
  cost_units: bigint;
  lock_transfer_id: string | null;
  vault_account_id: string | null;
  leader_player_ids: string[];
  status: PlayStatus;
  idempotency_key: string | null;
  request_hash: string | null;
  expires_at: Date;
  created_at: Date;
  updated_at: Date;
  seed: string | null;
  opened_by: PlayOpener;
}

export interface StoredPlay extends Play {
  readonly idempotencyKey: string | null;
  readonly requestHash: string | null;
  /** 64 lowercase hex characters drawn at the open (issue 30); null for plays opened before. */
  readonly seed: string | null;
  /** Who opened the play, and so who may score it (038_play_opened_by.sql). */
  readonly openedBy: PlayOpener;
}

const PLAY_COLUMN_NAMES = [
  'id',
  'arcade_id',
  'game_id',
  'developer_id',
  'leaderboard_id',
  'player_id',
  'cost_units',
  'lock_transfer_id',
  'vault_account_id',
  'leader_player_ids',
  'status',
  'idempotency_key',
  'request_hash',
  'expires_at',
  'created_at',
  'updated_at',
  'seed',
  'opened_by',
];
const PLAY_COLUMNS = PLAY_COLUMN_NAMES.join(', ');
/** The play columns qualified by the alias `p`, for joins. */
export const PLAY_COLUMNS_OF_P = PLAY_COLUMN_NAMES.map((c) => `p.${c}`).join(', ');

export function toPlay(r: PlayRow): StoredPlay {
  return {
    id: r.id,
    arcadeId: r.arcade_id,
    gameId: r.game_id,
    developerId: r.developer_id,
    leaderboardId: r.leaderboard_id,
    playerId: r.player_id,
    costUnits: BigInt(r.cost_units),
    lockTransferId: r.lock_transfer_id,
    vaultAccountId: r.vault_account_id,
    leaderPlayerIds: r.leader_player_ids,
    status: r.status,
    idempotencyKey: r.idempotency_key,
    requestHash: r.request_hash,
    expiresAt: r.expires_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    seed: r.seed,
    openedBy: r.opened_by,
  };
}

export async function findPlay(
  q: Queryable,
  gameId: string,
  playId: string,
): Promise<StoredPlay | null> {
  const rows = await q.query<PlayRow>(
    // `IS TRUE` keeps a generic plan on the primary key rather than the plays_by_game index.
    `SELECT ${PLAY_COLUMNS} FROM plays WHERE id = $1 AND (game_id = $2) IS TRUE`,
    [playId, gameId],
    'plays_find',
  );
  return rows[0] ? toPlay(rows[0]) : null;
}

export async function findPlayByIdempotencyKey(
  q: Queryable,
  gameId: string,
  key: string,
): Promise<StoredPlay | null> {
  const rows = await q.query<PlayRow>(
    `SELECT ${PLAY_COLUMNS} FROM plays WHERE game_id = $1 AND idempotency_key = $2`,
    [gameId, key],
    'plays_by_idempotency_key',
  );
  return rows[0] ? toPlay(rows[0]) : null;
}

export async function setPlayStatus(
  tx: Queryable,
  playId: string,
  status: PlayStatus,
  now: Date,
): Promise<void> {
  await tx.query(
    'UPDATE plays SET status = $2, updated_at = $3 WHERE id = $1',
    [playId, status, now],
    'plays_set_status',
  );
}

/**
 * Open plays past their expiry, oldest first, locked; rows another process is already settling
 * are skipped, so several API processes can sweep at once. A tournament round's play still open
 * when its round ended (its expiry is the round's end, or later for a play opened before expiries
 * were clipped) is left to the round's close, which settles it the same way in its own
 * transaction (docs/concepts/tournaments.md, "Fees and the pool").
 */
export async function lockExpiredPlays(
  tx: Queryable,
  now: Date,
  limit: number,
): Promise<StoredPlay[]> {
  const rows = await tx.query<PlayRow>(
    `SELECT ${PLAY_COLUMNS_OF_P} FROM plays p WHERE p.status = 'open' AND p.expires_at <= $1
       AND NOT EXISTS (SELECT 1 FROM tournament_rounds r
                       WHERE r.id = p.leaderboard_id AND p.expires_at >= r.ends_at)
     ORDER BY p.expires_at LIMIT $2 FOR UPDATE OF p SKIP LOCKED`,
    [now, limit],
    'plays_lock_expired',
  );
  return rows.map(toPlay);
}

/**
 * The boards of the plays `lockExpiredPlays` would take now, read without a lock, so the sweep
 * can read their games before its transaction.
 */
export async function expiredPlayBoards(
  q: Queryable,
  now: Date,
  limit: number,
): Promise<{ gameId: string; leaderboardId: string }[]> {
  const rows = await q.query<{ game_id: string; leaderboard_id: string }>(
    `SELECT DISTINCT e.game_id, e.leaderboard_id FROM (
       SELECT p.game_id, p.leaderboard_id FROM plays p WHERE p.status = 'open' AND p.expires_at <= $1
         AND NOT EXISTS (SELECT 1 FROM tournament_rounds r
                         WHERE r.id = p.leaderboard_id AND p.expires_at >= r.ends_at)
       ORDER BY p.expires_at LIMIT $2) e`,
    [now, limit],
    'plays_expired_boards',
  );
  return rows.map((r) => ({ gameId: r.game_id, leaderboardId: r.leaderboard_id }));
}

/** Each player's account id, for the players given. */
export async function playerAccounts(
  q: Queryable,
  playerIds: readonly string[],
): Promise<Map<string, string>> {
  const rows = await q.query<{ id: string; account_id: string }>(
    'SELECT id, account_id FROM players WHERE id = ANY($1::uuid[])',
    [playerIds],
    'players_accounts',
  );
  return new Map(rows.map((r) => [r.id, r.account_id]));
}
