import type { LiveAnnouncer } from './live-announcer.js';
import type { ArcadeMetrics } from '../metrics/arcade-metrics.js';
import { createHash } from 'node:crypto';
import { CoinopError, type Clock, type Ids, type SplitRule } from '@coinop/core';
import { insertApproval } from '../store/approvals.js';
import type { Db, Queryable } from '../store/db.js';
import type { StoredScore } from '../store/leaders.js';
import type { BoardEntry } from '../store/score-batch.js';
import type { GameCache } from './game-cache.js';
import type { ScoreMemory } from './score-memory.js';
import type { ScoreRulesGate } from './score-rules-gate.js';

/** What the play and score path takes and answers, and the helpers both halves share. */

export interface PlayPolicy {
  readonly playTtlSeconds: number;
  /** Longest replay a score may carry, in UTF-8 bytes (`--replay-max-bytes`). */
  readonly replayMaxBytes: number;
  readonly splitRule: SplitRule;
  /** The operator's payout hold (`--payout-hold`), for games and tiers that set none. */
  readonly payoutHoldSeconds: number;
  /** Daily allowance for players who chose none for a published game; null is unlimited. */
  readonly defaultAllowanceUnits: bigint | null;
  /** Where a player grants a game an allowance: the game's page in the arcade web app. */
  grantUrl(gameId: string): string;
}

/**
 * The player's wallet signature that approved a client-side play or score; recorded in the same
 * transaction as what it approved. The caller has checked the signature.
 */
export interface SignedApproval {
  readonly playerId: string;
  readonly wallet: string;
  readonly nonce: string;
  readonly message: string;
  readonly signature: string;
}

export interface OpenPlayInput {
  readonly gameId: string;
  readonly playerId: string;
  readonly leaderboardId: string;
  readonly idempotencyKey: string | null;
  /** With an approval: the cost the player signed for; the play locks exactly this or nothing. */
  readonly approval?: SignedApproval & { readonly costUnits: bigint };
}

export interface SubmitScoreInput {
  readonly gameId: string;
  readonly playId: string;
  /** The play's leaderboard as the caller knows it; null takes the play's own (client-side). */
  readonly leaderboardId: string | null;
  readonly score: number;
  /**
   * What the game recorded of the run, for its verifier (issue 30); null when it sent none. Kept
   * as evidence when the score is refused; the verifier reads it when the tier requires replays.
   */
  readonly replay?: string | null;
  readonly idempotencyKey: string | null;
  /** Client-side: the score must be for a play of this approval's player. */
  readonly approval?: SignedApproval;
}

/** The stored score, and whether this call recorded it or replayed an earlier identical call. */
export interface ScoreOutcome {
  readonly score: StoredScore;
  readonly leaderboardId: string;
  /** The board's leaders after this score; null on a replay (read them afresh). */
  readonly leaders: readonly BoardEntry[] | null;
  readonly replayed: boolean;
}

/** What opening and scoring plays are built from; they share what this process remembers. */
export interface PlayPathDeps {
  readonly db: Db;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly games: GameCache;
  readonly policy: PlayPolicy;
  readonly memory: ScoreMemory;
  /** Refuses what the games' score rules refuse, before a score joins a batch (issue 30). */
  readonly gate: ScoreRulesGate;
  /** Counts batches and watches the queues; null records nothing. */
  readonly metrics: ArcadeMetrics | null;
  /** Tells live streams what a committed batch changed; null tells no one. */
  readonly live?: LiveAnnouncer | null;
}

/** The most plays (or scores) one batch commits together. */
export const BATCH_MAX = 64;

/** Records the wallet signature that approved a play or a score, in the caller's transaction. */
export async function recordApproval(
  tx: Queryable,
  approval: SignedApproval,
  kind: 'play' | 'score',
  subjectId: string,
  now: Date,
  id: string,
): Promise<void> {
  const recorded = await insertApproval(tx, { ...approval, id, kind, subjectId, createdAt: now });
  if (!recorded) {
    // The nonce doubles as the idempotency key, so a true retry was answered before this point.
    throw new CoinopError(
      'idempotency_key_reused',
      `approval nonce ${approval.nonce} was already used for another ${kind}`,
      { details: { field: 'nonce' } },
    );
  }
}

export function keyReused(key: string): CoinopError {
  return new CoinopError(
    'idempotency_key_reused',
    `Idempotency-Key ${key} was already used for a different request`,
    { details: { idempotencyKey: key } },
  );
}

/** A stable hash of a request's identifying parts, to tell a true retry from a reused key. */
export function digest(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url');
}
