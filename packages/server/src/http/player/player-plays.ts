import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CoinopError, formatHst, parseHst } from '@coinop/core';
import { scoreBodyLimit } from '../shared/score-body-limit.js';
import { RateLimitedResponse, Security } from '../../listener/openapi.js';
import { GameSchema, PlaySchema, ScoreResultSchema } from '../shared/schemas.js';
import { gameToWire, playToWire, scoreToWire } from '../shared/wire.js';
import type { PlayerRouteContext } from './player-context.js';
import {
  GameParams,
  PlayBody,
  PurchaseBody,
  PurchaseSchema,
  ScoreBody,
  TAGS,
  signedNote,
} from './player-schemas.js';

/**
 * A game as the signed-in player may open it, and the plays and scores the player's wallet
 * approved (spec 4.10). Registered in the player plugin.
 */
export function playerPlayRoutes(instance: FastifyInstance, context: PlayerRouteContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { arcade, config } = app;
  const { authenticate, playerOf, perPlayer, service } = context;

  app.get(
    '/games/:gameId',
    {
      schema: {
        operationId: 'playerGetGame',
        tags: TAGS,
        summary: 'A game as the signed-in player may open it, previews included',
        description:
          'A published game, as `GET /catalog/games/{gameId}` answers it; an unpublished one ' +
          'only to its developer (the wallet that registered it) and the testers who accepted ' +
          'its invitation, so they can preview it in the arcade (`published: false`). Anyone ' +
          'else (an invited wallet that has not accepted too), and every game of ' +
          'another arcade, 404 `game_not_found`, as if it did not exist.',
        security: Security.playerToken,
        params: GameParams,
        response: { 200: Type.Ref(GameSchema) },
      },
    },
    async (request) => {
      const { playerId } = await playerOf(request);
      const { gameId } = request.params;
      const view = await service.visibleGame(gameId, playerId);
      if (view.game.arcadeId !== arcade.record.id) {
        throw new CoinopError('game_not_found', `game ${gameId} does not exist`);
      }
      return gameToWire(
        view.game,
        view.leaderboards,
        view.leaders,
        view.scoreRules,
        config.payoutHoldSeconds,
      );
    },
  );

  app.post(
    '/games/:gameId/plays',
    {
      config: perPlayer(config.rateLimits['player-plays']),
      schema: {
        operationId: 'playerOpenPlay',
        tags: TAGS,
        summary: 'Open a client-side play: lock the tier cost (spec 4.10 play())',
        description:
          'The arcade web app calls this when the player approves a play. 402 ' +
          '`insufficient_funds` when the player cannot spend the cost; nothing is recorded then.' +
          signedNote,
        security: Security.playerToken,
        params: GameParams,
        body: PlayBody,
        response: { 201: Type.Ref(PlaySchema), 429: RateLimitedResponse },
      },
    },
    async (request, reply) => {
      const { playerId } = await playerOf(request);
      const play = await service.openPlay(playerId, {
        gameId: request.params.gameId,
        ...request.body,
      });
      reply.code(201);
      return playToWire(play);
    },
  );

  app.post(
    '/games/:gameId/scores',
    {
      bodyLimit: scoreBodyLimit(config),
      schema: {
        operationId: 'playerSubmitScore',
        tags: TAGS,
        summary: 'Score a client-side play (spec 4.10 submitScore())',
        description:
          'Scores one of the signed-in player’s own client-side plays (403 ' +
          '`play_of_another_player` for another player’s; 403 `play_scored_by_game_server` for ' +
          'a play a game’s server opened, which only that server scores) and settles it like a ' +
          'game server’s score.' +
          signedNote,
        security: Security.playerToken,
        params: GameParams,
        body: ScoreBody,
        response: { 200: Type.Ref(ScoreResultSchema) },
      },
    },
    async (request) => {
      const { playerId } = await authenticate(request);
      const { gameId } = request.params;
      const outcome = await service.submitScore(playerId, { gameId, ...request.body });
      return scoreToWire(outcome.score, await arcade.reads.leadersAfterScore(gameId, outcome));
    },
  );
}

/**
 * Payments to a game's developer that the player's wallet approved (spec 4.10 hstTransfer()).
 * Registered in the player plugin.
 */
export function playerPurchaseRoutes(instance: FastifyInstance, context: PlayerRouteContext): void {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { authenticate, service } = context;

  app.post(
    '/games/:gameId/purchases',
    {
      schema: {
        operationId: 'playerCreatePurchase',
        tags: TAGS,
        summary: 'Pay the game’s developer (spec 4.10 hstTransfer())',
        description:
          'One posted transfer of `amount` HST from the player to the developer; `txid` is its ' +
          'id. 402 `insufficient_funds` when the player cannot spend it; 403 `game_suspended` ' +
          'when the operator suspended the game.' +
          signedNote,
        security: Security.playerToken,
        params: GameParams,
        body: PurchaseBody,
        response: { 201: PurchaseSchema },
      },
    },
    async (request, reply) => {
      const { playerId } = await authenticate(request);
      const amountUnits = parseHst(request.body.amount, 'amount');
      const { transferId } = await service.purchase(playerId, {
        gameId: request.params.gameId,
        amountUnits,
        nonce: request.body.nonce,
        signature: request.body.signature,
      });
      reply.code(201);
      return { txid: transferId, amount: formatHst(amountUnits) };
    },
  );
}
