import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  ScoreReviews,
  type QueueScope,
  type ReviewActor,
  type ScoreVoider,
} from '../../services/score-reviews.js';
import { parseReviewCursor, reviewCursor } from './cursors.js';
import { Uuid } from './schemas.js';
import {
  GameReviewParams,
  QueueQuery,
  REVIEW_PAGE_DEFAULT,
  REVIEW_PAGE_MAX,
  ResolveBody,
  ReviewDetailSchema,
  ReviewItemSchema,
  ReviewPageSchema,
  ReviewParams,
  ReviewVerdictSchema,
  detailToWire,
  itemToWire,
  verdictToWire,
} from './review-schemas.js';

export interface ReviewRoutesOptions {
  /** `admin` (every game's queue, at /admin/reviews) or `developer` (one game's). */
  readonly audience: 'admin' | 'developer';
  readonly tags: readonly string[];
  readonly security: readonly Record<string, readonly string[]>[];
  /** Who may call, for the descriptions. */
  readonly who: string;
  /**
   * Who asks, for the game in the path (developer) or none (admin): the scope they read and the
   * actor a resolution records. Another developer's game is 404 `game_not_found`.
   */
  readonly reviewerOf: (
    request: FastifyRequest,
    gameId: string | null,
  ) => Promise<{ scope: QueueScope; actor: ReviewActor }>;
  readonly voider: ScoreVoider | null;
}

const AdminQuery = Type.Composite([
  QueueQuery,
  Type.Object({ gameId: Type.Optional(Uuid('Only the items of this game')) }),
]);

/**
 * The review queue's routes (issue 30, docs/reference/review-queue.md), mounted by the admin
 * plugin at /admin/reviews and by the developer plugin at /developer/games/{gameId}/reviews.
 */
export function reviewRoutes(instance: FastifyInstance, options: ReviewRoutesOptions): void {
  const admin = options.audience === 'admin';
  const gameOf = (request: FastifyRequest) =>
    (request.params as { gameId?: string }).gameId ?? null;
  const context: RouteContext = {
    app: instance,
    reviews: new ScoreReviews(instance.arcade, options.voider),
    options,
    admin,
    base: admin ? '/admin/reviews' : '/games/:gameId/reviews',
    params: admin ? ReviewParams : GameReviewParams,
    op: (name) => `${options.audience}${name}`,
    common: { tags: [...options.tags], security: options.security.map((s) => ({ ...s })) },
    reviewerOf: (request) => options.reviewerOf(request, gameOf(request)),
    idOf: (request) => (request.params as { reviewId: string }).reviewId,
  };
  readRoutes(context);
  verifyRoute(context);
  resolveRoutes(context);
}

/** What the review routes share: the service, the audience's paths, schemas and credential. */
interface RouteContext {
  readonly app: FastifyInstance;
  readonly reviews: ScoreReviews;
  readonly options: ReviewRoutesOptions;
  readonly admin: boolean;
  readonly base: string;
  readonly params: typeof ReviewParams | typeof GameReviewParams;
  readonly op: (name: string) => string;
  readonly common: { tags: string[]; security: Record<string, readonly string[]>[] };
  readonly reviewerOf: (
    request: FastifyRequest,
  ) => Promise<{ scope: QueueScope; actor: ReviewActor }>;
  readonly idOf: (request: FastifyRequest) => string;
}

