import { Type, type Static } from '@sinclair/typebox';
import {
  ReportReasons,
  type ReviewDetail,
  type ReviewItem,
  type ReviewPage,
  type ReviewVerdict,
} from '@coinop/protocol';
import {
  ReviewKinds,
  type QueueItem,
  type ReviewDetail as StoredDetail,
  type ReviewVerdictRecord,
} from '../../services/score-reviews.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Uuid } from './schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

/** The review queue's wire shapes, for the operator's and the developer's routes. */

export const REVIEW_PAGE_MAX = 100;
export const REVIEW_PAGE_DEFAULT = 25;
/** The longest reason a reviewer gives (the contract's void reason: 1–500 characters). */
export const RESOLUTION_REASON_MAX = 500;
/** The refusal codes the queue lists beside the flags (migration 024's `score_refusals`). */
export const RefusalKinds = [
  'score_out_of_bounds',
  'score_too_fast',
  'replay_required',
  'replay_rejected',
] as const;

const At = (description: string) => Type.String({ format: 'date-time', description });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(
  schema: T,
  description: string,
) => Type.Union([schema, Type.Null()], { description });

export const ReviewItemSchema = Type.Object({
  id: Uuid('The review, or the refused attempt'),
  kind: Type.String({
    description: `outlier, reported, or a refusal's code (${RefusalKinds.join(', ')})`,
  }),
  state: Type.Union([
    Type.Literal('open'),
    Type.Literal('approved'),
    Type.Literal('voided'),
    Type.Literal('refused'),
  ]),
  scoreId: Nullable(Uuid('The score'), 'The accepted score; null for a refused attempt'),
  playId: Uuid('The play'),
  gameId: Uuid('The game'),
  gameName: Type.String(),
  scoreUnit: Type.String({ description: "The game's score unit; empty for none" }),
  leaderboardId: Uuid('The tier'),
  tierName: Type.String(),
  playerId: Uuid('The player who made the score'),
  playerName: Type.String(),
  score: Type.Number(),
  report: Nullable(
    Type.Object({
      reason: Type.Union(ReportReasons.map((r) => Type.Literal(r))),
      note: Type.Union([Type.String(), Type.Null()]),
    }),
    "A report's reason and note; null for the other kinds",
  ),
  evidence: Type.Record(Type.String(), Type.Unknown(), {
    description: "An outlier's statistics (rule, n, median, mad, robustZ, previousBest, ...)",
  }),
  refusalDetail: Nullable(Type.String(), "A refusal's message; null for a flag"),
  resolution: Nullable(
    Type.Object({
      reason: Type.String(),
      by: Type.String({ description: 'admin, or developer:<developer id>' }),
      at: At('When it was closed'),
    }),
    'Who closed it, when and why; null while open or for a refusal',
  ),
  hasReplay: Type.Boolean({ description: 'Whether GET …/reviews/{id}/replay has a replay' }),
  timings: Type.Object({
    playOpenedAt: At('When the play opened'),
    scoredAt: At('When the score (or the refused attempt) arrived'),
    playMs: Type.Integer({ description: "From the play's opening to the score's arrival" }),
  }),
  createdAt: At('When it entered the queue'),
});

export const ReviewPageSchema = Type.Object({
  reviews: Type.Array(ReviewItemSchema),
  nextCursor: Nullable(Type.String(), 'Pass back as `cursor` for older items; null at the end'),
});

export const ReviewDetailSchema = Type.Object({
  review: ReviewItemSchema,
  playerScores: Type.Array(
    Type.Object({
      scoreId: Uuid('The score'),
      playId: Uuid('Its play'),
      score: Type.Number(),
      playOpenedAt: At('When its play opened'),
      scoredAt: At('When it arrived'),
      voided: Type.Boolean(),
    }),
    { description: "The player's latest 20 scores on the tier, newest first" },
  ),
  playerRefusals: Type.Integer({ description: "The player's refused attempts on the tier" }),
  board: Type.Object(
    {
      players: Type.Integer(),
      median: Type.Union([Type.Number(), Type.Null()]),
      mad: Type.Union([Type.Number(), Type.Null()]),
      best: Type.Union([Type.Number(), Type.Null()]),
    },
    { description: "The tier's bests now: how many, their median, MAD and the best" },
  ),
  reports: Type.Array(
    Type.Object({
      reason: Type.Union(ReportReasons.map((r) => Type.Literal(r))),
      note: Type.Union([Type.String(), Type.Null()]),
      reportedAt: At('When'),
    }),
    { description: 'The reports of the score, newest first (no reporter named)' },
  ),
});

