import type { Clock, Leaderboard, PlayStatus, Units } from '@coinop/core';
import type { Queryable } from './db.js';
import { SPENDABLE_AMOUNT } from './daily-stats.js';
import { tierNameChecked } from './games.js';
import { tierRulesOf, type RuleColumns } from './score-rules.js';

/** What the developer portal reads and writes beyond registration: tiers, clients, stats. */

/** A tier as the portal manages it. */
export interface TierRecord extends Leaderboard {
  readonly retiredAt: Date | null;
}

export interface GameClientSummary {
  readonly clientId: string;
  readonly createdAt: Date;
  readonly revokedAt: Date | null;
}

interface TierRow extends RuleColumns {
  id: string;
  game_id: string;
  name: string;
  cost_units: bigint;
  leaders_max: number;
  position: number;
  retired_at: Date | null;
  payout_hold_seconds: number | null;
}
const TIER_COLUMNS =
  'id, game_id, name, cost_units, leaders_max, position, retired_at, min_score, max_score, ' +
  'min_play_ms, replay_rule, payout_hold_seconds';
const toTier = (r: TierRow): TierRecord => ({
  id: r.id,
  gameId: r.game_id,
  name: r.name,
  costUnits: BigInt(r.cost_units),
  leadersMax: r.leaders_max,
  position: r.position,
  retiredAt: r.retired_at,
  scoreRules: tierRulesOf(r),
  payoutHoldSeconds: r.payout_hold_seconds,
});

/** The live tiers of each game, in display order: one query for any number of games. */
export async function liveTiersOf(
  q: Queryable,
  gameIds: readonly string[],
): Promise<Map<string, TierRecord[]>> {
  const rows = await q.query<TierRow>(
    `SELECT ${TIER_COLUMNS} FROM leaderboards
     WHERE game_id = ANY($1::uuid[]) AND retired_at IS NULL AND tournament_id IS NULL
     ORDER BY game_id, position`,
    [gameIds],
    'developer_live_tiers',
  );
  return groupBy(rows.map(toTier), (t) => t.gameId);
}

/** The clients of each game, live and revoked, oldest first. */
export async function clientsOf(
  q: Queryable,
  gameIds: readonly string[],
): Promise<Map<string, GameClientSummary[]>> {
  const rows = await q.query<ClientRow & { game_id: string }>(
    `SELECT game_id, client_id, created_at, revoked_at FROM game_clients
     WHERE game_id = ANY($1::uuid[]) ORDER BY game_id, created_at, client_id`,
    [gameIds],
    'developer_game_clients',
  );
  const byGame = groupBy(rows, (r) => r.game_id);
  return new Map([...byGame].map(([gameId, list]) => [gameId, list.map(toClient)]));
}

/** One tier of the game, live or retired; null when the game has no such tier. */
export async function findTier(
  q: Queryable,
  gameId: string,
  leaderboardId: string,
  forUpdate = false,
): Promise<TierRecord | null> {
  const rows = await q.query<TierRow>(
    `SELECT ${TIER_COLUMNS} FROM leaderboards
     WHERE id = $1 AND game_id = $2 AND tournament_id IS NULL
     ${forUpdate ? 'FOR UPDATE' : ''}`,
    [leaderboardId, gameId],
  );
  return rows[0] ? toTier(rows[0]) : null;
}

/**
 * Renames a tier, changes its cost or its payout hold (null: the game's); plays already open
 * keep the cost they locked.
 */
export async function updateTier(
  q: Queryable,
  leaderboardId: string,
  change: {
    name?: string | undefined;
    costUnits?: Units | undefined;
    payoutHoldSeconds?: number | null | undefined;
  },
): Promise<TierRecord> {
  const update = () =>
    q.query<TierRow>(
      `UPDATE leaderboards SET name = coalesce($2, name), cost_units = coalesce($3, cost_units),
         payout_hold_seconds = CASE WHEN $4 THEN $5::integer ELSE payout_hold_seconds END
       WHERE id = $1 RETURNING ${TIER_COLUMNS}`,
      [
        leaderboardId,
        change.name ?? null,
        change.costUnits?.toString() ?? null,
        change.payoutHoldSeconds !== undefined,
        change.payoutHoldSeconds ?? null,
      ],
    );
  const { name } = change;
  const [row] = await (name === undefined ? update() : tierNameChecked(name, update));
  if (!row) throw new Error(`leaderboard ${leaderboardId} vanished during its update`);
  return toTier(row);
}

