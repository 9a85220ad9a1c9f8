import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import type { PublishRequest, PublishRequestList } from '@coinop/protocol';
import { DeveloperPortal } from '../services/developer-games.js';
import { PublishRequests } from '../services/publish-requests.js';
import {
  PublishRequestStates,
  type PublishRequestRecord,
  type QueuedPublishRequest,
} from '../store/publish-requests.js';
import { GameStates } from '../store/admin.js';
import type { SchemaMatches } from '../listener/wire-check.js';
import { oncePerRequest, perKey } from '../listener/rate-limit.js';
import { RateLimitedResponse, Security } from './openapi.js';
import { Uuid } from './schemas.js';
import { bearer, ownGame } from './developer-games-schemas.js';
import { TAGS as ADMIN_TAGS } from './admin-schemas.js';
import { ADMIN_PAGE_DEFAULT, ADMIN_PAGE_MAX } from './admin-lookups.js';

/** The longest note or reason: a few paragraphs, not a document. */
export const PUBLISH_TEXT_MAX = 1000;

const DateTime = (description: string) => Type.String({ format: 'date-time', description });

const PublishRequestSchema = Type.Object({
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
const PublishRequestListSchema = Type.Object({ requests: Type.Array(PublishRequestSchema) });

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

const GameParams = Type.Object({ gameId: Uuid('The game') });
const RequestParams = Type.Object({ requestId: Uuid('The publish request') });
const GameRequestParams = Type.Object({
  gameId: Uuid('The game'),
  requestId: Uuid('The publish request'),
});
const RequestBody = Type.Object(
  {
    note: Type.Optional(
      Type.String({
        maxLength: PUBLISH_TEXT_MAX,
        description: 'Anything the operator should know (what changed since a decline, say)',
      }),
    ),
  },
  { additionalProperties: false },
);
const DeclineBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: PUBLISH_TEXT_MAX,
      pattern: '\\S',
      description: 'Why, as the developer will read it in the portal',
    }),
  },
  { additionalProperties: false },
);
const QueueQuery = Type.Object({
  state: Type.Optional(
    Type.Union(
      PublishRequestStates.map((s) => Type.Literal(s)),
      { description: 'Only requests in this state (default: pending); all states with `all`' },
    ),
  ),
  all: Type.Optional(Type.Literal('true', { description: 'Every state (overrides `state`)' })),
  limit: Type.Optional(
    Type.String({
      pattern: '^(100|[1-9][0-9]?)$',
      description: `How many, oldest first: 1 to ${ADMIN_PAGE_MAX} (default ${ADMIN_PAGE_DEFAULT})`,
    }),
  ),
  after: Type.Optional(Uuid('The last request of the page before (its `next`)')),
});

const requestToWire = (r: PublishRequestRecord): Static<typeof PublishRequestSchema> => ({
  requestId: r.id,
  gameId: r.gameId,
  gameName: r.gameName,
  state: r.state,
  note: r.note,
  declineReason: r.declineReason,
  requestedAt: r.requestedAt.toISOString(),
  decidedAt: r.decidedAt?.toISOString() ?? null,
});

const queuedToWire = (r: QueuedPublishRequest): Static<typeof QueuedRequestSchema> => ({
  ...requestToWire(r),
  game: { ...r.game },
});

/**
 * A developer's publish requests for their own games. Registered inside the /developer plugin
 * (prefix and CORS); only the game's developer (a player token of their wallet) may call them.
 */
