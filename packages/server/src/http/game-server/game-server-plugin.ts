import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { CoinopError, unitsToHstNumber } from '@coinop/core';

import type { GameView } from '../../services/game-reads.js';
import type { GameWire } from '../shared/schemas.js';
import { ApiTags, RateLimitedResponse, Security } from '../openapi.js';
import { GameSchema, PlaySchema, ScoreResultSchema, Uuid } from '../shared/schemas.js';
import { gameToWire, playToWire, scoreToWire } from '../shared/wire.js';

import {
  ArcadeGameParams,
  IdempotencyHeaders,
  PAYOUTS_PAGE_MAX,
  WriteTokenBody,
  WriteTokenSchema,
  PlayBody,
  ScoreBody,
  LeaderListSchema,
  TopScoreSchema,
  PlayTransactionSchema,
  PlayerDetailsSchema,
  GamePlayerStandingsSchema,
  PayoutsPageSchema,
} from './game-server-schemas.js';
import { requireWriteToken } from './write-token-scope.js';
import { boardRoutes } from '../shared/boards.js';
import { gameServerTournamentRoutes } from './game-server-tournaments.js';
import { perClientAddress, perKey } from '../../listener/rate-limit.js';

/** The server-to-server API a game's authoritative server calls (spec 4.2–4.5). */
export async function gameServerPlugin(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const arcade = app.arcade;
  const limits = app.config.rateLimits;
  const serializedViews = new WeakMap<GameView, string>();

  app.post(
    '/oauth/writetoken',
    {
      config: perClientAddress(limits.token),
      schema: {
        operationId: 'createWriteToken',
        security: Security.none,
        tags: [ApiTags.gameServer],
        summary: 'Exchange client credentials for a write token (spec 4.2)',
        description:
          "Accepts the spec's `client_id`/`client_secret` or the camelCase body that " +
          '@hastearcade/server sends (`clientId`, `clientSecret`, `environment`).',
        body: WriteTokenBody,
        response: { 200: WriteTokenSchema, 429: RateLimitedResponse },
      },
    },
    async (request) => {
      const clientId = request.body.client_id ?? request.body.clientId;
      const clientSecret = request.body.client_secret ?? request.body.clientSecret;
      if (clientId === undefined) throw missingField('client_id');
      if (clientSecret === undefined) throw missingField('client_secret');
      const token = await arcade.issueWriteToken(clientId, clientSecret);
      return {
        access_token: token.accessToken,
        token_type: 'Bearer' as const,
        expires_in: token.expiresInSeconds,
        developerId: token.developerId,
        gameId: token.gameId,
        arcadeId: token.arcadeId,
      };
    },
  );

  // Everything below needs a write token, scoped to the arcade and game in the path.
  await app.register(async (scoped) => {
    const api = scoped.withTypeProvider<TypeBoxTypeProvider>();
    requireWriteToken(api);
    gameServerTournamentRoutes(api);

    api.get(
      '/arcades/:arcadeId/developergames/:gameId',
      {
        schema: {
          operationId: 'getGame',
          tags: [ApiTags.gameServer],
          summary: 'The game with its tiers and their current leaders (spec 4.3)',
          security: Security.writeToken,
          params: ArcadeGameParams,
          response: { 200: Type.Ref(GameSchema) },
        },
      },
      async (request, reply) => {
        const view = await arcade.reads.gameView(request.params.gameId);
        // The hottest read: each cached view is serialized once, then sent as is.
        let body = serializedViews.get(view);
        if (body === undefined) {
          body = JSON.stringify(gameToWire(view.game, view.leaderboards, view.leaders));
          serializedViews.set(view, body);
        }
        // A string payload skips the response serializer; the schema still documents the shape.
        return reply.type('application/json; charset=utf-8').send(body as unknown as GameWire);
      },
    );

    api.get(
      '/arcades/:arcadeId/developergames/:gameId/player/:playerId',
      {
        schema: {
          operationId: 'getGamePlayerStandings',
          tags: [ApiTags.gameServer],
          summary: "The game's tiers with one player's best score and rank on each",
          security: Security.writeToken,
          params: Type.Object({
            arcadeId: Uuid('the arcade'),
            gameId: Uuid('the game'),
            playerId: Uuid('the player'),
          }),
          response: { 200: GamePlayerStandingsSchema },
        },
      },
      async (request) => {
        const { gameId, playerId } = request.params;
        const [view, standings] = await Promise.all([
          arcade.reads.gameView(gameId),
          arcade.reads.standings(gameId, playerId),
        ]);
        const wire = gameToWire(view.game, view.leaderboards, view.leaders);
        const byBoard = new Map(standings.map((s) => [s.leaderboardId, s]));
        return {
          ...wire,
          leaderboards: wire.leaderboards.map((b) => ({
            ...b,
            playerBestScore: byBoard.get(b.id)?.score ?? null,
            playerRank: byBoard.get(b.id)?.rank ?? null,
          })),
        };
      },
    );

    api.post(
      '/arcades/:arcadeId/games/:gameId/play',
      {
        config: perKey(limits.plays, 'this game client', (request) => {
          if (!request.writeToken) throw new TypeError('the play route is behind a write token');
          return request.writeToken.clientId;
        }),
        schema: {
          operationId: 'openPlay',
          tags: [ApiTags.gameServer],
          summary: 'Submit a play: lock the tier cost of the player (spec 4.4)',
          description:
            'Locks the cost of the tier from the player into escrow. 402 `insufficient_funds` ' +
            'when the player cannot spend it; nothing is recorded then.',
          security: Security.writeToken,
          params: ArcadeGameParams,
          headers: IdempotencyHeaders,
          body: PlayBody,
          response: { 200: Type.Ref(PlaySchema), 429: RateLimitedResponse },
        },
      },
      async (request) => {
        const play = await arcade.plays.open({
          gameId: request.params.gameId,
          playerId: request.body.playerId,
          leaderboardId: request.body.leaderboardId,
          idempotencyKey: request.headers['idempotency-key'] ?? null,
        });
        return playToWire(play);
      },
    );

    api.post(
      '/arcades/:arcadeId/games/:gameId/score',
      {
        schema: {
          operationId: 'submitScore',
          tags: [ApiTags.gameServer],
          summary: 'Submit the score of a play (spec 4.5)',
          description:
            'Scores a play once; settles its locked HST to the leaders, the developer and the ' +
            'arcade; returns the rank of the score and the current leaders.',
          security: Security.writeToken,
          params: ArcadeGameParams,
          headers: IdempotencyHeaders,
          body: ScoreBody,
          response: { 200: Type.Ref(ScoreResultSchema) },
        },
      },
      async (request) => {
        const { gameId } = request.params;
        const outcome = await arcade.plays.score({
          gameId,
          playId: request.body.playId,
          leaderboardId: request.body.leaderboardId,
          score: request.body.score,
          idempotencyKey: request.headers['idempotency-key'] ?? null,
        });
        arcade.reads.invalidate(gameId);
        return scoreToWire(outcome.score, await arcade.reads.leadersAfterScore(gameId, outcome));
      },
    );

    api.get(
      '/arcades/:arcadeId/games/:gameId/leaders/:leaderboardId',
      {
        schema: {
          operationId: 'getLeaders',
          tags: [ApiTags.gameServer],
          summary: 'The current leaders of a tier',
          security: Security.writeToken,
          params: Type.Object({
            arcadeId: Uuid('the arcade'),
            gameId: Uuid('the game'),
            leaderboardId: Uuid('the tier'),
          }),
          response: { 200: LeaderListSchema },
        },
      },
      async (request) => ({
        leaders: await arcade.reads.leaders(request.params.gameId, request.params.leaderboardId),
      }),
    );

    boardRoutes(api, {
      path: '/arcades/:arcadeId/games/:gameId/boards/:leaderboardId',
      params: Type.Object({
        arcadeId: Uuid('the arcade'),
        gameId: Uuid('the game'),
        leaderboardId: Uuid('the tier'),
      }),
      tags: [ApiTags.gameServer],
      security: Security.writeToken,
      operationIds: { page: 'getBoardPage', around: 'getBoardAround' },
      who: "The game's write token, published or not.",
      reads: arcade.reads,
      // The scope's hooks checked the token is this game's.
      allow: async () => {},
    });

    api.get(
      '/arcades/:arcadeId/games/:gameId/topscore/:leaderboardId/:playerId',
      {
        schema: {
          operationId: 'getTopScore',
          tags: [ApiTags.gameServer],
          summary: "A player's best score on a tier (null when they have none)",
          security: Security.writeToken,
          params: Type.Object({
            arcadeId: Uuid('the arcade'),
            gameId: Uuid('the game'),
            leaderboardId: Uuid('the tier'),
            playerId: Uuid('the player'),
          }),
          response: { 200: TopScoreSchema },
        },
      },
      async (request) => {
        const { gameId, leaderboardId, playerId } = request.params;
        const standings = await arcade.reads.standings(gameId, playerId);
        const standing = standings.find((s) => s.leaderboardId === leaderboardId);
        if (!standing) {
          throw new CoinopError(
            'leaderboard_not_in_game',
            `leaderboardId ${leaderboardId} is not a leaderboard of game ${gameId}`,
            { details: { field: 'leaderboardId' } },
          );
        }
        return { userId: playerId, leaderboardId, value: standing.score, rank: standing.rank };
      },
    );

    api.get(
      '/arcades/:arcadeId/games/:gameId/payouts/:playerId',
      {
        schema: {
          operationId: 'getPayouts',
          tags: [ApiTags.gameServer],
          summary: 'Leader payouts a player received from this game, newest first',
          security: Security.writeToken,
          params: Type.Object({
            arcadeId: Uuid('the arcade'),
            gameId: Uuid('the game'),
            playerId: Uuid('the player'),
          }),
          querystring: Type.Object({
            // Query values arrive as text, and the API never coerces types (a body's "12" is not 12).
            limit: Type.Optional(
              Type.String({
                pattern: '^(100|[1-9][0-9]?)$',
                description: `page size, 1 to ${PAYOUTS_PAGE_MAX} (default ${PAYOUTS_PAGE_MAX})`,
              }),
            ),
            starting_after: Type.Optional(Uuid('continue after this event id (older events)')),
            ending_before: Type.Optional(Uuid('the page before this event id (newer events)')),
            endingBefore: Type.Optional(Uuid('alias of ending_before')),
          }),
          response: { 200: PayoutsPageSchema },
        },
      },
      async (request) => {
        const { gameId, playerId } = request.params;
        const q = request.query;
        const rows = await arcade.reads.payouts(gameId, playerId, {
          limit: q.limit === undefined ? PAYOUTS_PAGE_MAX : Number(q.limit),
          startingAfter: q.starting_after ?? null,
          endingBefore: q.ending_before ?? q.endingBefore ?? null,
        });
        return {
          startingAfter: rows[0]?.transferId ?? null,
          endingBefore: rows.at(-1)?.transferId ?? null,
          events: rows.map((r) => ({
            eventId: r.transferId,
            details: {
              userId: playerId,
              createdAt: r.createdAt.toISOString(),
              payeeHandle: r.payeeName,
              payerHandle: r.payerName,
              paymentAmount: unitsToHstNumber(r.amount),
            },
          })),
        };
      },
    );

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

    api.get(
      '/players/:playerId/details',
      {
        schema: {
          operationId: 'getPlayerDetails',
          tags: [ApiTags.gameServer],
          summary: "A player's profile and HST balance",
          description:
            'Only for a player the game may charge: one whose allowance for it is above zero ' +
            '(their own or the operator default), or, before the game is published, its ' +
            "developer's wallet and the testers who accepted its invitation (an invitation alone " +
            'is not consent). Anyone else answers 404 player_not_found.',
          security: Security.writeToken,
          params: Type.Object({ playerId: Uuid('the player') }),
          response: { 200: PlayerDetailsSchema },
        },
      },
      async (request) => {
        const { playerId } = request.params;
        // Only a player the token's game may charge: one who allowed it, or an accepted tester
        // of an unpublished game. Anyone else reads as unknown.
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
  });
}

function missingField(field: string): CoinopError {
  return new CoinopError('validation_failed', `${field} is required`, { details: { field } });
}
