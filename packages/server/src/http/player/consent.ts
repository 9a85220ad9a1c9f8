import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { MAX_DAILY_ALLOWANCE_HST, formatHst, parseDailyLimit, playerActor } from '@coinop/core';
import type { Allowance, AllowanceList, AllowanceRequest } from '@coinop/protocol';
import type { AllowanceView } from '../../services/consent.js';
import { ApiTags, Security } from '../../listener/openapi.js';
import { Uuid } from '../shared/schemas.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import type { Authenticate } from '../shared/authenticate.js';

/**
 * An allowance's amount as the player reads it: exact to the unit (`formatHst`), which a JSON
 * number is not above about 90 million HST with 8 decimals.
 */
const exact = (description: string) => `${description}, as an exact decimal string of HST`;
const Hst = (description: string) => Type.String({ description: exact(description) });
const HstOrNull = (description: string, nullMeans: string) =>
  Type.Union([Type.String(), Type.Null()], {
    description: `${exact(description)}; null: ${nullMeans}`,
  });

const AllowanceSchema = Type.Object(
  {
    gameId: Uuid('The game.'),
    gameName: Type.String(),
    source: Type.Union([Type.Literal('player'), Type.Literal('default')], {
      description:
        "player: the player's own choice; default: they chose none and the operator's default " +
        'applies.',
    }),
    dailyLimit: HstOrNull(
      'What the game may lock from the player per UTC day ("0": none, or revoked)',
      'unlimited',
    ),
    spentToday: Hst("What the game's plays locked today (UTC)"),
    remainingToday: HstOrNull('What the game may still lock today', 'unlimited'),
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
    dailyLimit: limit === null ? null : formatHst(limit),
    spentToday: formatHst(a.spentTodayUnits),
    remainingToday: remaining === null ? null : formatHst(remaining),
    decidedAt: a.decidedAt?.toISOString() ?? null,
  };
}

export const GameParams = Type.Object({ gameId: Uuid('The game.') });
export const GrantBody = Type.Object(
  {
    dailyLimit: Type.Union([Type.Number(), Type.String()], {
      description:
        `HST per UTC day, at most 8 decimals and at most ${MAX_DAILY_ALLOWANCE_HST}; 0 revokes. ` +
        'A decimal string keeps every digit; a JSON number is taken too.',
    }),
  },
  { additionalProperties: false },
);
const AllowanceListSchema = Type.Object({
  defaultDailyLimit: HstOrNull(
    'The operator\'s daily allowance for games the player chose none for ("0": every game ' +
      'needs explicit consent)',
    'unlimited',
  ),
  allowances: Type.Array(AllowanceSchema),
});

declare const _allowance: SchemaMatches<typeof AllowanceSchema, Allowance>;
declare const _allowanceList: SchemaMatches<typeof AllowanceListSchema, AllowanceList>;
declare const _grantBody: SchemaMatches<typeof GrantBody, AllowanceRequest>;

const consentNote =
  " Server-to-server plays of the game count against it, before publication too (a tester's " +
  'acceptance sets it); plays the player approves with a wallet signature in the arcade carry ' +
  'their own consent and do not.';

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
        defaultDailyLimit: limit === null ? null : formatHst(limit),
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
        description:
          '404 game_not_found for an unknown game, or an unpublished one the player is neither ' +
          'the developer nor an accepted tester of and holds no allowance for.',
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
          'counted. 400 invalid_amount for a bad amount; 404 game_not_found for an unknown game, ' +
          'or an unpublished one the player is not an insider of, unless the amount lowers an ' +
          `allowance they hold: theirs to lower or revoke at any time.${consentNote}`,
        params: GameParams,
        body: GrantBody,
        response: { 200: AllowanceSchema },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      const dailyUnits = parseDailyLimit(request.body.dailyLimit, 'dailyLimit');
      const granted = await consent.grant(
        playerActor(playerId, 'player_session'),
        { playerId, gameId: request.params.gameId },
        dailyUnits,
      );
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
          'can no longer charge the player (403 consent_required), from the next play. Allowed ' +
          'for every allowance the player holds, also once its game is unpublished; 404 ' +
          'game_not_found for an unknown game, or an unpublished one they hold none for and are ' +
          'not an insider of.',
        params: GameParams,
        response: { 200: AllowanceSchema },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      const actor = playerActor(playerId, 'player_session');
      const grant = { playerId, gameId: request.params.gameId };
      return allowanceToWire(await consent.grant(actor, grant, 0n));
    },
  );
}
