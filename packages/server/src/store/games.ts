import {
  CoinopError,
  hasScoreRules,
  type Clock,
  type GameRef,
  type Ids,
  type Leaderboard,
  type ReplayRule,
  type ScoreDisplay,
} from '@coinop/core';
import type { Queryable } from './db.js';
import { PgErrorCodes, pgConstraint, pgErrorCode } from './postgres-errors.js';
import { gameRulesOf, ruleColumns, tierOverridesOf, type RuleColumns } from './score-rules.js';
import { openRoundsOfGame } from './tournaments.js';

/** A game as stored: every field the developer owns plus what the arcade tracks. */
export interface GameRecord {
  id: string;
  arcadeId: string;
  developerId: string;
  name: string;
  description: string;
  category: string;
  developerInfo: string;
  tagLine: string;
  url: string;
  coverUrl: string;
  scoreDisplay: ScoreDisplay;
  /** Shown after each score ("109 ms"); empty for none. */
  scoreUnit: string;
  prodDomain: string | null;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** Seconds its payouts are held; null: the operator's default (migration 026). */
  payoutHoldSeconds?: number | null;
  /** The frame's shape as "width:height"; null: the arcade's default frame (migration 033). */
  aspectRatio?: string | null;
}

export type NewGame = Omit<
  GameRecord,
  'id' | 'arcadeId' | 'scoreUnit' | 'publishedAt' | 'createdAt' | 'updatedAt'
> & { scoreUnit?: string };

/** Fields a developer may change after registration (name and scoreDisplay are fixed). */
export type GameUpdate = Partial<
  Pick<
    GameRecord,
    | 'description'
    | 'coverUrl'
    | 'prodDomain'
    | 'url'
    | 'category'
    | 'tagLine'
    | 'developerInfo'
    | 'scoreUnit'
    | 'payoutHoldSeconds'
    | 'aspectRatio'
  >
>;

interface GameRow {
  id: string;
  arcade_id: string;
  developer_id: string;
  name: string;
  description: string;
  category: string;
  developer_info: string;
  tag_line: string;
  url: string;
  cover_url: string;
  score_display: ScoreDisplay;
  score_unit: string;
  prod_domain: string | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
  payout_hold_seconds: number | null;
  aspect_ratio: string | null;
}

const GAME_COLUMNS = `id, arcade_id, developer_id, name, description, category, developer_info,
  tag_line, url, cover_url, score_display, score_unit, prod_domain, published_at, created_at,
  updated_at, payout_hold_seconds, aspect_ratio`;

const toGame = (r: GameRow): GameRecord => ({
  id: r.id,
  arcadeId: r.arcade_id,
  developerId: r.developer_id,
  name: r.name,
  description: r.description,
  category: r.category,
  developerInfo: r.developer_info,
  tagLine: r.tag_line,
  url: r.url,
  coverUrl: r.cover_url,
  scoreDisplay: r.score_display,
  scoreUnit: r.score_unit,
  prodDomain: r.prod_domain,
  publishedAt: r.published_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  payoutHoldSeconds: r.payout_hold_seconds,
  aspectRatio: r.aspect_ratio,
});

export async function insertGame(
  tx: Queryable,
  clock: Clock,
  ids: Ids,
  arcadeId: string,
  game: NewGame,
  tiers: readonly { name: string; costUnits: bigint; leadersMax: number }[],
): Promise<GameRecord> {
  const now = clock.now();
  const id = ids.next();
  const [row] = await tx.query<GameRow>(
    `INSERT INTO games (id, arcade_id, developer_id, name, description, category, developer_info,
                        tag_line, url, cover_url, score_display, score_unit, prod_domain,
                        created_at, updated_at, payout_hold_seconds)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14, $15)
     RETURNING ${GAME_COLUMNS}`,
    [
      id,
      arcadeId,
      game.developerId,
      game.name,
      game.description,
      game.category,
      game.developerInfo,
      game.tagLine,
      game.url,
      game.coverUrl,
      game.scoreDisplay,
      game.scoreUnit ?? '',
      game.prodDomain,
      now,
      game.payoutHoldSeconds ?? null,
    ],
  );
  for (const tier of tiers) await insertLeaderboard(tx, clock, ids, id, tier);
  if (!row) throw new Error('insert returned no row');
  return toGame(row);
}

