import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { MAX_DAILY_ALLOWANCE_HST, parseDailyLimit, unitsToHstNumber } from '@coinop/core';
import type {
  Allowance,
  AllowanceList,
  AllowanceRequest,
  Tester as TesterWire,
  TesterList,
} from '@coinop/protocol';
import type { AllowanceView } from '../services/consent.js';
import { DeveloperPortal } from '../services/developer-games.js';
import type { Tester } from '../services/consent.js';
import { ApiTags, Security } from './openapi.js';
import { Uuid } from './schemas.js';
import type { SchemaMatches } from '../listener/wire-check.js';

/** Who a request is: the signed-in player, or a 401. */
export type Authenticate = (request: FastifyRequest) => Promise<{ playerId: string }>;

const AllowanceSchema = Type.Object(
  {
    gameId: Uuid('The game.'),
    gameName: Type.String(),
    source: Type.Union([Type.Literal('player'), Type.Literal('default')], {
      description:
        "player: the player's own choice; default: they chose none and the operator's default " +
        'applies.',
    }),
    dailyLimit: Type.Union([Type.Number(), Type.Null()], {
      description: 'HST the game may lock from the player per UTC day; null is unlimited.',
    }),
    spentToday: Type.Number({ description: "HST the game's plays locked today (UTC)." }),
    remainingToday: Type.Union([Type.Number(), Type.Null()], {
      description: 'HST the game may still lock today; null is unlimited.',
    }),
    decidedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the player last chose; null when they never did.',
    }),
  },
  { description: "A player's allowance for a game (docs/concepts/consent.md)." },
);
type AllowanceWire = Static<typeof AllowanceSchema>;

function allowanceToWire(a: AllowanceView): AllowanceWire {
  const limit = a.dailyLimitUnits;
  const remaining =
    limit === null ? null : limit > a.spentTodayUnits ? limit - a.spentTodayUnits : 0n;
  return {
    gameId: a.gameId,
    gameName: a.gameName,
    source: a.source,
    dailyLimit: limit === null ? null : unitsToHstNumber(limit),
    spentToday: unitsToHstNumber(a.spentTodayUnits),
    remainingToday: remaining === null ? null : unitsToHstNumber(remaining),
    decidedAt: a.decidedAt?.toISOString() ?? null,
  };
}

const GameParams = Type.Object({ gameId: Uuid('The game.') });
const GrantBody = Type.Object(
  {
    dailyLimit: Type.Union([Type.Number(), Type.String()], {
      description:
        `HST per UTC day, at most 8 decimals and at most ${MAX_DAILY_ALLOWANCE_HST}; 0 revokes. ` +
        'A decimal string keeps every digit.',
    }),
  },
  { additionalProperties: false },
);
const AllowanceListSchema = Type.Object({
  defaultDailyLimit: Type.Union([Type.Number(), Type.Null()], {
    description:
      "The operator's daily allowance for games the player chose none for; 0 means " +
      'every game needs explicit consent, null is unlimited.',
  }),
  allowances: Type.Array(AllowanceSchema),
});

declare const _allowance: SchemaMatches<typeof AllowanceSchema, Allowance>;
declare const _allowanceList: SchemaMatches<typeof AllowanceListSchema, AllowanceList>;
declare const _grantBody: SchemaMatches<typeof GrantBody, AllowanceRequest>;

const consentNote =
  ' Server-to-server plays of a published game count against it; plays the player approves ' +
  'with a wallet signature in the arcade carry their own consent and do not.';

/**
 * A player's allowances: what each game may charge them a day (docs/concepts/consent.md).
 * Registered inside the /player plugin; every route needs the signed-in player.
 */