/** How many tiers of the game still take plays. Lock the game row first to count reliably. */
export async function countLiveTiers(q: Queryable, gameId: string): Promise<number> {
  const [row] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM leaderboards
     WHERE game_id = $1 AND retired_at IS NULL AND tournament_id IS NULL`,
    [gameId],
  );
  return row?.n ?? 0;
}

export async function retireTier(q: Queryable, clock: Clock, leaderboardId: string): Promise<void> {
  await q.query('UPDATE leaderboards SET retired_at = coalesce(retired_at, $2) WHERE id = $1', [
    leaderboardId,
    clock.now(),
  ]);
}

/** Serialises changes to one game's tiers (the last live tier rule) across requests. */
export async function lockGameRow(q: Queryable, gameId: string): Promise<void> {
  await q.query('SELECT id FROM games WHERE id = $1 FOR UPDATE', [gameId]);
}

/** Stores a new client of a game's server: its id and the hash of its secret, never the secret. */
export async function insertGameClient(
  q: Queryable,
  client: { clientId: string; gameId: string; secretHash: Uint8Array; createdAt: Date },
): Promise<void> {
  await q.query(
    'INSERT INTO game_clients (client_id, game_id, secret_hash, created_at) VALUES ($1, $2, $3, $4)',
    [client.clientId, client.gameId, client.secretHash, client.createdAt],
  );
}

interface ClientRow {
  client_id: string;
  created_at: Date;
  revoked_at: Date | null;
}
const toClient = (r: ClientRow): GameClientSummary => ({
  clientId: r.client_id,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

export async function findClient(
  q: Queryable,
  gameId: string,
  clientId: string,
): Promise<GameClientSummary | null> {
  const rows = await q.query<ClientRow>(
    'SELECT client_id, created_at, revoked_at FROM game_clients WHERE client_id = $1 AND game_id = $2',
    [clientId, gameId],
  );
  return rows[0] ? toClient(rows[0]) : null;
}

/**
 * Replaces a live client's secret hash. Null when the client is not a live client of the game.
 */
export async function replaceClientSecret(
  q: Queryable,
  gameId: string,
  clientId: string,
  secretHash: Uint8Array,
  now: Date,
): Promise<GameClientSummary | null> {
  const rows = await q.query<ClientRow>(
    `UPDATE game_clients SET secret_hash = $3, secret_rotated_at = $4
     WHERE client_id = $1 AND game_id = $2 AND revoked_at IS NULL
     RETURNING client_id, created_at, revoked_at`,
    [clientId, gameId, secretHash, now],
  );
  return rows[0] ? toClient(rows[0]) : null;
}

/** Revokes a client; revoking it again keeps the first date. Null when the game has no such one. */
export async function revokeClient(
  q: Queryable,
  clock: Clock,
  gameId: string,
  clientId: string,
): Promise<GameClientSummary | null> {
  const rows = await q.query<ClientRow>(
    `UPDATE game_clients SET revoked_at = coalesce(revoked_at, $3)
     WHERE client_id = $1 AND game_id = $2 RETURNING client_id, created_at, revoked_at`,
    [clientId, gameId, clock.now()],
  );
  return rows[0] ? toClient(rows[0]) : null;
}

export interface GameStatsRecord {
  readonly plays: {
    total: number;
    open: number;
    scored: number;
    expired: number;
    voided: number;
  };
  readonly scores: number;
  /** Credited to the developer's account by this game: play payouts plus in-game purchases. */
  readonly earnedUnits: Units;
  readonly recentPlays: readonly {
    playId: string;
    playerName: string;
    leaderboardName: string;
    costUnits: Units;
    status: PlayStatus;
    score: number | null;
    createdAt: Date;
  }[];
}

/** How many recent plays the stats list. */
export const RECENT_PLAYS = 20;

/**
 * A game's plays by status, its scores and what it earned the developer, in one query, and its
 * newest plays in a second. Both walk the game's plays through `plays_by_game`. Earned counts
 * as the daily chart does: a held share once its release posts it (`SPENDABLE_AMOUNT`).
 */
export async function gameStats(
  q: Queryable,
  gameId: string,
  developerAccountId: string,
): Promise<GameStatsRecord> {
  const [totals] = await q.query<{
    total: number;
    open: number;
    scored: number;
    expired: number;
    voided: number;
    scores: number;
    play_units: bigint | null;
    purchase_units: bigint | null;
  }>(
    `WITH game_plays AS (SELECT id, status FROM plays WHERE game_id = $1)
     SELECT (SELECT count(*)::int FROM game_plays) AS total,
            (SELECT count(*)::int FROM game_plays WHERE status = 'open') AS open,
            (SELECT count(*)::int FROM game_plays WHERE status = 'scored') AS scored,
            (SELECT count(*)::int FROM game_plays WHERE status = 'expired') AS expired,
            (SELECT count(*)::int FROM game_plays WHERE status = 'voided') AS voided,
            (SELECT count(*)::int FROM scores s JOIN game_plays p ON p.id = s.play_id) AS scores,
            (SELECT sum(${SPENDABLE_AMOUNT})::bigint FROM transfers t
             JOIN game_plays p ON p.id = t.play_id
             WHERE t.credit_account_id = $2 AND t.kind IN ('posted', 'post_pending')) AS play_units,
            (SELECT sum(t.amount)::bigint FROM game_purchases gp
             JOIN transfers t ON t.id = gp.transfer_id
             WHERE gp.game_id = $1 AND t.credit_account_id = $2 AND t.kind = 'posted')
              AS purchase_units`,
    [gameId, developerAccountId],
    'developer_game_stats',
  );
  const recent = await q.query<{
    id: string;
    player_name: string;
    leaderboard_name: string;
    cost_units: bigint;
    status: PlayStatus;
    score: number | null;
    created_at: Date;
  }>(
    `SELECT p.id, pl.name AS player_name, l.name AS leaderboard_name, p.cost_units, p.status,
            s.score, p.created_at
     FROM plays p
     JOIN players pl ON pl.id = p.player_id
     JOIN leaderboards l ON l.id = p.leaderboard_id
     LEFT JOIN scores s ON s.play_id = p.id
     WHERE p.game_id = $1
     ORDER BY p.created_at DESC, p.id DESC
     LIMIT $2`,
    [gameId, RECENT_PLAYS],
    'developer_game_recent_plays',
  );
  return {
    plays: {
      total: totals?.total ?? 0,
      open: totals?.open ?? 0,
      scored: totals?.scored ?? 0,
      expired: totals?.expired ?? 0,
      voided: totals?.voided ?? 0,
    },
    scores: totals?.scores ?? 0,
    earnedUnits: BigInt(totals?.play_units ?? 0n) + BigInt(totals?.purchase_units ?? 0n),
    recentPlays: recent.map((r) => ({
      playId: r.id,
      playerName: r.player_name,
      leaderboardName: r.leaderboard_name,
      costUnits: BigInt(r.cost_units),
      status: r.status,
      score: r.score,
      createdAt: r.created_at,
    })),
  };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(key(item));
    if (list) list.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
