import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Security } from '../../listener/openapi.js';
import { arcadeDailyStats } from '../../services/daily-stats.js';
import { ArcadeDailyStatsSchema, ArcadeDaysQuery, daysOf } from '../shared/stats-schemas.js';
import { TAGS } from './admin-schemas.js';

/**
 * The console's Activity screen (issue 31): the arcade per UTC day. Registered inside the admin
 * plugin, so its admin-token hook guards it: only the operator may call it.
 */
export function adminStatsRoutes(app: FastifyInstance): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/admin/stats/daily',
    {
      schema: {
        operationId: 'adminGetDailyStats',
        tags: TAGS,
        security: Security.adminToken,
        summary: 'Plays, volume, active players and payouts per UTC day',
        description:
          'Every day of the window is listed, zeros included. Volume is the HST the day’s plays ' +
          'locked; active players, the distinct players who opened a play; paid out, the HST ' +
          'credited to leaders by settled plays (a held payout on the day its hold ends; plays ' +
          'locked on chain are paid by the vault and not counted). Errors: 400 (days out of 1 to 90).',
        querystring: ArcadeDaysQuery,
        response: { 200: ArcadeDailyStatsSchema },
      },
    },
    async (request) => arcadeDailyStats(app.arcade, daysOf(request.query)),
  );
}
