import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { DeveloperPortal } from '../../services/developer-games.js';
import { PublishRequests } from '../../services/publish-requests.js';
import { oncePerRequest, perKey } from '../../listener/rate-limit.js';
import { RateLimitedResponse, Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import {
  PUBLISH_TEXT_MAX,
  PublishRequestListSchema,
  PublishRequestSchema,
  requestToWire,
} from '../shared/publish-request-schemas.js';
import { bearer, ownGame } from './developer-games-schemas.js';

const GameParams = Type.Object({ gameId: Uuid('The game') });
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