declare const _item: SchemaMatches<typeof ReviewItemSchema, ReviewItem>;
declare const _page: SchemaMatches<typeof ReviewPageSchema, ReviewPage>;
declare const _detail: SchemaMatches<typeof ReviewDetailSchema, ReviewDetail>;

export const ReviewVerdictSchema = Type.Object({
  reviewId: Uuid('The review or refused attempt'),
  verdict: Type.Union(
    (['reproduced', 'mismatch', 'threw', 'time_limit', 'memory_limit', 'no_verifier'] as const).map(
      (v) => Type.Literal(v),
    ),
    {
      description:
        'reproduced: the verifier computed exactly the score; otherwise why not (no_verifier: ' +
        'the game has none now, or the play was opened before plays had seeds)',
    },
  ),
  detail: Type.String({ description: 'For a person: "the replay earns 120, not 4200"' }),
  computed: Nullable(Type.Number(), 'The score the replay earns, when the verifier computed one'),
  verifierVersion: Nullable(Type.Integer(), 'The verifier version that ran; null when none did'),
  checkedAt: At('When it ran'),
});
declare const _verdict: SchemaMatches<typeof ReviewVerdictSchema, ReviewVerdict>;

export function verdictToWire(verdict: ReviewVerdictRecord): Static<typeof ReviewVerdictSchema> {
  return { ...verdict, checkedAt: iso(verdict.checkedAt) };
}

export const ReviewParams = Type.Object({ reviewId: Uuid('The review or refused attempt') });
export const GameReviewParams = Type.Object({
  gameId: Uuid('The game'),
  reviewId: Uuid('The review or refused attempt'),
});

export const ResolveBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: RESOLUTION_REASON_MAX,
      ...Patterns.notBlank,
      description: 'Why, as the player reads it in their history (1–500 characters)',
    }),
  },
  { additionalProperties: false },
);

const kinds = [...ReviewKinds, ...RefusalKinds];
export const QueueQuery = Type.Object({
  state: Type.Optional(
    Type.Union(
      (['open', 'approved', 'voided', 'refused'] as const).map((s) => Type.Literal(s)),
      { description: 'Only items in this state (default: every state)' },
    ),
  ),
  kind: Type.Optional(
    Type.Union(
      kinds.map((k) => Type.Literal(k)),
      { description: 'Only items of this kind' },
    ),
  ),
  limit: Type.Optional(
    Type.String({
      ...Patterns.from1To100,
      description: `How many, newest first: 1 to ${REVIEW_PAGE_MAX} (default ${REVIEW_PAGE_DEFAULT})`,
    }),
  ),
  cursor: Type.Optional(Type.String({ description: 'The `nextCursor` of the page before' })),
});

const iso = (d: Date) => d.toISOString();

export function itemToWire(item: QueueItem): Static<typeof ReviewItemSchema> {
  return {
    id: item.id,
    kind: item.kind,
    state: item.state,
    scoreId: item.scoreId,
    playId: item.playId,
    gameId: item.gameId,
    gameName: item.gameName,
    scoreUnit: item.scoreUnit,
    leaderboardId: item.leaderboardId,
    tierName: item.tierName,
    playerId: item.playerId,
    playerName: item.playerName,
    score: item.score,
    report: item.report,
    evidence: item.evidence,
    refusalDetail: item.refusalDetail,
    resolution: item.resolution && { ...item.resolution, at: iso(item.resolution.at) },
    hasReplay: item.hasReplay,
    timings: {
      playOpenedAt: iso(item.playOpenedAt),
      scoredAt: iso(item.scoredAt),
      playMs: item.playMs,
    },
    createdAt: iso(item.createdAt),
  };
}

export function detailToWire(detail: StoredDetail): Static<typeof ReviewDetailSchema> {
  return {
    review: itemToWire(detail.item),
    playerScores: detail.playerScores.map((s) => ({
      scoreId: s.scoreId,
      playId: s.playId,
      score: s.score,
      playOpenedAt: iso(s.playOpenedAt),
      scoredAt: iso(s.scoredAt),
      voided: s.voided,
    })),
    playerRefusals: detail.playerRefusals,
    board: {
      players: detail.board.players,
      median: detail.board.median,
      mad: detail.board.mad,
      best: detail.board.previousBest,
    },
    reports: detail.reports.map((r) => ({
      reason: r.reason,
      note: r.note,
      reportedAt: iso(r.reportedAt),
    })),
  };
}
