import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ReportReasons } from '@coinop/protocol';
import { RateLimitedResponse, Security } from '../../listener/openapi.js';
import { ScoreReviews } from '../../services/score-reviews.js';
import { Uuid } from '../shared/schemas.js';
import type { PlayerRouteContext } from './player-context.js';
import { TAGS } from './player-schemas.js';

/** The longest note a report carries: a sentence or two for the reviewer. */
export const REPORT_NOTE_MAX = 300;

const ReportBody = Type.Object(
  {
    reason: Type.Union(
      ReportReasons.map((r) => Type.Literal(r)),
      {
        description:
          'impossible: no one can score that; bot: a program played; bug: the game let it ' +
          'through; other: the note says what',
      },
    ),
    note: Type.Optional(
      Type.String({ maxLength: REPORT_NOTE_MAX, description: 'What the reviewer should know' }),
    ),
  },
  { additionalProperties: false },
);

const ReportAnswer = Type.Object({
  reportId: Uuid('The report (one per score and reporter)'),
  scoreId: Uuid('The score reported'),
  created: Type.Boolean({ description: 'false when the player had reported the score already' }),
});

/**
 * A player's report of another player's score: it lands in the review queue (issue 30,
 * docs/reference/review-queue.md). Mounted by the player plugin (a player token).
 */
export function playerReportRoutes(instance: FastifyInstance, context: PlayerRouteContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { playerOf, perPlayer } = context;
  // A report voids nothing: this side of the queue has no voider.
  const reviews = new ScoreReviews(app.arcade, null);

  app.post(
    '/scores/:scoreId/report',
    {
      // Limited as the player's other writes (plays and scores): a person reports by hand.
      config: perPlayer(app.config.rateLimits['player-plays']),
      schema: {
        operationId: 'playerReportScore',
        tags: TAGS,
        security: Security.playerToken,
        summary: "Report another player's score to the arcade's reviewers",
        description:
          'Puts the score in the review queue of the operator and the game’s developer, with the ' +
          'reason and note. Reporting the same score again answers the first report (200, ' +
          '`created: false`); 201 when recorded. 404 score_not_found for an unknown or voided ' +
          'score; 422 own_score_not_reportable for one’s own.',
        params: Type.Object({ scoreId: Uuid('The score, as the board lists it') }),
        body: ReportBody,
        response: { 200: ReportAnswer, 201: ReportAnswer, 429: RateLimitedResponse },
      },
    },
    async (request, reply) => {
      const { playerId } = await playerOf(request);
      const { scoreId } = request.params;
      const note = request.body.note?.trim() || null;
      const report = await reviews.report(playerId, scoreId, { reason: request.body.reason, note });
      reply.code(report.created ? 201 : 200);
      return { reportId: report.reportId, scoreId, created: report.created };
    },
  );

  app.post(
    '/boards/:leaderboardId/players/:playerId/report',
    {
      config: perPlayer(app.config.rateLimits['player-plays']),
      schema: {
        operationId: 'playerReportBest',
        tags: TAGS,
        security: Security.playerToken,
        summary: "Report another player's best on a board, as the board shows it",
        description:
          'As POST /player/scores/{scoreId}/report, for the score of the player’s current best ' +
          'on the tier (a board row names the player, not the score). 404 score_not_found when ' +
          'the player has no best there.',
        params: Type.Object({
          leaderboardId: Uuid('The tier'),
          playerId: Uuid('The player whose best is reported'),
        }),
        body: ReportBody,
        response: { 200: ReportAnswer, 201: ReportAnswer, 429: RateLimitedResponse },
      },
    },
    async (request, reply) => {
      const { playerId } = await playerOf(request);
      const note = request.body.note?.trim() || null;
      const report = await reviews.reportBest(playerId, request.params, {
        reason: request.body.reason,
        note,
      });
      reply.code(report.created ? 201 : 200);
      return report;
    },
  );
}
