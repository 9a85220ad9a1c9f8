import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { PublishRequests, PublishRequestStates } from '../../services/publish-requests.js';
import { Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import {
  PUBLISH_TEXT_MAX,
  QueueSchema,
  QueuedRequestSchema,
  queuedToWire,
} from '../shared/publish-request-schemas.js';
import { TAGS as ADMIN_TAGS } from './admin-schemas.js';
import { ADMIN_PAGE_DEFAULT, ADMIN_PAGE_MAX } from './admin-lookups.js';
import { Patterns } from '../../listener/string-patterns.js';

const RequestParams = Type.Object({ requestId: Uuid('The publish request') });
const DeclineBody = Type.Object(
  {
    reason: Type.String({
      minLength: 1,
      maxLength: PUBLISH_TEXT_MAX,
      ...Patterns.notBlank,
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
      ...Patterns.from1To100,
      description: `How many, oldest first: 1 to ${ADMIN_PAGE_MAX} (default ${ADMIN_PAGE_DEFAULT})`,
    }),
  ),
  after: Type.Optional(Uuid('The last request of the page before (its `next`)')),
});

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