export async function updateGame(
  tx: Queryable,
  clock: Clock,
  id: string,
  update: GameUpdate,
): Promise<GameRecord | null> {
  const columns: Record<keyof GameUpdate, string> = {
    description: 'description',
    coverUrl: 'cover_url',
    prodDomain: 'prod_domain',
    url: 'url',
    category: 'category',
    tagLine: 'tag_line',
    developerInfo: 'developer_info',
    scoreUnit: 'score_unit',
    payoutHoldSeconds: 'payout_hold_seconds',
    aspectRatio: 'aspect_ratio',
  };
  const sets: string[] = [];
  const params: unknown[] = [id, clock.now()];
  for (const [key, column] of Object.entries(columns) as [keyof GameUpdate, string][]) {
    if (update[key] === undefined) continue;
    params.push(update[key]);
    sets.push(`${column} = $${params.length}`);
  }
  const rows = await tx.query<GameRow>(
    `UPDATE games SET ${[...sets, 'updated_at = $2'].join(', ')} WHERE id = $1 RETURNING ${GAME_COLUMNS}`,
    params,
  );
  return rows[0] ? toGame(rows[0]) : null;
}

export async function findGame(q: Queryable, id: string): Promise<GameRecord | null> {
  const rows = await q.query<GameRow>(
    `SELECT ${GAME_COLUMNS} FROM games WHERE id = $1`,
    [id],
    'games_find',
  );
  return rows[0] ? toGame(rows[0]) : null;
}

/** A developer's games, newest first. */
export async function findGamesOfDeveloper(
  q: Queryable,
  developerId: string,
): Promise<GameRecord[]> {
  const rows = await q.query<GameRow>(
    `SELECT ${GAME_COLUMNS} FROM games WHERE developer_id = $1 ORDER BY created_at DESC, id DESC`,
    [developerId],
    'games_of_developer',
  );
  return rows.map(toGame);
}

export async function publishGame(
  q: Queryable,
  clock: Clock,
  id: string,
): Promise<GameRecord | null> {
  const rows = await q.query<GameRow>(
    `UPDATE games SET published_at = coalesce(published_at, $2), updated_at = $2 WHERE id = $1
     RETURNING ${GAME_COLUMNS}`,
    [id, clock.now()],
  );
  return rows[0] ? toGame(rows[0]) : null;
}

/**
 * Runs a write of a tier's name: a name another live tier of the game has (in lower case, spaces
 * around ignored: the unique index of 037_tier_names.sql) is `409 tier_name_taken` naming it.
 */
export async function tierNameChecked<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (
      pgErrorCode(error) === PgErrorCodes.uniqueViolation &&
      pgConstraint(error) === 'leaderboards_live_name'
    ) {
      throw new CoinopError(
        'tier_name_taken',
        `another live tier of the game is already named ${JSON.stringify(name.trim())}; ` +
          'choose another name',
        { details: { field: 'name' } },
      );
    }
    throw error;
  }
}

/** Adds a tier after the game's others; `409 tier_name_taken` if a live tier has its name. */
export async function insertLeaderboard(
  q: Queryable,
  clock: Clock,
  ids: Ids,
  gameId: string,
  tier: { name: string; costUnits: bigint; leadersMax: number },
): Promise<Leaderboard> {
  const id = ids.next();
  const [row] = await tierNameChecked(tier.name, () =>
    q.query<{ position: number }>(
      `INSERT INTO leaderboards (id, game_id, name, cost_units, leaders_max, position, created_at)
       VALUES ($1, $2, $3, $4, $5,
               (SELECT coalesce(max(position), 0) + 1 FROM leaderboards
                WHERE game_id = $2 AND tournament_id IS NULL), $6)
       RETURNING position`,
      [id, gameId, tier.name, tier.costUnits.toString(), tier.leadersMax, clock.now()],
    ),
  );
  return {
    id,
    gameId,
    name: tier.name,
    costUnits: tier.costUnits,
    leadersMax: tier.leadersMax,
    position: row?.position ?? 0,
  };
}

/**
 * A game as the play path caches it: `leaderboards` are the live tiers (what players may open
 * plays on and every read lists); retired tiers are kept apart, since their open plays still
 * settle and their leaders stay readable.
 */
