import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiTags, Security } from '../listener/openapi.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import {
  CoinopError,
  MAX_DAILY_ALLOWANCE_HST,
  formatHst,
  parseDailyLimit,
  playerActor,
} from '@coinop/core';
import type { CliLoginDecision as CliLoginDecisionWire, ErrorCode } from '@coinop/protocol';
import { problem, sendProblem } from '../listener/error-handler.js';
import {
  cliLoginInfo,
  decideCliLoginRequest,
  pollCliLogin,
  startCliLogin,
  type CliLoginDecision,
  type CliLoginDeps,
} from './cli-login.js';
import type { PlayerAuthenticator } from '../credentials/player-auth.js';
import { bearerToken } from '../listener/bearer.js';
import type { SchemaMatches } from '../listener/wire-check.js';
import { perClientAddress, type RouteRateLimit } from '../listener/rate-limit.js';

export interface CliRoutesOptions {
  readonly deps: CliLoginDeps;
  readonly players: PlayerAuthenticator;
  readonly rateLimitPerMinute: number;
}

const StartBody = Type.Object(
  {
    description: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Identifies the client system, e.g. operating system and device name',
    }),
    gameId: Type.Optional(
      Type.String({
        format: 'uuid',
        description:
          'The game signing in. The approval page then names it and lets the player grant it ' +
          'a daily allowance in the same step. 404 game_not_found for an unknown game.',
      }),
    ),
  },
  { additionalProperties: false },
);
const StartResponse = Type.Object({
  browserUrl: Type.String({ description: 'Path of the approval page on this sign-in service' }),
  requestorId: Type.String({ format: 'uuid' }),
  cliUrl: Type.String({ description: 'Poll GET {cliUrl}/{requestorId}' }),
  token: Type.String({ description: 'Bearer token for polling this request only' }),
  interval: Type.Integer({ description: 'Seconds to wait between polls (RFC 8628)' }),
  expires_in: Type.Integer({ description: 'Seconds until the request expires' }),
  userCode: Type.String({ description: 'Code the player checks on the approval page' }),
});
const RequestorParams = Type.Object({ requestorId: Type.String({ format: 'uuid' }) });
const UserCode = Type.String({ minLength: 1, maxLength: 32 });
const InfoQuery = Type.Object({ code: UserCode });
const InfoResponse = Type.Object({
  requestorId: Type.String({ format: 'uuid' }),
  description: Type.String(),
  game: Type.Union([
    Type.Object({
      id: Type.String({ format: 'uuid' }),
      name: Type.String(),
      published: Type.Boolean({
        description: 'Unpublished games charge only their developer and testers: no allowance.',
      }),
    }),
    Type.Null(),
  ]),
  userCode: Type.String(),
  status: Type.Union([
    Type.Literal('pending'),
    Type.Literal('approved'),
    Type.Literal('denied'),
    Type.Literal('expired'),
  ]),
  expiresAt: Type.String({ format: 'date-time' }),
});
const RejectBody = Type.Object({ userCode: UserCode }, { additionalProperties: false });
const ApproveBody = Type.Object(
  {
    userCode: UserCode,
    dailyLimit: Type.Optional(
      Type.Union([Type.Number(), Type.String()], {
        description:
          'Also allow the game the login names to charge me up to this much HST a UTC day ' +
          `(at most 8 decimals and ${MAX_DAILY_ALLOWANCE_HST}; 0 revokes). Only for a login ` +
          'that names its game.',
      }),
    ),
  },
  { additionalProperties: false },
);
const DecideResponse = Type.Object({
  status: Type.Union([Type.Literal('approved'), Type.Literal('denied')]),
  grantedDailyLimit: Type.Union([Type.String(), Type.Null()], {
    description:
      'The daily allowance this approval granted the game, HST a day as an exact decimal ' +
      'string (show it as it is); null when it granted none.',
  }),
});
declare const _decideResponse: SchemaMatches<typeof DecideResponse, CliLoginDecisionWire>;
const TokenResponse = Type.Object({ access_token: Type.String() });

/** The login flow for desktop and mobile clients (spec 4.6, 4.7), after RFC 8628. */
export async function cliRoutes(app: FastifyInstance, options: CliRoutesOptions): Promise<void> {
  const limited = perClientAddress(options.rateLimitPerMinute);
  await toolRoutes(app, options.deps, limited);
  approvalRoutes(app, options, limited);
}

