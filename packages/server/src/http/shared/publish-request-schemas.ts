import { Type, type Static } from '@sinclair/typebox';
import type { PublishRequest, PublishRequestList } from '@coinop/protocol';
import {
  PublishRequestStates,
  type PublishRequestRecord,
  type QueuedPublishRequest,
} from '../../services/publish-requests.js';
import { GameStates } from '../../services/admin.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { Uuid } from './schemas.js';

/** The wire shapes of publish requests: the developer's of one game, and the operator's queue. */

/** The longest note or reason: a few paragraphs, not a document. */
export const PUBLISH_TEXT_MAX = 1000;

const DateTime = (description: string) => Type.String({ format: 'date-time', description });

export const PublishRequestSchema = Type.Object({
  requestId: Uuid('The request'),
  gameId: Uuid('The game'),
  gameName: Type.String(),
  state: Type.Union(
    PublishRequestStates.map((s) => Type.Literal(s)),
    {
      description:
        'pending: waiting for the operator; approved: the game was published; declined: see ' +
        'declineReason; withdrawn: the developer took it back',
    },
  ),
  note: Type.String({ description: 'What the developer told the operator; empty when nothing' }),
  declineReason: Type.Union([Type.String(), Type.Null()], {
    description: "The operator's reason; null unless declined",
  }),
  requestedAt: DateTime('When the developer asked'),
  decidedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'When it was approved, declined or withdrawn; null while pending',
  }),
});
export const PublishRequestListSchema = Type.Object({ requests: Type.Array(PublishRequestSchema) });

declare const _request: SchemaMatches<typeof PublishRequestSchema, PublishRequest>;
declare const _requestList: SchemaMatches<typeof PublishRequestListSchema, PublishRequestList>;

export const QueuedRequestSchema = Type.Composite([
  PublishRequestSchema,
  Type.Object({
    game: Type.Object(
      {
        tagLine: Type.String(),
        description: Type.String(),
        category: Type.String(),
        url: Type.String({ description: 'Where the game is hosted; empty until set' }),
        coverUrl: Type.String(),
        developerId: Uuid('Its developer'),
        developerWallet: Type.String({ description: "The developer's wallet (lower-case)" }),
        state: Type.Union(
          GameStates.map((s) => Type.Literal(s)),
          { description: 'Where the game stands now (see GET /admin/games)' },
        ),
        tiers: Type.Integer({ description: 'Live leaderboards (tiers)' }),
      },
      { description: 'What the operator decides on: the game as it is now' },
    ),
  }),
]);
export const QueueSchema = Type.Object({
  requests: Type.Array(QueuedRequestSchema),
  next: Type.Union([Uuid('Pass as `after` for the next page'), Type.Null()], {
    description: 'Pass as `after` for the next page; null on the last',
  }),
});

export const requestToWire = (r: PublishRequestRecord): Static<typeof PublishRequestSchema> => ({
  requestId: r.id,
  gameId: r.gameId,
  gameName: r.gameName,
  state: r.state,
  note: r.note,
  declineReason: r.declineReason,
  requestedAt: r.requestedAt.toISOString(),
  decidedAt: r.decidedAt?.toISOString() ?? null,
});

export const queuedToWire = (r: QueuedPublishRequest): Static<typeof QueuedRequestSchema> => ({
  ...requestToWire(r),
  game: { ...r.game },
});
