/**
 * The review queue's wire shapes (issue 30, docs/reference/review-queue.md): flags of accepted
 * scores and refused attempts, as `GET /admin/reviews` and `GET /developer/games/{gameId}/reviews`
 * answer them, and the player's report of a score.
 */

/**
 * Why a player reports a score: the score is impossible, a bot made it, a bug of the game let
 * it through, or something else (the note says what).
 *
 * @example
 * ```ts
 * import { ReportReasons } from '@coinop/protocol';
 * ReportReasons.includes('bot'); // true
 * ```
 */
export const ReportReasons = ['impossible', 'bot', 'bug', 'other'] as const;
export type ReportReason = (typeof ReportReasons)[number];

/**
 * The body of `POST /player/scores/{scoreId}/report`.
 *
 * @example
 * ```ts
 * import type { ScoreReportRequest } from '@coinop/protocol';
 * const body: ScoreReportRequest = { reason: 'bot', note: 'perfect every run' };
 * ```
 */
export interface ScoreReportRequest {
  readonly reason: ReportReason;
  /** At most 300 characters. */
  readonly note?: string;
}

/**
 * Where a queue item stands: `open` until approved (the score stands) or voided (it left its
 * board); `refused` for a refused attempt, listed as evidence.
 *
 * @example
 * ```ts
 * import type { ReviewState } from '@coinop/protocol';
 * const closed = (s: ReviewState) => s === 'approved' || s === 'voided';
 * ```
 */
export type ReviewState = 'open' | 'approved' | 'voided' | 'refused';

/**
 * One item of the review queue.
 *
 * @example
 * ```ts
 * import type { ReviewItem } from '@coinop/protocol';
 * const actionable = (r: ReviewItem) => r.state === 'open' && r.scoreId !== null;
 * ```
 */
export interface ReviewItem {
  readonly id: string;
  /** `outlier`, `reported`, or a refusal's error code (`score_too_fast`, `replay_rejected`, ...). */
  readonly kind: string;
  readonly state: ReviewState;
  /** The accepted score under review; null for a refused attempt. */
  readonly scoreId: string | null;
  readonly playId: string;
  readonly gameId: string;
  readonly gameName: string;
  readonly scoreUnit: string;
  readonly leaderboardId: string;
  readonly tierName: string;
  readonly playerId: string;
  readonly playerName: string;
  readonly score: number;
  /** A report's reason and note; null for the other kinds. */
  readonly report: { readonly reason: ReportReason; readonly note: string | null } | null;
  /** An outlier's statistics (`rule`, `n`, `median`, `mad`, `robustZ`, `previousBest`, ...). */
  readonly evidence: Record<string, unknown>;
  /** A refusal's message ("the replay earns 120, not 4200"); null for a flag. */
  readonly refusalDetail: string | null;
  /** Who closed it (`admin` or `developer:<id>`), when and why; null while open. */
  readonly resolution: {
    readonly reason: string;
    readonly by: string;
    readonly at: string;
  } | null;
  /** Whether `GET …/reviews/{id}/replay` has a replay to download. */
  readonly hasReplay: boolean;
  readonly timings: {
    readonly playOpenedAt: string;
    readonly scoredAt: string;
    /** From the play's opening to the score's arrival. */
    readonly playMs: number;
  };
  readonly createdAt: string;
}

/**
 * A page of the queue, newest first; pass `nextCursor` back as `cursor` for older items.
 *
 * @example
 * ```ts
 * import type { ReviewPage } from '@coinop/protocol';
 * const open = (p: ReviewPage) => p.reviews.filter((r) => r.state === 'open').length;
 * ```
 */
export interface ReviewPage {
  readonly reviews: readonly ReviewItem[];
  readonly nextCursor: string | null;
}

/**
 * A queue item with its evidence: the player's latest scores on the board, their refused
 * attempts there, the board's statistics now and the reports of the score.
 *
 * @example
 * ```ts
 * import type { ReviewDetail } from '@coinop/protocol';
 * const voidedBefore = (d: ReviewDetail) => d.playerScores.some((s) => s.voided);
 * ```
 */
export interface ReviewDetail {
  readonly review: ReviewItem;
  readonly playerScores: readonly {
    readonly scoreId: string;
    readonly playId: string;
    readonly score: number;
    readonly playOpenedAt: string;
    readonly scoredAt: string;
    readonly voided: boolean;
  }[];
  readonly playerRefusals: number;
  readonly board: {
    readonly players: number;
    readonly median: number | null;
    readonly mad: number | null;
    readonly best: number | null;
  };
  readonly reports: readonly {
    readonly reason: ReportReason;
    readonly note: string | null;
    readonly reportedAt: string;
  }[];
}

/**
 * What the game's current verifier makes of a queue item's replay when a reviewer re-runs it
 * (`POST …/reviews/{id}/verify`): `reproduced` when it computes exactly the item's score, else
 * why not — `mismatch` (it computed another score: `computed`), `threw`, `time_limit`,
 * `memory_limit`, or `no_verifier` (the game has none now, or the play was opened before plays
 * had seeds). Nothing is written: the verdict is evidence for the reviewer, not a decision.
 *
 * @example
 * ```ts
 * import type { ReviewVerdict } from '@coinop/protocol';
 * const line = (v: ReviewVerdict) => `${v.verdict}: ${v.detail}`;
 * ```
 */
export interface ReviewVerdict {
  readonly reviewId: string;
  readonly verdict:
    'reproduced' | 'mismatch' | 'threw' | 'time_limit' | 'memory_limit' | 'no_verifier';
  /** For a person: "the replay earns 120, not 4200". */
  readonly detail: string;
  /** The score the replay earns, when the verifier computed one. */
  readonly computed: number | null;
  /** The verifier version that ran; null when none did. */
  readonly verifierVersion: number | null;
  readonly checkedAt: string;
}