export function allowanceRoutes(app: FastifyInstance, authenticate: Authenticate): void {
  const { consent } = app.arcade;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = [ApiTags.player];

  r.get(
    '/allowances',
    {
      schema: {
        operationId: 'playerListAllowances',
        tags,
        security: Security.playerToken,
        summary:
          "The games I allowed to charge me, and those charging me under the arcade's default",
        response: { 200: AllowanceListSchema },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      const limit = consent.defaultAllowanceUnits;
      return {
        defaultDailyLimit: limit === null ? null : unitsToHstNumber(limit),
        allowances: (await consent.allowances(playerId)).map(allowanceToWire),
      };
    },
  );

  r.get(
    '/allowances/:gameId',
    {
      schema: {
        operationId: 'playerGetAllowance',
        tags,
        security: Security.playerToken,
        summary: 'My allowance for one game',
        description: '404 game_not_found for an unknown game.',
        params: GameParams,
        response: { 200: AllowanceSchema },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      return allowanceToWire(await consent.allowance(playerId, request.params.gameId));
    },
  );

  r.put(
    '/allowances/:gameId',
    {
      schema: {
        operationId: 'playerSetAllowance',
        tags,
        security: Security.playerToken,
        summary: 'Allow a game to charge me up to an amount a day',
        description:
          'Sets the daily allowance; it applies from the next play. What plays locked today stays ' +
          `counted. 400 invalid_amount for a bad amount.${consentNote}`,
        params: GameParams,
        body: GrantBody,
        response: { 200: AllowanceSchema },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      const dailyUnits = parseDailyLimit(request.body.dailyLimit, 'dailyLimit');
      const granted = await consent.grant(playerId, request.params.gameId, dailyUnits);
      return allowanceToWire(granted);
    },
  );

  r.delete(
    '/allowances/:gameId',
    {
      schema: {
        operationId: 'playerRevokeAllowance',
        tags,
        security: Security.playerToken,
        summary: 'Revoke a game’s allowance',
        description:
          "Sets the daily allowance to 0, whatever the operator's default: the game's server " +
          'can no longer charge the player (403 consent_required), from the next play.',
        params: GameParams,
        response: { 200: AllowanceSchema },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      return allowanceToWire(await consent.grant(playerId, request.params.gameId, 0n));
    },
  );
}

const TesterSchema = Type.Object({
  wallet: Type.String({ description: 'The tester’s wallet address, lower-case.' }),
  addedAt: Type.String({ format: 'date-time' }),
});
const TesterListSchema = Type.Object({ testers: Type.Array(TesterSchema) });

declare const _tester: SchemaMatches<typeof TesterSchema, TesterWire>;
declare const _testerList: SchemaMatches<typeof TesterListSchema, TesterList>;

const testerToWire = (t: Tester) => ({ wallet: t.wallet, addedAt: t.addedAt.toISOString() });
const TesterParams = Type.Object({
  gameId: Uuid('The game.'),
  wallet: Type.String({
    pattern: '^0x[0-9a-fA-F]{40}$',
    description: 'Wallet address: 0x and 40 hex digits.',
  }),
});
const testersNote =
  'Before the operator publishes a game, its server may open plays only for the developer’s own ' +
  'wallet and these testers (403 player_not_tester for anyone else). A game of another ' +
  'developer answers 404 game_not_found.';

/**
 * The testers a developer names for a game. Registered inside the /developer plugin; every route
 * needs the signed-in developer.
 */
export function testerRoutes(app: FastifyInstance, authenticate: Authenticate): void {
  const portal = new DeveloperPortal(app.arcade);
  const developer = async (request: FastifyRequest) =>
    portal.developerOf((await authenticate(request)).playerId);
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['developer'];

  r.get(
    '/games/:gameId/testers',
    {
      schema: {
        operationId: 'developerListTesters',
        tags,
        security: Security.playerToken,
        summary: 'The testers of one of my games',
        description: testersNote,
        params: GameParams,
        response: { 200: TesterListSchema },
      },
    },
    async (request) => ({
      testers: (await portal.testers(await developer(request), request.params.gameId)).map(
        testerToWire,
      ),
    }),
  );

  r.put(
    '/games/:gameId/testers/:wallet',
    {
      schema: {
        operationId: 'developerAddTester',
        tags,
        security: Security.playerToken,
        summary: 'Name a tester of one of my games',
        description: `Idempotent: naming a tester again keeps the first date. ${testersNote}`,
        params: TesterParams,
        response: { 200: TesterSchema },
      },
    },
    async (request) => {
      const { gameId, wallet } = request.params;
      return testerToWire(await portal.addTester(await developer(request), gameId, wallet));
    },
  );

  r.delete(
    '/games/:gameId/testers/:wallet',
    {
      schema: {
        operationId: 'developerRemoveTester',
        tags,
        security: Security.playerToken,
        summary: 'Remove a tester of one of my games',
        description: `404 tester_not_found when the wallet is not a tester. ${testersNote}`,
        params: TesterParams,
        response: { 204: Type.Null() },
      },
    },
    async (request, reply) => {
      const { gameId, wallet } = request.params;
      await portal.removeTester(await developer(request), gameId, wallet);
      return reply.code(204).send(null);
    },
  );
}
