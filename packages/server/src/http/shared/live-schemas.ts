import { Type } from '@sinclair/typebox';
import { NotificationKinds } from '@coinop/protocol';
import { Uuid } from './schemas.js';
import { Patterns } from '../../listener/string-patterns.js';

/** The 200 of a live stream in the API document: Server-Sent Events, never JSON. */
export const EventStreamResponse = {
  description:
    'Server-Sent Events (text/event-stream), open until the client leaves or the server ' +
    'closes: `board`, `balance` and `notification` events, each a JSON object ' +
    '(docs/concepts/live-updates.md); a heartbeat comment every 15 s.',
  content: { 'text/event-stream': { schema: { type: 'string' } } },
};

/** `Last-Event-ID`: the id of the last notification the client's previous stream sent. */
export const LastEventIdHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({
      maxLength: 80,
      description: 'Resume: the notifications after this one are sent first',
    }),
  ),
});

export const PlayerEventsQuery = Type.Object(
  {
    gameId: Type.Optional(Uuid('a published game whose boards this stream carries too')),
  },
  { additionalProperties: false },
);

/** The most notifications the menu lists. */
export const NOTIFICATIONS_LIST_MAX = 50;

/** How many the menu lists when the query does not say. */
export const NOTIFICATIONS_LIST_DEFAULT = 20;

export const NotificationsQuery = Type.Object(
  {
    // Query values arrive as text, and the API never coerces types.
    limit: Type.Optional(
      Type.String({
        ...Patterns.from1To50,
        description: `How many, newest first: 1 to ${NOTIFICATIONS_LIST_MAX} (default ${NOTIFICATIONS_LIST_DEFAULT})`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const PlayerNotificationSchema = Type.Object({
  id: Type.String({ description: 'Also the SSE id of its `notification` event' }),
  kind: Type.Union(NotificationKinds.map((kind) => Type.Literal(kind))),
  at: Type.String({ format: 'date-time' }),
  amount: Type.String({ description: 'Exact decimal HST; "0" for a publish decision' }),
  status: Type.Union([
    Type.Literal('held'),
    Type.Literal('paid'),
    Type.Literal('voided'),
    Type.Null(),
  ]),
  gameId: Type.Union([Type.String(), Type.Null()]),
  gameName: Type.Union([Type.String(), Type.Null()]),
  tierName: Type.Union([Type.String(), Type.Null()]),
  playId: Type.Union([Type.String(), Type.Null()]),
  fromPlayerName: Type.Union([Type.String(), Type.Null()]),
  ownPlay: Type.Boolean({
    description:
      "A payout: whether the play that paid it was the player's own (a leader playing on their " +
      'own board); false for every other kind.',
  }),
  rank: Type.Union([Type.Integer(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()], {
    description: "A declined publish request: the operator's reason",
  }),
});

export const PlayerNotificationListSchema = Type.Object({
  notifications: Type.Array(PlayerNotificationSchema),
});
