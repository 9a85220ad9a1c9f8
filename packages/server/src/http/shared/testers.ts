import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { playerActor, type InvitationAnswer } from '@coinop/core';
import type {
  Tester,
  TesterList,
  TestingInvitation,
  TestingInvitationList,
} from '@coinop/protocol';
import { DeveloperPortal } from '../../services/developer-games.js';
import type { InvitationRecord, TesterRecord } from '../../services/testers.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { GameParams, type Authenticate } from '../player/consent.js';
import { ApiTags, Security } from '../openapi.js';
import { Uuid } from './schemas.js';

/**
 * Testers of unpublished games (docs/concepts/consent.md, "Testers"): the developer invites a
 * wallet from the portal; the player with that wallet accepts, declines or leaves from the arcade.
 */

const TesterStateSchema = Type.Union(
  [
    Type.Literal('invited'),
    Type.Literal('accepted'),
    Type.Literal('declined'),
    Type.Literal('left'),
  ],
  {
    description:
      'invited: waiting for the player; accepted: a tester the unpublished game may charge; ' +
      'declined or left: the player said no, or stopped testing.',
  },
);
const answeredAt = Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
  description: 'When the player last answered; null while the invitation waits.',
});

const TesterSchema = Type.Object({
  wallet: Type.String({ description: 'The invited wallet address, lower-case.' }),
  addedAt: Type.String({ format: 'date-time', description: 'When the developer invited it.' }),
  state: TesterStateSchema,
  answeredAt,
});
const TesterListSchema = Type.Object({ testers: Type.Array(TesterSchema) });

const InvitationSchema = Type.Object(
  {
    gameId: Uuid('The game.'),
    gameName: Type.String(),
    published: Type.Boolean({ description: 'Testers matter only before the game is published.' }),
    developerWallet: Type.String({ description: "The inviting developer's wallet, lower-case." }),
    developerName: Type.Union([Type.String(), Type.Null()], {
      description: "The developer wallet's name in the arcade; null if it never signed in.",
    }),
    state: TesterStateSchema,
    invitedAt: Type.String({ format: 'date-time' }),
    answeredAt,
  },
  { description: 'An invitation to test a game (docs/concepts/consent.md, "Testers").' },
);
const InvitationListSchema = Type.Object({ invitations: Type.Array(InvitationSchema) });

declare const _tester: SchemaMatches<typeof TesterSchema, Tester>;
declare const _testerList: SchemaMatches<typeof TesterListSchema, TesterList>;
declare const _invitation: SchemaMatches<typeof InvitationSchema, TestingInvitation>;
declare const _invitationList: SchemaMatches<typeof InvitationListSchema, TestingInvitationList>;

const testerToWire = (t: TesterRecord): Tester => ({
  wallet: t.wallet,
  addedAt: t.invitedAt.toISOString(),
  state: t.state,
  answeredAt: t.answeredAt?.toISOString() ?? null,
});

const invitationToWire = (i: InvitationRecord): TestingInvitation => ({
  gameId: i.gameId,
  gameName: i.gameName,
  published: i.published,
  developerWallet: i.developerWallet,
  developerName: i.developerName,
  state: i.state,
  invitedAt: i.invitedAt.toISOString(),
  answeredAt: i.answeredAt?.toISOString() ?? null,
});

const TesterParams = Type.Object({
  gameId: Uuid('The game.'),
  wallet: Type.String({
    pattern: '^0x[0-9a-fA-F]{40}$',
    description: 'Wallet address: 0x and 40 hex digits.',
  }),
});
const testersNote =
  'Before the operator publishes a game, its server may open plays only for the developer’s own ' +
  'wallet and the testers who accepted their invitation in the arcade (403 player_not_tester ' +
  'for anyone else, an invited wallet included). A game of another developer answers 404 ' +
  'game_not_found.';

/**
 * The testers a developer invites to a game. Registered inside the /developer plugin; every route
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
        summary: 'The wallets invited to test one of my games, and their answers',
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
        summary: 'Invite a wallet to test one of my games',
        description:
          'Records an invitation (state invited), which is no consent: the player accepts it in ' +
          'the arcade, signed in with that wallet. Inviting again changes nothing, and does not ' +
          `overrule a player who declined or left. ${testersNote}`,
        params: TesterParams,
        response: { 200: TesterSchema },
      },
    },
    async (request) => {
      const { gameId, wallet } = request.params;
      return testerToWire(await portal.inviteTester(await developer(request), gameId, wallet));
    },
  );

  r.delete(
    '/games/:gameId/testers/:wallet',
    {
      schema: {
        operationId: 'developerRemoveTester',
        tags,
        security: Security.playerToken,
        summary: 'Withdraw an invitation, or remove a tester, of one of my games',
        description: `404 tester_not_found when the wallet was not invited. ${testersNote}`,
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

const playerNote =
  ' Only the signed-in player answers their own invitations (the web session of the invited ' +
  'wallet); 404 tester_invitation_not_found when their wallet has no invitation to the game.';

/**
 * The signed-in player's invitations to test games. Registered inside the /player plugin; every
 * route needs the player's web session.
 */
export function playerTestingRoutes(app: FastifyInstance, authenticate: Authenticate): void {
  const { testers } = app.arcade;
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const tags = [ApiTags.player];
  /** The signed-in player's own answer: their session is the only credential it takes. */
  const answer = async (request: FastifyRequest, gameId: string, choice: InvitationAnswer) => {
    const { playerId } = await authenticate(request);
    const grant = { playerId, gameId };
    return invitationToWire(
      await testers.answer(playerActor(playerId, 'player_session'), grant, choice),
    );
  };

  r.get(
    '/testing',
    {
      schema: {
        operationId: 'playerListTestingInvitations',
        tags,
        security: Security.playerToken,
        summary: 'My invitations to test games, waiting ones first',
        response: { 200: InvitationListSchema },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      return { invitations: (await testers.invitationsOf(playerId)).map(invitationToWire) };
    },
  );

  r.put(
    '/testing/:gameId',
    {
      schema: {
        operationId: 'playerAcceptTestingInvitation',
        tags,
        security: Security.playerToken,
        summary: 'Accept an invitation to test a game',
        description:
          'Makes the player a tester: before the game is published, its server may charge them ' +
          'and they may preview it in the arcade, from the next play. Accepting again, or after ' +
          `declining or leaving, is allowed while the invitation stands.${playerNote}`,
        params: GameParams,
        response: { 200: InvitationSchema },
      },
    },
    (request) => answer(request, request.params.gameId, 'accept'),
  );

  r.delete(
    '/testing/:gameId',
    {
      schema: {
        operationId: 'playerDeclineTestingInvitation',
        tags,
        security: Security.playerToken,
        summary: 'Decline an invitation to test a game, or stop testing it',
        description:
          'A waiting invitation becomes declined, an accepted one left: the unpublished game can ' +
          `no longer charge the player (403 player_not_tester), from the next play.${playerNote}`,
        params: GameParams,
        response: { 200: InvitationSchema },
      },
    },
    (request) => answer(request, request.params.gameId, 'decline'),
  );
}
