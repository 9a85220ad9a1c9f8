import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CoinopError, unitsToHstNumber } from '@coinop/core';
import { ApiTags, Security } from '../../listener/openapi.js';
import { PlaySchema, Uuid } from '../shared/schemas.js';
import { playToWire } from '../shared/wire.js';
import { PlayTransactionSchema, PlayerDetailsSchema } from './game-server-schemas.js';

/**
 * A play and the ledger transfer that locked its cost. Registered in the game server plugin's
 * write-token scope.
 */
export function playRecordRoutes(instance: FastifyInstance): void {
  const api = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = api.arcade;

  api.get(
    '/arcades/:arcadeId/games/:gameId/play/:playId',
    {
      schema: {
        operationId: 'getPlay',
        tags: [ApiTags.gameServer],
        summary: 'A play record',
        security: Security.writeToken,
        params: Type.Object({
          arcadeId: Uuid('the arcade'),
          gameId: Uuid('the game'),
          playId: Uuid('the play'),
        }),
        response: { 200: Type.Ref(PlaySchema) },
      },
    },
    async (request) =>
      playToWire(await arcade.reads.play(request.params.gameId, request.params.playId)),
  );

  api.get(
    '/arcades/:arcadeId/games/:gameId/play/:playId/transaction',
    {
      schema: {
        operationId: 'getPlayTransaction',
        tags: [ApiTags.gameServer],
        summary: "The ledger transfer that locked a play's cost, and whether it settled",
        security: Security.writeToken,
        params: Type.Object({
          arcadeId: Uuid('the arcade'),
          gameId: Uuid('the game'),
          playId: Uuid('the play'),
        }),
        response: { 200: PlayTransactionSchema },
      },
    },
    async (request) => {
      const { play, state } = await arcade.reads.playTransaction(
        request.params.gameId,
        request.params.playId,
      );
      return {
        id: play.lockTransferId ?? '',
        playId: play.id,
        status: state,
        tx: play.lockTransferId ?? '',
        amount: unitsToHstNumber(play.costUnits),
      };
    },
  );
}

/**
 * A player's profile and balance, for a player the game may charge. Registered in the game server
 * plugin's write-token scope.
 */
export function playerDetailRoutes(instance: FastifyInstance): void {
  const api = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = api.arcade;

  api.get(
    '/players/:playerId/details',
    {
      schema: {
        operationId: 'getPlayerDetails',
        tags: [ApiTags.gameServer],
        summary: "A player's profile and HST balance",
        description:
          'Only for a player the game may charge: one whose allowance for it is above zero ' +
          '(their own or the operator default) and, before the game is published, who is its ' +
          "developer's wallet or a tester who accepted its invitation (an invitation alone is " +
          'not consent). Anyone else answers 404 player_not_found.',
        security: Security.writeToken,
        params: Type.Object({ playerId: Uuid('the player') }),
        response: { 200: PlayerDetailsSchema },
      },
    },
    async (request) => {
      const { playerId } = request.params;
      // Only a player the token's game may charge: one who allowed it (and, before it is
      // published, an insider). Anyone else reads as unknown.
      const gameId = request.writeToken?.gameId;
      if (gameId === undefined || !(await arcade.consent.reaches(gameId, playerId))) {
        throw new CoinopError('player_not_found', `player ${playerId} does not exist`, {
          details: { field: 'playerId', playerId },
        });
      }
      const d = await arcade.reads.playerDetails(playerId);
      return {
        id: d.player.id,
        name: d.player.name,
        avatar: d.avatar,
        balance: unitsToHstNumber(d.balanceUnits),
        pending: unitsToHstNumber(d.pendingUnits),
        currency: 'HST' as const,
      };
    },
  );
}