/** The list, one item with its evidence, and a refused attempt's replay. */
function readRoutes(context: RouteContext): void {
  const { reviews, options, admin, base, params, op, common, reviewerOf, idOf } = context;
  const app = context.app.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    base,
    {
      schema: {
        ...common,
        operationId: op('ListReviews'),
        summary: 'The review queue: flagged scores and refused attempts, newest first',
        description:
          'Outlier flags and players’ reports of accepted scores (open, approved or voided), ' +
          'and refused attempts (state `refused`, informational), merged newest first. Filter ' +
          'with `state` and `kind`; page with `limit` and `cursor` (the `nextCursor` of a page). ' +
          options.who,
        ...(admin ? {} : { params: Type.Object({ gameId: Uuid('The game') }) }),
        querystring: admin ? AdminQuery : QueueQuery,
        response: { 200: ReviewPageSchema },
      },
    },
    async (request) => {
      const { scope } = await reviewerOf(request);
      const query = request.query as typeof request.query & { gameId?: string };
      const limit = Math.min(Number(query.limit ?? REVIEW_PAGE_DEFAULT), REVIEW_PAGE_MAX);
      const cursor = query.cursor === undefined ? null : parseReviewCursor(query.cursor);
      const filter = { state: query.state ?? null, kind: query.kind ?? null };
      const page = await reviews.queue(scope, { ...filter, gameId: query.gameId }, cursor, limit);
      const last = page.items.at(-1);
      return {
        reviews: page.items.map(itemToWire),
        nextCursor: page.more && last ? reviewCursor(last.position) : null,
      };
    },
  );

  app.get(
    `${base}/:reviewId`,
    {
      schema: {
        ...common,
        operationId: op('GetReview'),
        summary: 'One queue item with its evidence',
        description:
          "The item, the player's latest scores and refused attempts on the tier, the tier's " +
          `statistics now and the reports of the score. 404 review_not_found. ${options.who}`,
        params,
        response: { 200: ReviewDetailSchema },
      },
    },
    async (request) => {
      const { scope } = await reviewerOf(request);
      return detailToWire(await reviews.detail(scope, idOf(request)));
    },
  );

  app.get(
    `${base}/:reviewId/replay`,
    {
      schema: {
        ...common,
        operationId: op('GetReviewReplay'),
        summary: 'Download the replay of the reviewed score or refused attempt',
        description:
          'The replay text as the game sent it with the score (or the refused attempt), as an ' +
          'attachment named replay-{reviewId}.txt. 404 replay_not_found when it came without ' +
          `one (the item's hasReplay is false). ${options.who}`,
        params,
        response: {
          200: {
            description: 'The replay, as the game sent it',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const { scope } = await reviewerOf(request);
      const id = idOf(request);
      const replay = await reviews.replay(scope, id);
      return reply
        .type('text/plain; charset=utf-8')
        .header('content-disposition', `attachment; filename="replay-${id}.txt"`)
        .header('x-content-type-options', 'nosniff')
        .send(replay);
    },
  );
}

/** Re-running the game's current verifier on the item's replay: evidence, nothing written. */
function verifyRoute(context: RouteContext): void {
  const { reviews, options, base, params, op, common, reviewerOf, idOf } = context;
  const app = context.app.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    `${base}/:reviewId/verify`,
    {
      schema: {
        ...common,
        operationId: op('VerifyReviewReplay'),
        summary: "Re-run the game's verifier on the replay",
        description:
          "Runs the game's current replay verifier on the item's replay with its play's seed " +
          'and its score, in the sandbox and limits of the score path, and answers its verdict ' +
          '(reproduced, or why not). Writes nothing and decides nothing: approve or void ' +
          `afterwards. No body. 404 replay_not_found when the item has no replay. ${options.who}`,
        params,
        response: { 200: ReviewVerdictSchema },
      },
    },
    async (request) => {
      const { scope } = await reviewerOf(request);
      return verdictToWire(await reviews.verify(scope, idOf(request)));
    },
  );
}

/** Approve and void, with the reason the player reads. */
function resolveRoutes(context: RouteContext): void {
  const { reviews, options, base, params, op, common, reviewerOf, idOf } = context;
  const app = context.app.withTypeProvider<TypeBoxTypeProvider>();
  for (const action of ['approve', 'void'] as const) {
    app.post(
      `${base}/:reviewId/${action}`,
      {
        schema: {
          ...common,
          operationId: op(action === 'approve' ? 'ApproveReview' : 'VoidReview'),
          summary:
            action === 'approve'
              ? 'Keep the score: close its open reviews'
              : 'Void the score: it leaves its board, and its open reviews close',
          description:
            (action === 'approve'
              ? 'Closes every open review of the score as approved; the score is not flagged ' +
                'again and later reports of it are recorded closed. '
              : 'Voids the score as POST /admin/scores/{scoreId}/void does (held payouts it ' +
                'influenced are re-settled), then closes every open review of it as voided. ') +
            'The player reads the reason in their history. Asking again answers the same; 409 ' +
            'review_closed when it was closed the other way, 409 refusal_not_reviewable for a ' +
            `refused attempt. ${options.who}`,
          params,
          body: ResolveBody,
          response: { 200: ReviewItemSchema },
        },
      },
      async (request) => {
        const { scope, actor } = await reviewerOf(request);
        const reason = request.body.reason.trim();
        const item =
          action === 'approve'
            ? await reviews.approve(scope, idOf(request), reason, actor)
            : await reviews.void(scope, idOf(request), reason, actor);
        return itemToWire(item);
      },
    );
  }
}