export function developerPublishRequestRoutes(
  app: FastifyInstance,
  authenticate: (request: FastifyRequest) => Promise<{ playerId: string }>,
): void {
  const portal = new DeveloperPortal(app.arcade);
  const requests = new PublishRequests(app.arcade);
  const signedIn = oncePerRequest(authenticate);
  /** The game, once it is known to be the signed-in developer's (else 404 game_not_found). */
  const ownGameId = async (request: FastifyRequest, gameId: string): Promise<string> => {
    const developer = await portal.developerOf((await signedIn(request)).playerId);
    return (await portal.getGame(developer, gameId)).game.id;
  };
  // Requesting and withdrawing write rows: limited per developer as registering a game is.
  const writes = perKey(
    app.config.rateLimits.registration,
    'this developer',
    async (request) => (await signedIn(request)).playerId,
  );
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/games/:gameId/publish-requests',
    {
      schema: {
        operationId: 'developerListPublishRequests',
        tags: ['developer'],
        security: Security.playerToken,
        summary: 'The publish requests of one of my games',
        description: `Newest first (the last 20): the first is where the game stands. ${bearer} ${ownGame}`,
        params: GameParams,
        response: { 200: PublishRequestListSchema },
      },
    },
    async (request) => {
      const gameId = await ownGameId(request, request.params.gameId);
      return { requests: (await requests.ofGame(gameId)).map(requestToWire) };
    },
  );

  r.post(
    '/games/:gameId/publish-requests',
    {
      config: writes,
      schema: {
        operationId: 'developerRequestPublishing',
        tags: ['developer'],
        security: Security.playerToken,
        summary: 'Ask the operator to list one of my games in the catalog',
        description:
          'Opens a pending request (201). One open request per game: while one is pending, this ' +
          'answers it (200) and records nothing. 409 game_already_published when the game is in ' +
          `the catalog. ${bearer} ${ownGame}`,
        params: GameParams,
        body: RequestBody,
        response: {
          200: PublishRequestSchema,
          201: PublishRequestSchema,
          429: RateLimitedResponse,
        },
      },
    },
    async (request, reply) => {
      const gameId = await ownGameId(request, request.params.gameId);
      const opened = await requests.request(gameId, request.body.note ?? '');
      reply.code(opened.created ? 201 : 200);
      return requestToWire(opened.request);
    },
  );

  r.post(
    '/games/:gameId/publish-requests/:requestId/withdraw',
    {
      config: writes,
      schema: {
        operationId: 'developerWithdrawPublishRequest',
        tags: ['developer'],
        security: Security.playerToken,
        summary: 'Withdraw a pending publish request',
        description:
          'Withdrawing again answers the same; 409 publish_request_decided once the operator ' +
          `decided; 404 publish_request_not_found for a request of another game. ${bearer} ${ownGame}`,
        params: GameRequestParams,
        response: { 200: PublishRequestSchema, 429: RateLimitedResponse },
      },
    },
    async (request) => {
      const gameId = await ownGameId(request, request.params.gameId);
      return requestToWire(await requests.withdraw(gameId, request.params.requestId));
    },
  );
}

/** The operator's publish queue. Registered inside the admin plugin: its admin-token hook guards it. */
export function adminPublishRequestRoutes(app: FastifyInstance): void {
  const requests = new PublishRequests(app.arcade);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/admin/publish-requests',
    {
      schema: {
        operationId: 'adminListPublishRequests',
        tags: ADMIN_TAGS,
        security: Security.adminToken,
        summary: 'The publish queue: requests with their games, oldest first',
        description:
          'Pending requests by default, first come first served; `state` for another state, ' +
          '`all=true` for every state. Page with `limit` and `after` (the `next` of a page).',
        querystring: QueueQuery,
        response: { 200: QueueSchema },
      },
    },
    async (request) => {
      const { query } = request;
      const limit = Math.min(Number(query.limit ?? ADMIN_PAGE_DEFAULT), ADMIN_PAGE_MAX);
      const state = query.all === 'true' ? null : (query.state ?? 'pending');
      const page = await requests.queue({ state, limit, after: query.after });
      return { requests: page.requests.map(queuedToWire), next: page.next };
    },
  );

  r.post(
    '/admin/publish-requests/:requestId/approve',
    {
      schema: {
        operationId: 'adminApprovePublishRequest',
        tags: ADMIN_TAGS,
        security: Security.adminToken,
        summary: 'Approve a publish request: its game is listed in the catalog',
        description:
          'Publishes the game as POST /admin/games/{gameId}/publish does, in the same ' +
          'transaction as the decision. Approving again answers the same (two approvals publish ' +
          'once); 409 publish_request_decided when it was declined or withdrawn.',
        params: RequestParams,
        response: { 200: QueuedRequestSchema },
      },
    },
    async (request) => queuedToWire(await requests.approve(request.params.requestId)),
  );

  r.post(
    '/admin/publish-requests/:requestId/decline',
    {
      schema: {
        operationId: 'adminDeclinePublishRequest',
        tags: ADMIN_TAGS,
        security: Security.adminToken,
        summary: 'Decline a publish request with a reason the developer reads',
        description:
          'The game stays unpublished; the developer may request again. Declining again with ' +
          'the same reason answers the same; 409 publish_request_decided otherwise.',
        params: RequestParams,
        body: DeclineBody,
        response: { 200: QueuedRequestSchema },
      },
    },
    async (request) =>
      queuedToWire(await requests.decline(request.params.requestId, request.body.reason.trim())),
  );
}
