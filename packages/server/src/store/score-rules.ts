import { hasScoreRules, type ReplayRule, type ScoreRules, type TierScoreRules } from '@coinop/core';
import type { Queryable } from './db.js';

/**
 * The score rules of games and tiers (migration 024, docs/concepts/score-integrity.md) and the
 * evidence of the scores they refused. The service validates rules before they are written; the
 * schema's CHECKs repeat the bounds' order and signs.
 */

/** The rule columns of a games or leaderboards row, as read. */
export interface RuleColumns {
  min_score: number | null;
  max_score: number | null;
  min_play_ms: number | null;
  replay_rule: ReplayRule | null;
}

/** `alias.min_score AS prefixmin_score, ...`: the rule columns for a select list. */
export function ruleColumns(alias: string, prefix = ''): string {
  return ['min_score', 'max_score', 'min_play_ms', 'replay_rule']
    .map((c) => `${alias}.${c} AS ${prefix}${c}`)
    .join(', ');
}

/** A game's rules from its row (`replay_rule` is never null on a game). */
export function gameRulesOf(r: RuleColumns): ScoreRules {
  return {
    minScore: r.min_score,
    maxScore: r.max_score,
    minPlayMs: r.min_play_ms,
    replay: r.replay_rule ?? 'off',
  };
}

/** A tier's overrides from its row. */
export function tierRulesOf(r: RuleColumns): TierScoreRules {
  return {
    minScore: r.min_score,
    maxScore: r.max_score,
    minPlayMs: r.min_play_ms,
    replay: r.replay_rule,
  };
}

/** A tier's overrides, or undefined when it overrides nothing (what the play path caches). */
export function tierOverridesOf(r: RuleColumns): TierScoreRules | undefined {
  const rules = tierRulesOf(r);
  return hasScoreRules(rules) || rules.replay !== null ? rules : undefined;
}

/** The rules of each game, by id: one query for any number of games. */
export async function gameRules(
  q: Queryable,
  gameIds: readonly string[],
): Promise<Map<string, ScoreRules>> {
  const rows = await q.query<RuleColumns & { id: string }>(
    `SELECT g.id, ${ruleColumns('g')} FROM games g WHERE g.id = ANY($1::uuid[])`,
    [gameIds],
    'score_rules_of_games',
  );
  return new Map(rows.map((r) => [r.id, gameRulesOf(r)]));
}

/** The overrides of each tier, by id: one query for any number of tiers. */
export async function tierRules(
  q: Queryable,
  leaderboardIds: readonly string[],
): Promise<Map<string, TierScoreRules>> {
  const rows = await q.query<RuleColumns & { id: string }>(
    `SELECT l.id, ${ruleColumns('l')} FROM leaderboards l WHERE l.id = ANY($1::uuid[])`,
    [leaderboardIds],
    'score_rules_of_tiers',
  );
  return new Map(rows.map((r) => [r.id, tierRulesOf(r)]));
}

/** Replaces a game's rules. */
export async function writeGameRules(
  q: Queryable,
  gameId: string,
  rules: ScoreRules,
  now: Date,
): Promise<void> {
  await q.query(
    `UPDATE games SET min_score = $2, max_score = $3, min_play_ms = $4, replay_rule = $5,
       updated_at = $6
     WHERE id = $1`,
    [gameId, rules.minScore, rules.maxScore, rules.minPlayMs, rules.replay, now],
    'score_rules_write_game',
  );
}

/** Replaces a tier's overrides. */
export async function writeTierRules(
  q: Queryable,
  leaderboardId: string,
  rules: TierScoreRules,
): Promise<void> {
  await q.query(
    `UPDATE leaderboards SET min_score = $2, max_score = $3, min_play_ms = $4, replay_rule = $5
     WHERE id = $1`,
    [leaderboardId, rules.minScore, rules.maxScore, rules.minPlayMs, rules.replay],
    'score_rules_write_tier',
  );
}

/** A score the rules refused, kept as evidence (`score_refusals`). */
export interface ScoreRefusalRecord {
  readonly id: string;
  readonly playId: string;
  readonly gameId: string;
  readonly leaderboardId: string;
  readonly playerId: string;
  readonly score: number;
  /** The error code the caller received. */
  readonly reason: 'score_out_of_bounds' | 'score_too_fast' | 'replay_required' | 'replay_rejected';
  readonly detail: string;
  readonly replay: string | null;
  /** From the play's open to the attempt, by the server's clock. */
  readonly playMs: number;
  readonly createdAt: Date;
}

/** Records one refused score: its own small statement, outside any batch of scores. */
export async function insertScoreRefusal(q: Queryable, r: ScoreRefusalRecord): Promise<void> {
  await q.query(
    `INSERT INTO score_refusals (id, play_id, game_id, leaderboard_id, player_id, score, reason,
                                 detail, replay, play_ms, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      r.id,
      r.playId,
      r.gameId,
      r.leaderboardId,
      r.playerId,
      r.score,
      r.reason,
      r.detail,
      r.replay,
      r.playMs,
      r.createdAt,
    ],
    'score_refusals_insert',
  );
}

/** The refusals of a play, oldest first (tests and the review queue's evidence). */
export async function refusalsOfPlay(q: Queryable, playId: string): Promise<ScoreRefusalRecord[]> {
  const rows = await q.query<{
    id: string;
    play_id: string;
    game_id: string;
    leaderboard_id: string;
    player_id: string;
    score: number;
    reason: ScoreRefusalRecord['reason'];
    detail: string;
    replay: string | null;
    play_ms: number;
    created_at: Date;
  }>(
    `SELECT id, play_id, game_id, leaderboard_id, player_id, score, reason, detail, replay,
            play_ms, created_at
     FROM score_refusals WHERE play_id = $1 ORDER BY created_at, id`,
    [playId],
    'score_refusals_of_play',
  );
  return rows.map((r) => ({
    id: r.id,
    playId: r.play_id,
    gameId: r.game_id,
    leaderboardId: r.leaderboard_id,
    playerId: r.player_id,
    score: r.score,
    reason: r.reason,
    detail: r.detail,
    replay: r.replay,
    playMs: r.play_ms,
    createdAt: r.created_at,
  }));
}