export interface LoadedGameRef extends GameRef {
  readonly retiredLeaderboards: readonly Leaderboard[];
}

/**
 * What the play and score path needs of a game: its tiers in one query, its tournament rounds not
 * yet closed in another; null when there is no such game.
 */
export async function loadGameRef(q: Queryable, gameId: string): Promise<LoadedGameRef | null> {
  const rows = await q.query<
    {
      id: string;
      arcade_id: string;
      developer_id: string;
      developer_account_id: string;
      arcade_account_id: string;
      score_display: ScoreDisplay;
      payout_hold_seconds: number | null;
      lb_id: string | null;
      lb_name: string | null;
      lb_cost_units: bigint | null;
      lb_leaders_max: number | null;
      lb_position: number | null;
      lb_retired: boolean | null;
      lb_payout_hold_seconds: number | null;
      lb_min_score: number | null;
      lb_max_score: number | null;
      lb_min_play_ms: number | null;
      lb_replay_rule: ReplayRule | null;
    } & RuleColumns
  >(
    `SELECT g.id, g.arcade_id, g.developer_id, d.account_id AS developer_account_id,
            a.account_id AS arcade_account_id, g.score_display, g.payout_hold_seconds,
            l.payout_hold_seconds AS lb_payout_hold_seconds, l.id AS lb_id, l.name AS lb_name, l.cost_units AS lb_cost_units,
            l.leaders_max AS lb_leaders_max, l.position AS lb_position,
            l.retired_at IS NOT NULL AS lb_retired, ${ruleColumns('g')}, ${ruleColumns('l', 'lb_')}
     FROM games g
     JOIN developers d ON d.id = g.developer_id
     JOIN arcades a ON a.id = g.arcade_id
     LEFT JOIN leaderboards l ON l.game_id = g.id AND l.tournament_id IS NULL
     WHERE g.id = $1
     ORDER BY l.position`,
    [gameId],
    'games_load_ref',
  );
  const first = rows[0];
  if (!first) return null;
  const leaderboards: Leaderboard[] = [];
  const retiredLeaderboards: Leaderboard[] = [];
  for (const r of rows) {
    if (r.lb_id === null) continue;
    const scoreRules = tierOverridesOf({
      min_score: r.lb_min_score,
      max_score: r.lb_max_score,
      min_play_ms: r.lb_min_play_ms,
      replay_rule: r.lb_replay_rule,
    });
    (r.lb_retired === true ? retiredLeaderboards : leaderboards).push({
      id: r.lb_id,
      gameId,
      name: r.lb_name ?? '',
      costUnits: BigInt(r.lb_cost_units ?? 0n),
      leadersMax: r.lb_leaders_max ?? 10,
      position: r.lb_position ?? 0,
      payoutHoldSeconds: r.lb_payout_hold_seconds,
      ...(scoreRules === undefined ? {} : { scoreRules }),
    });
  }
  // Rules are cached only where some are set: a game without any scores as it always did.
  const rules = gameRulesOf(first);
  const hasRules =
    hasScoreRules(rules) ||
    [...leaderboards, ...retiredLeaderboards].some((b) => b.scoreRules !== undefined);
  const rounds = (await openRoundsOfGame(q, gameId)).map((r): Leaderboard => ({
    ...r,
    gameId,
    position: 0,
  }));
  return {
    id: first.id,
    arcadeId: first.arcade_id,
    developerId: first.developer_id,
    developerAccountId: first.developer_account_id,
    arcadeAccountId: first.arcade_account_id,
    scoreDisplay: first.score_display,
    payoutHoldSeconds: first.payout_hold_seconds,
    leaderboards,
    retiredLeaderboards,
    rounds,
    ...(hasRules ? { scoreRules: rules } : {}),
  };
}

/** Finds a game server's client by id: its game and secret hash, unless revoked. */
export async function findGameClient(
  q: Queryable,
  clientId: string,
): Promise<{ gameId: string; secretHash: Uint8Array } | null> {
  const rows = await q.query<{ game_id: string; secret_hash: Uint8Array }>(
    'SELECT game_id, secret_hash FROM game_clients WHERE client_id = $1 AND revoked_at IS NULL',
    [clientId],
    'game_clients_find',
  );
  const r = rows[0];
  return r ? { gameId: r.game_id, secretHash: r.secret_hash } : null;
}
