import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { parseDailyLimit, playerActor, type InvitationAnswer } from '@coinop/core';
import { ApiTags, Security } from '../../listener/openapi.js';
import type { Authenticate } from '../shared/authenticate.js';
import {
  InvitationListSchema,
  InvitationSchema,
  invitationToWire,
} from '../shared/tester-schemas.js';
import { GameParams, GrantBody } from './consent.js';

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
  /**
   * The signed-in player's own answer: their session is the only credential it takes. `choice`
   * reads the body once the session is checked, so a stranger hears 401 first.
   */
  const answer = async (
    request: FastifyRequest,
    gameId: string,
    choice: () => InvitationAnswer,
  ) => {
    const { playerId } = await authenticate(request);
    const grant = { playerId, gameId };
    return invitationToWire(
      await testers.answer(playerActor(playerId, 'player_session'), grant, choice()),
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
        summary: 'Accept an invitation to test a game, with a daily allowance',
        description:
          'Makes the player a tester: before the game is published, its server may charge them ' +
          'within the daily allowance named in the body (set as their allowance for the game, ' +
          'in the same transaction; 0 allows free plays only), and they may preview it in the ' +
          'arcade, from the next play. Accepting again, or after declining or leaving, is ' +
          `allowed while the invitation stands, and sets the allowance again. 400 invalid_amount ` +
          `for a bad amount.${playerNote}`,
        params: GameParams,
        body: GrantBody,
        response: { 200: InvitationSchema },
      },
    },
    (request) =>
      answer(request, request.params.gameId, () => ({
        accept: true,
        dailyUnits: parseDailyLimit(request.body.dailyLimit, 'dailyLimit'),
      })),
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
          'no longer charge the player (403 player_not_tester), from the next play. Leaving also ' +
          `revokes the player's allowance for the game (0).${playerNote}`,
        params: GameParams,
        response: { 200: InvitationSchema },
      },
    },
    (request) => answer(request, request.params.gameId, () => ({ accept: false })),
  );
}