/** What the command-line tool calls: start a login, then poll for its token. */
async function toolRoutes(
  app: FastifyInstance,
  deps: CliLoginDeps,
  limited: RouteRateLimit,
): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/cli',
    {
      config: limited,
      schema: {
        tags: [ApiTags.cliLogin],
        operationId: 'startCliLogin',
        security: Security.none,
        summary: 'Start a login for a command-line tool (spec 4.6)',
        description:
          'Answers the URL and code to show the player, and the poll token to poll with. The ' +
          'player approves or rejects it in the browser.',
        body: StartBody,
        response: { 200: StartResponse },
      },
    },
    async (request) =>
      startCliLogin(deps, {
        description: request.body.description,
        gameId: request.body.gameId ?? null,
      }),
  );

  await app.register(async (polling) => {
    polling.setErrorHandler(withDeviceFlowError);
    polling.withTypeProvider<TypeBoxTypeProvider>().get(
      '/cli/:requestorId',
      {
        config: limited,
        schema: {
          tags: [ApiTags.cliLogin],
          operationId: 'pollCliLogin',
          security: [{ pollToken: [] }],
          summary: 'Poll for the player token of a login (spec 4.7)',
          description:
            'Errors carry RFC 8628 §3.5 `error` too: authorization_pending, slow_down, ' +
            'access_denied, expired_token.',
          params: RequestorParams,
          response: { 200: TokenResponse },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return pollCliLogin(deps, request.params.requestorId, bearerToken(request));
      },
    );
  });
}

/** What the approval page calls for the signed-in player: what a login asks, approve, reject. */
function approvalRoutes(
  app: FastifyInstance,
  { deps, players }: CliRoutesOptions,
  limited: RouteRateLimit,
): void {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/cli/:requestorId/info',
    {
      config: limited,
      schema: {
        tags: [ApiTags.cliLogin],
        operationId: 'getCliLoginInfo',
        security: Security.none,
        summary: 'What a login asks for, for the approval page',
        params: RequestorParams,
        querystring: InfoQuery,
        response: { 200: InfoResponse },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return cliLoginInfo(deps, request.params.requestorId, request.query.code);
    },
  );

  const decided = ({ status, grantedDailyUnits }: CliLoginDecision): CliLoginDecisionWire => ({
    status,
    grantedDailyLimit: grantedDailyUnits === null ? null : formatHst(grantedDailyUnits),
  });
  r.post(
    '/cli/:requestorId/approve',
    {
      config: limited,
      schema: {
        tags: [ApiTags.cliLogin],
        operationId: 'approveCliLogin',
        security: Security.playerToken,
        summary: 'The signed-in player approves a login',
        params: RequestorParams,
        body: ApproveBody,
        response: { 200: DecideResponse },
      },
    },
    async (request) => {
      const player = await players.authenticate(request);
      const { userCode, dailyLimit } = request.body;
      return decided(
        await decideCliLoginRequest(deps, {
          requestorId: request.params.requestorId,
          userCode,
          playerId: player.playerId,
          actor: playerActor(player.playerId, 'player_session'),
          approve: true,
          dailyLimitUnits:
            dailyLimit === undefined ? null : parseDailyLimit(dailyLimit, 'dailyLimit'),
        }),
      );
    },
  );
  r.post(
    '/cli/:requestorId/reject',
    {
      config: limited,
      schema: {
        tags: [ApiTags.cliLogin],
        operationId: 'rejectCliLogin',
        security: Security.playerToken,
        summary: 'The signed-in player rejects a login',
        params: RequestorParams,
        body: RejectBody,
        response: { 200: DecideResponse },
      },
    },
    async (request) => {
      const player = await players.authenticate(request);
      return decided(
        await decideCliLoginRequest(deps, {
          requestorId: request.params.requestorId,
          userCode: request.body.userCode,
          playerId: player.playerId,
          actor: playerActor(player.playerId, 'player_session'),
          approve: false,
        }),
      );
    },
  );
}

/**
 * The `error` member RFC 8628 §3.5 (and RFC 6749 §5.2) gives the polling endpoint's answers, next
 * to our own `code`, so OAuth device-flow clients understand them too.
 */
const DEVICE_FLOW_ERRORS: Partial<Record<ErrorCode, string>> = {
  authorization_pending: 'authorization_pending',
  slow_down: 'slow_down',
  rate_limited: 'slow_down',
  access_denied: 'access_denied',
  expired_token: 'expired_token',
  missing_bearer_token: 'invalid_client',
  invalid_poll_token: 'invalid_client',
};

function withDeviceFlowError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  // Anything else goes on to the shared handler.
  if (!(error instanceof CoinopError)) throw error;
  const body = problem(error.code, error.message, error.details);
  return sendProblem(
    reply,
    Object.assign(body, { error: DEVICE_FLOW_ERRORS[error.code] ?? 'invalid_request' }),
  );
}
