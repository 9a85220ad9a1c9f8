import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Security } from '../../listener/openapi.js';
import { DeveloperPortal } from '../../services/developer-games.js';
import { developerDailyStats } from '../../services/daily-stats.js';
import { DeveloperDailyStatsSchema, DeveloperDaysQuery, daysOf } from '../shared/stats-schemas.js';
import { TAGS, bearer } from './developer-games-schemas.js';

/**
 * The portal's charts (issue 31): the developer's plays and earnings per UTC day, per game.
 * The portal's session only, as the game's own stats; registered inside the /developer plugin.
 */
export function developerStatsRoutes(
  app: FastifyInstance,
  authenticate: (request: FastifyRequest) => Promise<{ playerId: string }>,
): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const portal = new DeveloperPortal(app.arcade);

  r.get(
    '/stats/daily',
    {
      schema: {
        operationId: 'developerGetDailyStats',
        tags: TAGS,
        security: Security.playerToken,
        summary: 'Plays and HST earned per UTC day, per game of mine',
        description:
          'Every day of the window is listed, zeros included, so a chart’s axis is continuous. ' +
          'HST earned is what the game credited to my account that day: my share of its plays ' +
          'and its in-game purchases (a held share counts on the day its hold ends). Errors: ' +
          '400 (days out of 1 to 90, gameId not a uuid), 404 game_not_found (not one of mine). ' +
          bearer,
        querystring: DeveloperDaysQuery,
        response: { 200: DeveloperDailyStatsSchema },
      },
    },
    async (request) => {
      const developer = await portal.developerOf((await authenticate(request)).playerId);
      return developerDailyStats(
        app.arcade,
        developer,
        daysOf(request.query),
        request.query.gameId,
      );
    },
  );
}
