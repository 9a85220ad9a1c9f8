import type { FastifyInstance } from 'fastify';
import { CoinopError } from '@coinop/core';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Security } from '../../listener/openapi.js';
import { notificationToWire, parseLastEventId, serveLiveStream } from '../shared/live.js';
import {
  EventStreamResponse,
  LastEventIdHeaders,
  NOTIFICATIONS_LIST_DEFAULT,
  NotificationsQuery,
  PlayerEventsQuery,
  PlayerNotificationListSchema,
} from '../shared/live-schemas.js';
import type { PlayerRouteContext } from './player-context.js';
import { TAGS } from './player-schemas.js';

/**
 * The signed-in player's live stream and notifications (docs/concepts/live-updates.md). Mounted
 * by the player plugin (a player token in the Authorization header: the web app reads the stream
 * with fetch, which can send it).
 */
export function playerLiveRoutes(instance: FastifyInstance, context: PlayerRouteContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;

  app.get(
    '/events',
    {
      schema: {
        operationId: 'playerEvents',
        tags: TAGS,
        summary: "The signed-in player's live updates (Server-Sent Events)",
        description:
          "The player's `balance` (on connecting and whenever it changes) and `notification`s " +
          '(payouts with the play that caused them, prizes, deposits, refunds, and the ' +
          "operator's decisions on the publish requests of the player's own games), each with " +
          'an SSE id; with ' +
          "`gameId`, that game's `board`s too (a published game, or one the player previews " +
          'as its developer or an accepted tester), so a tab needs one stream. ' +
          "`Last-Event-ID` resumes: the notifications after it come first. Only this player's " +
          'money is ever sent. 404 game_not_found for a game the player may not see; 429 ' +
          'live_streams_per_player when the player holds 10 streams on this server; 503 ' +
          'live_streams_full when this server holds its most streams.',
        security: Security.playerToken,
        querystring: PlayerEventsQuery,
        headers: LastEventIdHeaders,
        response: { 200: EventStreamResponse },
      },
    },
    async (request, reply) => {
      const { playerId } = await context.authenticate(request);
      const resumeAfter = parseLastEventId(request.headers['last-event-id']);
      const accountId = await arcade.liveReads.accountOf(playerId);
      await serveLiveStream(arcade, reply, {
        gameId: request.query.gameId ?? null,
        player: { playerId, accountId },
        resumeAfter,
        // A preview's board updates live for its developer and testers, as the game page shows
        // them the game (GET /player/games/{gameId}).
        assertWatchable: async (gameId) => {
          const view = await context.service.visibleGame(gameId, playerId);
          if (view.game.arcadeId !== arcade.record.id) {
            throw new CoinopError('game_not_found', `game ${gameId} does not exist`);
          }
        },
      });
      return reply;
    },
  );

  app.get(
    '/notifications',
    {
      schema: {
        operationId: 'playerNotifications',
        tags: TAGS,
        summary: "The signed-in player's recent notifications, newest first",
        description:
          'Payouts (with the play and player that caused them, and whether held, paid or ' +
          'voided), tournament prizes, deposits, refunds and publish decisions on the ' +
          "player's own games: the notifications menu.",
        security: Security.playerToken,
        querystring: NotificationsQuery,
        response: { 200: PlayerNotificationListSchema },
      },
    },
    async (request) => {
      const { playerId } = await context.authenticate(request);
      const accountId = await arcade.liveReads.accountOf(playerId);
      const rows = await arcade.liveReads.recent(
        accountId,
        Number(request.query.limit ?? NOTIFICATIONS_LIST_DEFAULT),
      );
      return { notifications: rows.map(notificationToWire) };
    },
  );
}
